import { useSyncExternalStore } from "react";
import { readCartCountCookie } from "~/lib/cart-count-cookie";

/** Nothing tells a page that a cookie changed: the count is read again at each render of the header. */
const subscribe = () => () => undefined;

/**
 * The header's cart count. `fromLoader` is the root loader's: a number when the page was rendered
 * for this visitor's cart, null when it was rendered for everyone (the page cache). Then, once the
 * page's script runs, the count comes from the `cart_count` cookie; the server's HTML (and a
 * browser without JavaScript) shows no count.
 */
export function useCartCount(fromLoader: number | null): number {
  return useSyncExternalStore(
    subscribe,
    () => fromLoader ?? readCartCountCookie(document.cookie) ?? 0,
    () => fromLoader ?? 0,
  );
}
