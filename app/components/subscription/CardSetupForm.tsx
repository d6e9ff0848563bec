import { useLocation, useSubmit } from "@remix-run/react";
import { CardElement, Elements, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe, StripeCardElementChangeEvent, StripeElementsOptions } from "@stripe/stripe-js";
import { useMemo, useRef, useState } from "react";
import { CARD_OPTIONS } from "~/components/checkout/card-options";
import {
  cardErrorNotice,
  confirmationErrorNotice,
  PAYMENT_MESSAGES,
  type PaymentNotice,
  type ProviderError,
} from "~/lib/payment-messages";
import { BILLING_COUNTRY } from "~/schemas/billing";
import type { CardSectionProps } from "./CardSection";

/**
 * The new card's field and « Enregistrer cette carte »: Stripe.js confirms the SetupIntent
 * (`confirmCardSetup`), showing the bank's 3-D Secure challenge when it asks; once set up, the
 * SetupIntent's id is posted to the page (`card-done`), which reads it back from Stripe.
 */
export function CardSetupForm(props: {
  clientSecret: string;
  billing: CardSectionProps["billing"];
  stripe: Promise<Stripe | null>;
  demo: boolean;
}) {
  const options = useMemo<StripeElementsOptions>(() => ({ locale: "fr" }), []);
  return (
    <Elements stripe={props.stripe} options={options}>
      <CardSetupInner {...props} />
    </Elements>
  );
}

function CardSetupInner({
  clientSecret,
  billing,
  demo,
}: {
  clientSecret: string;
  billing: CardSectionProps["billing"];
  demo: boolean;
}) {
  const stripe = useStripe();
  const elements = useElements();
  const submit = useSubmit();
  const location = useLocation();
  const [card, setCard] = useState({ complete: false, error: null as string | null, ready: false });
  const [processing, setProcessing] = useState(false);
  const [failure, setFailure] = useState<PaymentNotice | null>(null);
  const busy = useRef(false);
  const disabled = !stripe || !elements || !card.complete || Boolean(card.error) || processing;

  function onCardChange(event: StripeCardElementChangeEvent) {
    setCard((c) => ({ ...c, complete: event.complete, error: event.error?.message ?? null }));
    if (failure) setFailure(null);
  }

  async function save() {
    if (busy.current) return;
    setFailure(null);
    const cardElement = elements?.getElement(CardElement);
    if (!stripe || !cardElement) return setFailure(PAYMENT_MESSAGES.general);
    if (!card.complete || card.error) return setFailure(PAYMENT_MESSAGES.incompleteCard);
    busy.current = true;
    setProcessing(true);
    try {
      const { setupIntent, error } = await stripe.confirmCardSetup(clientSecret, {
        payment_method: {
          card: cardElement,
          billing_details: {
            name: billing.name || undefined,
            email: billing.email || undefined,
            address: { line1: billing.address, postal_code: billing.postalCode, city: billing.city, country: BILLING_COUNTRY },
          },
        },
      });
      if (error || !setupIntent) {
        setFailure(
          error?.type === "validation_error"
            ? cardErrorNotice(error as ProviderError)
            : confirmationErrorNotice(error as ProviderError),
        );
        return;
      }
      if (setupIntent.status !== "succeeded") return setFailure(PAYMENT_MESSAGES.general);
      // The page reads the SetupIntent back from Stripe and answers with the card and the renewal retried on it.
      submit(
        { intent: "card-done", setupIntent: setupIntent.id },
        { method: "post", action: `${location.pathname}${location.search}` },
      );
    } catch {
      setFailure(PAYMENT_MESSAGES.general);
    } finally {
      busy.current = false;
      setProcessing(false);
    }
  }

  return (
    <form
      aria-label="Nouvelle carte"
      data-testid="card-setup-form"
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <div role="group" aria-labelledby="new-card-label">
        <p id="new-card-label" className="text-base font-semibold text-ink">
          Nouvelle carte bancaire
        </p>
        <p className="mt-1 text-sm text-ink-soft">
          Visa, Mastercard et American Express acceptées. Enregistrement sécurisé par Stripe.
        </p>
        <div className="mt-3 rounded-lg border border-ink/15 bg-white p-3" data-testid="card-field" aria-busy={!card.ready}>
          {card.ready ? null : <p className="text-sm text-ink-soft">Chargement du champ de carte...</p>}
          <CardElement options={CARD_OPTIONS} onChange={onCardChange} onReady={() => setCard((c) => ({ ...c, ready: true }))} />
        </div>
        <p className="min-h-5 pt-1 text-sm text-rose-700" aria-live="polite" data-testid="card-error">
          {card.error}
        </p>
        {demo ? (
          <p className="text-xs text-ink-soft">
            Mode démo : carte 4242 4242 4242 4242, ou 4000 0025 0000 3155 pour une authentification 3-D Secure.
          </p>
        ) : null}
      </div>
      <button type="submit" className="btn-primary w-full sm:w-auto" disabled={disabled} aria-disabled={disabled}>
        {processing ? "Enregistrement en cours..." : "Enregistrer cette carte"}
      </button>
      {failure ? (
        <div
          role="alert"
          data-testid="card-setup-error"
          className="rounded-xl border border-rose-200 bg-rose-50 p-3 text-sm text-rose-700"
        >
          <p className="font-semibold">{failure.title}</p>
          <p>{failure.description}</p>
        </div>
      ) : null}
    </form>
  );
}
