import { eq, ne } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { emails, leases, subscriptions, type Subscription } from "~/db/schema";
import { formatDayInWords } from "~/lib/dates";
import { renderEmail } from "~/services/email/render.server";
import { createEmailSender } from "~/services/email/sender.server";
import { smtpTransport } from "~/services/email/transport.server";
import { checkSubscriptionLink } from "~/services/subscription-link.server";
import { queueDueRenewalReminders } from "~/services/subscriptions/reminders.server";
import {
  createSubscriptionScheduler,
  startSubscriptionScheduler,
  stopSubscriptionScheduler,
  type SubscriptionScheduler,
} from "~/services/subscriptions/scheduler.server";
import { startSmtpInbox } from "../helpers/smtp-inbox";
import { insertOrder } from "./admin-helpers";

/**
 * The reminder before each renewal: worked out from the database at each tick of the
 * scheduler, queued once per subscription and renewal, whatever the restarts and processes.
 */

const PUBLIC_URL = vi.hoisted(() => {
  const url = "https://boutique.maison-eclat.test";
  process.env.PUBLIC_URL = url;
  return url;
});

const DAY = 86_400_000;
const HOUR = 3_600_000;
/** The renewal of most tests: 23 December 2026, 10:00 in Paris. */
const RENEWS_AT = "2026-12-23T09:00:00.000Z";
const at = (iso: string, plusMs = 0) => new Date(new Date(iso).getTime() + plusMs);
const SIX_DAYS_BEFORE = at(RENEWS_AT, -6 * DAY);

const schedulers: SubscriptionScheduler[] = [];
function scheduler(holder = `test-${Math.random()}`) {
  const created = createSubscriptionScheduler({ holder });
  schedulers.push(created);
  return created;
}

beforeEach(async () => {
  await getDb().delete(emails);
  await getDb().delete(subscriptions);
  await getDb().delete(leases);
});
afterEach(async () => {
  for (const s of schedulers.splice(0)) await s.stop();
});

let stripeId = 0;
/** An active subscription of pack 2 (8 masks) at 25,90€, renewing at RENEWS_AT unless told. */
async function subscription(overrides: Partial<typeof subscriptions.$inferInsert> = {}): Promise<Subscription> {
  const firstOrderId = await insertOrder({
    isSubscription: true,
    paymentStatus: "paid",
    customerFirstName: "Camille",
    customerEmail: "camille@example.fr",
  });
  return (
    await getDb()
      .insert(subscriptions)
      .values({
        customerEmail: "camille@example.fr",
        customerName: "Camille Martin",
        productId: 1,
        packId: 2,
        quantity: 1,
        productName: "Masque Hydrogel au Collagène",
        variantName: "6 masques + 2 offerts",
        amountCents: 2590,
        stripeSubscriptionId: `sub_reminder_${++stripeId}`,
        status: "active",
        startedAt: "2026-11-23T09:00:00.000Z",
        currentPeriodEnd: RENEWS_AT,
        shippingName: "Camille Martin",
        shippingAddress: "3 rue des Roses",
        shippingPostalCode: "69001",
        shippingCity: "Lyon",
        shippingCountry: "France",
        firstOrderId,
        ...overrides,
      })
      .returning()
  )[0];
}

const reminders = async () => await getDb().select().from(emails).where(eq(emails.kind, "renewal_reminder")).orderBy(emails.id);

/** The leases a process holds (the daily statistics' is a date kept in that table, never held: scheduler.server.ts). */
const leasesHeld = async () => await getDb().select().from(leases).where(ne(leases.name, "database-statistics"));

