import { sql, type Column, type SQL } from "drizzle-orm";
import { dialect } from "~/db/schema";
import type { Span } from "./period.server";

/**
 * The spans a query groups by, as a table the query joins (`(VALUES (0, start, end), …) AS b`):
 * each row is found by an index range on the joined table's date, the same SQL on SQLite and
 * PostgreSQL. Its columns are VALUES's own names: `b.column1` the span's position,
 * `b.column2` its first instant, `b.column3` the instant it ends (excluded).
 */
/** An ISO instant as a query parameter compared with a date column, on both engines. */
export function instant(iso: string): SQL {
  return dialect === "postgresql" ? sql`cast(${iso} as timestamptz)` : sql`${iso}`;
}

export function spansTable(spans: Span[]): SQL {
  const rows = spans.map((s, i) => sql`(${sql.raw(String(i))}, ${instant(s.start)}, ${instant(s.end)})`);
  return sql`(values ${sql.join(rows, sql`, `)}) as b`;
}

export const SPAN_INDEX = sql<number>`b.column1`.mapWith(Number);
export const SPAN_START = sql`b.column2`;
export const SPAN_END = sql`b.column3`;

/**
 * `column` within the span of each row of spansTable (`spans`). PostgreSQL is also told the
 * range all the spans cover, as constants: from the spans' bounds alone (values it cannot see
 * when it plans) its planner reads the whole table; SQLite reads each span's range of the index
 * and is told nothing more (it could otherwise walk the whole range once per span).
 */
export function inSpan(column: SQL | Column, spans: Span[]): SQL {
  const each = sql`${column} >= ${SPAN_START} and ${column} < ${SPAN_END}`;
  if (dialect !== "postgresql" || spans.length === 0) return each;
  const start = spans.map((s) => s.start).reduce((a, b) => (b < a ? b : a));
  const end = spans.map((s) => s.end).reduce((a, b) => (b > a ? b : a));
  return sql`${each} and ${column} >= ${instant(start)} and ${column} < ${instant(end)}`;
}

/**
 * `column` for a comparison that must not pick its index on SQLite (`+column`, SQLite's way of
 * saying so): a query that a narrower covering index serves better (the reminded orders, the
 * orders with a code) would otherwise walk every order of the period by `paid_at`. PostgreSQL's
 * planner chooses from its statistics; the column stays as it is there.
 */
export function unindexed(column: SQL | Column): SQL {
  return dialect === "postgresql" ? sql`${column}` : sql`+${column}`;
}

/** A sum that is 0 over no row, as a number on both engines (PostgreSQL's sums are bigint, read as text). */
export function total(expression: SQL): SQL<number> {
  return sql<number>`coalesce(sum(${expression}), 0)`.mapWith(Number);
}

/** How many rows have a non-null `expression`. */
export function countOf(expression: SQL): SQL<number> {
  return sql<number>`count(${expression})`.mapWith(Number);
}

/** The rows of a grouped query, by span position, with `empty` for the spans no row reached. */
export function bySpan<T extends { i: number }>(rows: T[], count: number, empty: Omit<T, "i">): Omit<T, "i">[] {
  const out: Omit<T, "i">[] = Array.from({ length: count }, () => ({ ...empty }));
  for (const { i, ...rest } of rows) out[i] = rest as Omit<T, "i">;
  return out;
}
