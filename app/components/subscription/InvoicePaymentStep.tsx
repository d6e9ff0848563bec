import { lazy, Suspense } from "react";
import { useShopStripe } from "~/components/checkout/useShopStripe";

export type InvoicePaymentProps = {
  amountCents: number;
  /** The invoice's PaymentIntent client secret (Stripe's confirmation_secret). */
  clientSecret: string;
  customerEmail: string;
  billing: { firstName: string; lastName: string; address: string; postalCode: string; city: string };
  /** Stripe said the payment succeeded (the order is then made by the webhook, not here). */
  onPaid: () => void;
};

const InvoicePaymentForm = lazy(() => import("./InvoicePaymentForm").then((m) => ({ default: m.InvoicePaymentForm })));

/** The card payment of an unpaid renewal: Stripe.js (or the demo emulator's stand-in) is loaded here only, as on the checkout's payment step. */
export function InvoicePaymentStep(props: InvoicePaymentProps) {
  const { stripe, loadFailed, demo } = useShopStripe();

  if (loadFailed) {
    return (
      <div role="alert" className="rounded-xl border border-rose-200 bg-rose-50 p-4 text-sm text-rose-700">
        Le paiement sécurisé n'a pas pu se charger. Veuillez rafraîchir la page.
      </div>
    );
  }
  const loading = (
    <p role="status" className="py-8 text-center text-sm text-ink-soft">
      Chargement du paiement sécurisé...
    </p>
  );
  if (!stripe) {
    return (
      <>
        <noscript>
          <p
            className="rounded-xl border border-rose-200 bg-rose-50 p-4 text-sm text-rose-700"
            data-testid="invoice-pay-needs-js"
          >
            Le paiement par carte nécessite JavaScript : activez-le dans votre navigateur puis rechargez cette page. Vous pouvez
            aussi nous contacter pour régler cette échéance autrement.
          </p>
        </noscript>
        {loading}
      </>
    );
  }
  return (
    <Suspense fallback={loading}>
      <InvoicePaymentForm {...props} stripe={stripe} demo={demo} />
    </Suspense>
  );
}
