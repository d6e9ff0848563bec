import { paymentReceived } from "~/lib/order-status";
import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { OrderItemsTable, PaymentBadge, ShippingAddress } from "~/components/cart/OrderParts";
import { ShopMediatorNotice } from "~/components/shop/MediatorNotice";
import { RequestLinkButton } from "~/components/subscription/RequestLinkButton";
import { readPageForm } from "~/http/page-form.server";
import { SUBSCRIPTION_LINK_DAYS } from "~/lib/link-lifetimes";
import { requestLinkByButton } from "~/pages/subscription-link-request.server";
import { actionError } from "~/http/action-errors.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { clientAddress } from "~/http/client-address.server";
import { readOrderProof } from "~/http/order-proof.server";
import { pageHeaders, retryAfterHeaders } from "~/http/retry-after";
import { formatDate } from "~/lib/dates";
import { formatPrice } from "~/lib/money";
import { pageMeta } from "~/lib/meta";
import { parseOrderNumber } from "~/schemas/tracking";
import { lookupOrderByNumber } from "~/services/limits.server";
import { getOrderSummary } from "~/services/orders/summary.server";
import { completeCheckout } from "~/services/checkout.server";
import { confirmCheckoutSession } from "~/services/payments/hosted-checkout.server";
import { TRIAL_DUPLICATE_REFUND_REASON } from "~/services/payments/payment-state.server";
import { hasTrialDuplicateRefund } from "~/services/payments/refunds.server";
import {
  orderSubscriptionView,
  sendOrderManagementLink,
  type OrderSubscriptionView,
} from "~/services/subscriptions/confirmation.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  ...(data?.order
    ? pageMeta(`Commande n°${data.order.id}`, "Merci pour votre commande : récapitulatif, livraison et suivi.")
    : data?.refusal
      ? pageMeta("Trop de tentatives", data.refusal)
      : pageMeta("Commande introuvable", "Aucune commande ne correspond à ce numéro.")),
  // Back from the hosted payment page before Stripe's confirmation: the page reloads itself, without JavaScript.
  ...(data?.pending ? [{ httpEquiv: "refresh", content: String(PENDING_REFRESH_SECONDS) }] : []),
];

const PENDING_REFRESH_SECONDS = 3;

export const headers: HeadersFunction = pageHeaders(NO_STORE_HEADERS);

