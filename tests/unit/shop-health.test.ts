import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { emails, rateLimits, stripeEvents, subscriptions } from "~/db/schema";
import { createBackup } from "~/services/backups/create.server";
import { markEmailAttemptFailed } from "~/services/email/outbox.server";
import {
  backupLevel,
  emailLevel,
  modeLevel,
  rateLimitLevel,
  renewalLevel,
  webhookLevel,
  worstLevel,
} from "~/services/health/rules.server";
import { formatDuration, formatSize, shopHealth, type HealthItem } from "~/services/health/shop-health.server";
import { countWebhook } from "~/services/observability/metrics.server";

/** The owner's health page (/admin/sante): its colours and what each item says, on the engine of the run. */

const HOUR = 3_600_000;
const MINUTE = 60_000;

describe("the health rules", () => {
  it("backup: red when missing or older than twice BACKUP_EVERY, amber once late, amber when turned off", () => {
    expect(backupLevel(null, 24)).toBe("red");
    expect(backupLevel(2 * HOUR, 24)).toBe("green");
    expect(backupLevel(25 * HOUR, 24)).toBe("green");
    expect(backupLevel(26 * HOUR, 24)).toBe("amber");
    expect(backupLevel(48 * HOUR, 24)).toBe("amber");
    expect(backupLevel(48 * HOUR + 1, 24)).toBe("red");
    expect(backupLevel(null, 0)).toBe("amber");
  });

  it("emails: amber past 10 min of waiting or from 1 failure in 24 h, red past 1 h or from 5 failures", () => {
    expect(emailLevel(null, 0)).toBe("green");
    expect(emailLevel(10 * MINUTE, 0)).toBe("green");
    expect(emailLevel(10 * MINUTE + 1, 0)).toBe("amber");
    expect(emailLevel(null, 1)).toBe("amber");
    expect(emailLevel(null, 4)).toBe("amber");
    expect(emailLevel(null, 5)).toBe("red");
    expect(emailLevel(HOUR + 1, 0)).toBe("red");
  });

  it("webhooks, renewals, rate limits, mode and the worst of them", () => {
    expect(webhookLevel(0, null)).toBe("green");
    expect(webhookLevel(1, 5 * MINUTE)).toBe("amber");
    expect(webhookLevel(1, HOUR + 1)).toBe("red");
    expect([0, 1, 4, 5].map(renewalLevel)).toEqual(["green", "amber", "amber", "red"]);
    expect([0, 1, 49, 50].map(rateLimitLevel)).toEqual(["green", "amber", "amber", "red"]);
    expect(modeLevel("demo", 0, true)).toBe("amber");
    expect(modeLevel("live", 0, false)).toBe("green");
    expect(modeLevel("live", 1, false)).toBe("red");
    expect(modeLevel("live", 0, true)).toBe("red");
    expect(worstLevel(["green", "amber"])).toBe("amber");
    expect(worstLevel(["green", "red", "amber"])).toBe("red");
    expect(worstLevel(["green"])).toBe("green");
  });

  it("durations and sizes in words", () => {
    expect(formatDuration(3 * MINUTE)).toBe("3 min");
    expect(formatDuration(2 * HOUR + 5 * MINUTE)).toBe("2 h 5 min");
    expect(formatDuration(51 * HOUR)).toBe("2 j 3 h");
    expect(formatSize(512)).toBe("512 o");
    expect(formatSize(3.5 * 1024 * 1024)).toMatch(/^3,5\sMo$/);
  });
});

