import { getFormProps } from "@conform-to/react";
import { Elements } from "@stripe/react-stripe-js";
import type { Stripe, StripeElementsOptions } from "@stripe/stripe-js";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import { DELIVERY } from "~/content/brand";
import { formatPrice } from "~/lib/money";
import { PAYMENT_MESSAGES } from "~/lib/payment-messages";
import { BillingFields, useBillingForm } from "./BillingFields";
import { CardField, useCardState } from "./CardField";
import type { PaymentStepProps } from "./PaymentStep";
import { usePaymentFlow, type PaymentMode } from "./usePaymentFlow";

/**
 * The card payment form (loaded with Stripe.js on the payment step only): the formula, the
 * billing address and the card. The browser creates the payment method and confirms the card
 * payment with the client secret the server made for the order; the server then checks with
 * Stripe and only then is the order paid (onPaid). The flow is usePaymentFlow's.
 */

export function PaymentForm(props: PaymentStepProps & { stripe: Promise<Stripe | null>; demo: boolean }) {
  const options = useMemo<StripeElementsOptions>(() => ({ locale: "fr" }), []);
  return (
    <Elements stripe={props.stripe} options={options}>
      <PaymentFormInner {...props} />
    </Elements>
  );
}

/** Enter in a field (billing or card) never pays. */
function blockEnter(event: React.KeyboardEvent<HTMLFormElement>) {
  const target = event.target as HTMLElement;
  if (event.key === "Enter" && target.tagName !== "BUTTON" && target.tagName !== "TEXTAREA") {
    event.preventDefault();
  }
}

