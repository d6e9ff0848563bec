import type Database from "better-sqlite3";
import { drizzle, type SqliteRemoteDatabase } from "drizzle-orm/sqlite-proxy";

/**
 * The SQLite file behind the same asynchronous interface as PostgreSQL: the services await
 * their queries and run their transactions as `await db.transaction(async (tx) => …)`,
 * whichever database the shop runs on.
 *
 * better-sqlite3 runs each statement synchronously on the process's one connection; drizzle's
 * SQLite proxy driver gives the asynchronous interface on top of it. What SQLite cannot do by
 * itself is keep a transaction apart while its callback awaits: another request of the same
 * process could then run a statement on the same connection, inside the transaction (and lose
 * it at a rollback). So:
 * - a transaction takes the process's connection for itself (an asynchronous lock), then
 *   BEGIN IMMEDIATE (the file's write lock, shared with the other processes, waited for up to
 *   busy_timeout), and ends with COMMIT, or ROLLBACK when its callback throws;
 * - a statement outside a transaction waits until no transaction holds the connection;
 * - a transaction inside a transaction is a savepoint.
 * A transaction's callback must use its `tx`: a statement sent through the shared handle from
 * inside it would wait for the transaction's end, that is forever (the same mistake would run
 * outside the transaction on PostgreSQL). Such a wait is cut after 10 s with an error.
 */

export type AsyncSqlite<TSchema extends Record<string, unknown>> = SqliteRemoteDatabase<TSchema>;

/** How long a statement may wait for the connection before it is refused. */
const LOCK_WAIT_MS = 10_000;

type Method = "run" | "all" | "values" | "get";

export class ConnectionWaitError extends Error {
  constructor(waitedMs: number) {
    super(`A query waited more than ${waitedMs} ms for a transaction of this process to end.`);
    this.name = "ConnectionWaitError";
  }
}

/** The statement run on the connection, with rows as arrays (drizzle maps them to objects). */
function execute(sqlite: Database.Database, source: string, params: unknown[], method: Method): { rows: unknown[] } {
  const statement = sqlite.prepare(source);
  if (method === "run" || !statement.reader) {
    statement.run(...params);
    return { rows: [] };
  }
  statement.raw(true);
  if (method === "get") return { rows: (statement.get(...params) as unknown[] | undefined) ?? [] };
  return { rows: statement.all(...params) as unknown[] };
}

export function asyncSqlite<TSchema extends Record<string, unknown>>(
  sqlite: Database.Database,
  schema: TSchema,
  { lockWaitMs = LOCK_WAIT_MS }: { lockWaitMs?: number } = {},
): AsyncSqlite<TSchema> {
  /** Released when the transaction holding the connection ends; null when none does. */
  let held: Promise<void> | null = null;

  /**
   * Resolves once no transaction holds the connection. The caller checks again when it
   * resumes (`while (held) await connectionFree()`) and then acts without awaiting: several
   * waiters wake at the same release, and the first one may take the connection again.
   */
  async function connectionFree() {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new ConnectionWaitError(lockWaitMs)), lockWaitMs);
    });
    try {
      while (held) await Promise.race([held, timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  // Statements of the shared handle wait for the connection; those of a transaction own it.
  const shared = drizzle(
    async (source, params, method) => {
      while (held) await connectionFree();
      return execute(sqlite, source, params, method);
    },
    { schema },
  );
  const owned = drizzle(async (source, params, method) => execute(sqlite, source, params, method), { schema });

  let savepoints = 0;
  owned.transaction = (async (run: (tx: unknown) => Promise<unknown>) => {
    const name = `sp${++savepoints}`;
    sqlite.exec(`SAVEPOINT ${name}`);
    try {
      const result = await run(owned);
      sqlite.exec(`RELEASE ${name}`);
      return result;
    } catch (error) {
      sqlite.exec(`ROLLBACK TO ${name}`);
      sqlite.exec(`RELEASE ${name}`);
      throw error;
    }
  }) as typeof owned.transaction;

  shared.transaction = (async (run: (tx: unknown) => Promise<unknown>) => {
    while (held) await connectionFree();
    let release!: () => void;
    held = new Promise<void>((resolve) => (release = resolve));
    try {
      sqlite.exec("BEGIN IMMEDIATE");
      try {
        const result = await run(owned);
        sqlite.exec("COMMIT");
        return result;
      } catch (error) {
        if (sqlite.inTransaction) sqlite.exec("ROLLBACK");
        throw error;
      }
    } finally {
      held = null;
      release();
    }
  }) as typeof shared.transaction;

  return shared;
}
