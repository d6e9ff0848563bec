import type { OrderProof } from "~/services/orders/access.server";
import { getAdminUser } from "~/services/admin-auth.server";
import { readCartId } from "~/services/cart-session.server";
import { readRememberedOrderIds } from "~/services/orders/session.server";

/** The order token of a request: a body field, else the X-Order-Token header, else ?token=. */
export function readOrderToken(request: Request, bodyToken?: string | null): string | null {
  const header = request.headers.get("X-Order-Token")?.trim();
  const query = new URL(request.url).searchParams.get("token")?.trim();
  return bodyToken?.trim() || header || query || null;
}

/** The key of an email's read-only order link: `?cle=`. */
export function readOrderLinkKey(request: Request): string | null {
  return new URL(request.url).searchParams.get("cle")?.trim() || null;
}

/**
 * Everything a request carries that may prove it owns an order: the cart and `orders`
 * cookies, an order token, an administrator's session, the key of an email's view link
 * (and, on the tracking page, a typed email).
 */
export async function readOrderProof(
  request: Request,
  options: { bodyToken?: string | null; email?: string | null } = {},
): Promise<OrderProof> {
  const [cartId, orderIds, admin] = await Promise.all([
    readCartId(request),
    readRememberedOrderIds(request),
    getAdminUser(request),
  ]);
  return {
    cartId,
    orderIds,
    token: readOrderToken(request, options.bodyToken),
    admin: Boolean(admin),
    email: options.email ?? null,
    linkKey: readOrderLinkKey(request),
  };
}
