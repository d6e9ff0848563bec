import path from "node:path";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/better-sqlite3";
import { migrate } from "drizzle-orm/better-sqlite3/migrator";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import type { SqliteRemoteResult } from "drizzle-orm/sqlite-proxy";
import { getConfig } from "~/config.server";
import { parseDatabaseUrl, type DatabaseTarget } from "./database-url";
import { openPostgres } from "./postgres.server";
import * as schema from "./schema";
import { dialect } from "./schema";
import { seed } from "./seed.server";
import { asyncSqlite, type AsyncSqlite } from "./sqlite-async.server";
import { withTransactionRules } from "./transactions.server";

/**
 * The shop's database as the services see it: every query is awaited, and writes that belong
 * together run in `await db.transaction(async (tx) => …)`. Queries are awaited as they are
 * (an array of rows); `.get()`, `.all()`, `.run()` and what a write returns besides
 * `.returning()` belong to one engine only and are not used.
 */
export type Db = AsyncSqlite<typeof schema>;

/** The database or a transaction: writes that belong together take the transaction. */
export type DbOrTx = BaseSQLiteDatabase<"async", SqliteRemoteResult, typeof schema>;

export type OpenOptions = { adminUsername: string; adminPassword: string; poolSize?: number };

/** An open database: its handle for the services, and how to close it. */
export type DbHandle = {
  db: Db;
  dialect: "sqlite" | "postgresql";
  close(): Promise<void>;
  /** SQLite's connection (better-sqlite3), for what only SQLite has: its pragmas, its file's lock. */
  sqlite?: Database.Database;
};

/**
 * Opens the database `target` names (a DATABASE_URL, or its parsed form), applies its migrations
 * and the idempotent seed: SQLite (a file, drizzle/) or PostgreSQL (a URL, drizzle-pg/). The
 * tables the services use are those of the engine DATABASE_URL names (schema.ts): a process
 * opens one engine.
 */
export async function openDatabase(target: string | DatabaseTarget, options: OpenOptions): Promise<DbHandle> {
  const parsed = typeof target === "string" ? parseDatabaseUrl(target) : target;
  if (parsed.dialect !== dialect) {
    throw new Error(`This process serves a ${dialect} database (DATABASE_URL when it started), not ${parsed.dialect}.`);
  }
  if (parsed.dialect === "postgresql") {
    const { db, close } = await openPostgres(parsed.url, options);
    return { db, dialect: "postgresql", close };
  }
  const { db, sqlite } = await openSqlite(parsed.path, options);
  return { db, dialect: "sqlite", sqlite, close: async () => void (sqlite.open && sqlite.close()) };
}

/** Opens a SQLite file, applies the migrations in drizzle/ and the idempotent seed. */
export async function openSqlite(file: string, options: OpenOptions) {
  const sqlite = new Database(file);
  sqlite.pragma("journal_mode = WAL");
  sqlite.pragma("busy_timeout = 5000");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("synchronous = NORMAL");
  reuseStatements(sqlite);
  // Migrations run once, at opening, before any request.
  migrate(drizzle(sqlite), { migrationsFolder: path.resolve(process.cwd(), "drizzle") });
  keepStatistics(sqlite);
  // Several processes share the file (one per core): transactions begin with BEGIN IMMEDIATE
  // (app/db/sqlite-async.server.ts), which takes the write lock first, waiting up to busy_timeout.
  const db = withTransactionRules(asyncSqlite(sqlite, schema));
  try {
    await db.transaction((tx) => seed(tx, options));
  } catch (error) {
    sqlite.close();
    throw error;
  }
  return { db, sqlite };
}

/**
 * The planner chooses indexes from statistics: without them a new index can make a page a
 * thousand times slower. At each opening (so after the migrations too), PRAGMA optimize
 * analyses the tables whose statistics are missing or stale, reading a bounded number of rows
 * per index (analysis_limit), so it stays quick on a large file.
 */
export function keepStatistics(sqlite: Database.Database) {
  sqlite.pragma("analysis_limit = 1000");
  sqlite.pragma("optimize = 0x10002");
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
  // One database for the whole process, kept across dev rebuilds.
  var __shopDb: DbHandle | undefined;
  var __shopDbOpening: Promise<DbHandle> | undefined;
}

/**
 * Opens the configured database (DATABASE_URL) for this process, once: at start-up
 * (services/lifecycle.server.ts), before any request. A bad DATABASE_URL throws its ConfigError.
 */
export async function openDb(): Promise<Db> {
  if (globalThis.__shopDb) return globalThis.__shopDb.db;
  if (!globalThis.__shopDbOpening) {
    const config = getConfig();
    const opening = openDatabase(config.database, {
      adminUsername: config.adminUsername,
      adminPassword: config.adminPassword,
      poolSize: config.databasePoolSize,
    });
    globalThis.__shopDbOpening = opening;
    opening.then(
      (handle) => {
        if (globalThis.__shopDbOpening === opening) globalThis.__shopDb = handle;
      },
      () => undefined,
    );
    void opening
      .finally(() => {
        if (globalThis.__shopDbOpening === opening) globalThis.__shopDbOpening = undefined;
      })
      .catch(() => undefined);
  }
  return (await globalThis.__shopDbOpening).db;
}

/** The process's database, opened at start-up by openDb(). */
export function getDb(): Db {
  const handle = globalThis.__shopDb;
  if (!handle) throw new Error("The database is not open yet: the server opens it (openDb) before it serves requests.");
  return handle.db;
}

/** Closes the process's database (at shutdown); a later openDb() opens it again. */
export async function closeDb() {
  const handle = globalThis.__shopDb;
  globalThis.__shopDb = undefined;
  await handle?.close();
}

/** For tests: use this database instead of the configured one. */
export function setDb(handle: DbHandle | undefined) {
  globalThis.__shopDb = handle;
}
