import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import type { SqliteRemoteResult } from "drizzle-orm/sqlite-proxy";
import { ConfigError, getConfig } from "~/config.server";
import * as schema from "./schema";
import { seed } from "./seed.server";
import { asyncSqlite, type AsyncSqlite } from "./sqlite-async.server";

/**
 * The shop's database as the services see it: every query is awaited, and writes that belong
 * together run in `await db.transaction(async (tx) => …)`. Queries are awaited as they are
 * (an array of rows); `.get()`, `.all()`, `.run()` and what a write returns besides
 * `.returning()` belong to one engine only and are not used.
 */
export type Db = AsyncSqlite<typeof schema>;

/** The database or a transaction: writes that belong together take the transaction. */
export type DbOrTx = BaseSQLiteDatabase<"async", SqliteRemoteResult, typeof schema>;

/** Opens a SQLite file, applies the migrations in drizzle/ and the idempotent seed. */
export function openDatabase(file: string, options: { adminUsername: string; adminPassword: string }) {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  reuseStatements(sqlite);
  // Migrations and the seed run once, at opening, before any request.
  const setup = drizzle(sqlite, { schema });
  migrate(setup, { migrationsFolder: path.resolve(process.cwd(), "drizzle") });
  seed(setup, options);
  // Several processes share the file (one per core): transactions begin with BEGIN IMMEDIATE
  // (app/db/sqlite-async.server.ts), which takes the write lock first, waiting up to busy_timeout.
  return { db: asyncSqlite(sqlite, schema), sqlite };
}

/**
 * drizzle prepares each query it runs, and SQLite compiles a statement at each prepare: the
 * same SQL text now reuses its compiled statement (the 500 most recently used are kept).
 * A statement is handed back as new: rows as objects until drizzle asks for arrays (`raw()`).
 */
export function reuseStatements(sqlite: Database.Database, max = 500) {
  const compile = sqlite.prepare.bind(sqlite);
  const statements = new Map<string, Database.Statement>();
  sqlite.prepare = ((source: string) => {
    let statement = statements.get(source);
    if (statement) {
      statements.delete(source);
      if (statement.reader) statement.raw(false);
    } else {
      statement = compile(source);
      if (statements.size >= max) statements.delete(statements.keys().next().value!);
    }
    statements.set(source, statement);
    return statement;
  }) as Database.Database["prepare"];
}

declare global {
  // One handle for the whole process, kept across dev rebuilds.
  var __shopDb: { db: Db; sqlite: Database.Database } | undefined;
}

export function getDb(): Db {
  if (!globalThis.__shopDb) {
    const config = getConfig();
    if (config.database.dialect === "postgresql") {
      throw new ConfigError(
        "DATABASE_URL désigne une base PostgreSQL, mais dans cette version les services de la boutique fonctionnent sur SQLite : " +
          "indiquez un fichier SQLite (DATABASE_URL=./data/shop.db). Pour préparer le passage, " +
          "npm run db:copy-to-postgres -- <fichier SQLite> <URL PostgreSQL> copie les données de la boutique dans PostgreSQL.",
      );
    }
    globalThis.__shopDb = openDatabase(config.databasePath, {
      adminUsername: config.adminUsername,
      adminPassword: config.adminPassword,
    });
  }
  return globalThis.__shopDb.db;
}

/** Closes the process's database (at shutdown); a later getDb() opens it again. */
export function closeDb() {
  const handle = globalThis.__shopDb;
  globalThis.__shopDb = undefined;
  if (handle?.sqlite.open) handle.sqlite.close();
}

/** For tests: use this database instead of the configured one. */
export function setDb(handle: { db: Db; sqlite: Database.Database } | undefined) {
  globalThis.__shopDb = handle;
}
