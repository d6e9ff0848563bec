import { createCookie } from "@remix-run/node";
import { getConfig } from "~/config.server";

/**
 * The buyer's browser remembers the orders it created: a signed, HttpOnly cookie holding
 * their ids (the latest 20). It proves ownership of those orders (services/orders/access.server.ts).
 */

export const MAX_REMEMBERED_ORDERS = 20;

let ordersCookie: ReturnType<typeof createCookie> | undefined;

function getOrdersCookie() {
  if (!ordersCookie) {
    const config = getConfig();
    ordersCookie = createCookie("orders", {
      httpOnly: true,
      sameSite: "lax",
      path: "/",
      secure: config.mode === "live",
      secrets: config.sessionSecrets,
      maxAge: 60 * 60 * 24 * 365,
    });
  }
  return ordersCookie;
}

/** The order ids this browser created, oldest first; empty when none (or the cookie was tampered with). */
export async function readRememberedOrderIds(request: Request): Promise<number[]> {
  const value: unknown = await getOrdersCookie().parse(request.headers.get("Cookie"));
  if (!Array.isArray(value)) return [];
  return value.filter((id): id is number => Number.isSafeInteger(id) && id > 0).slice(-MAX_REMEMBERED_ORDERS);
}

/** The Set-Cookie value that adds this order to the browser's list (kept to the latest 20). */
export async function rememberOrder(request: Request, orderId: number): Promise<string> {
  const ids = (await readRememberedOrderIds(request)).filter((id) => id !== orderId);
  ids.push(orderId);
  return getOrdersCookie().serialize(ids.slice(-MAX_REMEMBERED_ORDERS));
}
