import { useFetcher } from "@remix-run/react";
import { formatPrice } from "~/lib/money";
import { discountPercent, type ShopPack } from "~/lib/packs";
import { CART_TOASTS } from "~/schemas/cart";

type Offer = { packs: ShopPack[]; unitPriceCents: number | null; sold: boolean };

/**
 * 'NOS PACKS' selector (the product's own packs, the first one chosen at start) and order
 * button, in one form posted to the cart (/panier). A product without pack shows its single
 * price, or that it is not for sale.
 * The fetcher key "add-to-cart" is shared with the cart, which reacts to the result;
 * without JavaScript it is a plain POST that redirects to the cart page.
 */
export function OrderForm({ productId, inStock, offer }: { productId: number; inStock: boolean; offer: Offer }) {
  const fetcher = useFetcher<{ ok: boolean; error?: string }>({ key: "add-to-cart" });
  const busy = fetcher.state !== "idle";
  if (!offer.sold) {
    return (
      <p id="packs" role="status" className="rounded-lg bg-sand px-4 py-3 text-center font-semibold text-ink">
        Ce produit n'est pas en vente pour le moment.
      </p>
    );
  }
  const firstPackId = offer.packs[0]?.id;

  return (
    <fetcher.Form method="post" action="/panier" id="packs" className="scroll-mt-24">
      <input type="hidden" name="intent" value="add" />
      <input type="hidden" name="productId" value={productId} />
      <input type="hidden" name="redirectTo" value="/panier" />
      {offer.unitPriceCents !== null ? (
        <p className="text-2xl font-semibold text-ink" data-testid="unit-price">
          {formatPrice(offer.unitPriceCents)}
        </p>
      ) : (
        <fieldset>
          <legend className="w-full">
            <h2 className="text-sm font-semibold tracking-[0.2em] text-ink">NOS PACKS</h2>
          </legend>
          <div className="mt-3 space-y-3">
            {offer.packs.map((pack) => {
              const nameId = `pack-${pack.id}-nom`;
              const detailsId = `pack-${pack.id}-details`;
              const off = discountPercent(pack.priceCents, pack.crossedOutCents);
              return (
                <label
                  key={pack.id}
                  className="relative flex cursor-pointer items-start gap-3 rounded-2xl border-2 border-ink/10 bg-white p-4 transition hover:border-rose-200 has-[:checked]:border-rose-600 has-[:checked]:bg-rose-50 has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-rose-600"
                >
                  <input
                    type="radio"
                    name="packId"
                    value={pack.id}
                    defaultChecked={pack.id === firstPackId}
                    aria-labelledby={nameId}
                    aria-describedby={detailsId}
                    className="mt-1 h-5 w-5 shrink-0 accent-rose-600 focus-visible:outline-none"
                  />
                  <span className="min-w-0 flex-1">
                    <span className="flex flex-wrap items-center gap-2">
                      <span id={nameId} className="font-semibold text-ink">
                        {pack.name}
                      </span>
                      {pack.popular ? (
                        <span className="rounded-full bg-rose-600 px-2.5 py-0.5 text-xs font-bold uppercase tracking-wide text-white">
                          Meilleure vente
                        </span>
                      ) : null}
                    </span>
                    <span id={detailsId} className="mt-1 block text-sm text-ink-soft">
                      <span className="block">{pack.description}</span>
                      <span className="mt-2 flex flex-wrap items-baseline gap-x-2">
                        <span className="text-lg font-semibold text-ink">{formatPrice(pack.priceCents)}</span>
                        {pack.crossedOutCents !== null ? (
                          <s className="text-ink-soft">
                            <span className="sr-only">au lieu de </span>
                            {formatPrice(pack.crossedOutCents)}
                          </s>
                        ) : null}
                        {off > 0 ? (
                          <span className="rounded bg-sage-100 px-1.5 py-0.5 text-xs font-semibold text-sage-700">-{off}%</span>
                        ) : null}
                      </span>
                    </span>
                  </span>
                </label>
              );
            })}
          </div>
        </fieldset>
      )}

      {!inStock ? (
        <p role="status" className="mt-4 rounded-lg bg-rose-100 px-4 py-3 text-center font-semibold text-rose-700">
          Rupture de stock
        </p>
      ) : null}
      <button type="submit" className="btn-primary mt-5 w-full py-4 text-lg" disabled={busy || !inStock}>
        {busy ? "Chargement..." : "Commander"}
      </button>
      {/* Why the product did not reach the cart (a new cart refused to a busy address, a pack sold out meanwhile). */}
      {!busy && fetcher.data && !fetcher.data.ok && fetcher.data.error ? (
        <p role="alert" className="mt-4 rounded-xl border border-rose-200 bg-rose-50 p-4 text-sm text-rose-700">
          {CART_TOASTS.addFailed.description} {fetcher.data.error}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
