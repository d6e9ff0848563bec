import { Link } from "@remix-run/react";
import { formatAmount, formatChange, formatCount, formatPercent } from "~/lib/analytics-format";
import type { DashboardFigure } from "~/services/analytics/dashboard.server";

/** The dashboard's four figures of the analytics, each with its trend line and a link to the page. */
export function AnalyticsSummary({ figures }: { figures: Record<"revenue" | "active" | "mrr" | "churn", DashboardFigure> }) {
  const cards = [
    {
      key: "revenue",
      label: "Chiffre d'affaires net, 7 jours",
      shown: formatAmount(figures.revenue.value.current),
      figure: figures.revenue,
      versus: "7 jours précédents",
    },
    {
      key: "active",
      label: "Abonnés actifs",
      shown: formatCount(figures.active.value.current),
      figure: figures.active,
      versus: "il y a 30 jours",
    },
    { key: "mrr", label: "MRR", shown: formatAmount(figures.mrr.value.current), figure: figures.mrr, versus: "il y a 30 jours" },
    {
      key: "churn",
      label: "Désabonnement mensuel",
      shown: formatPercent(figures.churn.value.current),
      figure: figures.churn,
      versus: "30 jours précédents",
    },
  ];
  return (
    <section aria-labelledby="analytics-summary" className="mt-6">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="analytics-summary" className="text-lg font-semibold">
          L'activité
        </h2>
        <Link to="/admin/analytique" className="text-sm font-medium text-rose-700 underline">
          Voir l'analytique
        </Link>
      </div>
      <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        {cards.map((card) => (
          <Link
            key={card.key}
            to="/admin/analytique"
            className="block rounded-xl border border-slate-200 bg-white p-3 shadow-sm transition hover:border-slate-300 hover:shadow sm:p-4"
          >
            <p className="text-xs font-medium text-ink-soft sm:text-sm">{card.label}</p>
            <p className="mt-1 text-lg font-semibold tabular-nums sm:text-2xl">{card.shown}</p>
            <svg
              viewBox="0 0 120 32"
              className="mt-2 h-8 w-full max-w-[160px] text-rose-600"
              aria-hidden="true"
              preserveAspectRatio="none"
            >
              <path d={card.figure.trend} fill="none" stroke="currentColor" strokeWidth={1.5} />
            </svg>
            <p className="mt-1 text-xs text-ink-soft">
              {card.figure.value.change === null
                ? "Pas de comparaison possible"
                : `${formatChange(card.figure.value.change)} par rapport à ${card.versus}`}
            </p>
          </Link>
        ))}
      </div>
    </section>
  );
}
