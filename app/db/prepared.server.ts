import { sql } from "drizzle-orm";
import type { DbOrTx } from "./client.server";

/**
 * The hot queries of a purchase (the order by its number, the settings), built once per
 * database handle rather than at each call: drizzle builds a query's SQL text from its tables'
 * columns each time it runs one, which cost more than SQLite's work for these short reads. A
 * prepared query keeps its SQL and takes its values (`sql.placeholder`) at each run.
 *
 * The query is bound to the handle it was prepared on: the process's database, or a
 * transaction's handle (SQLite has one for every transaction of the connection; PostgreSQL a new
 * one per transaction, whose queries are then built once per transaction). Run it with
 * `.execute(values)`, which gives mapped rows on both engines.
 */
const byHandle = new WeakMap<object, Map<string, unknown>>();

export function prepared<Q>(db: DbOrTx, name: string, build: (db: DbOrTx) => Q): Q {
  let queries = byHandle.get(db);
  if (!queries) {
    queries = new Map();
    byHandle.set(db, queries);
  }
  let query = queries.get(name) as Q | undefined;
  if (query === undefined) {
    query = build(db);
    queries.set(name, query);
  }
  return query;
}

/**
 * A value given at each run of a prepared write, where drizzle's types want the column's value
 * (an update's `set`, an upsert's `set`): drizzle then encodes it as it does the column's own
 * values (a boolean, JSON, compressed text). A prepared write gives its timestamps this way
 * (`updated_at` among them): their automatic values would be those of the preparation.
 */
export function param<T>(name: string): T {
  return sql.placeholder(name) as unknown as T;
}
