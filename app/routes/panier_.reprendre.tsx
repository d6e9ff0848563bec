import type { HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { cacheControl, PRIVATE_NO_STORE } from "~/http/cache-control";
import { clientAddress } from "~/http/client-address.server";
import { pageHeaders } from "~/http/retry-after";
import { pageMeta } from "~/lib/meta";
import { checkResumeLink, RESUME_LINK_DAYS } from "~/services/orders/reminder-links.server";
import { restoreCheckout } from "~/services/cart-reminders/restore.server";
import { putInVisitorCart } from "~/services/cart-session.server";
import { rememberOrder } from "~/services/orders/session.server";

/**
 * /panier/reprendre?commande=…&expire=…&cle=…: « Finaliser ma commande » of an abandoned-checkout
 * reminder. A valid link puts the order's pack (and its promotion code, if it still holds) back in
 * this browser's cart, lets this browser pay that order, and opens its payment step. An expired
 * or altered link, or an order already paid, gets a page that says so in French.
 */

export const meta: MetaFunction = () => [
  ...pageMeta("Reprendre ma commande", "Reprenez votre commande là où vous l'aviez laissée."),
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
];

const PRIVATE_HEADERS = { ...cacheControl(PRIVATE_NO_STORE), "Referrer-Policy": "no-referrer" };

export const headers: HeadersFunction = pageHeaders(PRIVATE_HEADERS);

type Refusal = { title: string; message: string; orderId: number | null };

export async function loader({ request, context }: LoaderFunctionArgs) {
  const check = checkResumeLink(new URL(request.url).searchParams);
  if (!check.ok) {
    const refusal: Refusal =
      check.reason === "expired"
        ? {
            title: "Ce lien a expiré",
            message: `Pour votre sécurité, le lien de rappel ne fonctionne que ${RESUME_LINK_DAYS} jours. Votre commande n'a pas été réglée : vous pouvez la refaire depuis la boutique.`,
            orderId: null,
          }
        : {
            title: "Lien introuvable",
            message:
              "Ce lien ne correspond à aucune commande : il est incomplet ou a été modifié. Ouvrez-le directement depuis notre email.",
            orderId: null,
          };
    return data(refusal, { status: check.reason === "expired" ? 410 : 404, headers: PRIVATE_HEADERS });
  }
  const restored = await putInVisitorCart(request, clientAddress(request, context), async (cartId) =>
    restoreCheckout(cartId, check.orderId),
  );
  if (!restored.result.ok) {
    const { reason, message } = restored.result;
    const refusal: Refusal = {
      title: reason === "paid" ? "Commande déjà réglée" : "Commande impossible à reprendre",
      message,
      orderId: reason === "paid" ? check.orderId : null,
    };
    return data(refusal, { status: reason === "paid" ? 409 : 410, headers: PRIVATE_HEADERS });
  }
  const headers = new Headers(PRIVATE_HEADERS);
  if (restored.setCookie) headers.append("Set-Cookie", restored.setCookie);
  // This browser may now pay the order (services/orders/access.server.ts).
  headers.append("Set-Cookie", await rememberOrder(request, check.orderId));
  return redirect("/panier?etape=paiement", { headers });
}

export default function ResumeOrder() {
  const refusal = useLoaderData<typeof loader>();
  return (
    <section className="mx-auto max-w-2xl px-4 py-12">
      <h1 className="font-serif text-3xl md:text-4xl">{refusal.title}</h1>
      <p className="mt-4 text-ink-soft" data-testid="resume-refusal">
        {refusal.message}
      </p>
      <div className="mt-6 flex flex-col gap-3 sm:flex-row">
        {refusal.orderId ? (
          <Link to="/track-order" className="btn-primary">
            Suivre ma commande
          </Link>
        ) : (
          <Link to="/" className="btn-primary">
            Retour à la boutique
          </Link>
        )}
        <Link to="/contact" className="btn-secondary">
          Nous contacter
        </Link>
      </div>
    </section>
  );
}