/**
 * The order by its number: progress, items, total, postcode and city. The name and the street
 * too for the buyer's own browser, the order token (?token=), the key of an email's view link
 * (?cle=) or an administrator. The link to the subscription's page for the buyer's own browser
 * or the order token only; anyone else may have a fresh one emailed to the subscription's address.
 * Unknown numbers are counted per client address: 429 past the limit (limits.server.ts).
 * Back from the hosted payment page (`?session_id=`, the Checkout Session's success_url), the
 * server asks Stripe about the session for the buyer's browser; until the order is paid the page
 * says « Paiement en cours de confirmation » and reloads itself (meta refresh).
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const id = parseOrderNumber(params.id);
  try {
    const proof = await readOrderProof(request);
    let order = id
      ? await lookupOrderByNumber(clientAddress(request, context), async () => await getOrderSummary(id, proof))
      : null;
    const sessionId = new URL(request.url).searchParams.get("session_id");
    if (order && sessionId && order.holder) {
      // Stripe unreachable for a moment: the page stays pending and asks again at its next refresh.
      if (!paymentReceived(order.paymentStatus) && (await confirmCheckoutSession(order.id, sessionId).catch(() => false))) {
        order = await getOrderSummary(order.id, proof);
      }
      // Paid: the cart that made the order is emptied, as after the card form.
      if (order && paymentReceived(order.paymentStatus) && proof.cartId) await completeCheckout(proof.cartId, order.id);
    }
    const pending = Boolean(order && sessionId && !paymentReceived(order.paymentStatus));
    const subscription = order ? await orderSubscriptionView(order.id, { viewer: order.owner, holder: order.holder }) : null;
    // The trial pack bought twice with one email: this order was refunded on its own.
    const trialRefund = order && (await hasTrialDuplicateRefund(order.id)) ? TRIAL_DUPLICATE_REFUND_REASON : null;
    return data(
      { order, subscription, pending, trialRefund, refusal: null as string | null },
      { status: order ? 200 : 404, headers: NO_STORE_HEADERS },
    );
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) throw error;
    return data(
      { order: null, subscription: null, pending: false, trialRefund: null, refusal: refusal.message },
      { status: refusal.status, headers: { ...NO_STORE_HEADERS, ...retryAfterHeaders(refusal) } },
    );
  }
}

const LINK_SENT = `Si un abonnement est en cours pour cette commande, un lien pour le gérer vient d'être envoyé à son adresse email. Il est valable ${SUBSCRIPTION_LINK_DAYS} jours.`;

/** « Recevoir un lien de gestion par email »: a fresh management link, to the subscription's own address. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const formData = await readPageForm(request);
  const id = parseOrderNumber(params.id);
  if (!id || formData.get("intent") !== "manage-link") {
    return data({ linkRequestRefused: null as string | null }, { status: 400, headers: NO_STORE_HEADERS });
  }
  const url = new URL(request.url);
  return await requestLinkByButton((address) => sendOrderManagementLink(id, address), {
    request,
    context,
    back: `${url.pathname}${url.search}`,
    message: LINK_SENT,
    headers: NO_STORE_HEADERS,
  });
}

export default function OrderConfirmation() {
  const { order, subscription, pending, trialRefund, refusal } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const loading = navigation.state === "loading" && navigation.location.pathname.startsWith("/order-confirmation");

  if (refusal) {
    return (
      <div className="container-page flex flex-col items-center py-20 text-center" data-testid="order-limited">
        <h1 className="font-serif text-3xl md:text-4xl">Trop de tentatives</h1>
        <p role="alert" className="mt-4 max-w-md text-ink-soft">
          {refusal}
        </p>
        <Link to="/" className="btn-primary mt-8">
          Retour à l'accueil
        </Link>
      </div>
    );
  }

  if (!order) {
    return (
      <div className="container-page flex flex-col items-center py-20 text-center" data-testid="order-not-found">
        <h1 className="font-serif text-3xl md:text-4xl">Commande introuvable</h1>
        <p className="mt-4 max-w-md text-ink-soft">
          Nous n'avons trouvé aucune commande avec ce numéro. Vérifiez le numéro de commande indiqué dans votre email de
          confirmation.
        </p>
        <Link to="/" className="btn-primary mt-8">
          Retour à l'accueil
        </Link>
      </div>
    );
  }

  const paid = paymentReceived(order.paymentStatus);
  return (
    <div className={`container-page py-10 md:py-16 ${loading ? "opacity-60" : ""}`} aria-busy={loading}>
      <div className="mx-auto max-w-3xl">
        <div className="text-center">
          <div
            className="mx-auto flex h-16 w-16 items-center justify-center rounded-full bg-sage-100 text-sage-700"
            aria-hidden="true"
          >
            <svg
              width="32"
              height="32"
              viewBox="0 0 24 24"
              fill="none"
              stroke="currentColor"
              strokeWidth="2.2"
              strokeLinecap="round"
              strokeLinejoin="round"
            >
              <path d="m5 12 5 5 9-10" />
            </svg>
          </div>
          <h1 className="mt-6 font-serif text-3xl md:text-4xl">Merci pour votre commande&nbsp;!</h1>
          <p className="mt-3 text-ink-soft">
            {paid ? "Votre paiement a bien été reçu. " : ""}
            {/* A refunded or withdrawn order is followed no more: its number is kept for any question. */}
            {order.closure
              ? "Conservez votre numéro de commande : il vous sera demandé pour toute question."
              : "Conservez votre numéro de commande pour la suivre."}
          </p>
          {trialRefund ? (
            <p role="alert" className="mt-6 rounded-xl border border-amber-200 bg-amber-50 p-4" data-testid="trial-refund">
              {trialRefund} Vous recevez un email de confirmation du remboursement.
            </p>
          ) : null}
          {pending ? (
            <div role="status" className="mt-6 rounded-xl border border-amber-200 bg-amber-50 p-4" data-testid="payment-pending">
              <p className="font-semibold">Paiement en cours de confirmation</p>
              <p className="mt-1 text-sm text-ink-soft">
                Votre banque a répondu, nous attendons la confirmation de Stripe. Cette page se met à jour toute seule dans
                quelques secondes.
              </p>
            </div>
          ) : null}
        </div>

        {subscription ? <SubscriptionSummary subscription={subscription} /> : null}

        <section aria-labelledby="order-info" className="mt-10 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5 md:p-8">
          <h2 id="order-info" className="sr-only">
            Informations de commande
          </h2>
          <dl className="grid gap-4 sm:grid-cols-3">
            <div>
              <dt className="text-sm text-ink-soft">Numéro de commande</dt>
              <dd className="mt-1 text-lg font-semibold" data-testid="order-number">
                {order.id}
              </dd>
            </div>
            <div>
              <dt className="text-sm text-ink-soft">Date</dt>
              <dd className="mt-1 text-lg font-semibold">{formatDate(order.createdAt)}</dd>
            </div>
            <div>
              <dt className="text-sm text-ink-soft">Statut</dt>
              <dd className="mt-1">
                <PaymentBadge paid={paid} closure={order.closure} />
              </dd>
            </div>
          </dl>
          {order.closureText ? (
            <p
              role="status"
              className="mt-4 rounded-xl border border-ink/10 bg-ink/5 p-4 text-sm text-ink"
              data-testid="order-final-state"
            >
              {order.closureText}
            </p>
          ) : null}
        </section>

        <div className="mt-6 grid gap-6 md:grid-cols-[1fr_1.6fr]">
          <section aria-labelledby="shipping-title" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5">
            <h2 id="shipping-title" className="font-serif text-xl">
              Adresse de livraison
            </h2>
            <div className="mt-3">
              <ShippingAddress order={order} />
            </div>
            {order.owner ? null : (
              <p className="mt-2 text-sm text-ink-soft" data-testid="address-hidden-note">
                Le nom et la rue s'affichent dans le navigateur qui a passé la commande, ou sur la page de suivi avec l'adresse
                email de la commande.
              </p>
            )}
            {order.closure ? null : (
              <>
                <h2 className="mt-6 font-serif text-xl">Informations de livraison</h2>
                <ul className="mt-3 space-y-2 text-sm text-ink-soft">
                  <li>Votre commande sera expédiée sous 24 heures.</li>
                  <li>Livraison en colis suivi, offerte, sous 7 à 10 jours ouvrés.</li>
                  {order.trackingNumber ? (
                    <li>
                      Numéro de suivi :{" "}
                      <span className="font-semibold text-ink" data-testid="tracking-number">
                        {order.trackingNumber}
                      </span>
                    </li>
                  ) : null}
                </ul>
              </>
            )}
          </section>
          <section aria-labelledby="items-title" className="rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5">
            <h2 id="items-title" className="font-serif text-xl">
              Votre commande
            </h2>
            <div className="mt-3">
              <OrderItemsTable order={order} />
            </div>
          </section>
        </div>

        <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
          <Link to="/" className="btn-primary">
            Continuer mes achats
          </Link>
          <Link to={`/track-order?id=${order.id}`} className="btn-secondary">
            Suivre ma commande
          </Link>
          {paid && order.invoicePath ? (
            <a href={order.invoicePath} className="btn-secondary" data-testid="invoice-link">
              Télécharger ma facture
            </a>
          ) : null}
        </div>
        <ShopMediatorNotice className="mx-auto mt-8 max-w-2xl text-center text-sm text-ink-soft" />
      </div>
    </div>
  );
}

