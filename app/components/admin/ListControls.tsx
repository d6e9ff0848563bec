import { Form, Link, useLocation } from "@remix-run/react";
import { buttonPrimary, buttonSecondary, selectClass } from "./ui";

/**
 * The controls around an admin list: the filter bar above it (a GET form, so filters live in
 * the URL and work without JavaScript) and the pagination below it.
 */

/** The filter bar: its fields, then 'Filtrer' and, while a filter is on, 'Réinitialiser' back to `resetTo`. */
export function FilterBar({
  grid,
  filtered,
  resetTo,
  children,
}: {
  grid: string;
  filtered: boolean;
  resetTo: string;
  children: React.ReactNode;
}) {
  return (
    <Form
      method="get"
      className={`mb-4 grid gap-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm ${grid}`}
      role="search"
    >
      {children}
      <div className="flex items-end gap-2">
        <button type="submit" className={buttonPrimary}>
          Filtrer
        </button>
        {filtered ? (
          <Link to={resetTo} className={buttonSecondary}>
            Réinitialiser
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

/** A labelled choice of the filter bar, 'Tous' first (no filter). */
export function FilterSelect({
  name,
  label,
  value,
  options,
}: {
  name: string;
  label: string;
  value: string | null | undefined;
  options: { value: string; label: string }[];
}) {
  return (
    <div>
      <label htmlFor={name} className="block text-sm font-medium">
        {label}
      </label>
      <select id={name} name={name} defaultValue={value ?? ""} className={`${selectClass} mt-1 w-full py-2.5`}>
        <option value="">Tous</option>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** The page's address with another ?page=, the filters kept. */
function pageLink(search: string, page: number) {
  const params = new URLSearchParams(search);
  params.set("page", String(page));
  return `?${params.toString()}`;
}

/** 'Précédente', 'Page n sur m', 'Suivante'; nothing when the list fits on one page. */
export function Pagination({ page, pageCount }: { page: number; pageCount: number }) {
  const { search } = useLocation();
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pagination" className="mt-4 flex items-center justify-between gap-2 text-sm">
      {page > 1 ? (
        <Link to={pageLink(search, page - 1)} className={buttonSecondary} rel="prev">
          ← Précédente
        </Link>
      ) : (
        <span />
      )}
      <span className="text-ink-soft">
        Page {page} sur {pageCount}
      </span>
      {page < pageCount ? (
        <Link to={pageLink(search, page + 1)} className={buttonSecondary} rel="next">
          Suivante →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
