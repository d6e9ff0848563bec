import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { HealthAlert } from "~/components/admin/HealthLevel";
import { LegalMentionsWarning } from "~/components/admin/LegalMentionsWarning";
import { SecondFactorWarning } from "~/components/admin/SecondFactorWarning";
import { OrderStateBadges } from "~/components/admin/OrderBadges";
import { Badge, Card, PageHeader } from "~/components/admin/ui";
import { WithdrawalsToProcess } from "~/components/admin/WithdrawalsToProcess";
import { requireAdmin } from "~/http/admin-guard.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { formatPrice } from "~/lib/money";
import { DASHBOARD_ORDERS_COUNT_CAP, getDashboard } from "~/services/admin-dashboard.server";
import { formatAmount, formatCount } from "~/lib/analytics-format";
import { dashboardFigures } from "~/services/analytics/dashboard.server";
import { AnalyticsSummary } from "~/components/admin/analytics/AnalyticsSummary";
import { shopHealth } from "~/services/health/shop-health.server";
import { legalMentionsWarning } from "~/services/legal-mentions.server";
import { secondFactorWarning } from "~/services/admin-totp.server";

export const meta: MetaFunction = () => pageMeta("Tableau de bord", "Back office de la boutique.");

export async function loader({ request }: LoaderFunctionArgs) {
  const admin = await requireAdmin(request);
  return data(
    {
      ...(await getDashboard()),
      ordersCountCap: DASHBOARD_ORDERS_COUNT_CAP,
      analytics: await dashboardFigures(),
      legalWarning: await legalMentionsWarning(),
      healthRed: (await shopHealth()).items.filter((item) => item.level === "red").map((item) => item.title),
      secondFactor: { missing: await secondFactorWarning(), currentId: admin.id },
    },
    { headers: NO_STORE_HEADERS },
  );
}

const SHORTCUTS = [
  { to: "/admin/products", label: "Gérer les produits" },
  { to: "/admin/orders", label: "Gérer les commandes" },
  { to: "/admin/users", label: "Gérer les utilisateurs" },
  { to: "/admin/contacts", label: "Demandes de contact" },
  { to: "/admin/settings", label: "Paramètres du site" },
];

function StatCard({ label, value, to, extra }: { label: string; value: number | string; to: string; extra?: React.ReactNode }) {
  return (
    <Link
      to={to}
      className="block rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-slate-300 hover:shadow"
    >
      <p className="text-sm font-medium text-ink-soft">{label}</p>
      <p className="mt-2 text-3xl font-semibold tabular-nums">{value}</p>
      {extra ? <div className="mt-2 text-sm">{extra}</div> : null}
    </Link>
  );
}

export default function Dashboard() {
  const {
    counts,
    subscriptions,
    orders,
    legalWarning,
    withdrawals,
    withdrawalsTotal,
    secondFactor,
    healthRed,
    analytics,
    ordersCountCap,
  } = useLoaderData<typeof loader>();
  return (
    <>
      <PageHeader title="Tableau de bord" />
      <HealthAlert titles={healthRed} />
      <SecondFactorWarning admins={secondFactor.missing} currentId={secondFactor.currentId} />
      <LegalMentionsWarning warning={legalWarning} />
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        <StatCard label="Utilisateurs" value={formatCount(counts.users)} to="/admin/users" />
        <StatCard label="Produits" value={formatCount(counts.products)} to="/admin/products" />
        <StatCard
          label="Commandes"
          value={counts.orders > ordersCountCap ? `plus de ${formatCount(ordersCountCap)}` : formatCount(counts.orders)}
          to="/admin/orders"
          extra={
            <span className="text-ink-soft">
              {counts.awaitingPayment > 0
                ? `Hors ${formatCount(counts.awaitingPayment)} panier${counts.awaitingPayment > 1 ? "s" : ""} en attente de paiement`
                : "Aucun panier en attente de paiement"}
            </span>
          }
        />
        <StatCard
          label="Demandes de contact"
          value={formatCount(counts.contacts)}
          to="/admin/contacts"
          extra={
            counts.unreadContacts > 0 ? (
              <Badge tone="red">
                {formatCount(counts.unreadContacts)} non lue{counts.unreadContacts > 1 ? "s" : ""}
              </Badge>
            ) : (
              <span className="text-ink-soft">Aucune non lue</span>
            )
          }
        />
        <StatCard
          label="Abonnements actifs"
          value={formatCount(subscriptions.active)}
          to="/admin/subscriptions"
          extra={
            subscriptions.pastDue > 0 ? (
              <Badge tone="yellow">dont {formatCount(subscriptions.pastDue)} en attente de paiement</Badge>
            ) : (
              <span className="text-ink-soft">Aucun en attente de paiement</span>
            )
          }
        />
        <StatCard
          label="Revenu récurrent (4 semaines)"
          value={formatAmount(subscriptions.recurringCents)}
          to="/admin/subscriptions"
          extra={<span className="text-ink-soft">Abonnements qui seront renouvelés</span>}
        />
      </div>

      <AnalyticsSummary figures={analytics} />

      <div className="mt-6">
        <WithdrawalsToProcess withdrawals={withdrawals} total={withdrawalsTotal} />
      </div>

      <div className="mt-6 grid gap-6 xl:grid-cols-[2fr_1fr]">
        <Card
          title="Commandes récentes"
          actions={
            <Link to="/admin/orders" className="text-sm font-medium underline">
              Toutes les commandes
            </Link>
          }
        >
          {orders.length === 0 ? (
            <p className="py-6 text-center text-ink-soft">Aucune commande récente</p>
          ) : (
            <ul className="divide-y divide-slate-100">
              {orders.map((o) => (
                <li key={o.id}>
                  <Link
                    to={`/admin/orders/${o.id}`}
                    className="flex flex-wrap items-center justify-between gap-2 py-3 hover:bg-slate-50"
                  >
                    <span>
                      <span className="font-semibold">Commande #{o.id}</span>
                      <span className="ml-2 text-sm text-ink-soft">{formatDate(o.createdAt)}</span>
                    </span>
                    <span className="flex flex-wrap items-center gap-2">
                      <span className="font-semibold tabular-nums">{formatPrice(o.totalCents)}</span>
                      <OrderStateBadges status={o.status} paymentStatus={o.paymentStatus} withdrawn={o.withdrawn} />
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </Card>
        <Card title="Accès rapides">
          <ul className="grid gap-2">
            {SHORTCUTS.map((s) => (
              <li key={s.to}>
                <Link
                  to={s.to}
                  className="flex items-center justify-between rounded-lg border border-slate-200 px-4 py-3 text-sm font-medium hover:bg-slate-50"
                >
                  {s.label} <span aria-hidden="true">→</span>
                </Link>
              </li>
            ))}
          </ul>
        </Card>
      </div>
    </>
  );
}