describe("which renewals are reminded, and when", () => {
  it("a renewal 6 days ahead gets exactly one reminder: not at the next tick, nor after a restart", async () => {
    const sub = await subscription();
    expect(await scheduler("process-a").tick(SIX_DAYS_BEFORE)).toEqual({ holding: true, queued: 1 });
    const [row] = await reminders();
    expect(row).toMatchObject({
      toAddress: "camille@example.fr",
      orderId: sub.firstOrderId,
      status: "pending",
      dedupeKey: `renewal_reminder:subscription:${sub.id}:2026-12-23`,
      payload: { subscriptionId: sub.id, renewsAt: RENEWS_AT, amountCents: 2590 },
    });

    const first = schedulers[0];
    expect(await first.tick(at(SIX_DAYS_BEFORE.toISOString(), 60_000))).toEqual({ holding: true, queued: 0 });
    // A restart: the process stops (its lease released) and a new scheduler starts, later that day.
    await first.stop();
    expect(await scheduler("process-a-restarted").tick(at(SIX_DAYS_BEFORE.toISOString(), 5 * HOUR))).toEqual({
      holding: true,
      queued: 0,
    });
    expect(await reminders()).toHaveLength(1);
  });

  it("a renewal 10 days ahead waits until it is 7 days away; one less than 24 hours away is not reminded", async () => {
    const sub = await subscription();
    const ticker = scheduler();
    expect(await ticker.tick(at(RENEWS_AT, -10 * DAY))).toEqual({ holding: true, queued: 0 });
    expect(await ticker.tick(at(RENEWS_AT, -7 * DAY - 60_000))).toEqual({ holding: true, queued: 0 });
    expect(await ticker.tick(at(RENEWS_AT, -7 * DAY))).toEqual({ holding: true, queued: 1 });
    expect((await reminders()).map((r) => r.payload.subscriptionId)).toEqual([sub.id]);

    // Found only 23 hours before its renewal (the shop was stopped for a week): too late to be of use.
    const late = await subscription({ currentPeriodEnd: "2026-12-24T09:00:00.000Z" });
    expect(await ticker.tick(at("2026-12-24T09:00:00.000Z", -23 * HOUR))).toEqual({ holding: true, queued: 0 });
    // 25 hours before, it would still have been sent.
    expect(await ticker.tick(at("2026-12-24T09:00:00.000Z", -25 * HOUR))).toEqual({ holding: true, queued: 1 });
    expect((await reminders()).map((r) => r.payload.subscriptionId)).toEqual([sub.id, late.id]);
    // A past renewal date (a renewal whose webhook is late) is never reminded.
    await subscription({ currentPeriodEnd: "2026-12-20T09:00:00.000Z" });
    expect(await ticker.tick(at("2026-12-20T09:00:00.000Z", HOUR))).toEqual({ holding: true, queued: 0 });
  });

  it("the next period gets its own reminder, once", async () => {
    const sub = await subscription();
    const ticker = scheduler();
    await ticker.tick(SIX_DAYS_BEFORE);
    // Renewed: one more renewal, the next one 28 days later (as recordRenewalPaid does).
    const next = "2027-01-20T09:00:00.000Z";
    await getDb().update(subscriptions).set({ currentPeriodEnd: next, renewalCount: 1 }).where(eq(subscriptions.id, sub.id));
    expect(await ticker.tick(at(RENEWS_AT, HOUR))).toEqual({ holding: true, queued: 0 });
    expect(await ticker.tick(at(next, -6 * DAY))).toEqual({ holding: true, queued: 1 });
    expect(await ticker.tick(at(next, -5 * DAY))).toEqual({ holding: true, queued: 0 });
    expect((await reminders()).map((r) => [r.payload.renewsAt, r.dedupeKey])).toEqual([
      [RENEWS_AT, `renewal_reminder:subscription:${sub.id}:2026-12-23`],
      [next, `renewal_reminder:subscription:${sub.id}:2027-01-20`],
    ]);
  });

  it("a period end corrected by a few seconds (Stripe's own date replacing the estimate) is not reminded twice", async () => {
    const sub = await subscription();
    await queueDueRenewalReminders(SIX_DAYS_BEFORE);
    await getDb().update(subscriptions).set({ currentPeriodEnd: "2026-12-23T09:00:04.000Z" }).where(eq(subscriptions.id, sub.id));
    expect(await queueDueRenewalReminders(at(SIX_DAYS_BEFORE.toISOString(), 60_000))).toBe(0);
    expect(await reminders()).toHaveLength(1);
  });

  it("nothing for a subscription that will not renew: cancelled, ending at its period's end, past due or never paid", async () => {
    await subscription({ status: "canceled", canceledAt: "2026-12-01T10:00:00.000Z" });
    await subscription({ cancelAtPeriodEnd: true });
    await subscription({ status: "past_due", unpaidInvoiceId: "in_unpaid" });
    await subscription({ status: "incomplete" });
    expect(await scheduler().tick(SIX_DAYS_BEFORE)).toEqual({ holding: true, queued: 0 });
    expect(await reminders()).toHaveLength(0);
  });
});

describe("several processes", () => {
  it("two schedulers ticking at once: one holds the lease and queues the reminder; the other does nothing until the lease is free", async () => {
    await subscription();
    const a = scheduler("process-a");
    const b = scheduler("process-b");
    const results = [await a.tick(SIX_DAYS_BEFORE), await b.tick(SIX_DAYS_BEFORE)];
    expect(results).toEqual([{ holding: true, queued: 1 }, { holding: false }]);
    expect(await reminders()).toHaveLength(1);
    // Process a stops: b takes over at its next tick, and finds nothing more to queue.
    await a.stop();
    expect(await b.tick(at(SIX_DAYS_BEFORE.toISOString(), 60_000))).toEqual({ holding: true, queued: 0 });
    expect(await reminders()).toHaveLength(1);
  });

  it("even without the lease (its holder's lease expired mid-tick), the outbox's key keeps the reminder unique", async () => {
    await subscription();
    expect([await queueDueRenewalReminders(SIX_DAYS_BEFORE), await queueDueRenewalReminders(SIX_DAYS_BEFORE)]).toEqual([1, 0]);
    expect(await reminders()).toHaveLength(1);
  });
});

