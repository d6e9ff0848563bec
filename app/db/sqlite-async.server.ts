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
 *   BEGIN IMMEDIATE (the file's write lock, shared with the other processes), and ends with
 *   COMMIT, or ROLLBACK when its callback throws;
 * - while another process holds the file's write lock, a transaction waits for it without
 *   blocking the process: SQLite's own busy_timeout would put the whole process to sleep, with
 *   every request it serves (the connection's busy_timeout is 0; `busyTimeoutMs`, 5 s by
 *   default, is the longest wait, then SQLite's "database is locked" error is thrown). The
 *   statements of the process outside a transaction go on meanwhile, and one that writes waits
 *   the same way;
 * - a statement outside a transaction waits until no transaction holds the connection;
 * - a transaction inside a transaction is a savepoint.
 * A transaction's callback must use its `tx`: a statement sent through the shared handle from
 * inside it would wait for the transaction's end, that is forever (the same mistake would run
 * outside the transaction on PostgreSQL). Such a wait is cut after 10 s with an error.
 */

export type AsyncSqlite<TSchema extends Record<string, unknown>> = SqliteRemoteDatabase<TSchema>;

/** How long a statement may wait for the connection before it is refused. */
const LOCK_WAIT_MS = 10_000;
/** How long a write waits for another process's write lock, as SQLite's busy_timeout did. */
const BUSY_TIMEOUT_MS = 5_000;

/** Each connection's longest wait for the write lock (setBusyTimeout). */
const busyTimeouts = new WeakMap<Database.Database, number>();

/** Sets how long this connection's writes wait for another process's write lock (tests shorten it). */
export function setBusyTimeout(sqlite: Database.Database, ms: number) {
  busyTimeouts.set(sqlite, ms);
}

const isBusy = (error: unknown) =>
  typeof (error as { code?: unknown })?.code === "string" && (error as { code: string }).code.startsWith("SQLITE_BUSY");

/** The pause before trying again for the write lock: a turn of the event loop, then a millisecond. */
const pause = (tries: number) => new Promise((resolve) => (tries < 3 ? setImmediate(resolve) : setTimeout(resolve, 1)));

/**
 * Runs `attempt` (a statement, or BEGIN IMMEDIATE) until the write lock another process holds is
 * free, trying again after a pause: the process serves its other requests in between. `ready`
 * waits, before each try, for what else the attempt needs. After the connection's busy timeout,
 * SQLite's last error is thrown.
 */
async function whenNotBusy<T>(sqlite: Database.Database, attempt: () => T, ready?: () => Promise<void> | undefined): Promise<T> {
  let started: number | undefined;
  for (let tries = 0; ; tries++) {
    const waiting = ready?.();
    if (waiting) await waiting;
    try {
      return attempt();
    } catch (error) {
      if (!isBusy(error)) throw error;
      started ??= Date.now();
      if (Date.now() - started >= (busyTimeouts.get(sqlite) ?? BUSY_TIMEOUT_MS)) throw error;
    }
    await pause(tries);
  }
}

type Method = "run" | "all" | "values" | "get";

export class ConnectionWaitError extends Error {
  constructor(waitedMs: number) {
    super(`A query waited more than ${waitedMs} ms for a transaction of this process to end.`);
    this.name = "ConnectionWaitError";
  }
}

/** The largest LIMIT written into a statement's text (limitWritten): beyond it, the value stays bound. */
const WRITTEN_LIMIT_MAX = 1000;

/**
 * The statement with its outer LIMIT written as a number instead of bound (drizzle binds it:
 * `limit ?`, `limit ? offset ?`). SQLite's planner reads a LIMIT's bound value, so each new
 * binding of it compiles the statement again, at every run: for the 40 columns of an order read
 * by its number, 23 µs instead of 4. Written into the text, it is compiled once.
 */
export function limitWritten(source: string, params: unknown[]): { source: string; params: unknown[] } {
  const withOffset = source.endsWith(" limit ? offset ?");
  if (!withOffset && !source.endsWith(" limit ?")) return { source, params };
  const at = params.length - (withOffset ? 2 : 1);
  const limit = params[at];
  if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 0 || limit > WRITTEN_LIMIT_MAX) return { source, params };
  const tail = withOffset ? " limit ? offset ?" : " limit ?";
  return {
    source: `${source.slice(0, -tail.length)} limit ${limit}${withOffset ? " offset ?" : ""}`,
    params: [...params.slice(0, at), ...params.slice(at + 1)],
  };
}

/** The statement run on the connection, with rows as arrays (drizzle maps them to objects). */
function execute(sqlite: Database.Database, text: string, bound: unknown[], method: Method): { rows: unknown[] } {
  const { source, params } = limitWritten(text, bound);
  // Compiled once per SQL text: the shop's connections reuse their statements (reuseStatements, client.server.ts).
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
  { lockWaitMs = LOCK_WAIT_MS, busyTimeoutMs = BUSY_TIMEOUT_MS }: { lockWaitMs?: number; busyTimeoutMs?: number } = {},
): AsyncSqlite<TSchema> {
  // Waits for another process's lock are made here, without blocking the process.
  sqlite.pragma("busy_timeout = 0");
  if (!busyTimeouts.has(sqlite)) busyTimeouts.set(sqlite, busyTimeoutMs);
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

  /** Resolves once no transaction of this process is under way on the connection. */
  async function transactionEnd() {
    while (held && sqlite.inTransaction) await connectionFree();
  }

  // Statements of the shared handle wait for the connection; those of a transaction own it.
  // A transaction still waiting for the write lock has not begun: statements outside it go on.
  const shared = drizzle(
    (source, params, method) =>
      whenNotBusy(
        sqlite,
        () => execute(sqlite, source, params, method),
        () => (held && sqlite.inTransaction ? transactionEnd() : undefined),
      ),
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
      await whenNotBusy(sqlite, () => sqlite.exec("BEGIN IMMEDIATE"));
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
