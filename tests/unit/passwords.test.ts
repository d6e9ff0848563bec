import type * as NodeCrypto from "node:crypto";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import {
  HashingBusyError,
  hashPassword,
  hashPasswordSync,
  MAX_CONCURRENT_HASHES,
  MAX_WAITING_HASHES,
  verifyPassword,
} from "~/lib/passwords.server";
import { action as apiLogin } from "~/routes/api.admin.login";
import { fromAddress, jsonRequest, routeArgs } from "../helpers/requests";

/**
 * scrypt, counted: how many derivations run at this moment, and the most at once. With `cheap`,
 * each runs with small cost parameters (hashing and checking alike), so that a burst of them
 * stays quick on a busy machine; the semaphore sees the same calls.
 */
const probe = vi.hoisted(() => ({ running: 0, peak: 0, cheap: false, hold: undefined as Promise<void> | undefined }));

vi.mock("node:crypto", async (importOriginal) => {
  const actual = await importOriginal<typeof NodeCrypto>();
  const scrypt = (
    password: string,
    salt: Buffer,
    length: number,
    options: object,
    done: (error: Error | null, key: Buffer) => void,
  ) => {
    probe.running++;
    probe.peak = Math.max(probe.peak, probe.running);
    // While a test holds them, derivations start but do not end.
    void (probe.hold ?? Promise.resolve()).then(() =>
      actual.scrypt(password, salt, length, probe.cheap ? { N: 1024, r: 8, p: 1 } : options, (error, key) => {
        probe.running--;
        done(error, key);
      }),
    );
  };
  return { ...actual, default: { ...actual, scrypt }, scrypt };
});

/** Counts from zero, with cheap derivations until the test ends. */
function countCheaply() {
  probe.running = 0;
  probe.peak = 0;
  probe.cheap = true;
  onTestFinished(() => {
    probe.cheap = false;
  });
}

describe("password hashing", () => {
  it("verifies what it hashed, asynchronously and synchronously", async () => {
    const stored = await hashPassword("motdepasse-solide");
    expect(await verifyPassword("motdepasse-solide", stored)).toBe(true);
    expect(await verifyPassword("autre", stored)).toBe(false);
    expect(await verifyPassword("motdepasse-seed", hashPasswordSync("motdepasse-seed"))).toBe(true);
  });

  it(`runs at most ${MAX_CONCURRENT_HASHES} scrypt derivations at once; the others wait their turn`, async () => {
    countCheaply();
    const stored = await hashPassword("le-bon");
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => verifyPassword(i % 2 ? "le-bon" : "un-autre", stored)));
    expect(results).toEqual([false, true, false, true, false, true, false, true]);
    expect(probe.peak).toBe(MAX_CONCURRENT_HASHES);
    expect(probe.running).toBe(0);
  });

  it("refuses at once (503, réessayez) what would wait past the queue's bound", async () => {
    countCheaply();
    const stored = await hashPassword("le-bon");
    const burst = MAX_CONCURRENT_HASHES + MAX_WAITING_HASHES + 3;
    const outcomes = await Promise.allSettled(Array.from({ length: burst }, () => verifyPassword("le-bon", stored)));
    const refused = outcomes.filter((o) => o.status === "rejected").map((o) => (o as PromiseRejectedResult).reason);
    expect(refused).toHaveLength(3);
    for (const error of refused) {
      expect(error).toBeInstanceOf(HashingBusyError);
      expect(error).toMatchObject({ status: 503, retryAfterSeconds: 5 });
      expect((error as Error).message).toMatch(/Réessayez/);
    }
    expect(outcomes.filter((o) => o.status === "fulfilled" && o.value === true)).toHaveLength(burst - 3);
    expect(probe.peak).toBe(MAX_CONCURRENT_HASHES);
    // The line is free again.
    expect(await verifyPassword("le-bon", stored)).toBe(true);
  });

  it("a burst of sign-ins: at most N hashes at once, the excess answered 503 with Retry-After, never a 500", async () => {
    countCheaply();
    const burst = MAX_CONCURRENT_HASHES + MAX_WAITING_HASHES + 4;
    // The derivations under way last until every sign-in has arrived (each first reads its user in the database).
    let release!: () => void;
    probe.hold = new Promise<void>((resolve) => (release = resolve));
    onTestFinished(() => {
      release();
      probe.hold = undefined;
    });
    let answered = 0;
    const pending = Array.from({ length: burst }, (_, i) =>
      apiLogin(
        routeArgs(
          jsonRequest("/api/admin/login", "POST", { username: `visiteur-${i}`, password: "faux-mot-de-passe" }),
          {},
          fromAddress(`198.18.${i}.1`),
        ),
      ).then((response) => {
        answered++;
        return response;
      }),
    );
    await vi.waitFor(() => expect(answered).toBe(4), { timeout: 10_000 });
    release();
    const responses = await Promise.all(pending);
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 401)).toHaveLength(burst - 4);
    const busy = responses.filter((r) => r.status === 503);
    expect(busy).toHaveLength(4);
    expect(busy[0].headers.get("Retry-After")).toBe("5");
    expect(await busy[0].json()).toMatchObject({
      success: false,
      error: "Trop de connexions en cours. Réessayez dans quelques secondes.",
      issues: [],
    });
    expect(probe.peak).toBe(MAX_CONCURRENT_HASHES);
  });
});