const SUBSCRIPTION_HEADINGS: Record<OrderSubscriptionView["state"], string> = {
  incomplete: "Votre abonnement démarre",
  active: "Votre abonnement est actif",
  past_due: "Votre abonnement attend un paiement",
  cancel_scheduled: "Votre abonnement prend fin",
  canceled: "Votre abonnement est résilié",
};

/** A subscription's order: it is active, what it charges and when, the email sent, and where to cancel. */
function SubscriptionSummary({ subscription: s }: { subscription: OrderSubscriptionView }) {
  const actionData = useActionData<typeof action>();
  const refused = actionData?.linkRequestRefused ?? null;
  const price = formatPrice(s.amountCents);
  const ended = s.state === "canceled" || s.state === "cancel_scheduled";
  return (
    <section
      aria-labelledby="subscription-title"
      data-testid="subscription-summary"
      className="mt-10 rounded-2xl border border-sage-700/20 bg-sage-100/60 p-6 md:p-8"
    >
      <h2 id="subscription-title" className="font-serif text-2xl">
        {SUBSCRIPTION_HEADINGS[s.state]}
      </h2>
      <dl className="mt-4 grid gap-4 sm:grid-cols-2">
        <div>
          <dt className="text-sm text-ink-soft">Montant</dt>
          <dd className="mt-1 font-semibold" data-testid="subscription-amount">
            {price} toutes les 4 semaines
          </dd>
        </div>
        <div>
          <dt className="text-sm text-ink-soft">{ended ? "Fin de l'abonnement" : "Prochain prélèvement"}</dt>
          <dd className="mt-1 font-semibold" data-testid="subscription-next-charge">
            {ended
              ? s.endsAt
                ? `Le ${formatDate(s.endsAt)} : aucun autre prélèvement`
                : "Aucun autre prélèvement"
              : s.nextChargeAt
                ? `Le ${formatDate(s.nextChargeAt)} (${price}), puis toutes les 4 semaines`
                : `Dans 30 jours (${price}), puis toutes les 4 semaines`}
          </dd>
        </div>
      </dl>
      {s.confirmationEmail ? (
        <p className="mt-4 text-sm text-ink-soft" data-testid="subscription-email">
          {s.confirmationEmail.sent ? "Un email de confirmation vous a été envoyé" : "Un email de confirmation vous est envoyé"}
          {s.confirmationEmail.to ? (
            <>
              {" "}
              à <span className="font-semibold text-ink">{s.confirmationEmail.to}</span>
            </>
          ) : null}{" "}
          : il contient le lien de votre espace abonnement, pour gérer ou résilier votre abonnement (valable{" "}
          {SUBSCRIPTION_LINK_DAYS} jours, un nouveau lien s'obtient par email).
        </p>
      ) : null}
      {ended ? null : (
        <>
          <p className="mt-4 text-sm text-ink-soft">
            Sans engagement : vous pouvez résilier en ligne, à tout moment et sans frais, avant chaque prélèvement.
          </p>
          <div className="mt-4 flex flex-col gap-3 sm:flex-row">
            {s.managePath ? (
              <a href={s.managePath} className="btn-secondary" data-testid="subscription-manage-link">
                Gérer ou résilier mon abonnement
              </a>
            ) : null}
            {s.canRequestLink ? <RequestLinkButton label="Recevoir un lien de gestion par email" refused={refused} /> : null}
            <Link to={s.cancelPath} className="btn-secondary" data-testid="subscription-cancel-link">
              Résilier en ligne
            </Link>
          </div>
        </>
      )}
    </section>
  );
}
