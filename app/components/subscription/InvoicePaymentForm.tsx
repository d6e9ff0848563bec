import { Elements, useElements, useStripe } from "@stripe/react-stripe-js";
import type { Stripe, StripeElementsOptions } from "@stripe/stripe-js";
import { useMemo, useRef, useState } from "react";
import { CardField, cardElementOf, useCardState } from "~/components/checkout/CardField";
import { dismissToast, showToast } from "~/components/ui/Toaster";
import { formatPrice } from "~/lib/money";
import {
  cardErrorNotice,
  confirmationErrorNotice,
  PAYMENT_MESSAGES,
  type PaymentNotice,
  type ProviderError,
} from "~/lib/payment-messages";
import { BILLING_COUNTRY } from "~/schemas/billing";
import type { InvoicePaymentProps } from "./InvoicePaymentStep";

/**
 * The card field and the pay button of an unpaid renewal. Stripe.js creates the payment
 * method and confirms the invoice's PaymentIntent; the messages of a refused card are the
 * checkout's (payment-messages.ts).
 */
export function InvoicePaymentForm(props: InvoicePaymentProps & { stripe: Promise<Stripe | null>; demo: boolean }) {
  const options = useMemo<StripeElementsOptions>(() => ({ locale: "fr" }), []);
  return (
    <Elements stripe={props.stripe} options={options}>
      <InvoicePaymentInner {...props} />
    </Elements>
  );
}

function InvoicePaymentInner({
  amountCents,
  clientSecret,
  customerEmail,
  billing,
  onPaid,
  demo,
}: InvoicePaymentProps & { demo: boolean }) {
  const stripe = useStripe();
  const elements = useElements();
  const [card, setCard] = useCardState();
  const [processing, setProcessing] = useState(false);
  const [failure, setFailure] = useState<PaymentNotice | null>(null);
  const busy = useRef(false);
  const price = formatPrice(amountCents);
  const payDisabled = !stripe || !elements || !card.complete || Boolean(card.error) || processing;

  function fail(notice: PaymentNotice) {
    showToast({ message: notice.title, description: notice.description, type: "error", key: "invoice-payment" });
    setFailure(notice);
  }

  function onCardEdit() {
    // The card is being changed: the last failure was about the previous one.
    if (failure) {
      setFailure(null);
      dismissToast("invoice-payment");
    }
  }

  async function pay() {
    if (busy.current) return;
    setFailure(null);
    if (!stripe || !elements) return fail(PAYMENT_MESSAGES.general);
    const cardElement = cardElementOf(elements);
    if (!cardElement) return fail(PAYMENT_MESSAGES.cardElementMissing);
    if (!card.complete || card.error) return fail(PAYMENT_MESSAGES.incompleteCard);
    busy.current = true;
    setProcessing(true);
    try {
      const { paymentMethod, error: methodError } = await stripe.createPaymentMethod({
        type: "card",
        card: cardElement,
        billing_details: {
          name: `${billing.firstName} ${billing.lastName}`.trim() || undefined,
          email: customerEmail || undefined,
          address: { line1: billing.address, postal_code: billing.postalCode, city: billing.city, country: BILLING_COUNTRY },
        },
      });
      if (methodError || !paymentMethod) return fail(cardErrorNotice(methodError as ProviderError | undefined));
      const { paymentIntent, error } = await stripe.confirmCardPayment(clientSecret, { payment_method: paymentMethod.id });
      const alreadySucceeded = error?.code === "payment_intent_unexpected_state" && error.payment_intent?.status === "succeeded";
      if (error && !alreadySucceeded) return fail(confirmationErrorNotice(error as ProviderError));
      if (paymentIntent && paymentIntent.status !== "succeeded" && paymentIntent.status !== "processing")
        return fail(PAYMENT_MESSAGES.general);
      showToast({
        message: "Paiement reçu",
        description: "Votre commande de renouvellement est en préparation.",
        type: "success",
      });
      onPaid();
    } catch {
      fail(PAYMENT_MESSAGES.general);
    } finally {
      busy.current = false;
      setProcessing(false);
    }
  }

  return (
    <form
      aria-label="Paiement par carte"
      data-testid="invoice-payment-form"
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        void pay();
      }}
    >
      <CardField purpose="payment" demo={demo} card={card} setCard={setCard} onEdit={onCardEdit} />
      <button
        type="submit"
        className="btn-primary w-full"
        disabled={payDisabled}
        aria-disabled={payDisabled}
        data-testid="pay-button"
      >
        {processing ? "Paiement en cours..." : `Payer ${price}`}
      </button>
      {failure ? (
        <div
          role="alert"
          data-testid="payment-error"
          className="rounded-xl border border-rose-200 bg-rose-50 p-3 text-sm text-rose-700"
        >
          <p className="font-semibold">{failure.title}</p>
          <p>{failure.description}</p>
        </div>
      ) : null}
    </form>
  );
}
