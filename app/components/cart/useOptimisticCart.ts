import { useFetchers } from "@remix-run/react";
import type { CartLineView, CartView } from "~/services/cart.server";

export type ClientCart = CartView;

function isCartSubmission(formAction: string | undefined) {
  return (formAction ?? "").split("?")[0] === "/panier";
}

/**
 * The cart as it will be once the pending cart changes are saved (Hydrogen's optimistic cart):
 * quantities, removed lines and an emptied cart show at once; `pending` says a change is on
 * its way, so checkout buttons wait for the server's answer.
 */
export function useOptimisticCart(cart: ClientCart | null | undefined): {
  cart: ClientCart | null | undefined;
  pending: boolean;
} {
  const fetchers = useFetchers();
  let pending = false;
  let lines: CartLineView[] | undefined = cart?.lines;
  for (const fetcher of fetchers) {
    const data = fetcher.formData;
    if (!data || !isCartSubmission(fetcher.formAction)) continue;
    const intent = data.get("intent");
    if (intent === "complete") continue;
    pending = true;
    if (!lines) continue;
    if (intent === "clear") {
      lines = [];
    } else if (intent === "remove") {
      const id = Number(data.get("lineId"));
      lines = lines.filter((l) => l.id !== id);
    } else if (intent === "set-quantity") {
      const id = Number(data.get("lineId"));
      const quantity = Number(data.get("quantity"));
      lines =
        quantity < 1
          ? lines.filter((l) => l.id !== id)
          : lines.map((l) => (l.id === id ? { ...l, quantity, lineTotalCents: l.unitPriceCents * quantity } : l));
    }
  }
  if (!cart || !lines || lines === cart.lines) return { cart, pending };
  const subtotalCents = lines.reduce((sum, l) => sum + l.lineTotalCents, 0);
  return {
    cart: {
      ...cart,
      lines,
      count: lines.reduce((sum, l) => sum + l.quantity, 0),
      subtotalCents,
      totalCents: subtotalCents + cart.shippingCents - (cart.promotion?.discountCents ?? 0),
      checkout: cart.checkout ? { ...cart.checkout, current: false } : null,
    },
    pending,
  };
}
