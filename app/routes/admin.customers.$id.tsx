import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation } from "@remix-run/react";
import { redirectWithError, redirectWithSuccess } from "~/http/toast.server";
import { AdminErrorBoundary } from "~/components/admin/AdminErrorBoundary";
import { Dialog } from "~/components/admin/Dialog";
import { emailKindLabel, EmailStatusBadge } from "~/components/admin/EmailParts";
import { OrderStateBadges } from "~/components/admin/OrderBadges";
import { SubscriptionBadge } from "~/components/admin/SubscriptionBadge";
import { Badge, buttonDanger, buttonSecondary, Card, PageHeader } from "~/components/admin/ui";
import { actionError } from "~/http/action-errors.server";
import { requireAdminForm, unknownAction } from "~/http/admin-pages.server";
import { requireAdmin } from "~/http/admin-guard.server";
import { pageIdOr404 } from "~/http/api.server";
import { ordersWithWithdrawal } from "~/services/withdrawals.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { readPageForm } from "~/http/page-form.server";
import { formatDate, formatDateTime } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { formatPrice } from "~/lib/money";
import { displayName } from "~/lib/names";
import { formatFrenchPhone } from "~/lib/phone";
import { CONTACT_STATUS_LABELS } from "~/lib/statuses";
import { renewalLabel } from "~/lib/renewals";
import { CUSTOMER_NOT_FOUND } from "~/lib/not-found";
import { getCustomerData } from "~/services/customers/records.server";
import { eraseCustomerData } from "~/services/customers/erase.server";
import type { StripeErasureView } from "~/services/customers/stripe-erasure-queue.server";

export const meta: MetaFunction<typeof loader> = ({ data }) =>
  pageMeta(
    data ? `Fiche client n°${data.customer.id}` : CUSTOMER_NOT_FOUND,
    "Données personnelles d'un client : consultation, export et effacement.",
  );

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const customer = await getCustomerData(pageIdOr404(params.id, CUSTOMER_NOT_FOUND));
  if (!customer) throw new Response(CUSTOMER_NOT_FOUND, { status: 404 });
  const confirm = new URL(request.url).searchParams.get("confirm") === "erase";
  // The orders withdrawn by the customer: their one final state in the list.
  const withdrawn = [...(await ordersWithWithdrawal(customer.orders.map((o) => o.id)))];
  return data({ ...customer, confirm, withdrawn }, { headers: NO_STORE_HEADERS });
}

export async function action({ request, params }: ActionFunctionArgs) {
  const admin = await requireAdminForm(request);
  const id = pageIdOr404(params.id, CUSTOMER_NOT_FOUND);
  const back = `/admin/customers/${id}`;
  if ((await readPageForm(request)).get("intent") !== "erase") return unknownAction(back);
  let erased;
  try {
    erased = await eraseCustomerData(id, admin);
  } catch (error) {
    const refusal = actionError(error);
    if (!refusal) throw error;
    if (refusal.status === 404) throw new Response(CUSTOMER_NOT_FOUND, { status: 404 });
    return redirectWithError(back, { message: "Effacement refusé", description: refusal.message });
  }
  const stripePending = erased.stripeErasure?.status === "pending";
  return redirectWithSuccess(back, {
    message: "Données effacées",
    description:
      "Les données personnelles du client sont effacées. Les montants, dates, numéros et factures sont conservés." +
      (stripePending ? " Effacement chez Stripe en attente : la boutique réessaiera." : ""),
  });
}

function Line({ label, value }: { label: string; value: React.ReactNode }) {
  const empty = value === null || value === undefined || (typeof value === "string" && !value.trim());
  return (
    <div className="flex justify-between gap-4 py-1.5 text-sm">
      <dt className="shrink-0 text-ink-soft">{label}</dt>
      <dd className="min-w-0 break-words text-right font-medium [overflow-wrap:anywhere]">{empty ? "-" : value}</dd>
    </div>
  );
}

const linkClass = "font-medium underline decoration-slate-300 hover:decoration-ink";

