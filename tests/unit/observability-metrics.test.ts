import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { stripeEvents } from "~/db/schema";
import { countRenewal, countWebhook, processMetrics } from "~/services/observability/metrics.server";

/**
 * The figures /metrics gives that are read when Prometheus asks (tests/server/observability.test.ts
 * covers the endpoint and the counters of a running shop).
 */

const backupDir = mkdtempSync(path.join(os.tmpdir(), "shop-metrics-backups-"));
beforeAll(() => {
  process.env.BACKUP_DIR = backupDir;
});
afterAll(() => {
  rmSync(backupDir, { recursive: true, force: true });
});

async function value(line: string): Promise<number | undefined> {
  const { text } = await processMetrics();
  const found = text.split("\n").find((l) => l.startsWith(`${line} `));
  if (found === undefined) return undefined;
  const raw = found.slice(line.length + 1);
  return raw === "+Inf" ? Infinity : Number(raw);
}

describe("metrics read when asked", () => {
  it("the age of the last backup: +Inf without any, then the age of the newest snapshot with its checksum", async () => {
    expect(await value("shop_backup_last_age_seconds")).toBe(Infinity);
    mkdirSync(backupDir, { recursive: true });
    const taken = new Date(Date.now() - 3 * 3600_000);
    const name = `shop-${taken.toISOString().replace(/:/g, "-").replace(".", "-")}.db.gz`;
    writeFileSync(path.join(backupDir, name), "snapshot");
    writeFileSync(path.join(backupDir, `${name}.sha256`), `${"a".repeat(64)}  ${name}\n`);
    const age = (await value("shop_backup_last_age_seconds"))!;
    expect(age).toBeGreaterThanOrEqual(3 * 3600);
    expect(age).toBeLessThan(3 * 3600 + 60);
  });

  it("a webhook that failed is unprocessed until its event is recorded, whichever process handles Stripe's retry", async () => {
    expect(await value("shop_webhook_oldest_unprocessed_age_seconds")).toBe(0);
    countWebhook("payment_intent.succeeded", "error", "evt_metrics_1");
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(await value("shop_webhook_oldest_unprocessed_age_seconds")).toBeGreaterThanOrEqual(0.05);
    expect(await value('shop_webhooks_received_total{type="payment_intent.succeeded",outcome="error"}')).toBe(1);
    // Another process handled the retry: the event is in the database.
    await getDb().insert(stripeEvents).values({ id: "evt_metrics_1", type: "payment_intent.succeeded" });
    expect(await value("shop_webhook_oldest_unprocessed_age_seconds")).toBe(0);
  });

  it("counts renewals paid and failed", async () => {
    countRenewal("paid");
    countRenewal("failed");
    countRenewal("failed");
    expect(await value('shop_renewals_total{outcome="paid"}')).toBe(1);
    expect(await value('shop_renewals_total{outcome="failed"}')).toBe(2);
  });
});
