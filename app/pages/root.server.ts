import { data, type LoaderFunctionArgs } from "@remix-run/node";
import { getToast } from "remix-toast";
import { getPublicConfig } from "~/config.server";
import type { RootPublicData } from "~/lib/public-config";
import { getCartCount } from "~/services/cart-session.server";
import { getSettings } from "~/services/settings.server";

/**
 * The root loader: the toast to show, the public configuration, the shop's settings and the
 * visitor's cart badge. Kept out of root.tsx so that the browser's copy of the root route
 * carries none of it (remix-toast brings zod and the cookie code with it).
 */
export async function rootLoader({ request }: LoaderFunctionArgs) {
  const { toast } = await getToast(request);
  const cartCount = await getCartCount(request);
  const page = { toast, config: getPublicConfig(), settings: await getSettings(), cartCount };
  // Components read the public configuration through usePublicConfig (app/lib/public-config.ts).
  // The toast cookie only carries a message until it is shown: once read, it is deleted. A plain
  // page view sets no cookie, so it can come from the page cache (server/page-cache.js).
  return data(
    page satisfies RootPublicData,
    hasToastCookie(request) ? { headers: { "Set-Cookie": TOAST_COOKIE_DELETION } } : undefined,
  );
}

/** remix-toast's cookie (its default options), expired. */
const TOAST_COOKIE_DELETION = "toast-session=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax";

function hasToastCookie(request: Request) {
  return /(?:^|;\s*)toast-session=/.test(request.headers.get("Cookie") ?? "");
}
