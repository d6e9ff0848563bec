import { randomUUID } from "node:crypto";
import { createCookie } from "@remix-run/node";
import { getConfig } from "~/config.server";
import { throttleNewCart } from "./limits.server";

let cartCookie: ReturnType<typeof createCookie> | undefined;

/** Signed, HttpOnly cookie holding only the visitor's random cart id. */
export function getCartCookie() {
  if (!cartCookie) {
    const config = getConfig();
    cartCookie = createCookie("cart", {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: config.mode === "live",
      secrets: config.sessionSecrets,
      maxAge: 60 * 60 * 24 * 30,
    });
  }
  return cartCookie;
}

const CART_ID = /^[0-9a-f-]{36}$/;

/** The visitor's cart id, or null when they have none yet (or the cookie was tampered with). */
export async function readCartId(request: Request): Promise<string | null> {
  const value = await getCartCookie().parse(request.headers.get("Cookie"));
  return typeof value === "string" && CART_ID.test(value) ? value : null;
}

/** The visitor's cart id, creating one; `setCookie` is set when a new cookie must be sent. */
export async function ensureCartId(request: Request): Promise<{ cartId: string; setCookie?: string }> {
  const existing = await readCartId(request);
  if (existing) return { cartId: existing };
  const cartId = randomUUID();
  return { cartId, setCookie: await getCartCookie().serialize(cartId) };
}

/**
 * Puts a product in the visitor's cart (`put` does the writing): in their own cart when their
 * cookie names one, never counted nor refused; else in a new cart, which counts against the
 * address's allowance of new carts only if `put` succeeds (limits.server.ts). Past that
 * allowance, a 429 (ShopError) and no cart, no cookie. `setCookie` is set for a new cart.
 */
export async function putInVisitorCart<T>(
  request: Request,
  address: string,
  put: (cartId: string) => Promise<T>,
): Promise<{ cartId: string; setCookie?: string; result: T }> {
  const { cartId, setCookie } = await ensureCartId(request);
  if (!setCookie) return { cartId, result: await put(cartId) };
  const result = await throttleNewCart(address, async () => await put(cartId));
  return { cartId, setCookie, result };
}
