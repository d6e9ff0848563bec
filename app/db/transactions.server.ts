/**
 * What the shop's transactions do the same way on both engines: what must wait for the commit
 * (waking the email sender, whose own queries only see committed rows) runs after it, once, and
 * never for a transaction rolled back. On PostgreSQL, a transaction the database gave up (a
 * serialization failure, a deadlock) is run again from the start (app/db/postgres.server.ts).
 */

/**
 * The after-commit effects of each transaction under way, by its handle (the `tx` its callback
 * gets). Not an AsyncLocalStorage: that would make Node track every promise of the process.
 */
const pendingAfterCommit = new WeakMap<object, Array<() => void>>();

/**
 * Runs `effect` once the transaction of `db` commits, when `db` is a transaction's handle (at
 * the next turn of the event loop otherwise): it is dropped if the transaction rolls back, or
 * is run again from the start.
 */
export function afterCommit(db: object, effect: () => void) {
  const pending = pendingAfterCommit.get(db);
  if (pending) pending.push(effect);
  else setImmediate(effect);
}

/** The transaction has ended: its handle (which SQLite reuses for the next one) no longer collects effects. */
function forget(handle: object | undefined, pending: Array<() => void>) {
  if (handle && pendingAfterCommit.get(handle) === pending) pendingAfterCommit.delete(handle);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each driver types its transaction callback its own way
type Transaction = (run: (tx: any) => Promise<unknown>, config?: any) => Promise<unknown>;

/**
 * Wraps the `transaction` method of a database handle (not a transaction's own, whose nested
 * transactions are savepoints): each attempt collects its after-commit effects, run after the
 * commit; `retry` says whether a failed attempt is tried again (PostgreSQL's serialization
 * failures), `config` is given to every attempt.
 */
export function withTransactionRules<D extends { transaction: Transaction }>(
  db: D,
  {
    config,
    retry,
  }: { config?: Parameters<D["transaction"]>[1]; retry?: (error: unknown, attempt: number) => Promise<boolean> | boolean } = {},
): D {
  const begin = db.transaction.bind(db);
  db.transaction = (async (run: Parameters<Transaction>[0], given?: Parameters<D["transaction"]>[1]) => {
    // A transaction opened through the handle while one is under way in the same flow is its own
    // transaction (another connection on PostgreSQL): its effects follow its own commit.
    for (let attempt = 1; ; attempt++) {
      const pending: Array<() => void> = [];
      let handle: object | undefined;
      try {
        const result = await begin((tx) => {
          handle = tx as object;
          pendingAfterCommit.set(handle, pending);
          return run(tx);
        }, given ?? config);
        forget(handle, pending);
        for (const effect of pending) setImmediate(effect);
        return result;
      } catch (error) {
        forget(handle, pending);
        if (!retry || !(await retry(error, attempt))) throw error;
      }
    }
  }) as D["transaction"];
  return db;
}
