import { Link } from "@remix-run/react";
import { iconButton, PencilIcon, TrashIcon } from "./icons";

/**
 * The back office's list table, shared by the orders, products, users, contacts, emails and
 * subscriptions pages: a labelled region, a header cell per column, one row per item (or the
 * empty message) and, when the page gives `actions`, an 'Actions' column.
 *
 * It fits the screen instead of scrolling sideways: from 768 px wide it is a table whose cells
 * wrap (a 1280 px screen shows every column, Actions included); below, each row becomes a card
 * that keeps every column, one 'label: value' line each.
 */

/** One column: its header text, what its cell shows for a row, and classes added to that cell. */
export type Column<Row> = {
  header: string;
  cell: (row: Row) => React.ReactNode;
  className?: string;
};

/** Extra attributes of a row's <tr>: classes added to the row's own, and data-* attributes for the tests. */
export type RowProps = { className?: string } & { [data: `data-${string}`]: string };

const thClass = "whitespace-nowrap bg-slate-50 px-3 py-3 text-xs font-semibold uppercase tracking-wide text-slate-600";
/** A card's line on a phone (label left, value right), a wrapping cell from 768 px. */
const tdClass =
  "flex items-start justify-between gap-4 py-1.5 text-right [overflow-wrap:anywhere] md:table-cell md:px-3 md:py-3 md:text-left md:align-middle";
/** A card's label: the column's header, drawn from data-label by CSS (so the cell's text stays its value). */
const cardLabelClass =
  "before:shrink-0 before:pt-0.5 before:text-left before:text-xs before:font-semibold before:uppercase before:tracking-wide before:text-slate-500 before:content-[attr(data-label)] md:before:hidden";

export type DataTableProps<Row> = {
  /** The accessible name of the scrolling region, e.g. 'Liste des produits'. */
  label: string;
  columns: Column<Row>[];
  rows: Row[];
  /** The message of the single row shown when there is nothing to list. */
  empty: React.ReactNode;
  /** The row's buttons and links, laid out side by side in the last column. */
  actions?: (row: Row) => React.ReactNode;
  rowProps?: (row: Row) => RowProps;
};

/** A list page's columns and row actions, defined once beside its loader; the page adds its texts and rows. */
export type TableDefinition<Row> = Pick<DataTableProps<Row>, "columns" | "actions" | "rowProps">;

export function DataTable<Row extends { id: number }>({ label, columns, rows, empty, actions, rowProps }: DataTableProps<Row>) {
  const colSpan = columns.length + (actions ? 1 : 0);
  return (
    <div
      className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm"
      role="region"
      aria-label={label}
      tabIndex={0}
      data-testid="data-table"
    >
      <table className="block w-full text-left text-sm md:table md:divide-y md:divide-slate-200">
        <thead className="hidden md:table-header-group">
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={thClass}>
                {column.header}
              </th>
            ))}
            {actions ? (
              <th scope="col" className={thClass}>
                Actions
              </th>
            ) : null}
          </tr>
        </thead>
        <tbody className="block divide-y divide-slate-200 md:table-row-group md:divide-slate-100">
          {rows.length === 0 ? (
            <tr className="block md:table-row">
              <td colSpan={colSpan} className="block px-4 py-10 text-center text-ink-soft md:table-cell">
                {empty}
              </td>
            </tr>
          ) : (
            rows.map((row) => {
              const { className, ...attributes } = rowProps?.(row) ?? {};
              return (
                <tr
                  key={row.id}
                  className={`block px-4 py-3 hover:bg-slate-50 md:table-row md:p-0 ${className ?? ""}`}
                  {...attributes}
                >
                  {columns.map((column) => (
                    <td
                      key={column.header}
                      data-label={column.header}
                      className={`${tdClass} ${cardLabelClass} ${column.className ?? ""}`}
                    >
                      <div className="min-w-0">{column.cell(row)}</div>
                    </td>
                  ))}
                  {actions ? (
                    <td data-label="Actions" className={`${tdClass} ${cardLabelClass} font-normal`}>
                      <div className="flex flex-wrap items-center justify-end gap-2 md:justify-start">{actions(row)}</div>
                    </td>
                  ) : null}
                </tr>
              );
            })
          )}
        </tbody>
      </table>
    </div>
  );
}

/**
 * A row's pencil link to its edit page and, unless `deletable` is false, its bin link; both are
 * named after the row for screen readers ('Modifier …', 'Supprimer …').
 */
export function EditDeleteLinks({
  id,
  editTo,
  name,
  deletable = true,
}: {
  id: number;
  editTo: string;
  name: string;
  deletable?: boolean;
}) {
  return (
    <>
      <Link to={editTo} className={iconButton} aria-label={`Modifier ${name}`} title="Modifier">
        <PencilIcon />
      </Link>
      {deletable ? <DeleteLink id={id} label={`Supprimer ${name}`} /> : null}
    </>
  );
}

/** A row's bin link: opens the page's delete confirmation through ?delete={id} (works without JavaScript). */
export function DeleteLink({ id, label }: { id: number; label: string }) {
  return (
    <Link to={`?delete=${id}`} preventScrollReset className={`${iconButton} text-red-700`} aria-label={label} title="Supprimer">
      <TrashIcon />
    </Link>
  );
}
