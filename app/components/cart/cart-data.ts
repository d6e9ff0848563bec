import type { CartView } from "~/services/cart.server";
import type { CartStep } from "./steps";

/**
 * What the /panier loader answers: the page renders it, and the cart drawer loads the same
 * data with a fetcher (CartDrawerContext).
 */
export type CartLoaderData = { cart: CartView; step: CartStep };
