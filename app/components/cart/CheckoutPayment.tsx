import { Form, useNavigate, useSubmit } from "@remix-run/react";
import { useCallback } from "react";
import { formatPrice } from "~/lib/money";
import type { CheckoutView } from "~/services/cart.server";
import { PaymentStep } from "~/components/checkout/PaymentStep";
import { HostedCheckoutForm } from "./HostedCheckoutForm";
import { useHydrated } from "~/components/ui/useHydrated";

/**
 * Step 3: the order made by the delivery form, then the card payment (built by the payment
 * side). Without JavaScript, the card is typed on the hosted payment page (HostedCheckoutForm).
 */
export function CheckoutPayment({
  checkout,
  onBack,
  onDone,
}: {
  checkout: CheckoutView;
  onBack: () => void;
  onDone?: () => void;
}) {
  const hydrated = useHydrated();
  const submit = useSubmit();
  const navigate = useNavigate();

  const onPaid = useCallback(
    (orderId: number) => {
      onDone?.();
      if (!orderId) {
        navigate("/");
        return;
      }
      // The server empties the cart once it has the order paid, then shows the confirmation.
      submit({ intent: "complete", orderId: String(orderId) }, { method: "post", action: "/panier", replace: true });
    },
    [navigate, submit, onDone],
  );

  return (
    <div className="space-y-5">
      <div className="rounded-xl bg-sand/60 p-4 text-sm">
        <p className="flex justify-between gap-4">
          <span className="text-ink-soft">Commande n°</span>
          <span className="font-semibold" data-testid="checkout-order-id">
            {checkout.orderId}
          </span>
        </p>
        <p className="mt-1 flex justify-between gap-4">
          <span className="text-ink-soft">Montant à régler</span>
          <span className="font-semibold">{formatPrice(checkout.amountCents)}</span>
        </p>
        <p className="mt-1 flex justify-between gap-4">
          <span className="text-ink-soft">Livraison à</span>
          <span className="text-right">
            {[checkout.delivery.address, checkout.delivery.address2, `${checkout.delivery.postalCode} ${checkout.delivery.city}`]
              .filter(Boolean)
              .join(", ")}
          </span>
        </p>
      </div>
      {checkout.amountCents === 0 ? (
        // A 100 % code on a one-off purchase: nothing to pay, no card.
        <Form method="post" action="/panier/commande-offerte" reloadDocument className="space-y-3">
          <input type="hidden" name="orderId" value={checkout.orderId} />
          <p className="text-sm text-ink-soft">Votre code promo couvre toute la commande : aucune carte n'est demandée.</p>
          <button type="submit" className="btn-primary w-full">
            Valider ma commande offerte (0,00€)
          </button>
        </Form>
      ) : hydrated ? (
        <PaymentStep
          orderId={checkout.orderId}
          amountCents={checkout.amountCents}
          customerEmail={checkout.customerEmail}
          customerName={checkout.customerName}
          billing={{
            firstName: checkout.delivery.firstName,
            lastName: checkout.delivery.lastName,
            address: checkout.delivery.address,
            postalCode: checkout.delivery.postalCode,
            city: checkout.delivery.city,
          }}
          onPaid={onPaid}
          onBack={onBack}
          subscriptionRefusal={checkout.subscriptionRefusal}
        />
      ) : (
        // Server render: shown only where scripting is off (hidden by CSS while the page loads with JavaScript).
        <HostedCheckoutForm checkout={checkout} />
      )}
    </div>
  );
}
