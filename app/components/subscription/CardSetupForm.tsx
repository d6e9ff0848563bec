import { useLocation, useSubmit } from "@remix-run/react";
import { Elements, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe, StripeElementsOptions } from "@stripe/stripe-js";
import { useMemo, useRef, useState } from "react";
import { CardField, cardElementOf, useCardState } from "~/components/checkout/CardField";
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
  const [card, setCard] = useCardState();
  const [processing, setProcessing] = useState(false);
  const [failure, setFailure] = useState<PaymentNotice | null>(null);
  const busy = useRef(false);
  const disabled = !stripe || !elements || !card.complete || Boolean(card.error) || processing;

  async function save() {
    if (busy.current) return;
    setFailure(null);
    const cardElement = cardElementOf(elements);
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
      <CardField purpose="setup" demo={demo} card={card} setCard={setCard} onEdit={() => setFailure(null)} />
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