/** Where the Stripe part of the erasure stands: pending (retried by the shop) or done. */
function StripeErasureNote({ erasure }: { erasure: StripeErasureView }) {
  if (erasure.status === "done") {
    return (
      <p className="text-xs text-ink-soft" data-testid="stripe-erasure-done">
        Effacé aussi chez Stripe{erasure.doneAt ? ` le ${formatDateTime(erasure.doneAt)}` : ""}.
      </p>
    );
  }
  return (
    <div
      role="status"
      className="rounded-lg bg-amber-50 p-3 text-amber-900 ring-1 ring-amber-200"
      data-testid="stripe-erasure-pending"
    >
      <p className="font-semibold">Effacement chez Stripe en attente</p>
      <p className="mt-1">
        Les données de ce client chez Stripe ({erasure.customers} client{erasure.customers > 1 ? "s" : ""},{" "}
        {erasure.paymentIntents} paiement{erasure.paymentIntents > 1 ? "s" : ""}) ne sont pas encore effacées : la boutique
        réessaie seule, sans rien perdre.
      </p>
      <p className="mt-1 text-xs">
        {erasure.attempts} essai{erasure.attempts > 1 ? "s" : ""}
        {erasure.lastAttemptAt ? `, le dernier le ${formatDateTime(erasure.lastAttemptAt)}` : ""}
        {erasure.nextAttemptAt ? ` · prochain essai le ${formatDateTime(erasure.nextAttemptAt)}` : ""}
      </p>
      {erasure.lastError ? <p className="mt-1 text-xs">Dernière erreur : {erasure.lastError}</p> : null}
    </div>
  );
}

/** What erasure keeps, and why: said before the confirmation and on the page. */
const KEPT_TEXT =
  "Sont conservés : les montants, dates, numéros de commande, statuts et le pays de livraison, ainsi que les factures et avoirs émis. " +
  "Les factures émises sont conservées 10 ans (obligation comptable, Code de commerce L123-22) : ce sont des pièces légales, elles gardent le nom et l'adresse de l'acheteur tels qu'ils y figurent. " +
  "Chez Stripe, le client, ses cartes enregistrées et l'email de reçu des paiements sont effacés aussi ; Stripe garde, comme prestataire de paiement, les coordonnées de facturation des paiements déjà faits et les factures d'abonnement émises.";

