import { readFileSync } from "node:fs";
import { generateDrizzleJson, generateMigration } from "drizzle-kit/api";
import { is, SQL, type InferInsertModel, type InferSelectModel } from "drizzle-orm";
import { getTableConfig as pgTableConfig, PgTable } from "drizzle-orm/pg-core";
import { getTableConfig as sqliteTableConfig, SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, expectTypeOf, it } from "vitest";
import * as sqlite from "~/db/schema.sqlite";
import * as pg from "~/db/schema.pg";

/**
 * The PostgreSQL schema (db/schema.pg.ts) describes the same database as the SQLite one
 * (db/schema.ts): a table, column, key or index added to one must be added to the other.
 */

/** For each SQLite column kind, the PostgreSQL types it may be stored as. */
const ALLOWED_TYPES: Record<string, string[]> = {
  SQLiteInteger: ["integer", "bigint"],
  SQLiteBoolean: ["boolean"],
  SQLiteText: ["text", "timestamp (3) with time zone"],
  SQLiteTextJson: ["jsonb"],
  SQLiteReal: ["real", "double precision"],
  // A gzipped text (db/compressed-text.ts): a TEXT column of SQLite, bytea in PostgreSQL.
  SQLiteCustomColumn: ["bytea"],
};

type SqliteTables = { [K in keyof typeof sqlite]: (typeof sqlite)[K] extends SQLiteTable ? K : never }[keyof typeof sqlite];

const sqliteTables = Object.entries(sqlite as Record<string, unknown>).filter((entry): entry is [string, SQLiteTable] =>
  is(entry[1], SQLiteTable),
);
const pgTables = Object.entries(pg as Record<string, unknown>).filter((entry): entry is [string, PgTable] =>
  is(entry[1], PgTable),
);

/** The text of a default or a condition written as SQL, e.g. `'[]'` → `[]`. */
function sqlText(value: SQL): string {
  const text = value.queryChunks
    .map((chunk) =>
      typeof chunk === "object" && chunk !== null && "value" in chunk ? [chunk.value].flat().join("") : String(chunk),
    )
    .join("")
    .trim();
  return text.replace(/^'(.*)'$/s, "$1");
}

/** A column's default as comparable text: a literal in JSON, SQL by its text. */
function defaultText(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (is(value, SQL)) return sqlText(value);
  return typeof value === "string" ? value : JSON.stringify(value);
}

const onAction = (action: string | undefined) => action ?? "no action";

function describeSqlite(table: SQLiteTable) {
  const config = sqliteTableConfig(table);
  return {
    columns: config.columns.map((c) => ({
      name: c.name,
      notNull: c.notNull,
      primary: c.primary,
      generated: c.primary && c.columnType === "SQLiteInteger" && (c as unknown as { autoIncrement: boolean }).autoIncrement,
      hasDefault: c.primary && c.columnType === "SQLiteInteger" ? "key" : c.hasDefault,
      default: defaultText(c.default),
      defaultFn: c.defaultFn !== undefined,
      onUpdateFn: c.onUpdateFn !== undefined,
      unique: c.isUnique ? c.uniqueName : null,
      enumValues: c.enumValues ?? null,
    })),
    primaryKeys: config.primaryKeys.map((k) => ({ name: k.getName(), columns: k.columns.map((c) => c.name) })),
    uniqueConstraints: config.uniqueConstraints.map((u) => ({ name: u.getName(), columns: u.columns.map((c) => c.name) })),
    foreignKeys: config.foreignKeys.map((f) => {
      const reference = f.reference();
      return {
        name: f.getName(),
        columns: reference.columns.map((c) => c.name),
        table: sqliteTableConfig(reference.foreignTable).name,
        foreignColumns: reference.foreignColumns.map((c) => c.name),
        onDelete: onAction(f.onDelete),
        onUpdate: onAction(f.onUpdate),
      };
    }),
    indexes: config.indexes.map((i) => ({
      name: i.config.name,
      unique: i.config.unique,
      columns: i.config.columns.map((c) => ("name" in c ? c.name : sqlText(c as SQL))),
      where: i.config.where ? sqlText(i.config.where) : null,
    })),
  };
}

function describePg(table: PgTable) {
  const config = pgTableConfig(table);
  return {
    columns: config.columns.map((c) => ({
      name: c.name,
      notNull: c.notNull,
      primary: c.primary,
      generated: c.primary && c.getSQLType() === "integer" && c.generatedIdentity?.type === "byDefault",
      hasDefault: c.primary && c.getSQLType() === "integer" ? "key" : c.hasDefault,
      default: defaultText(c.default),
      defaultFn: c.defaultFn !== undefined,
      onUpdateFn: c.onUpdateFn !== undefined,
      unique: c.isUnique ? c.uniqueName : null,
      enumValues: c.enumValues ?? null,
    })),
    primaryKeys: config.primaryKeys.map((k) => ({ name: k.getName(), columns: k.columns.map((c) => c.name) })),
    uniqueConstraints: config.uniqueConstraints.map((u) => ({ name: u.getName(), columns: u.columns.map((c) => c.name) })),
    foreignKeys: config.foreignKeys.map((f) => {
      const reference = f.reference();
      return {
        name: f.getName(),
        columns: reference.columns.map((c) => c.name),
        table: pgTableConfig(reference.foreignTable).name,
        foreignColumns: reference.foreignColumns.map((c) => c.name),
        onDelete: onAction(f.onDelete),
        onUpdate: onAction(f.onUpdate),
      };
    }),
    indexes: config.indexes.map((i) => ({
      name: i.config.name,
      unique: i.config.unique,
      // The one function named differently: a substring's position is strpos(text, sub) in PostgreSQL, instr(text, sub) in SQLite.
      columns: i.config.columns.map((c) => ("name" in c ? c.name : sqlText(c as SQL).replaceAll("strpos(", "instr("))),
      where: i.config.where ? sqlText(i.config.where) : null,
    })),
  };
}

