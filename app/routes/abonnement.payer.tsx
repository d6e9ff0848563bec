import type { ActionFunctionArgs, HeadersFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, useState } from "react";
import { InvoicePaymentStep } from "~/components/subscription/InvoicePaymentStep";
import { RequestLinkButton } from "~/components/subscription/RequestLinkButton";
import { readPageForm } from "~/http/page-form.server";
import { INVOICE_PAY_LINK_DAYS, SUBSCRIPTION_LINK_DAYS } from "~/lib/link-lifetimes";
import { requestLinkByButton } from "~/pages/subscription-link-request.server";
import { sendManagementLinkFor } from "~/services/subscriptions/manage-link.server";
import { actionError } from "~/http/action-errors.server";
import { cacheControl, PRIVATE_NO_STORE } from "~/http/cache-control";
import { pageHeaders, retryAfterHeaders } from "~/http/retry-after";
import { pageMeta } from "~/lib/meta";
import { formatPrice } from "~/lib/money";
import {
  invoiceLinkSubscription,
  openInvoicePayment,
  type InvoicePaymentView,
} from "~/services/subscriptions/invoice-payment.server";
import { log } from "~/log.server";

/**
 * /abonnement/payer?facture=in_…&expire=…&cle=…: pays a subscription's failed renewal with
 * another card (the link of the failed-renewal email, valid 30 days). The key is checked
 * first; the invoice is read from Stripe; the browser pays it with Stripe.js; the renewal's
 * order is made by the invoice.paid webhook. The card payment needs JavaScript, and the page
 * says so. The page never links to the subscription's page: once the invoice is paid or
 * closed, or the link expired, « Recevoir un nouveau lien » emails a fresh management link to
 * the subscription's own address.
 */

export const meta: MetaFunction = () => [
  ...pageMeta("Régler mon abonnement", "Réglez l'échéance de votre abonnement avec la carte de votre choix."),
  { name: "referrer", content: "no-referrer" },
];

const PRIVATE_HEADERS = { ...cacheControl(PRIVATE_NO_STORE), "Referrer-Policy": "no-referrer" };

export const headers: HeadersFunction = pageHeaders(PRIVATE_HEADERS);

type PageData = { view: InvoicePaymentView | null; unavailable: string | null };

export async function loader({ request }: LoaderFunctionArgs) {
  const params = new URL(request.url).searchParams;
  try {
    const view = await openInvoicePayment(params);
    return data<PageData>(
      { view, unavailable: null },
      { status: view.kind === "not_found" ? 404 : 200, headers: PRIVATE_HEADERS },
    );
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) log.error({ err: error }, "invoice payment page failed");
    return data<PageData>(
      { view: null, unavailable: "Le paiement est momentanément indisponible. Veuillez réessayer dans quelques minutes." },
      {
        status: refusal?.status && refusal.status >= 500 ? refusal.status : 503,
        headers: { ...PRIVATE_HEADERS, ...retryAfterHeaders(refusal) },
      },
    );
  }
}

const LINK_SENT = `Si un abonnement correspond à ce lien, un nouveau lien pour le gérer vient d'être envoyé à son adresse email. Il est valable ${SUBSCRIPTION_LINK_DAYS} jours.`;

/** « Recevoir un nouveau lien »: from a pay link of ours (valid or expired), a fresh management link to the subscription's address. */
export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await readPageForm(request);
  const url = new URL(request.url);
  if (formData.get("intent") !== "manage-link")
    return data({ linkRequestRefused: null }, { status: 400, headers: PRIVATE_HEADERS });
  return await requestLinkByButton(
    async (address) => {
      const record = await invoiceLinkSubscription(url.searchParams);
      if (record) await sendManagementLinkFor(record, address);
    },
    { request, context, back: `${url.pathname}${url.search}`, message: LINK_SENT, headers: PRIVATE_HEADERS },
  );
}

/** Where to go next from a pay link that pays nothing: a fresh management link by email, or the shop. */
function NextSteps() {
  const actionData = useActionData<typeof action>();
  return (
    <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:items-start">
      <RequestLinkButton label="Recevoir un nouveau lien" refused={actionData?.linkRequestRefused} />
      <Link to="/" className="btn-secondary">
        Retour à la boutique
      </Link>
    </div>
  );
}

