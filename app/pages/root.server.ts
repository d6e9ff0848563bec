import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { getToast } from "remix-toast";
import { getConfig, getPublicConfig } from "~/config.server";
import { cartCountCookieUpdate, readCartCountCookie } from "~/lib/cart-count-cookie";
import type { RootPublicData } from "~/lib/public-config";
import { getCartLineCount } from "~/services/cart.server";
import { readCartId } from "~/services/cart-session.server";
import { getSettings } from "~/services/settings.server";

/**
 * The root loader: the toast to show, the public configuration, the shop's settings and the
 * visitor's cart badge. Kept out of root.tsx so that the browser's copy of the root route
 * carries none of it (remix-toast brings zod and the cookie code with it).
 *
 * `cartCount` is null when the request holds no cart: a public page is rendered so for the page
 * cache, whoever asks for it, and the header then shows the count of the `cart_count` cookie
 * (app/lib/cart-count-cookie.ts), which this loader keeps equal to the cart on every live answer.
 */
export async function rootLoader({ request }: LoaderFunctionArgs) {
  const { toast } = await getToast(request);
  const cookieHeader = request.headers.get("Cookie");
  const cartId = await readCartId(request);
  const cartCount = cartId ? await getCartLineCount(cartId) : null;
  const page = { toast, config: getPublicConfig(), settings: await getSettings(), cartCount };
  // Components read the public configuration through usePublicConfig (app/lib/public-config.ts).
  // The toast cookie only carries a message until it is shown: once read, it is deleted. A plain
  // page view without a cart count to correct sets no cookie, so it can come from the page cache
  // (server/page-cache.js).
  const headers = new Headers();
  if (hasToastCookie(cookieHeader)) headers.append("Set-Cookie", TOAST_COOKIE_DELETION);
  if (cartCount !== null || readCartCountCookie(cookieHeader) !== null) {
    const update = cartCountCookieUpdate(cookieHeader, cartCount ?? 0, { secure: getConfig().mode === "live" });
    if (update) headers.append("Set-Cookie", update);
  }
  return data(page satisfies RootPublicData, headers.has("Set-Cookie") ? { headers } : undefined);
}

/** remix-toast's cookie (its default options), expired. */
const TOAST_COOKIE_DELETION = "toast-session=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax";

function hasToastCookie(cookieHeader: string | null) {
  return /(?:^|;\s*)toast-session=/.test(cookieHeader ?? "");
}
