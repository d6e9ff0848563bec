import { formatAmount, formatCount, formatEuros, formatPercent } from "~/lib/analytics-format";
import { barChart, lineChart, type BarChartGeometry, type LineChartGeometry } from "./charts.server";
import { analyticsReport, type AnalyticsReport } from "./report.server";

/**
 * What /admin/analytique shows: the report and its charts, drawn here. Each chart has its data
 * as a table (read out by screen readers, and the CSV's content).
 */

export const CHART_IDS = ["chiffre-affaires", "abonnes", "packs", "motifs", "entonnoir", "codes-promo"] as const;
export type ChartId = (typeof CHART_IDS)[number];

export type ChartTable = { columns: string[]; rows: Array<Array<string | number>> };

/** Each chart's data: the table shown under it and its CSV (raw numbers, amounts in euros). */
export function chartTables(report: AnalyticsReport): Record<ChartId, { title: string; shown: ChartTable; csv: ChartTable }> {
  const euros = (cents: number) => Number((cents / 100).toFixed(2));
  const period = (r: { from: string; to: string; label: string }) => r.label;
  return {
    "chiffre-affaires": {
      title: "Chiffre d'affaires net",
      shown: {
        columns: ["Période", "Net TTC", "Net HT", "Commandes"],
        rows: report.revenueSeries.map((r) => [
          period(r),
          formatAmount(r.netIncludingCents),
          formatAmount(r.netExcludingCents),
          formatCount(r.orders),
        ]),
      },
      csv: {
        columns: ["Du", "Au", "Net TTC (€)", "Net HT (€)", "Commandes"],
        rows: report.revenueSeries.map((r) => [r.from, r.to, euros(r.netIncludingCents), euros(r.netExcludingCents), r.orders]),
      },
    },
    abonnes: {
      title: "Abonnés actifs et MRR",
      shown: {
        columns: ["Fin de la période", "Abonnés actifs", "MRR"],
        rows: report.subscriberSeries.map((r) => [period(r), formatCount(r.active), formatAmount(r.mrrCents)]),
      },
      csv: {
        columns: ["Du", "Au", "Abonnés actifs à la fin", "MRR (€)"],
        rows: report.subscriberSeries.map((r) => [r.from, r.to, r.active, euros(r.mrrCents)]),
      },
    },
    packs: {
      title: "Chiffre d'affaires par pack",
      shown: {
        columns: ["Pack", "Quantité", "Montant TTC"],
        rows: report.packs.map((p) => [p.label, formatCount(p.quantity), formatAmount(p.cents)]),
      },
      csv: {
        columns: ["Pack", "Quantité", "Montant TTC (€)"],
        rows: report.packs.map((p) => [p.label, p.quantity, euros(p.cents)]),
      },
    },
    motifs: {
      title: "Motifs de résiliation",
      shown: { columns: ["Motif", "Résiliations"], rows: report.cancelReasons.map((r) => [r.label, formatCount(r.count)]) },
      csv: { columns: ["Motif", "Résiliations"], rows: report.cancelReasons.map((r) => [r.label, r.count]) },
    },
    "codes-promo": {
      title: "Codes promo",
      shown: {
        columns: ["Code", "Utilisations", "Chiffre d'affaires TTC", "Remise accordée"],
        rows: report.promotions.map((p) => [
          p.code,
          formatCount(p.uses),
          formatAmount(p.revenueCents),
          formatAmount(p.discountCents),
        ]),
      },
      csv: {
        columns: ["Code", "Utilisations", "Chiffre d'affaires TTC (€)", "Remise accordée (€)"],
        rows: report.promotions.map((p) => [p.code, p.uses, euros(p.revenueCents), euros(p.discountCents)]),
      },
    },
    entonnoir: {
      title: "Entonnoir d'achat",
      shown: {
        columns: ["Étape", "Période", "Période précédente", "Depuis l'étape précédente"],
        rows: report.funnel.map((s) => [s.label, formatCount(s.current), formatCount(s.previous), formatPercent(s.fromPrevious)]),
      },
      csv: {
        columns: ["Étape", "Période", "Période précédente", "Depuis l'étape précédente (%)"],
        rows: report.funnel.map((s) => [
          s.label,
          s.current,
          s.previous,
          s.fromPrevious === null ? "" : Number(s.fromPrevious.toFixed(1)),
        ]),
      },
    },
  };
}

export type AnalyticsPage = {
  report: AnalyticsReport;
  tables: ReturnType<typeof chartTables>;
  charts: {
    revenue: LineChartGeometry;
    active: LineChartGeometry;
    mrr: LineChartGeometry;
    packs: BarChartGeometry;
    reasons: BarChartGeometry;
    funnel: BarChartGeometry;
    promotions: BarChartGeometry;
  };
};

export async function analyticsPage(from: string, to: string): Promise<AnalyticsPage> {
  const report = await analyticsReport(from, to);
  const labels = report.revenueSeries.map((r) => r.label);
  return {
    report,
    tables: chartTables(report),
    charts: {
      revenue: lineChart(
        report.revenueSeries.map((r) => r.netIncludingCents),
        labels,
        formatEuros,
      ),
      active: lineChart(
        report.subscriberSeries.map((r) => r.active),
        labels,
        (n) => formatCount(n),
      ),
      mrr: lineChart(
        report.subscriberSeries.map((r) => r.mrrCents),
        labels,
        formatEuros,
      ),
      packs: barChart(
        report.packs.map((p) => ({ label: p.label, value: p.cents })),
        (v) => formatAmount(v),
      ),
      reasons: barChart(
        report.cancelReasons.map((r) => ({ label: r.label, value: r.count })),
        (v) => formatCount(v),
      ),
      funnel: barChart(
        report.funnel.map((s) => ({ label: s.label, value: s.current })),
        (v) => formatCount(v),
        178,
      ),
      promotions: barChart(
        report.promotions.map((p) => ({ label: p.code, value: p.revenueCents })),
        (v) => formatAmount(v),
      ),
    },
  };
}