export default function PayRenewal() {
  const { view, unavailable } = useLoaderData<typeof loader>();
  const [paid, setPaid] = useState(false);

  if (!view) {
    return (
      <Shell title="Paiement indisponible">
        <p role="alert" className="mt-4 text-ink-soft">
          {unavailable}
        </p>
      </Shell>
    );
  }
  if (view.kind === "not_found") {
    return (
      <Shell title="Lien introuvable">
        <p className="mt-4 text-ink-soft">
          Ce lien de paiement ne correspond à aucune échéance. Ouvrez-le directement depuis notre email, ou contactez-nous.
        </p>
        <Link to="/contact" className="btn-primary mt-6 inline-flex">
          Nous contacter
        </Link>
      </Shell>
    );
  }
  if (view.kind === "paid" || paid) {
    return (
      <Shell title={paid ? "Paiement reçu" : "Cette échéance est déjà réglée"}>
        <PaidMessage justPaid={paid} />
        <NextSteps />
      </Shell>
    );
  }
  if (view.kind === "expired") {
    return (
      <Shell title="Ce lien de paiement a expiré">
        <p className="mt-4 text-ink-soft" data-testid="invoice-link-expired">
          Pour votre sécurité, les liens de paiement ne fonctionnent que {INVOICE_PAY_LINK_DAYS} jours. Recevez un nouveau lien
          par email : votre espace abonnement indique s'il reste une échéance à régler.
        </p>
        <NextSteps />
      </Shell>
    );
  }
  if (view.kind === "closed") {
    return (
      <Shell title="Échéance close">
        <p className="mt-4 text-ink-soft">
          Cette échéance ne peut plus être réglée : elle a été annulée, ou l'abonnement a pris fin. Rien ne vous sera prélevé.
        </p>
        <NextSteps />
      </Shell>
    );
  }

  return (
    <Shell title="Régler mon abonnement">
      {view.actionRequired ? (
        <p className="mt-3 text-ink-soft" data-testid="action-required">
          Votre banque demande une confirmation pour le paiement de votre renouvellement. Saisissez votre carte : votre banque
          vous demandera ensuite de confirmer le paiement.
        </p>
      ) : (
        <p className="mt-3 text-ink-soft">
          Le prélèvement de votre renouvellement n'a pas abouti. Réglez-le ici avec la carte de votre choix.
        </p>
      )}
      <section aria-labelledby="echeance" className="mt-8 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5">
        <h2 id="echeance" className="font-serif text-xl">
          Échéance à régler
        </h2>
        <dl className="mt-4 grid gap-4 sm:grid-cols-2">
          <div>
            <dt className="text-sm text-ink-soft">Abonnement</dt>
            <dd className="font-semibold">{view.packName}</dd>
          </div>
          <div>
            <dt className="text-sm text-ink-soft">Échéance</dt>
            <dd className="font-semibold">{view.renewalNumber ? `Renouvellement n°${view.renewalNumber}` : "Renouvellement"}</dd>
          </div>
          <div>
            <dt className="text-sm text-ink-soft">Montant</dt>
            <dd className="text-2xl font-semibold" data-testid="invoice-amount">
              {formatPrice(view.amountCents)}
            </dd>
          </div>
        </dl>
      </section>
      <section aria-label="Paiement" className="mt-6 rounded-2xl bg-white p-6 shadow-sm ring-1 ring-ink/5">
        <InvoicePaymentStep
          amountCents={view.amountCents}
          clientSecret={view.clientSecret}
          customerEmail={view.customerEmail}
          billing={view.billing}
          onPaid={() => setPaid(true)}
        />
      </section>
    </Shell>
  );
}

/**
 * The answer once paid. Just paid on this page, it is brought into view and focused: the card
 * form, long on a phone, is gone, and the customer was scrolled down to its button.
 */
function PaidMessage({ justPaid }: { justPaid: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!justPaid || !ref.current) return;
    ref.current.focus({ preventScroll: true });
    ref.current.scrollIntoView({ block: "center" });
  }, [justPaid]);
  return (
    <div
      ref={ref}
      role="status"
      tabIndex={-1}
      data-testid="invoice-paid"
      className="mt-6 scroll-mt-24 rounded-2xl bg-sage-100 p-6 text-sage-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-sage-700"
    >
      {justPaid ? (
        <p>Paiement reçu, votre commande de renouvellement est en préparation. Vous recevrez son reçu par email.</p>
      ) : (
        <p>Cette échéance est déjà réglée : il n'y a rien à payer. Merci !</p>
      )}
    </div>
  );
}

function Shell({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="container-page py-10 md:py-16">
      <div className="mx-auto max-w-2xl">
        <h1 className="font-serif text-3xl md:text-4xl">{title}</h1>
        {children}
      </div>
    </div>
  );
}
