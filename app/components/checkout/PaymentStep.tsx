import { lazy, Suspense } from "react";
import { useShopStripe } from "./useShopStripe";

export type PaymentStepProps = {
  orderId: number;
  /** The order total, computed by the server. */
  amountCents: number;
  customerEmail: string;
  /** "Prénom Nom" */
  customerName: string;
  /** Prefill from the delivery form. */
  billing: { firstName: string; lastName: string; address: string; postalCode: string; city: string };
  /** Called once the SERVER confirmed the order paid. */
  onPaid: (orderId: number) => void;
  /** The 'Retour' button. */
  onBack?: () => void;
  /** Why the subscription is not offered for this order (the trial pack), or null. */
  subscriptionRefusal?: string | null;
};

// The form and @stripe/react-stripe-js are only downloaded when the payment step shows.
const PaymentForm = lazy(() => import("./PaymentForm").then((m) => ({ default: m.PaymentForm })));

/**
 * Step 3 'Finaliser la commande': one-off purchase or subscription, billing address and card.
 * Stripe.js (or, in demo mode, the local emulator's stand-in) is loaded here and nowhere else.
 */
export function PaymentStep(props: PaymentStepProps) {
  const { stripe, loadFailed, demo } = useShopStripe();

  if (loadFailed) {
    return (
      <div className="space-y-4">
        <div role="alert" className="rounded-xl border border-rose-200 bg-rose-50 p-4 text-sm text-rose-700">
          <p>Impossible de traiter la commande. Veuillez réessayer.</p>
        </div>
        {props.onBack ? (
          <button type="button" className="btn-secondary w-full" onClick={props.onBack}>
            Retour
          </button>
        ) : null}
      </div>
    );
  }

  const loading = (
    <p role="status" className="py-8 text-center text-sm text-ink-soft">
      Chargement du paiement sécurisé...
    </p>
  );
  if (!stripe) return loading;
  return (
    <Suspense fallback={loading}>
      <PaymentForm {...props} stripe={stripe} demo={demo} />
    </Suspense>
  );
}
