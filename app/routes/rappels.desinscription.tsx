import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation } from "@remix-run/react";
import { cacheControl, PRIVATE_NO_STORE } from "~/http/cache-control";
import { pageHeaders } from "~/http/retry-after";
import { pageMeta } from "~/lib/meta";
import { checkUnsubscribeLink } from "~/services/orders/reminder-links.server";
import { isOrderAddressUnsubscribed, unsubscribeOrderAddress } from "~/services/customers/reminder-unsubscribes.server";

/**
 * /rappels/desinscription?commande=…&cle=…: the unsubscribe link of an abandoned-checkout
 * reminder, in one click (RFC 8058). A POST to this address unsubscribes at once, with nothing
 * more to do: what a mail client sends when its user clicks « Se désabonner » (the email's
 * `List-Unsubscribe-Post: List-Unsubscribe=One-Click` header), and what this page's button sends,
 * without JavaScript. A GET only shows the page with that button, so a link scanner that opens
 * the link unsubscribes no one.
 */

export const meta: MetaFunction = () => [
  ...pageMeta("Ne plus recevoir de rappels", "Désinscription des rappels de commande non finalisée."),
  { name: "robots", content: "noindex" },
];

// The link's key never leaves the site; "no-referrer" would make the browser send `Origin: null` with the button's post.
const PRIVATE_HEADERS = { ...cacheControl(PRIVATE_NO_STORE), "Referrer-Policy": "same-origin" };

export const headers: HeadersFunction = pageHeaders(PRIVATE_HEADERS);

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const orderId = checkUnsubscribeLink(url.searchParams);
  const valid = orderId !== null;
  // « Vous êtes désinscrit » only when it is true (the address of the order is on the list).
  return data(
    { valid, done: valid && url.searchParams.get("fait") === "1" && (await isOrderAddressUnsubscribed(orderId)) },
    { status: valid ? 200 : 404, headers: PRIVATE_HEADERS },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const url = new URL(request.url);
  const orderId = checkUnsubscribeLink(url.searchParams);
  if (orderId === null) return data({ valid: false }, { status: 404, headers: PRIVATE_HEADERS });
  await unsubscribeOrderAddress(orderId);
  url.searchParams.set("fait", "1");
  return redirect(`${url.pathname}?${url.searchParams.toString()}`, { status: 303, headers: PRIVATE_HEADERS });
}

export default function Unsubscribe() {
  const { valid, done } = useLoaderData<typeof loader>();
  const location = useLocation();
  if (!valid) {
    return (
      <section className="mx-auto max-w-2xl px-4 py-12">
        <h1 className="font-serif text-3xl md:text-4xl">Lien introuvable</h1>
        <p className="mt-4 text-ink-soft">
          Ce lien de désinscription est incomplet ou a été modifié. Ouvrez-le directement depuis notre email, ou écrivez-nous.
        </p>
        <Link to="/contact" className="btn-primary mt-6 inline-flex">
          Nous contacter
        </Link>
      </section>
    );
  }
  if (done) {
    return (
      <section className="mx-auto max-w-2xl px-4 py-12">
        <h1 className="font-serif text-3xl md:text-4xl">Vous êtes désinscrit</h1>
        <p role="status" className="mt-4 text-ink-soft">
          Vous ne recevrez plus aucun rappel de commande non finalisée à cette adresse, même si vous cochez la case à nouveau. Les
          emails liés à vos commandes payées (confirmation, expédition, facture) continuent de vous être envoyés.
        </p>
        <Link to="/" className="btn-primary mt-6 inline-flex">
          Retour à la boutique
        </Link>
      </section>
    );
  }
  return (
    <section className="mx-auto max-w-2xl px-4 py-12">
      <h1 className="font-serif text-3xl md:text-4xl">Ne plus recevoir de rappels</h1>
      <p className="mt-4 text-ink-soft">
        Vous avez demandé un rappel si vous ne finalisiez pas votre commande. Confirmez pour ne plus recevoir aucun rappel de
        commande non finalisée à cette adresse.
      </p>
      <Form method="post" action={`${location.pathname}${location.search}`} className="mt-6">
        <button type="submit" className="btn-primary">
          Me désinscrire des rappels
        </button>
      </Form>
    </section>
  );
}
