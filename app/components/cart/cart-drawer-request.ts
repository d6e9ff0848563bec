/** The event the header's cart link sends to open the cart drawer (CartDrawerHost answers it). */
export const CART_DRAWER_REQUEST = "shop:cart-drawer";

/**
 * Asks for the cart drawer: true when it opens, so the link must not be followed; false when
 * nothing answers (the drawer's code has not arrived yet, or the visitor is on /panier itself):
 * the link then goes to /panier.
 */
export function requestCartDrawer() {
  return !window.dispatchEvent(new Event(CART_DRAWER_REQUEST, { cancelable: true }));
}
