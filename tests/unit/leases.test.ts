import Database from "better-sqlite3";
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { dialect, leases } from "~/db/schema";

import { acquireLease } from "~/services/leases.server";

/** Another server process's connection to the shop's SQLite file, holding its write lock (null on PostgreSQL). */
function otherProcessWriting() {
  if (dialect !== "sqlite") return null;
  const other = new Database(process.env.DATABASE_URL!);
  other.exec("BEGIN IMMEDIATE");
  return {
    end() {
      other.exec("ROLLBACK");
      other.close();
    },
  };
}

describe("leases (the email sender's, the scheduler's, the payment start locks)", () => {
  it("one held by another holder is refused at once, even while another process writes; once expired it is taken over", async () => {
    expect(await acquireLease("essai-bail", 60_000, "hote-a:1:aaaa")).toBe(true);
    const writing = otherProcessWriting();
    let refused: boolean;
    const started = Date.now();
    try {
      // Each process's sender asks at every email queued: its answer needs no write lock.
      refused = !(await acquireLease("essai-bail", 60_000, "hote-b:2:bbbb"));
    } finally {
      writing?.end();
    }
    expect(refused).toBe(true);
    expect(Date.now() - started).toBeLessThan(1_000);
    // The holder renews it; the other still cannot take it.
    expect(await acquireLease("essai-bail", 60_000, "hote-a:1:aaaa")).toBe(true);
    expect(await acquireLease("essai-bail", 60_000, "hote-b:2:bbbb")).toBe(false);
    // The holder died: its lease expires, and the other takes it over.
    await getDb()
      .update(leases)
      .set({ expiresAt: Date.now() - 1 })
      .where(eq(leases.name, "essai-bail"));
    expect(await acquireLease("essai-bail", 60_000, "hote-b:2:bbbb")).toBe(true);
    expect(await acquireLease("essai-bail", 60_000, "hote-a:1:aaaa")).toBe(false);
  });
});