function PaymentFormInner({
  orderId,
  amountCents,
  customerEmail,
  customerName,
  billing: prefill,
  onPaid,
  onBack,
  demo,
  subscriptionRefusal = null,
}: PaymentStepProps & { demo: boolean }) {
  const id = useId();
  const flow = usePaymentFlow({ orderId, customerEmail, customerName, onPaid });
  const billing = useBillingForm({ id, prefill, customerName });

  const [mode, setMode] = useState<PaymentMode>("one_off");
  const [consent, setConsent] = useState(false);
  const [consentError, setConsentError] = useState<string | null>(null);
  const [card, setCard] = useCardState();

  const price = formatPrice(amountCents);
  const consentRef = useRef<HTMLInputElement>(null);
  const failureRef = useRef<HTMLDivElement>(null);
  const cardReady = card.complete && !card.error;
  const locked = flow.processing || flow.done;
  const payDisabled = !flow.ready || !cardReady || locked;

  useEffect(() => {
    if (mode === "one_off") {
      setConsentError(null);
      flow.resolve("consent");
    }
    // Only a change of formula: flow.resolve is a new function at each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [mode]);

  // A card or payment failure (a declined card...): its message (under the pay button) is brought
  // to the middle of the screen, with the button just above it, and takes the focus, so that a
  // keyboard or screen reader user lands on the result.
  const failureCause = flow.failure?.cause;
  useEffect(() => {
    if (failureCause !== "card" && failureCause !== "payment") return;
    failureRef.current?.scrollIntoView({ block: "center" });
    failureRef.current?.focus({ preventScroll: true });
  }, [failureCause, flow.failure]);

  /** The pay button: billing address, consent (subscription) and card first, then the flow. */
  function pay() {
    if (flow.isBusy()) return;
    flow.clearFailure();
    const address = billing.validate();
    if (!address) {
      flow.fail(PAYMENT_MESSAGES.missingFields, undefined, "billing");
      return;
    }
    if (mode === "subscription" && !consent) {
      setConsentError(PAYMENT_MESSAGES.consentRequired);
      const notice = { title: PAYMENT_MESSAGES.missingFields.title, description: PAYMENT_MESSAGES.consentRequired };
      flow.fail(notice, notice, "consent");
      consentRef.current?.focus({ preventScroll: true });
      consentRef.current?.scrollIntoView({ block: "center" });
      return;
    }
    if (!cardReady) {
      flow.fail(PAYMENT_MESSAGES.incompleteCard, undefined, "card");
      return;
    }
    void flow.pay(mode, address);
  }

  return (
    <form
      {...getFormProps(billing.form)}
      // Nothing is posted: Conform only checks the billing fields here.
      onSubmit={(event) => {
        billing.form.onSubmit(event);
        event.preventDefault();
      }}
      aria-label="Paiement par carte"
      data-testid="payment-form"
      onKeyDown={blockEnter}
      className="space-y-6"
    >
      <fieldset disabled={locked}>
        <legend className="text-base font-semibold text-ink">Votre formule</legend>
        <div className="mt-3 grid gap-3">
          <label
            className={`flex cursor-pointer gap-3 rounded-xl border p-4 ${mode === "one_off" ? "border-rose-600 bg-rose-50" : "border-ink/15 bg-white"}`}
          >
            <input
              type="radio"
              name={`${id}-mode`}
              value="one_off"
              checked={mode === "one_off"}
              onChange={() => setMode("one_off")}
              className="mt-1 accent-rose-600"
            />
            <span>
              <span className="block font-semibold">Achat unique</span>
              <span className="block text-sm text-ink-soft">Un seul paiement de {price}.</span>
            </span>
          </label>
          <label
            className={`flex gap-3 rounded-xl border p-4 ${subscriptionRefusal ? "cursor-not-allowed border-ink/10 bg-ink/5" : "cursor-pointer"} ${
              mode === "subscription" ? "border-rose-600 bg-rose-50" : subscriptionRefusal ? "" : "border-ink/15 bg-white"
            }`}
          >
            <input
              type="radio"
              name={`${id}-mode`}
              value="subscription"
              checked={mode === "subscription"}
              onChange={() => setMode("subscription")}
              disabled={Boolean(subscriptionRefusal)}
              aria-describedby={subscriptionRefusal ? `${id}-no-subscription` : undefined}
              className="mt-1 accent-rose-600"
            />
            <span>
              <span className="block font-semibold">Abonnement</span>
              {subscriptionRefusal ? (
                <span className="block text-sm text-ink-soft" id={`${id}-no-subscription`} data-testid="subscription-refusal">
                  {subscriptionRefusal}
                </span>
              ) : (
                <span className="block text-sm text-ink-soft" id={`${id}-terms`}>
                  {price} débités aujourd'hui, puis {price} toutes les 4 semaines à partir du 30e jour. Sans engagement :
                  résiliable à tout moment.
                </span>
              )}
            </span>
          </label>
        </div>
        {mode === "subscription" ? (
          <div className="mt-3">
            <label className="flex gap-3 text-sm">
              <input
                ref={consentRef}
                type="checkbox"
                checked={consent}
                onChange={(event) => {
                  setConsent(event.target.checked);
                  if (event.target.checked) {
                    setConsentError(null);
                    flow.resolve("consent");
                  }
                }}
                aria-invalid={consentError ? true : undefined}
                aria-describedby={consentError ? `${id}-consent-error` : `${id}-terms`}
                className="mt-0.5 h-4 w-4 accent-rose-600"
              />
              <span>
                J'accepte l'abonnement : {price} débités aujourd'hui, puis {price} toutes les 4 semaines à partir du 30e jour,
                jusqu'à ce que je le résilie (possible à tout moment, en ligne), selon les{" "}
                <TermsLink href="/cgv#abonnement">conditions générales de vente</TermsLink>.
              </span>
            </label>
            <p id={`${id}-consent-error`} className="min-h-5 pt-1 text-sm text-rose-700" aria-live="polite">
              {consentError}
            </p>
          </div>
        ) : null}
      </fieldset>

      <BillingFields
        id={id}
        fields={billing.fields}
        disabled={locked}
        onInput={(event) => {
          billing.onInput(event);
          if (billing.isValid()) flow.resolve("billing");
        }}
      />

      {/* Another card, or the card being corrected: the last card failure no longer applies. */}
      <CardField purpose="payment" demo={demo} card={card} setCard={setCard} onEdit={() => flow.resolve("card")} />

      <div className="space-y-3">
        <button
          type="button"
          className="btn-primary w-full"
          disabled={payDisabled}
          aria-disabled={payDisabled}
          onClick={pay}
          data-testid="pay-button"
        >
          {flow.processing
            ? "Paiement en cours..."
            : mode === "subscription"
              ? `Payer ${price} puis toutes les 4 semaines`
              : `Payer ${price}`}
        </button>
        <p className="text-center text-xs text-ink-soft" data-testid="pay-terms">
          En payant, vous acceptez nos <TermsLink href="/cgv">conditions générales de vente</TermsLink>. Vous disposez d'un{" "}
          <TermsLink href="/cgv#retractation">droit de rétractation de {DELIVERY.withdrawalDays} jours</TermsLink>
          {mode === "subscription" ? " ; l'abonnement se résilie en ligne, à tout moment." : "."}
        </p>
        {flow.failure ? (
          <div
            ref={failureRef}
            role="alert"
            tabIndex={-1}
            data-testid="payment-error"
            className="rounded-xl border border-rose-200 bg-rose-50 p-3 text-sm text-rose-700"
          >
            <p className="font-semibold">{flow.failure.title}</p>
            <p>{flow.failure.description}</p>
          </div>
        ) : null}
        {onBack ? (
          <button type="button" className="btn-secondary w-full" onClick={onBack} disabled={locked}>
            Retour
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** A link to the terms, opened in a new tab so that the payment step (and the card typed) stays. */
function TermsLink({ href, children }: { href: string; children: React.ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noreferrer" className="underline underline-offset-2 hover:text-ink">
      {children}
      <span className="sr-only"> (nouvel onglet)</span>
    </a>
  );
}
