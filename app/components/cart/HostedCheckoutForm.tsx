import { formatPrice } from "~/lib/money";
import type { CheckoutView } from "~/services/cart.server";

export const HOSTED_CHECKOUT_BUTTON = "Payer sur la page de paiement sécurisée";

/**
 * The payment step without JavaScript: the formula (and, for the subscription, the consent box),
 * posted to /paiement-securise, which sends the shopper to the hosted payment page (Stripe
 * Checkout) to type the card. Hidden where scripting is on: the card form replaces it.
 */
export function HostedCheckoutForm({ checkout }: { checkout: CheckoutView }) {
  const price = formatPrice(checkout.amountCents);
  const refusal = checkout.subscriptionRefusal;
  return (
    <form
      method="post"
      action="/paiement-securise"
      className="space-y-5 [@media(scripting:enabled)]:hidden"
      data-testid="hosted-checkout-form"
      aria-label="Paiement sur la page sécurisée"
    >
      <input type="hidden" name="orderId" value={checkout.orderId} />
      <fieldset>
        <legend className="text-base font-semibold text-ink">Votre formule</legend>
        <div className="mt-3 grid gap-3">
          <label className="flex cursor-pointer gap-3 rounded-xl border border-ink/15 bg-white p-4">
            <input type="radio" name="mode" value="one_off" defaultChecked className="mt-1 accent-rose-600" />
            <span>
              <span className="block font-semibold">Achat unique</span>
              <span className="block text-sm text-ink-soft">Un seul paiement de {price}.</span>
            </span>
          </label>
          <label
            className={`flex gap-3 rounded-xl border p-4 ${refusal ? "cursor-not-allowed border-ink/10 bg-ink/5" : "cursor-pointer border-ink/15 bg-white"}`}
          >
            <input
              type="radio"
              name="mode"
              value="subscription"
              disabled={Boolean(refusal)}
              aria-describedby="hosted-subscription-terms"
              className="mt-1 accent-rose-600"
            />
            <span>
              <span className="block font-semibold">Abonnement</span>
              <span className="block text-sm text-ink-soft" id="hosted-subscription-terms">
                {refusal ??
                  `${price} débités aujourd'hui, puis ${price} toutes les 4 semaines à partir du 30e jour. Sans engagement : résiliable à tout moment.`}
              </span>
            </span>
          </label>
        </div>
        {refusal ? null : (
          <label className="mt-3 flex gap-3 text-sm">
            <input type="checkbox" name="consent" value="oui" className="mt-0.5 h-4 w-4 accent-rose-600" />
            <span>
              Pour l'abonnement : j'accepte l'abonnement, {price} débités aujourd'hui, puis {price} toutes les 4 semaines à partir
              du 30e jour, jusqu'à ce que je le résilie (possible à tout moment, en ligne), selon les{" "}
              <a href="/cgv#abonnement" className="underline">
                conditions générales de vente
              </a>
              .
            </span>
          </label>
        )}
      </fieldset>
      <p className="text-sm text-ink-soft">
        Vous saisirez votre carte sur la page de paiement sécurisée de Stripe, puis vous reviendrez ici pour la confirmation de
        votre commande.
      </p>
      <button type="submit" className="btn-primary w-full">
        {HOSTED_CHECKOUT_BUTTON}
      </button>
      <p>
        <a href="/panier?etape=livraison" className="btn-secondary">
          Modifier mes informations de livraison
        </a>
      </p>
    </form>
  );
}
