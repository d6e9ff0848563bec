import { CardElement, Elements, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe, StripeCardElementChangeEvent, StripeCardElementOptions, StripeElementsOptions } from "@stripe/stripe-js";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { showToast } from "~/components/ui/Toaster";
import { formatPrice } from "~/lib/money";
import { BILLING_COUNTRY, billingErrors, initialBilling, type BillingErrors, type BillingField } from "~/schemas/billing";
import {
  cardErrorNotice,
  confirmationErrorNotice,
  PAYMENT_MESSAGES,
  type PaymentNotice,
  type ProviderError,
} from "~/lib/payment-messages";
import {
  clearSubscriptionAttempt,
  markSubscriptionPending,
  readSubscriptionAttempt,
  saveSubscriptionAttempt,
} from "./payment-attempt";
import type { PaymentStepProps } from "./PaymentStep";

/**
 * The card payment form (loaded with Stripe.js on the payment step only).
 * The browser creates the payment method and confirms the card payment with the client
 * secret the server made for the order; the server then checks with Stripe and only then is
 * the order paid (onPaid).
 */

type Mode = "one_off" | "subscription";
type ApiResult = { ok: boolean; status: number; body: Record<string, unknown> };

async function postJson(url: string, body: unknown): Promise<ApiResult> {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  let data: Record<string, unknown> = {};
  try {
    data = (await response.json()) as Record<string, unknown>;
  } catch {
    // a non-JSON answer: keep the status only
  }
  return { ok: response.ok, status: response.status, body: data };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const CARD_OPTIONS: StripeCardElementOptions = {
  hidePostalCode: true,
  style: {
    base: { fontSize: "16px", color: "#2a1f2d", fontFamily: "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif", "::placeholder": { color: "#8a7d8c" } },
    invalid: { color: "#8a3146", iconColor: "#8a3146" },
  },
};

export function PaymentForm(props: PaymentStepProps & { stripe: Promise<Stripe | null>; demo: boolean }) {
  const options = useMemo<StripeElementsOptions>(() => ({ locale: "fr" }), []);
  return (
    <Elements stripe={props.stripe} options={options}>
      <PaymentFormInner {...props} />
    </Elements>
  );
}

function PaymentFormInner({ orderId, amountCents, customerEmail, customerName, billing: prefill, onPaid, onBack, demo }: PaymentStepProps & { demo: boolean }) {
  const stripe = useStripe();
  const elements = useElements();
  const id = useId();

  const [mode, setMode] = useState<Mode>("one_off");
  const [consent, setConsent] = useState(false);
  const [consentError, setConsentError] = useState<string | null>(null);
  const [billing, setBilling] = useState(() => initialBilling(prefill, customerName));
  const [errors, setErrors] = useState<BillingErrors>({});
  const [card, setCard] = useState<{ complete: boolean; error: string | null; ready: boolean }>({ complete: false, error: null, ready: false });
  const [processing, setProcessing] = useState(false);
  const [done, setDone] = useState(false);
  const [failure, setFailure] = useState<PaymentNotice | null>(null);
  const processingRef = useRef(false);
  const fieldRefs = useRef<Partial<Record<BillingField, HTMLInputElement | null>>>({});

  const price = formatPrice(amountCents);
  const cardReady = card.complete && !card.error;
  const payDisabled = !stripe || !elements || !cardReady || processing || done;

  useEffect(() => {
    if (mode === "one_off") setConsentError(null);
  }, [mode]);

  const paidNotified = useRef(false);
  function notifyPaid() {
    if (paidNotified.current) return;
    paidNotified.current = true;
    clearSubscriptionAttempt(orderId);
    setDone(true);
    setFailure(null);
    showToast({ message: PAYMENT_MESSAGES.paid.title, description: PAYMENT_MESSAGES.paid.description, type: "success" });
    onPaid(orderId);
  }

  // Back on this step after a reload: an order Stripe already has paid goes straight on.
  useEffect(() => {
    let active = true;
    postJson("/api/payments/confirm", { orderId })
      .then((result) => {
        if (active && result.ok && result.body.paid === true && !processingRef.current) notifyPaid();
      })
      .catch(() => undefined);
    return () => {
      active = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [orderId]);

  /** A failure: a toast and the same message inline under the pay button. */
  function fail(notice: PaymentNotice, inline: PaymentNotice = notice) {
    showToast({ message: notice.title, description: notice.description, type: "error" });
    setFailure(inline);
  }

  function setField(field: BillingField, value: string) {
    const next = field === "postalCode" ? value.replace(/\D/g, "").slice(0, 5) : value;
    setBilling((b) => ({ ...b, [field]: next }));
    if (errors[field]) {
      const again = billingErrors({ ...billing, [field]: next, country: BILLING_COUNTRY });
      setErrors((e) => ({ ...e, [field]: again?.[field] }));
    }
  }

  function validateField(field: BillingField) {
    const result = billingErrors({ ...billing, country: BILLING_COUNTRY });
    setErrors((e) => ({ ...e, [field]: result?.[field] }));
  }

  function onCardChange(event: StripeCardElementChangeEvent) {
    setCard((c) => ({ ...c, complete: event.complete, error: event.error?.message ?? null }));
  }

  /** The server's word on the order; retried briefly in case Stripe is slow to settle. */
  async function finishWhenServerConfirms(): Promise<boolean> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const result = await postJson("/api/payments/confirm", { orderId }).catch(() => null);
      if (result?.ok && result.body.paid === true) {
        notifyPaid();
        return true;
      }
      await sleep(600 * (attempt + 1));
    }
    fail(PAYMENT_MESSAGES.notConfirmed);
    return false;
  }

  type SecretResult =
    | { kind: "secret"; clientSecret: string; subscriptionId?: string }
    | { kind: "paid" }
    | { kind: "stop" };

  async function oneOffSecret(): Promise<SecretResult> {
    const result = await postJson("/api/payments/start", { orderId, mode: "one_off" });
    if (result.ok) {
      if (result.body.paid === true) return { kind: "paid" };
      const clientSecret = typeof result.body.clientSecret === "string" ? result.body.clientSecret : "";
      return { kind: "secret", clientSecret };
    }
    const code = result.body.code;
    const message = typeof result.body.error === "string" ? result.body.error : "";
    if (code === "order_already_paid") return { kind: "paid" };
    if (code === "resource_already_exists") fail(PAYMENT_MESSAGES.concurrentAttempt);
    else fail({ title: PAYMENT_MESSAGES.general.title, description: message || PAYMENT_MESSAGES.general.description });
    return { kind: "stop" };
  }

  async function subscriptionSecret(): Promise<SecretResult> {
    const stored = readSubscriptionAttempt(orderId);
    if (stored.kind === "pending") {
      showToast({ message: PAYMENT_MESSAGES.pendingAttempt.title, description: PAYMENT_MESSAGES.pendingAttempt.description, type: "warning" });
      return { kind: "stop" };
    }
    if (stored.kind === "reusable") {
      return { kind: "secret", clientSecret: stored.attempt.clientSecret, subscriptionId: stored.attempt.subscriptionId };
    }
    markSubscriptionPending(orderId);
    let result: ApiResult;
    try {
      result = await postJson("/api/create-subscription", { orderId, customerEmail, customerName });
    } catch (error) {
      clearSubscriptionAttempt(orderId);
      throw error;
    }
    const message = typeof result.body.message === "string" ? result.body.message : "";
    const errorMessage = typeof result.body.error === "string" ? result.body.error : "";
    if (!result.ok) {
      clearSubscriptionAttempt(orderId);
      switch (result.body.code) {
        case "subscription_exists":
          // Not destructive: the order may simply be paid already.
          showToast({
            message: PAYMENT_MESSAGES.subscriptionExists.title,
            description: errorMessage || PAYMENT_MESSAGES.subscriptionExists.description,
            type: "info",
          });
          return { kind: "paid" };
        case "order_already_paid":
          return { kind: "paid" };
        case "resource_already_exists":
          fail(PAYMENT_MESSAGES.concurrentAttempt);
          return { kind: "stop" };
        default:
          fail({ title: "Erreur", description: errorMessage || PAYMENT_MESSAGES.subscriptionFailed });
          return { kind: "stop" };
      }
    }
    const clientSecret = typeof result.body.clientSecret === "string" ? result.body.clientSecret : "";
    const subscriptionId = typeof result.body.subscriptionId === "string" ? result.body.subscriptionId : "";
    if (!clientSecret) {
      clearSubscriptionAttempt(orderId);
      fail(PAYMENT_MESSAGES.missingClientSecret, { title: PAYMENT_MESSAGES.clientSecretNotReceived, description: PAYMENT_MESSAGES.missingClientSecret.description });
      return { kind: "stop" };
    }
    saveSubscriptionAttempt(orderId, {
      clientSecret,
      subscriptionId,
      setupFee: String(result.body.setupFee ?? ""),
      timestamp: Date.now(),
      status: String(result.body.status ?? ""),
      paymentIntentStatus: typeof result.body.paymentIntentStatus === "string" ? result.body.paymentIntentStatus : null,
    });
    if (message) showToast({ message, type: "info" });
    return { kind: "secret", clientSecret, subscriptionId };
  }

  async function pay() {
    if (processingRef.current || done) return;
    setFailure(null);

    const invalid = billingErrors({ ...billing, country: BILLING_COUNTRY });
    if (invalid) {
      setErrors(invalid);
      fail(PAYMENT_MESSAGES.missingFields);
      const first = (["firstName", "lastName", "address", "postalCode", "city"] as const).find((f) => invalid[f]);
      if (first) fieldRefs.current[first]?.focus();
      return;
    }
    if (mode === "subscription" && !consent) {
      setConsentError(PAYMENT_MESSAGES.consentRequired);
      fail({ title: PAYMENT_MESSAGES.missingFields.title, description: PAYMENT_MESSAGES.consentRequired });
      return;
    }
    if (!cardReady) {
      fail(PAYMENT_MESSAGES.incompleteCard);
      return;
    }
    if (!stripe || !elements) {
      fail(PAYMENT_MESSAGES.general);
      return;
    }
    const cardElement = elements.getElement(CardElement);
    if (!cardElement) {
      fail(PAYMENT_MESSAGES.cardElementMissing);
      return;
    }

    processingRef.current = true;
    setProcessing(true);
    const subscription = mode === "subscription";
    try {
      const secret = subscription ? await subscriptionSecret() : await oneOffSecret();
      if (secret.kind === "stop") return;
      if (secret.kind === "paid") {
        await finishWhenServerConfirms();
        return;
      }
      if (!secret.clientSecret) {
        if (subscription) clearSubscriptionAttempt(orderId);
        fail(PAYMENT_MESSAGES.missingClientSecret);
        return;
      }

      const { paymentMethod, error: methodError } = await stripe.createPaymentMethod({
        type: "card",
        card: cardElement,
        billing_details: {
          name: `${billing.firstName.trim()} ${billing.lastName.trim()}`,
          email: customerEmail || undefined,
          address: { line1: billing.address.trim(), postal_code: billing.postalCode, city: billing.city.trim(), country: BILLING_COUNTRY },
        },
      });
      if (methodError || !paymentMethod) {
        if (subscription) clearSubscriptionAttempt(orderId);
        fail(cardErrorNotice(methodError as ProviderError | undefined));
        return;
      }

      const { paymentIntent, error } = await stripe.confirmCardPayment(secret.clientSecret, { payment_method: paymentMethod.id });
      const alreadySucceeded = error?.code === "payment_intent_unexpected_state" && error.payment_intent?.status === "succeeded";
      if (error && !alreadySucceeded) {
        if (subscription) clearSubscriptionAttempt(orderId);
        fail(confirmationErrorNotice(error as ProviderError));
        return;
      }
      if (paymentIntent && paymentIntent.status !== "succeeded" && paymentIntent.status !== "processing") {
        if (subscription) clearSubscriptionAttempt(orderId);
        fail(PAYMENT_MESSAGES.general);
        return;
      }

      if (subscription && secret.subscriptionId) {
        // The card pays the next invoices too. A failure here does not stop the order.
        const attached = await postJson("/api/attach-payment-method", {
          orderId,
          subscriptionId: secret.subscriptionId,
          paymentMethodId: paymentMethod.id,
          customerEmail,
        }).catch(() => null);
        if (!attached?.ok) console.warn("attach-payment-method a échoué", attached?.status);
      }
      clearSubscriptionAttempt(orderId);
      await finishWhenServerConfirms();
    } catch {
      if (subscription) clearSubscriptionAttempt(orderId);
      fail(PAYMENT_MESSAGES.general);
    } finally {
      processingRef.current = false;
      setProcessing(false);
    }
  }

  function blockEnter(event: React.KeyboardEvent<HTMLFormElement>) {
    const target = event.target as HTMLElement;
    if (event.key === "Enter" && target.tagName !== "BUTTON" && target.tagName !== "TEXTAREA") {
      event.preventDefault();
    }
  }

  const fields: Array<{ name: BillingField; label: string; autoComplete: string; className?: string; inputMode?: "numeric"; maxLength?: number }> = [
    { name: "firstName", label: "Prénom", autoComplete: "given-name" },
    { name: "lastName", label: "Nom", autoComplete: "family-name" },
    { name: "address", label: "Adresse", autoComplete: "address-line1", className: "sm:col-span-2" },
    { name: "postalCode", label: "Code postal", autoComplete: "postal-code", inputMode: "numeric", maxLength: 5 },
    { name: "city", label: "Ville", autoComplete: "address-level2" },
  ];

  return (
    <form
      noValidate
      aria-label="Paiement par carte"
      data-testid="payment-form"
      onSubmit={(event) => event.preventDefault()}
      onKeyDown={blockEnter}
      className="space-y-6"
    >
      <fieldset disabled={processing || done}>
        <legend className="text-base font-semibold text-ink">Votre formule</legend>
        <div className="mt-3 grid gap-3">
          <label className={`flex cursor-pointer gap-3 rounded-xl border p-4 ${mode === "one_off" ? "border-rose-600 bg-rose-50" : "border-ink/15 bg-white"}`}>
            <input type="radio" name={`${id}-mode`} value="one_off" checked={mode === "one_off"} onChange={() => setMode("one_off")} className="mt-1 accent-rose-600" />
            <span>
              <span className="block font-semibold">Achat unique</span>
              <span className="block text-sm text-ink-soft">Un seul paiement de {price}.</span>
            </span>
          </label>
          <label className={`flex cursor-pointer gap-3 rounded-xl border p-4 ${mode === "subscription" ? "border-rose-600 bg-rose-50" : "border-ink/15 bg-white"}`}>
            <input
              type="radio"
              name={`${id}-mode`}
              value="subscription"
              checked={mode === "subscription"}
              onChange={() => setMode("subscription")}
              className="mt-1 accent-rose-600"
            />
            <span>
              <span className="block font-semibold">Abonnement</span>
              <span className="block text-sm text-ink-soft" id={`${id}-terms`}>
                {price} débités aujourd'hui, puis {price} toutes les 4 semaines à partir du 30e jour. Sans engagement : résiliable à tout moment.
              </span>
            </span>
          </label>
        </div>
        {mode === "subscription" ? (
          <div className="mt-3">
            <label className="flex gap-3 text-sm">
              <input
                type="checkbox"
                checked={consent}
                onChange={(event) => {
                  setConsent(event.target.checked);
                  if (event.target.checked) setConsentError(null);
                }}
                aria-invalid={consentError ? true : undefined}
                aria-describedby={consentError ? `${id}-consent-error` : `${id}-terms`}
                className="mt-0.5 h-4 w-4 accent-rose-600"
              />
              <span>
                J'accepte l'abonnement : {price} débités aujourd'hui, puis {price} toutes les 4 semaines à partir du 30e jour, jusqu'à ce que je le
                résilie (possible à tout moment).
              </span>
            </label>
            <p id={`${id}-consent-error`} className="min-h-5 pt-1 text-sm text-rose-700" aria-live="polite">
              {consentError}
            </p>
          </div>
        ) : null}
      </fieldset>

      <fieldset disabled={processing || done}>
        <legend className="text-base font-semibold text-ink">Adresse de facturation</legend>
        <div className="mt-3 grid gap-x-4 sm:grid-cols-2">
          {fields.map((f) => {
            const inputId = `${id}-${f.name}`;
            const error = errors[f.name];
            return (
              <div key={f.name} className={f.className}>
                <label htmlFor={inputId} className="block text-sm font-medium text-ink">
                  {f.label}
                </label>
                <input
                  ref={(node) => {
                    fieldRefs.current[f.name] = node;
                  }}
                  id={inputId}
                  name={f.name}
                  type="text"
                  required
                  value={billing[f.name]}
                  onChange={(event) => setField(f.name, event.target.value)}
                  onBlur={() => validateField(f.name)}
                  autoComplete={`billing ${f.autoComplete}`}
                  inputMode={f.inputMode}
                  maxLength={f.maxLength}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${inputId}-error` : undefined}
                  className="field-input mt-1"
                />
                <p id={`${inputId}-error`} className="min-h-5 pt-1 text-sm text-rose-700" aria-live="polite">
                  {error}
                </p>
              </div>
            );
          })}
          <div>
            <label htmlFor={`${id}-country`} className="block text-sm font-medium text-ink">
              Pays
            </label>
            <input id={`${id}-country`} type="text" value="France" readOnly aria-readonly="true" className="field-input mt-1 bg-sand/40" />
          </div>
        </div>
      </fieldset>

      <div role="group" aria-labelledby={`${id}-card-label`}>
        <p id={`${id}-card-label`} className="text-base font-semibold text-ink">
          Carte bancaire
        </p>
        <p className="mt-1 text-sm text-ink-soft">Visa, Mastercard et American Express acceptées. Paiement sécurisé par Stripe.</p>
        <div className="mt-3 rounded-lg border border-ink/15 bg-white p-3" data-testid="card-field" aria-busy={!card.ready}>
          {card.ready ? null : <p className="text-sm text-ink-soft">Chargement du champ de carte...</p>}
          <CardElement
            options={CARD_OPTIONS}
            onChange={onCardChange}
            onReady={() => setCard((c) => ({ ...c, ready: true }))}
          />
        </div>
        <p className="min-h-5 pt-1 text-sm text-rose-700" aria-live="polite" data-testid="card-error">
          {card.error}
        </p>
        {demo ? (
          <p className="text-xs text-ink-soft">
            Mode démo, aucun débit réel : carte 4242 4242 4242 4242, une date future et un CVC quelconque.
          </p>
        ) : null}
      </div>

      <div className="space-y-3">
        <button type="button" className="btn-primary w-full" disabled={payDisabled} aria-disabled={payDisabled} onClick={pay} data-testid="pay-button">
          {processing ? "Paiement en cours..." : `Payer ${price}`}
        </button>
        {failure ? (
          <div role="alert" data-testid="payment-error" className="rounded-xl border border-rose-200 bg-rose-50 p-3 text-sm text-rose-700">
            <p className="font-semibold">{failure.title}</p>
            <p>{failure.description}</p>
          </div>
        ) : null}
        {onBack ? (
          <button type="button" className="btn-secondary w-full" onClick={onBack} disabled={processing || done}>
            Retour
          </button>
        ) : null}
      </div>
    </form>
  );
}