export default function AdminCustomer() {
  const {
    customer: c,
    orders,
    subscriptions,
    emails,
    contactRequests,
    audit,
    erasure,
    stripeErasure,
    confirm,
    withdrawn,
  } = useLoaderData<typeof loader>();
  const { pathname } = useLocation();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formMethod?.toUpperCase() === "POST";
  const name = displayName(c) ?? c.username;
  const cityLine = [c.postalCode, c.city].filter(Boolean).join(" ");

  return (
    <>
      <PageHeader
        title={c.erased ? `Client n°${c.id} (données effacées)` : name}
        back={{ to: "/admin/users", label: "Retour aux utilisateurs" }}
      >
        <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-ink-soft">
          <span>
            Fiche client n°{c.id} · {orders.length} commande{orders.length > 1 ? "s" : ""}
          </span>
          {c.isAdmin ? <Badge tone="violet">Administrateur</Badge> : <Badge tone="gray">Client</Badge>}
          {c.erased ? <Badge tone="yellow">Données effacées</Badge> : null}
        </div>
      </PageHeader>

      <div className="grid gap-6 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
        <div className="min-w-0 space-y-6">
          <Card title="Commandes">
            {orders.length === 0 ? (
              <p className="text-sm text-ink-soft">Aucune commande.</p>
            ) : (
              <ul className="divide-y divide-slate-100" data-testid="customer-orders">
                {orders.map((order) => (
                  <li key={order.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                    <span className="min-w-0">
                      <Link to={`/admin/orders/${order.id}`} className={`font-mono ${linkClass}`}>
                        #{order.id}
                      </Link>{" "}
                      <span className="text-ink-soft">
                        {formatDate(order.createdAt)}
                        {order.renewalNumber ? ` · ${renewalLabel(order.renewalNumber)}` : ""}
                        {order.invoice ? ` · facture ${order.invoice.number}` : ""}
                      </span>
                    </span>
                    <span className="flex flex-wrap items-center gap-2">
                      <span className="font-semibold tabular-nums">{formatPrice(order.totalCents)}</span>
                      <OrderStateBadges
                        status={order.status}
                        paymentStatus={order.paymentStatus}
                        withdrawn={withdrawn.includes(order.id)}
                      />
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>

          <Card title="Abonnements">
            {subscriptions.length === 0 ? (
              <p className="text-sm text-ink-soft">Aucun abonnement.</p>
            ) : (
              <ul className="divide-y divide-slate-100" data-testid="customer-subscriptions">
                {subscriptions.map((s) => (
                  <li key={s.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                    <span className="min-w-0">
                      <Link to={`/admin/subscriptions/${s.id}`} className={linkClass}>
                        Abonnement n°{s.id}
                      </Link>{" "}
                      <span className="text-ink-soft">
                        {s.variantName ?? s.productName ?? ""}
                        {s.startedAt ? ` · depuis le ${formatDate(s.startedAt)}` : ""}
                      </span>
                    </span>
                    <span className="flex flex-wrap items-center gap-2">
                      <span className="font-semibold tabular-nums">{formatPrice(s.amountCents)}</span>
                      <SubscriptionBadge status={s.status} cancelAtPeriodEnd={s.cancelAtPeriodEnd} />
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>

          <Card title="Emails">
            {emails.length === 0 ? (
              <p className="text-sm text-ink-soft">Aucun email.</p>
            ) : (
              <ul className="divide-y divide-slate-100" data-testid="customer-emails">
                {emails.map((email) => (
                  <li key={email.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                    <span className="min-w-0 [overflow-wrap:anywhere]">
                      <Link to={`/admin/emails/${email.id}`} className={linkClass}>
                        {emailKindLabel(email.kind)}
                      </Link>
                      <span className="block text-xs text-ink-soft">
                        À {email.toAddress}
                        {email.orderId ? ` · commande #${email.orderId}` : ""}
                      </span>
                    </span>
                    <span className="flex flex-wrap items-center gap-2">
                      <span className="tabular-nums text-ink-soft">{formatDateTime(email.sentAt ?? email.createdAt)}</span>
                      <EmailStatusBadge status={email.status} />
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>

          <Card title="Demandes de contact">
            {contactRequests.length === 0 ? (
              <p className="text-sm text-ink-soft">Aucune demande de contact.</p>
            ) : (
              <ul className="divide-y divide-slate-100" data-testid="customer-contacts">
                {contactRequests.map((request) => (
                  <li key={request.id} className="space-y-1 py-2 text-sm">
                    <div className="flex flex-wrap items-center justify-between gap-2">
                      <Link to={`/admin/contacts?id=${request.id}`} className={`min-w-0 [overflow-wrap:anywhere] ${linkClass}`}>
                        {request.subject}
                      </Link>
                      <span className="flex flex-wrap items-center gap-2">
                        <span className="tabular-nums text-ink-soft">{formatDateTime(request.createdAt)}</span>
                        <Badge tone={request.status === "traite" ? "green" : request.status === "non_lu" ? "red" : "blue"}>
                          {CONTACT_STATUS_LABELS[request.status]}
                        </Badge>
                      </span>
                    </div>
                    <p className="line-clamp-2 text-ink-soft [overflow-wrap:anywhere]">{request.message}</p>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>

        {/* On a phone, the account and the actions come first. */}
        <div className="order-first min-w-0 space-y-6 xl:order-none">
          <Card title="Compte">
            <dl>
              <Line label="Nom d'utilisateur" value={c.username} />
              <Line label="Email" value={c.email} />
              <Line label="Prénom" value={c.firstName} />
              <Line label="Nom" value={c.lastName} />
              <Line label="Adresse" value={c.address} />
              <Line label="Code postal et ville" value={cityLine} />
              <Line label="Pays" value={c.country} />
              <Line label="Téléphone" value={c.phone ? formatFrenchPhone(c.phone) : null} />
              <Line label="Inscription" value={formatDate(c.createdAt)} />
            </dl>
            <p className="mt-3 text-sm">
              <Link to={`/admin/users/edit/${c.id}`} className={linkClass}>
                Modifier le compte
              </Link>
            </p>
          </Card>

          <Card title="Données personnelles">
            <div className="space-y-3 text-sm">
              <p className="text-ink-soft">
                Droit d'accès et de portabilité (RGPD, articles 15 et 20) : l'export rassemble en un fichier JSON le compte, les
                commandes, les abonnements, les emails et les demandes de contact de ce client.
              </p>
              <a href={`/admin/customers/${c.id}/export.json`} className={`${buttonSecondary} w-full`} download>
                Exporter les données (JSON)
              </a>
              <p className="text-ink-soft">
                Droit à l'effacement (article 17) : noms, email, adresses, téléphones, demandes de contact et contenu des emails
                sont effacés de la boutique.
              </p>
              <p className="text-xs text-ink-soft">{KEPT_TEXT}</p>
              {c.erased ? (
                <p
                  role="status"
                  className="rounded-lg bg-emerald-50 p-3 text-emerald-900 ring-1 ring-emerald-200"
                  data-testid="erased-note"
                >
                  Les données personnelles de ce client ont été effacées.
                </p>
              ) : null}
              {stripeErasure ? <StripeErasureNote erasure={stripeErasure} /> : null}
              {c.erased ? null : erasure.allowed ? (
                <Link to={`${pathname}?confirm=erase`} className={`${buttonDanger} w-full`} preventScrollReset>
                  Effacer les données personnelles
                </Link>
              ) : (
                <div
                  role="note"
                  className="rounded-lg bg-amber-50 p-3 text-amber-900 ring-1 ring-amber-200"
                  data-testid="erasure-refusal"
                >
                  <ul className="list-disc space-y-1 pl-5">
                    {erasure.reasons.length ? (
                      erasure.reasons.map((reason) => <li key={reason}>{reason}</li>)
                    ) : (
                      <li>{erasure.refusal}</li>
                    )}
                  </ul>
                </div>
              )}
            </div>
          </Card>

          <Card title="Journal">
            {audit.length === 0 ? (
              <p className="text-sm text-ink-soft">Aucun export ni effacement.</p>
            ) : (
              <ul className="divide-y divide-slate-100" data-testid="customer-audit">
                {audit.map((line) => (
                  <li key={line.id} className="py-2 text-sm">
                    <p className="font-medium">{line.label}</p>
                    {line.detailsText ? <p className="text-xs text-ink-soft">{line.detailsText}</p> : null}
                    <p className="text-xs tabular-nums text-ink-soft">
                      {formatDateTime(line.at)} · par {line.actor}
                    </p>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </div>
      </div>

      {confirm ? (
        <Dialog title="Effacer les données personnelles ?" closeTo={pathname} role="alertdialog" maxWidth="max-w-md">
          {erasure.allowed ? (
            <>
              <p>
                Les noms, l'email, les adresses et le téléphone de {c.erased ? "ce client" : name}, ses demandes de contact et le
                contenu des emails qui le concernent seront effacés définitivement. Cette action ne peut pas être annulée.
              </p>
              <p className="mt-3 text-sm text-ink-soft">{KEPT_TEXT}</p>
              <Form method="post" action={pathname} className="mt-6 flex flex-wrap justify-end gap-2" preventScrollReset>
                <input type="hidden" name="intent" value="erase" />
                <Link to={pathname} replace preventScrollReset className={buttonSecondary} data-autofocus>
                  Ne pas effacer
                </Link>
                <button type="submit" className={buttonDanger} disabled={busy}>
                  {busy ? "Effacement..." : "Effacer définitivement"}
                </button>
              </Form>
            </>
          ) : (
            <>
              <p>{erasure.refusal}</p>
              <div className="mt-6 flex justify-end">
                <Link to={pathname} replace preventScrollReset className={buttonSecondary} data-autofocus>
                  Fermer
                </Link>
              </div>
            </>
          )}
        </Dialog>
      ) : null}
    </>
  );
}

export function ErrorBoundary() {
  return (
    <AdminErrorBoundary
      notFound="Client introuvable : vérifiez son numéro."
      backTo="/admin/users"
      backLabel="Retour aux utilisateurs"
    />
  );
}