describe("shopHealth", () => {
  const item = async (key: HealthItem["key"], now = new Date()) => (await shopHealth(now)).items.find((i) => i.key === key)!;

  it("tells the last backup's date, size and checksum; amber while BACKUP_EVERY is 0 (the unit tests' setting)", async () => {
    const none = await item("backup");
    expect(none).toMatchObject({ level: "amber", summary: "Aucune sauvegarde de la base de données." });
    const backup = await createBackup();
    const told = await item("backup");
    expect(told.level).toBe("amber");
    expect(told.details).toContain(`Empreinte SHA-256 : ${backup.sha256}`);
    expect(told.details).toContain("Les sauvegardes automatiques sont désactivées (BACKUP_EVERY=0).");
    expect(told.details.some((d) => /^Taille : [\d,]+\s(o|Ko|Mo)$/.test(d))).toBe(true);
  });

  it("emails: green, amber after one failed attempt, red after five or once one has waited more than an hour", async () => {
    expect(await item("emails")).toMatchObject({ level: "green", summary: "Les emails partent normalement." });
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const [row] = await getDb()
        .insert(emails)
        .values({
          kind: "contact_ack",
          dedupeKey: `health-${i}-${Math.random()}`,
          toAddress: `client${i}@example.fr`,
          status: "sending",
        })
        .returning({ id: emails.id });
      ids.push(row!.id);
    }
    // Just queued, an attempt under way: nothing wrong yet.
    expect((await item("emails")).level).toBe("green");
    await markEmailAttemptFailed(ids[0]!, "connect ECONNREFUSED 127.0.0.1:2525", new Date(Date.now() + 60_000));
    const amber = await item("emails");
    expect(amber.level).toBe("amber");
    expect(amber.summary).toBe("Des emails n'ont pas pu partir : 1 échec d'envoi en 24 h.");
    expect(amber.link).toEqual({ to: "/admin/emails", label: "Voir les emails" });
    for (const id of ids.slice(1)) await markEmailAttemptFailed(id, "connect ECONNREFUSED 127.0.0.1:2525", null);
    expect(await item("emails")).toMatchObject({
      level: "red",
      summary: "Des emails n'ont pas pu partir : 5 échecs d'envoi en 24 h.",
    });
    // Two days later the failures are old, but the first email still waits: red for its wait.
    const later = await item("emails", new Date(Date.now() + 48 * HOUR));
    expect(later.level).toBe("red");
    expect(later.details[0]).toMatch(/^1 email en attente, le plus ancien depuis 2 j/);
  });

  it("webhooks: a failed one is amber, red after an hour, green once processed", async () => {
    expect((await item("webhooks")).level).toBe("green");
    const id = `evt_health_${Math.random().toString(36).slice(2)}`;
    countWebhook("invoice.paid", "error", id);
    expect(await item("webhooks")).toMatchObject({ level: "amber" });
    expect((await item("webhooks", new Date(Date.now() + 2 * HOUR))).level).toBe("red");
    await getDb().insert(stripeEvents).values({ id, type: "invoice.paid" });
    const done = await item("webhooks");
    expect(done.level).toBe("green");
    expect(done.details[0]).toMatch(/^Dernière notification traitée : \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  });

  it("renewals failed in 7 days and the addresses that reached a limit in the last hour", async () => {
    expect((await item("renewals")).level).toBe("green");
    await getDb()
      .insert(subscriptions)
      .values({
        amountCents: 2990,
        stripeSubscriptionId: `sub_health_${Math.random()}`,
        status: "past_due",
        unpaidInvoiceId: "in_1",
      });
    expect(await item("renewals")).toMatchObject({
      level: "amber",
      summary: "1 renouvellement en échec de paiement ces 7 derniers jours, encore impayé.",
    });
    expect((await item("renewals", new Date(Date.now() + 8 * 24 * HOUR))).level).toBe("green");

    expect((await item("rate-limits")).level).toBe("green");
    const now = Date.now();
    const row = (key: string, count: number) => ({ key, windowStart: now - 1000, count, lastHitAt: now, expiresAt: now + HOUR });
    // At its limit (10 contact messages), and one below the cart limit (300): only the first counts.
    await getDb()
      .insert(rateLimits)
      .values([row("contact-form:203.0.113.9", 10), row("new-cart:203.0.113.10", 299)]);
    expect(await item("rate-limits")).toMatchObject({
      level: "amber",
      summary: "1 adresse a atteint une limite dans la dernière heure : leurs demandes suivantes sont refusées un moment.",
    });
    expect((await item("rate-limits", new Date(now + 2 * HOUR))).level).toBe("green");
  });

  it("the demo mode is amber and says payments are not real", async () => {
    expect(await item("mode")).toMatchObject({
      level: "amber",
      summary: "Mode démonstration : les paiements ne sont pas réels.",
    });
  });
});
