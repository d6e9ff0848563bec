import { useFetcher } from "@remix-run/react";
import { formatPrice, shippingLabel } from "~/lib/money";

export function CartTotals({
  subtotalCents,
  shippingCents,
  totalCents,
  discount,
}: {
  subtotalCents: number;
  shippingCents: number;
  totalCents: number;
  /** The promotion code's line, when it takes something off. */
  discount?: { code: string; cents: number } | null;
}) {
  return (
    <dl className="space-y-2 text-sm" data-testid="cart-summary">
      <div className="flex justify-between gap-4">
        <dt className="text-ink-soft">Sous-total</dt>
        <dd data-testid="cart-subtotal">{formatPrice(subtotalCents)}</dd>
      </div>
      <div className="flex justify-between gap-4">
        <dt className="text-ink-soft">Livraison</dt>
        <dd className="font-medium text-sage-700">{shippingLabel(shippingCents)}</dd>
      </div>
      {discount && discount.cents > 0 ? (
        <div className="flex justify-between gap-4" data-testid="cart-discount">
          <dt className="text-ink-soft">Remise (code {discount.code})</dt>
          <dd className="font-medium text-sage-700">{formatPrice(-discount.cents)}</dd>
        </div>
      ) : null}
      <div className="flex justify-between gap-4 border-t border-ink/10 pt-2 text-base font-semibold">
        <dt>Total</dt>
        <dd data-testid="cart-total">{formatPrice(totalCents)}</dd>
      </div>
    </dl>
  );
}

export function ClearCartButton() {
  const fetcher = useFetcher();
  return (
    <fetcher.Form method="post" action="/panier">
      <input type="hidden" name="intent" value="clear" />
      <input type="hidden" name="redirectTo" value="/panier" />
      <button type="submit" className="text-sm text-ink-soft underline underline-offset-2 hover:text-rose-700">
        Vider le panier
      </button>
    </fetcher.Form>
  );
}
