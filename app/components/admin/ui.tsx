import { Link } from "@remix-run/react";

/** True once React has hydrated: lets a page hide the no-JavaScript fallbacks (submit buttons of auto-submitting forms). */
export { useHydrated } from "~/components/ui/useHydrated";

export function PageHeader({
  title,
  back,
  add,
  actions,
  children,
}: {
  title: string;
  back?: { to: string; label: string };
  /** The list page's 'Ajouter …' button, to its new page. */
  add?: { to: string; label: string };
  actions?: React.ReactNode;
  children?: React.ReactNode;
}) {
  return (
    <div className="mb-6">
      {back ? (
        <Link to={back.to} className="mb-3 inline-flex items-center gap-1 text-sm font-medium text-ink-soft hover:text-ink">
          <span aria-hidden="true">←</span> {back.label}
        </Link>
      ) : null}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
        {add || actions ? (
          <div className="flex flex-wrap gap-2">
            {add ? (
              <Link to={add.to} className={buttonPrimary}>
                {add.label}
              </Link>
            ) : null}
            {actions}
          </div>
        ) : null}
      </div>
      {children}
    </div>
  );
}

export function Card({
  title,
  children,
  className = "",
  actions,
}: {
  title?: string;
  children: React.ReactNode;
  className?: string;
  actions?: React.ReactNode;
}) {
  return (
    <section className={`rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6 ${className}`}>
      {title ? (
        <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
          <h2 className="text-lg font-semibold">{title}</h2>
          {actions}
        </div>
      ) : null}
      {children}
    </section>
  );
}

const TONES = {
  green: "bg-emerald-100 text-emerald-800 ring-emerald-600/20",
  yellow: "bg-amber-100 text-amber-800 ring-amber-600/20",
  red: "bg-red-100 text-red-800 ring-red-600/20",
  blue: "bg-sky-100 text-sky-800 ring-sky-600/20",
  gray: "bg-slate-100 text-slate-700 ring-slate-500/20",
  violet: "bg-violet-100 text-violet-800 ring-violet-600/20",
} as const;

export type Tone = keyof typeof TONES;

export function Badge({ tone, children }: { tone: Tone; children: React.ReactNode }) {
  return (
    <span
      className={`inline-flex items-center whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold ring-1 ring-inset ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}

/** Stock: above 10 green, 1 to 10 yellow, 0 red (spec section 4). */
export function StockBadge({ stock }: { stock: number }) {
  const tone: Tone = stock > 10 ? "green" : stock > 0 ? "yellow" : "red";
  const label = stock > 10 ? "En stock" : stock > 0 ? "Stock faible" : "Rupture";
  return (
    <Badge tone={tone}>
      {stock} · {label}
    </Badge>
  );
}

export const buttonPrimary =
  "inline-flex items-center justify-center gap-2 rounded-lg bg-ink px-4 py-2 text-sm font-semibold text-white shadow-sm transition hover:bg-ink/90 disabled:cursor-not-allowed disabled:opacity-60";
export const buttonSecondary =
  "inline-flex items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-ink transition hover:bg-slate-50 disabled:cursor-not-allowed disabled:opacity-60";
export const buttonDanger =
  "inline-flex items-center justify-center gap-2 rounded-lg bg-red-700 px-4 py-2 text-sm font-semibold text-white shadow-sm transition hover:bg-red-800 disabled:cursor-not-allowed disabled:opacity-60";
export const buttonSmall =
  "inline-flex items-center justify-center whitespace-nowrap rounded-md border border-slate-300 bg-white px-2.5 py-1 text-xs font-semibold text-ink hover:bg-slate-50";
export const selectClass =
  "block rounded-lg border border-slate-300 bg-white px-3 py-2 text-sm text-ink focus:border-rose-600 focus:outline-none focus:ring-2 focus:ring-rose-200";

export function Notice({ tone = "red", children }: { tone?: "red" | "green"; children: React.ReactNode }) {
  return (
    <div
      role={tone === "red" ? "alert" : "status"}
      className={`mb-4 rounded-lg px-4 py-3 text-sm ${tone === "red" ? "bg-red-50 text-red-800" : "bg-emerald-50 text-emerald-800"}`}
    >
      {children}
    </div>
  );
}
