import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { BarChartSvg, ChartData, LineChartSvg } from "~/components/admin/analytics/Charts";
import { Card, PageHeader } from "~/components/admin/ui";
import { requireAdmin } from "~/http/admin-guard.server";
import { NO_STORE_HEADERS } from "~/http/cache-control";
import { formatAmount, formatChange, formatCount, formatPercent } from "~/lib/analytics-format";
import { formatDate } from "~/lib/dates";
import { pageMeta } from "~/lib/meta";
import { ANALYTICS_PRESET_LABELS, ANALYTICS_PRESETS, analyticsPageQuerySchema } from "~/schemas/analytics";
import { analyticsPage, type ChartId } from "~/services/analytics/page.server";
import { daysOfQuery } from "~/services/analytics/report.server";
import type { Compared } from "~/services/analytics/report.server";

export const meta: MetaFunction = () => pageMeta("Analytique", "Chiffre d'affaires, abonnés et entonnoir d'achat.");

/** GET /admin/analytique?periode=30j (or ?periode=dates&du=…&au=…): a GET form, so it works without JavaScript. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const url = new URL(request.url);
  const raw = { periode: url.searchParams.get("periode"), du: url.searchParams.get("du"), au: url.searchParams.get("au") };
  const parsed = analyticsPageQuerySchema.safeParse(raw);
  const query = parsed.success ? parsed.data : { periode: "30j" as const };
  const errors = parsed.success ? [] : parsed.error.issues.map((issue) => issue.message);
  const { from, to } = daysOfQuery(query);
  const page = await analyticsPage(from, to);
  const search = new URLSearchParams(
    query.periode === "dates" ? { periode: "dates", du: from, au: to } : { periode: query.periode },
  );
  return data(
    { ...page, errors, form: { periode: query.periode, du: raw.du ?? "", au: raw.au ?? "" }, search: search.toString() },
    { status: parsed.success ? 200 : 400, headers: NO_STORE_HEADERS },
  );
}

function Change({ value, invert = false }: { value: Compared; invert?: boolean }) {
  if (value.change === null) return <span className="text-slate-500">Pas de comparaison</span>;
  const good = invert ? value.change < 0 : value.change > 0;
  const tone = value.change === 0 ? "text-slate-600" : good ? "text-emerald-700" : "text-red-700";
  return <span className={`font-medium ${tone}`}>{formatChange(value.change)}</span>;
}

function Figure({
  label,
  value,
  shown,
  previous,
  invert,
}: {
  label: string;
  value: Compared;
  shown: string;
  previous: string;
  invert?: boolean;
}) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm sm:p-4">
      <dt className="text-xs font-medium text-slate-600 sm:text-sm">{label}</dt>
      <dd className="mt-1 text-lg font-semibold tabular-nums sm:text-2xl">{shown}</dd>
      <dd className="mt-1 text-sm">
        <Change value={value} invert={invert} /> <span className="text-slate-500">(avant : {previous})</span>
      </dd>
    </div>
  );
}

function ChartCard({
  id,
  title,
  search,
  method,
  children,
  table,
}: {
  id: ChartId;
  title: string;
  search: string;
  method?: string;
  children: React.ReactNode;
  table: React.ReactNode;
}) {
  return (
    <Card
      title={title}
      // A grid item as narrow as the screen: a wide data table scrolls inside it, never the page.
      className="min-w-0"
      actions={
        <a href={`/admin/analytique/csv/${id}?${search}`} className="text-sm font-medium text-rose-700 underline" download>
          Télécharger en CSV
        </a>
      }
    >
      <figure>
        {children}
        {method ? <figcaption className="mt-2 text-xs text-slate-600">{method}</figcaption> : null}
      </figure>
      {table}
    </Card>
  );
}

export default function Analytics() {
  const { report, charts, tables, errors, form, search } = useLoaderData<typeof loader>();
  const r = report.revenue;
  const s = report.subscriptions;
  const amount = (v: Compared) => formatAmount(v.current);
  const before = (v: Compared, format: (n: number | null) => string) => format(v.previous);
  return (
    <>
      <PageHeader title="Analytique">
        <p className="mt-2 text-sm text-slate-600">
          Du {formatDate(`${report.period.from}T12:00:00Z`)} au {formatDate(`${report.period.to}T12:00:00Z`)} (
          {report.period.days} jours), comparé au {formatDate(`${report.period.previous.from}T12:00:00Z`)} –{" "}
          {formatDate(`${report.period.previous.to}T12:00:00Z`)}. Jours de Paris ; montants en euros.
        </p>
      </PageHeader>

      <Form
        method="get"
        className="mb-6 flex flex-wrap items-end gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
        aria-label="Période"
      >
        <fieldset className="flex flex-wrap gap-2">
          <legend className="mb-1 text-sm font-medium text-slate-700">Période</legend>
          {[...ANALYTICS_PRESETS, "dates" as const].map((p) => (
            <label
              key={p}
              className="inline-flex items-center gap-1.5 rounded-lg border border-slate-200 px-3 py-1.5 text-sm has-[:checked]:border-rose-600 has-[:checked]:bg-rose-50"
            >
              <input type="radio" name="periode" value={p} defaultChecked={form.periode === p} />
              {ANALYTICS_PRESET_LABELS[p]}
            </label>
          ))}
        </fieldset>
        <label className="text-sm">
          <span className="block font-medium text-slate-700">Du</span>
          <input type="date" name="du" defaultValue={form.du} className="field-input mt-1" />
        </label>
        <label className="text-sm">
          <span className="block font-medium text-slate-700">Au</span>
          <input type="date" name="au" defaultValue={form.au} className="field-input mt-1" />
        </label>
        <button type="submit" className="rounded-lg bg-slate-900 px-4 py-2 text-sm font-semibold text-white hover:bg-slate-800">
          Afficher
        </button>
        {errors.length > 0 ? (
          <div role="alert" className="w-full text-sm text-red-700">
            {errors.join(". ")}. Les 30 derniers jours sont affichés.
          </div>
        ) : null}
      </Form>

      <h2 className="mb-3 text-lg font-semibold">Ventes</h2>
      <dl className="mb-6 grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <Figure
          label="Chiffre d'affaires net TTC"
          value={r.netIncludingCents}
          shown={amount(r.netIncludingCents)}
          previous={before(r.netIncludingCents, formatAmount)}
        />
        <Figure
          label="Chiffre d'affaires net HT"
          value={r.netExcludingCents}
          shown={amount(r.netExcludingCents)}
          previous={before(r.netExcludingCents, formatAmount)}
        />
        <Figure
          label="Commandes payées"
          value={r.orders}
          shown={formatCount(r.orders.current)}
          previous={before(r.orders, formatCount)}
        />
        <Figure
          label="Panier moyen TTC"
          value={r.averageOrderCents}
          shown={amount(r.averageOrderCents)}
          previous={before(r.averageOrderCents, formatAmount)}
        />
        <Figure
          label="Remboursé TTC"
          value={r.refundedIncludingCents}
          shown={amount(r.refundedIncludingCents)}
          previous={before(r.refundedIncludingCents, formatAmount)}
          invert
        />
        <Figure
          label="Achats uniques (net TTC)"
          value={r.oneOffNetCents}
          shown={amount(r.oneOffNetCents)}
          previous={before(r.oneOffNetCents, formatAmount)}
        />
        <Figure
          label="Abonnements (net TTC)"
          value={r.subscriptionNetCents}
          shown={amount(r.subscriptionNetCents)}
          previous={before(r.subscriptionNetCents, formatAmount)}
        />
      </dl>
      <div className="mb-6 grid gap-6 xl:grid-cols-2">
        <ChartCard
          id="chiffre-affaires"
          title={`Chiffre d'affaires net TTC, par ${report.period.granularity === "day" ? "jour" : "semaine"}`}
          search={search}
          method="Factures émises moins avoirs (remboursements), à leur date."
          table={<ChartData table={tables["chiffre-affaires"].shown} caption={tables["chiffre-affaires"].title} />}
        >
          <LineChartSvg chart={charts.revenue} title="Chiffre d'affaires net TTC" />
        </ChartCard>
        <ChartCard
          id="packs"
          title="Chiffre d'affaires par pack"
          search={search}
          method="Lignes des commandes facturées pendant la période, TTC, hors livraison, avant remboursements."
          table={<ChartData table={tables.packs.shown} caption={tables.packs.title} />}
        >
          {charts.packs.bars.length > 0 ? (
            <BarChartSvg chart={charts.packs} title="Chiffre d'affaires par pack" />
          ) : (
            <p className="text-sm text-slate-600">Aucune vente sur la période.</p>
          )}
        </ChartCard>
      </div>

      <h2 className="mb-3 text-lg font-semibold">Abonnements</h2>
      <dl className="mb-6 grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <Figure
          label="Abonnés actifs (fin de période)"
          value={s.active}
          shown={formatCount(s.active.current)}
          previous={before(s.active, formatCount)}
        />
        <Figure label="MRR" value={s.mrrCents} shown={amount(s.mrrCents)} previous={before(s.mrrCents, formatAmount)} />
        <Figure
          label="Nouveaux abonnés"
          value={s.started}
          shown={formatCount(s.started.current)}
          previous={before(s.started, formatCount)}
        />
        <Figure
          label="Abonnements terminés"
          value={s.ended}
          shown={formatCount(s.ended.current)}
          previous={before(s.ended, formatCount)}
          invert
        />
        <Figure
          label="Désabonnement mensuel"
          value={s.churnPercent}
          shown={formatPercent(s.churnPercent.current)}
          previous={before(s.churnPercent, formatPercent)}
          invert
        />
        <Figure
          label="Renouvellements réussis"
          value={s.renewalSuccessPercent}
          shown={formatPercent(s.renewalSuccessPercent.current)}
          previous={before(s.renewalSuccessPercent, formatPercent)}
        />
        <Figure
          label="Renouvellements en échec"
          value={s.renewalsFailed}
          shown={formatCount(s.renewalsFailed.current)}
          previous={before(s.renewalsFailed, formatCount)}
          invert
        />
        <Figure
          label="Échecs récupérés"
          value={s.renewalsRecovered}
          shown={formatCount(s.renewalsRecovered.current)}
          previous={before(s.renewalsRecovered, formatCount)}
        />
        <Figure
          label="Mis en pause"
          value={s.paused}
          shown={formatCount(s.paused.current)}
          previous={before(s.paused, formatCount)}
          invert
        />
        <div className="rounded-xl border border-slate-200 bg-white p-3 shadow-sm sm:p-4">
          <dt className="text-xs font-medium text-slate-600 sm:text-sm">En pause aujourd'hui</dt>
          <dd className="mt-1 text-lg font-semibold tabular-nums sm:text-2xl">{formatCount(s.pausedNow.current)}</dd>
          <dd className="mt-1 text-sm text-slate-500">état du jour</dd>
        </div>
      </dl>
      <p className="mb-4 text-xs text-slate-600">
        {report.methods.churn} {report.methods.renewals} {report.methods.pauses}
      </p>
      <div className="mb-6 grid gap-6 xl:grid-cols-2">
        <ChartCard
          id="abonnes"
          title="Abonnés actifs"
          search={search}
          table={<ChartData table={tables.abonnes.shown} caption={tables.abonnes.title} />}
        >
          <LineChartSvg chart={charts.active} title="Abonnés actifs" />
        </ChartCard>
        <ChartCard id="abonnes" title="Revenu mensuel récurrent (MRR)" search={search} method={report.methods.mrr} table={null}>
          <LineChartSvg chart={charts.mrr} title="Revenu mensuel récurrent" />
        </ChartCard>
        <ChartCard
          id="motifs"
          title="Motifs de résiliation"
          search={search}
          method="Le motif est facultatif : les résiliations par la boutique ou après des échecs de paiement n'en ont pas."
          table={<ChartData table={tables.motifs.shown} caption={tables.motifs.title} />}
        >
          <BarChartSvg chart={charts.reasons} title="Motifs de résiliation" />
        </ChartCard>
      </div>

      <h2 className="mb-3 text-lg font-semibold">Rappels de commande non finalisée</h2>
      <dl className="mb-2 grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        <Figure
          label="Rappels envoyés"
          value={report.reminders.sent}
          shown={formatCount(report.reminders.sent.current)}
          previous={before(report.reminders.sent, formatCount)}
        />
        <Figure
          label="Paniers récupérés"
          value={report.reminders.recovered}
          shown={formatCount(report.reminders.recovered.current)}
          previous={before(report.reminders.recovered, formatCount)}
        />
        <Figure
          label="Chiffre d'affaires récupéré (TTC)"
          value={report.reminders.recoveredCents}
          shown={amount(report.reminders.recoveredCents)}
          previous={before(report.reminders.recoveredCents, formatAmount)}
        />
      </dl>
      <p className="mb-6 text-xs text-slate-600">{report.methods.reminders}</p>

      <h2 className="mb-3 text-lg font-semibold">Codes promo</h2>
      <div className="mb-6">
        <ChartCard
          id="codes-promo"
          title="Utilisations et chiffre d'affaires par code"
          search={search}
          method={report.methods.promotions}
          table={<ChartData table={tables["codes-promo"].shown} caption={tables["codes-promo"].title} />}
        >
          {charts.promotions.bars.length > 0 ? (
            <BarChartSvg chart={charts.promotions} title="Chiffre d'affaires par code promo" />
          ) : (
            <p className="text-sm text-slate-600">Aucun code utilisé sur la période.</p>
          )}
        </ChartCard>
      </div>

      <h2 className="mb-3 text-lg font-semibold">Entonnoir d'achat</h2>
      <ChartCard
        id="entonnoir"
        title="Du panier à la commande payée"
        search={search}
        method={report.methods.funnel}
        table={<ChartData table={tables.entonnoir.shown} caption={tables.entonnoir.title} />}
      >
        <BarChartSvg chart={charts.funnel} title="Entonnoir d'achat" />
        <ol className="mt-3 grid gap-2 text-sm sm:grid-cols-4">
          {report.funnel.map((step, i) => (
            <li key={step.key} className="rounded-lg bg-slate-50 p-3">
              <span className="block font-medium">{step.label}</span>
              <span className="tabular-nums">{formatCount(step.current)}</span>
              {i > 0 ? (
                <span className="block text-slate-600">{formatPercent(step.fromPrevious)} de l'étape précédente</span>
              ) : null}
            </li>
          ))}
        </ol>
      </ChartCard>
    </>
  );
}