describe("the PostgreSQL schema matches the SQLite schema", () => {
  it("exports the same tables under the same names", () => {
    const names = (tables: [string, SQLiteTable | PgTable][], name: (t: never) => string) =>
      tables.map(([key, table]) => `${key}:${name(table as never)}`).sort();
    expect(names(pgTables, (t: PgTable) => pgTableConfig(t).name)).toEqual(
      names(sqliteTables, (t: SQLiteTable) => sqliteTableConfig(t).name),
    );
    expect(sqliteTables.length).toBeGreaterThan(20);
  });

  it.each(sqliteTables.map(([key]) => key))("%s: same columns, keys, defaults, constraints and indexes", (key) => {
    const table = sqlite[key as SqliteTables];
    const other = pg[key as SqliteTables];
    expect(describePg(other)).toEqual(describeSqlite(table));
  });

  it.each(sqliteTables.map(([key]) => key))("%s: each column stored in a comparable type", (key) => {
    const columns = sqliteTableConfig(sqlite[key as SqliteTables]).columns;
    const pgColumns = new Map(pgTableConfig(pg[key as SqliteTables]).columns.map((c) => [c.name, c]));
    for (const column of columns) {
      const allowed = ALLOWED_TYPES[column.columnType];
      expect(allowed, `${key}.${column.name}: no PostgreSQL type listed for ${column.columnType}`).toBeDefined();
      expect(allowed, `${key}.${column.name}`).toContain(pgColumns.get(column.name)?.getSQLType());
    }
  });

  it("stores as timestamps only the ISO timestamp columns, and as bigint only the milliseconds", () => {
    const pgTypes = pgTables.flatMap(([, table]) =>
      pgTableConfig(table).columns.map((c) => ({ table: pgTableConfig(table).name, name: c.name, type: c.getSQLType() })),
    );
    for (const column of pgTypes.filter((c) => c.type.startsWith("timestamp"))) {
      expect(column.name, `${column.table}.${column.name}`).toMatch(/(^at|_at|_since|_end)$/);
    }
    expect(pgTypes.filter((c) => c.type === "bigint").map((c) => `${c.table}.${c.name}`)).toEqual([
      "rate_limits.window_start",
      "rate_limits.last_hit_at",
      "rate_limits.expires_at",
      "leases.expires_at",
    ]);
  });

  it("reads timestamps back as the ISO strings SQLite keeps", () => {
    expect(pg.isoInstant("2026-11-25 21:23:01.123+00")).toBe("2026-11-25T21:23:01.123Z");
    expect(pg.isoInstant("2026-11-25 22:23:01.5+01")).toBe("2026-11-25T21:23:01.500Z");
    expect(pg.isoInstant("2026-11-25T22:23:01+01:00")).toBe("2026-11-25T21:23:01.000Z");
    expect(pg.isoInstant("2026-11-25 16:53:01.123-04:30")).toBe("2026-11-25T21:23:01.123Z");
    expect(() => pg.isoInstant("demain")).toThrow(/illisible/);
  });

  it("has its migrations in drizzle-pg up to date (npm run db:generate:pg -- --name <nom>)", async () => {
    const journal = JSON.parse(readFileSync("drizzle-pg/meta/_journal.json", "utf8")) as { entries: { idx: number }[] };
    const last = journal.entries.at(-1)!;
    const snapshot = JSON.parse(readFileSync(`drizzle-pg/meta/${String(last.idx).padStart(4, "0")}_snapshot.json`, "utf8"));
    const current = generateDrizzleJson(pg as Record<string, unknown>, snapshot.id);
    expect(await generateMigration(snapshot, current)).toEqual([]);
  });

  it("gives the services the same row types", () => {
    type Rows<S> = {
      [K in SqliteTables]: S extends typeof sqlite ? InferSelectModel<(typeof sqlite)[K]> : InferSelectModel<(typeof pg)[K]>;
    };
    // Ids chosen by the shop (a random order number, the one settings row) are given by every
    // insert: SQLite would number a row without one (rowid), PostgreSQL requires it.
    type ChosenIds = "orders" | "siteSettings" | "pageCacheVersion";
    type Insert<T> = T extends { id?: infer Id } ? Omit<T, "id"> & { id: Exclude<Id, undefined> } : T;
    type Inserts<S> = {
      [K in SqliteTables]: S extends typeof sqlite
        ? K extends ChosenIds
          ? Insert<InferInsertModel<(typeof sqlite)[K]>>
          : InferInsertModel<(typeof sqlite)[K]>
        : InferInsertModel<(typeof pg)[K]>;
    };
    expectTypeOf<Rows<typeof pg>>().toEqualTypeOf<Rows<typeof sqlite>>();
    expectTypeOf<Inserts<typeof pg>>().toEqualTypeOf<Inserts<typeof sqlite>>();
  });
});