describe("the process's scheduler", () => {
  it("ticks at start and then periodically under its lease, and after stop neither ticks nor holds the lease", async () => {
    await subscription();
    // A tick reads its clock as it begins: the ticks begun so far.
    let ticks = 0;
    const now = () => {
      ticks++;
      return SIX_DAYS_BEFORE;
    };
    startSubscriptionScheduler({ intervalMs: 40, holder: "the-process", now });
    try {
      await vi.waitFor(async () => expect(await reminders()).toHaveLength(1), { timeout: 1_000, interval: 10 });
      expect(await leasesHeld()).toEqual([expect.objectContaining({ name: "subscription-scheduler", holder: "the-process" })]);
      // Still ticking: a reminder removed by hand is queued again at the next tick.
      await getDb().delete(emails);
      await vi.waitFor(async () => expect(await reminders()).toHaveLength(1), { timeout: 1_000, interval: 10 });
    } finally {
      await stopSubscriptionScheduler();
    }
    const ticksAtStop = ticks;
    expect(await leasesHeld()).toEqual([]);
    await getDb().delete(emails);
    // Timers fire in the order they fall due: one set now for an interval fires after any timer the
    // scheduler could have left, and a tick that timer began would be counted by then.
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(ticks).toBe(ticksAtStop);
    expect(await reminders()).toHaveLength(0);
    expect(await leasesHeld()).toEqual([]);
  });
  it("a stop during a tick waits for it: its reminder is queued, and the lease is free afterwards", async () => {
    await subscription();
    const s = createSubscriptionScheduler({ holder: "stopping" });
    let ticked = false;
    const tick = s.tick(SIX_DAYS_BEFORE).then(() => {
      ticked = true;
    });
    await s.stop();
    expect(ticked).toBe(true);
    expect(await reminders()).toHaveLength(1);
    expect(await leasesHeld()).toEqual([]);
    await tick;
    // Stopped: no tick any more.
    expect(await s.tick(SIX_DAYS_BEFORE)).toEqual({ holding: false });
  });
});

describe("the reminder email", () => {
  it("says the day in words, the first of the month as French writes it", () => {
    expect(formatDayInWords(RENEWS_AT)).toBe("23 décembre 2026");
    expect(formatDayInWords("2027-03-01T09:00:00.000Z")).toBe("1er mars 2027");
    // The day in Paris: 23:30 UTC on the 31st is already the 1st there.
    expect(formatDayInWords("2026-12-31T23:30:00.000Z")).toBe("1er janvier 2027");
  });

  it("gives the date in French, the amount, the pack and its masks, the address, and both ways to cancel", async () => {
    const sub = await subscription();
    await queueDueRenewalReminders(SIX_DAYS_BEFORE);
    const [row] = await reminders();
    const email = await renderEmail(row);
    expect(email.subject).toBe("Votre abonnement sera renouvelé le 23 décembre 2026");
    expect(email.attachments).toEqual([]);
    for (const part of [email.text, email.html]) {
      expect(part).toContain("23 décembre 2026");
      expect(part).toContain("25,90€");
      expect(part).toContain("6 masques + 2 offerts");
      expect(part).toContain("8 masques");
      expect(part).toContain("3 rue des Roses");
      expect(part).toContain("69001");
      expect(part).toMatch(/résilier votre abonnement à tout moment/);
      expect(part).toMatch(/rien ne sera prélevé/);
      expect(part).toContain(`${PUBLIC_URL}/abonnement/resilier?commande=${sub.firstOrderId}`);
      expect(part).toContain(`n°${sub.firstOrderId}`);
    }
    // The private page's link, signed for this subscription and valid now.
    const link = /https:\/\/boutique\.maison-eclat\.test\/mon-abonnement\?([^\s"<]+)/.exec(email.text);
    expect(link).not.toBeNull();
    const query = new URLSearchParams(link![1].replaceAll("&amp;", "&"));
    expect(checkSubscriptionLink(query)).toMatchObject({ ok: true, id: sub.id });
    expect(email.html).toContain(`href="${PUBLIC_URL}/mon-abonnement?id=${sub.id}&amp;expire=`);
  });

  it("reaches the customer through a real SMTP server", async () => {
    await subscription({ customerEmail: "abonnee@example.fr" });
    await queueDueRenewalReminders(SIX_DAYS_BEFORE);
    const inbox = await startSmtpInbox();
    const sender = createEmailSender({
      render: renderEmail,
      transport: smtpTransport(inbox.url),
      holder: "reminder-test",
      pollMs: 60_000,
    });
    try {
      await sender.runOnce();
      const [mail] = await inbox.waitFor(1);
      expect(mail.subject).toBe("Votre abonnement sera renouvelé le 23 décembre 2026");
      expect(inbox.recipients).toEqual([["abonnee@example.fr"]]);
      expect(mail.text).toContain("25,90€");
      expect(mail.text).toContain(`${PUBLIC_URL}/mon-abonnement?id=`);
      expect((await reminders())[0]).toMatchObject({ status: "sent", attempts: 1, transport: "smtp" });
    } finally {
      await sender.stop();
      await inbox.close();
    }
  });
});
