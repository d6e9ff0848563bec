import { and, eq, or, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { isSerializationFailure, retryConflict } from "~/db/postgres.server";
import { dialect, invoiceCounters } from "~/db/schema";
import { lockRows } from "~/db/locks.server";
import { afterCommit } from "~/db/transactions.server";

/**
 * The shop's transactions, the same on both engines (this file runs on SQLite and on PostgreSQL):
 * a read then a write in a transaction is never lost to another transaction doing the same, and
 * what waits for the commit runs once, after it, and never for a rollback.
 */

const YEAR = 2099;
const counter = and(eq(invoiceCounters.kind, "invoice"), eq(invoiceCounters.year, YEAR));

async function readCounter() {
  return (await getDb().select({ last: invoiceCounters.last }).from(invoiceCounters).where(counter))[0]?.last;
}

/**
 * Locks the counter's row (as the shop's rules lock what they read then write), reads it, waits
 * (another transaction runs meanwhile), then writes it plus one.
 */
async function incrementSlowly(log?: string[]) {
  await getDb().transaction(async (tx) => {
    await lockRows(tx, invoiceCounters, counter);
    const [row] = await tx.select({ last: invoiceCounters.last }).from(invoiceCounters).where(counter);
    log?.push("attempt");
    await new Promise((resolve) => setTimeout(resolve, 20));
    await tx
      .update(invoiceCounters)
      .set({ last: row!.last + 1 })
      .where(counter);
    afterCommit(tx, () => log?.push("committed"));
  });
}

describe(`transactions on ${dialect}`, () => {
  it("ten concurrent read-then-write transactions on one row, each locking it first, lose no write", async () => {
    await getDb().insert(invoiceCounters).values({ kind: "invoice", year: YEAR, last: 0 });
    const log: string[] = [];
    await Promise.all(Array.from({ length: 10 }, () => incrementSlowly(log)));
    expect(await readCounter()).toBe(10);
    // Each transaction's after-commit effect ran once, whatever the attempts it took.
    await new Promise((resolve) => setImmediate(resolve));
    expect(log.filter((line) => line === "committed")).toHaveLength(10);
    // Each waited for the row (SQLite: for the file) rather than fail: none had to be run again.
    expect(log.filter((line) => line === "attempt")).toHaveLength(10);
  });

  it("runs an after-commit effect after the commit: what it reads is there", async () => {
    const seen: Array<number | undefined> = [];
    await getDb().transaction(async (tx) => {
      await tx.update(invoiceCounters).set({ last: 100 }).where(counter);
      afterCommit(tx, () => void readCounter().then((value) => seen.push(value)));
      expect(seen).toEqual([]);
    });
    await expect.poll(() => seen).toEqual([100]);
  });

  it("drops the after-commit effects of a transaction rolled back", async () => {
    const ran: string[] = [];
    await expect(
      getDb().transaction(async (tx) => {
        await tx.update(invoiceCounters).set({ last: 200 }).where(counter);
        afterCommit(tx, () => ran.push("effect"));
        throw new Error("refusé");
      }),
    ).rejects.toThrow("refusé");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ran).toEqual([]);
    expect(await readCounter()).toBe(100);
  });

  it("keeps each transaction's effects to itself: the handle of one that ended collects no more", async () => {
    const ran: string[] = [];
    let handle: object | undefined;
    await getDb().transaction(async (tx) => {
      handle = tx;
      afterCommit(tx, () => ran.push("first"));
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(["first"]);
    // A late effect given the ended transaction's handle (SQLite reuses it) runs at once, and a
    // later transaction that rolls back does not take it with it.
    afterCommit(handle!, () => ran.push("late"));
    await expect(
      getDb().transaction(async () => {
        throw new Error("refusé");
      }),
    ).rejects.toThrow("refusé");
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(["first", "late"]);
  });

  it("runs an effect at once outside a transaction", async () => {
    const ran: string[] = [];
    afterCommit(getDb(), () => ran.push("effect"));
    await new Promise((resolve) => setImmediate(resolve));
    expect(ran).toEqual(["effect"]);
  });
});

describe.skipIf(dialect !== "postgresql")("a row lock on PostgreSQL", () => {
  it("is waited for at most 5 s, as SQLite's busy_timeout: then the transaction fails and the first one is unharmed", async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const first = getDb().transaction(async (tx) => {
      await tx.update(invoiceCounters).set({ last: 300 }).where(counter);
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const error = await getDb()
      .transaction(async (tx) => tx.update(invoiceCounters).set({ last: 400 }).where(counter))
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    const waited = Date.now() - started;
    expect(String((error as { cause?: unknown })?.cause ?? error)).toMatch(/lock timeout/);
    expect(waited).toBeGreaterThanOrEqual(4_500);
    expect(waited).toBeLessThan(8_000);
    release();
    await first;
    expect(await readCounter()).toBe(300);
  }, 15_000);
});

describe("serialization failures", () => {
  it("are recognised by their SQLSTATE, also when wrapped", () => {
    expect(isSerializationFailure(Object.assign(new Error("could not serialize access"), { code: "40001" }))).toBe(true);
    expect(isSerializationFailure(Object.assign(new Error("deadlock detected"), { code: "40P01" }))).toBe(true);
    expect(isSerializationFailure(new Error("Failed query", { cause: Object.assign(new Error("x"), { code: "40001" }) }))).toBe(
      true,
    );
    expect(isSerializationFailure(Object.assign(new Error("duplicate key"), { code: "23505" }))).toBe(false);
    expect(isSerializationFailure(new Error("refusé"))).toBe(false);
  });
});

describe("conflicts given up by PostgreSQL", () => {
  const failure = (code: string) => new Error("Failed query", { cause: Object.assign(new Error(code), { code }) });

  it("are run again a bounded number of times: 10 attempts for a serialization failure or a deadlock, 3 for a unique index, none for the rest", async () => {
    expect(await retryConflict(failure("40001"), 9)).toBe(true);
    expect(await retryConflict(failure("40001"), 10)).toBe(false);
    expect(await retryConflict(failure("40P01"), 1)).toBe(true);
    expect(await retryConflict(failure("23505"), 2)).toBe(true);
    expect(await retryConflict(failure("23505"), 3)).toBe(false);
    expect(await retryConflict(failure("55P03"), 1)).toBe(false);
    expect(await retryConflict(new Error("refusé"), 1)).toBe(false);
  });

  it.skipIf(dialect !== "postgresql")("a deadlock between two transactions: one is run again, both end committed", async () => {
    const years = [2097, 2098];
    await getDb()
      .insert(invoiceCounters)
      .values(years.map((year) => ({ kind: "invoice" as const, year, last: 0 })));
    const attempts: number[] = [];
    const row = (year: number) => and(eq(invoiceCounters.kind, "invoice"), eq(invoiceCounters.year, year));
    // Each locks one row, waits for the other to lock the other, then wants the other's row.
    let locked = 0;
    const both = async () => {
      locked++;
      await expect.poll(() => locked, { timeout: 2_000 }).toBeGreaterThanOrEqual(2);
    };
    const crosswise = (first: number, second: number) =>
      getDb().transaction(async (tx) => {
        attempts.push(first);
        await lockRows(tx, invoiceCounters, row(first));
        await both();
        await lockRows(tx, invoiceCounters, row(second));
        await tx
          .update(invoiceCounters)
          .set({ last: sql`${invoiceCounters.last} + 1` })
          .where(or(row(first), row(second)));
      });
    await Promise.all([crosswise(years[0], years[1]), crosswise(years[1], years[0])]);
    expect(attempts.length).toBe(3);
    const rows = await getDb()
      .select({ last: invoiceCounters.last })
      .from(invoiceCounters)
      .where(or(row(years[0]), row(years[1])));
    expect(rows.map((r) => r.last)).toEqual([2, 2]);
  });
});
