import { and, eq } from "drizzle-orm";
import type Stripe from "stripe";
import { getConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import { orders, type Subscription } from "~/db/schema";
import { ShopError } from "~/lib/shop-error";
import { retrieveOrNull } from "~/services/stripe-errors.server";
import { getStripe } from "~/services/stripe.server";
import { findSubscription } from "./record.server";

/**
 * Simulating a subscription's next renewal with Stripe's test clocks (the emulator's in demo
 * mode, Stripe's own with test keys and STRIPE_TEST_CLOCKS=1): each subscription customer is
 * created on its own clock (payments/subscription.server.ts); advancing it just past the end of
 * the paid period makes Stripe charge the renewal, and its `invoice.paid` webhook creates the
 * renewal order (renewals.server.ts), as for a real renewal.
 */

const HOUR = 3600;
const DAY = 86_400;

export const NO_TEST_CLOCK_MESSAGE =
  "Cet abonnement n'a pas d'horloge de test (souscrit avant leur mise en place, ou sans elles) : son prochain renouvellement ne peut pas être simulé.";

export function testClocksEnabled(): boolean {
  return getConfig().stripe.testClocks;
}

function notFound() {
  return new ShopError(404, "subscription_not_found", "Abonnement introuvable");
}

function refusedFor(record: Subscription): ShopError | null {
  if (record.status === "canceled") {
    return new ShopError(409, "subscription_canceled", "Cet abonnement est résilié : il n'a plus de renouvellement à simuler.");
  }
  if (record.status === "incomplete") {
    return new ShopError(
      409,
      "subscription_incomplete",
      "Cet abonnement attend encore son premier paiement : aucun renouvellement ne peut être simulé.",
    );
  }
  return null;
}

type ClockOf = { stripe: Stripe; record: Subscription; sub: Stripe.Subscription; clock: Stripe.TestHelpers.TestClock };

/** The subscription at Stripe and its customer's test clock; a ShopError when there is none to advance. */
async function clockOf(subscriptionId: number): Promise<ClockOf> {
  if (!testClocksEnabled()) {
    throw new ShopError(
      409,
      "test_clocks_off",
      "La simulation d'un renouvellement n'existe qu'en mode démo ou avec les horloges de test de Stripe (STRIPE_TEST_CLOCKS=1 et clés de test).",
    );
  }
  const record = await findSubscription(getDb(), subscriptionId);
  if (!record) throw notFound();
  const refused = refusedFor(record);
  if (refused) throw refused;
  const stripe = await getStripe();
  const sub = await retrieveOrNull(() => stripe.subscriptions.retrieve(record.stripeSubscriptionId));
  if (!sub || sub.status === "canceled" || sub.status === "incomplete_expired") {
    throw new ShopError(
      409,
      "subscription_canceled",
      "Cet abonnement est terminé chez Stripe : il n'a plus de renouvellement à simuler.",
    );
  }
  const customerId = typeof sub.customer === "string" ? sub.customer : sub.customer.id;
  const customer = await retrieveOrNull(() => stripe.customers.retrieve(customerId));
  const clockId =
    customer && !customer.deleted
      ? typeof customer.test_clock === "string"
        ? customer.test_clock
        : (customer.test_clock?.id ?? null)
      : null;
  const clock = clockId ? await retrieveOrNull(() => stripe.testHelpers.testClocks.retrieve(clockId)) : null;
  if (!clock) throw new ShopError(409, "no_test_clock", NO_TEST_CLOCK_MESSAGE);
  return { stripe, record, sub, clock };
}

/** The customer's test clock (id, time, status), or null when the subscription cannot be simulated; never throws for a refusal. */
export async function subscriptionTestClock(
  subscriptionId: number,
): Promise<{ id: string; frozenTime: string; status: string } | null> {
  try {
    const { clock } = await clockOf(subscriptionId);
    return { id: clock.id, frozenTime: new Date(clock.frozen_time * 1000).toISOString(), status: clock.status };
  } catch (error) {
    if (error instanceof ShopError) return null;
    throw error;
  }
}

/** The end of the period being paid (Stripe's next renewal): the items' earliest `current_period_end`. */
function periodEndOf(sub: Stripe.Subscription): number | null {
  const ends = sub.items.data.map((item) => item.current_period_end).filter((end): end is number => typeof end === "number");
  if (ends.length) return Math.min(...ends);
  return sub.trial_end ?? null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls the clock until it is `ready` again. */
async function waitUntilReady(stripe: Stripe, clockId: string, options: { timeoutMs: number; pollMs: number }) {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    const clock = await stripe.testHelpers.testClocks.retrieve(clockId);
    if (clock.status === "ready") return clock;
    if (clock.status === "internal_failure") {
      throw new ShopError(
        502,
        "test_clock_failed",
        "L'horloge de test de Stripe n'a pas pu avancer (échec interne de Stripe) : supprimez-la et recommencez avec un nouvel abonnement.",
      );
    }
    if (Date.now() >= deadline) {
      throw new ShopError(
        504,
        "test_clock_timeout",
        `L'horloge de test avance encore après ${Math.round(options.timeoutMs / 1000)} secondes : le renouvellement sera enregistré à l'arrivée du webhook de Stripe. Rechargez la page dans un instant.`,
      );
    }
    await sleep(options.pollMs);
  }
}

export type SimulatedRenewal = {
  subscriptionId: number;
  clockId: string;
  /** The clock's time after the advance (ISO). */
  frozenTime: string;
  /** The number the renewal order will have once its webhook is recorded. */
  renewalNumber: number;
  /** The unpaid renewal invoice before the advance, if any. */
  unpaidInvoiceIdBefore: string | null;
  /** The next renewal before the advance (ISO): a renewal skipped or paused moves it on with no order. */
  periodEndBefore: string | null;
  /** The advance reached Stripe's next attempt at that invoice, and the invoice is still unpaid. */
  retryFailed?: boolean;
  /** The renewal falls in a skip or a pause (`pause_collection`): Stripe voids its invoice, no order comes. */
  voided?: boolean;
};

/** Stripe voids the renewal at `periodEnd` when collection is paused then (no `resumes_at`, or one after it). */
function voidedAt(sub: Stripe.Subscription, periodEnd: number | null): boolean {
  const pause = sub.pause_collection;
  if (!pause || periodEnd === null) return false;
  return !pause.resumes_at || pause.resumes_at > periodEnd;
}

/**
 * Advances the customer's test clock to just past the end of the paid period (past due: just
 * past Stripe's next automatic attempt at the unpaid invoice) and waits until it is ready:
 * Stripe has charged the renewal and queued its webhooks. Refuses (409) a
 * canceled or unpaid subscription, one without a clock, and outside demo or test-clock mode;
 * 504 when the clock is still advancing after `timeoutMs`.
 */
export async function simulateNextRenewal(
  subscriptionId: number,
  options: { timeoutMs?: number; pollMs?: number } = {},
): Promise<SimulatedRenewal> {
  const timing = { timeoutMs: options.timeoutMs ?? 45_000, pollMs: options.pollMs ?? 250 };
  const found = await clockOf(subscriptionId);
  const { stripe, record, sub } = found;
  // A previous advance still running: let it finish first.
  const clock = found.clock.status === "advancing" ? await waitUntilReady(stripe, found.clock.id, timing) : found.clock;
  // Past due: the next thing that happens is Stripe's next automatic attempt at the unpaid invoice.
  const unpaid =
    record.status === "past_due" && record.unpaidInvoiceId
      ? await retrieveOrNull(() => stripe.invoices.retrieve(record.unpaidInvoiceId!))
      : null;
  const retryAt =
    unpaid?.status === "open" && unpaid.next_payment_attempt && unpaid.next_payment_attempt > clock.frozen_time
      ? unpaid.next_payment_attempt
      : null;
  const periodEnd = periodEndOf(sub);
  // Just past the retry, else just past the end of the period; a renewal already due with no retry planned: one more day.
  const target =
    retryAt !== null
      ? retryAt + HOUR
      : periodEnd !== null && periodEnd > clock.frozen_time
        ? periodEnd + HOUR
        : clock.frozen_time + DAY;
  await stripe.testHelpers.testClocks.advance(clock.id, { frozen_time: target });
  const ready = await waitUntilReady(stripe, clock.id, timing);
  // A retry Stripe made and that failed again: the same invoice, still open (no new email: one per invoice).
  const retried = unpaid && retryAt !== null ? await retrieveOrNull(() => stripe.invoices.retrieve(unpaid.id!)) : null;
  return {
    subscriptionId: record.id,
    clockId: clock.id,
    frozenTime: new Date(ready.frozen_time * 1000).toISOString(),
    renewalNumber: record.renewalCount + 1,
    unpaidInvoiceIdBefore: record.unpaidInvoiceId,
    periodEndBefore: record.currentPeriodEnd,
    retryFailed: retried?.status === "open",
    voided: retryAt === null && voidedAt(sub, periodEnd),
  };
}

export type RenewalOutcome =
  | { outcome: "order_created"; orderId: number; renewalNumber: number }
  | { outcome: "payment_failed"; renewalNumber: number }
  | { outcome: "action_required"; renewalNumber: number }
  | { outcome: "ended"; renewalNumber: number }
  | { outcome: "skipped"; renewalNumber: number; periodEnd: string; nextRenewalAt: string }
  | { outcome: "pending"; renewalNumber: number };

/**
 * What the renewal's webhook recorded, waiting briefly for it: the renewal order, a failed
 * payment (the subscription is past due; the bank may ask the customer to authenticate it), the end of a subscription whose cancellation was
 * planned for the end of the period, or nothing yet (the webhook has not arrived).
 */
export async function awaitRenewalOutcome(
  simulated: SimulatedRenewal,
  options: { timeoutMs?: number; pollMs?: number } = {},
): Promise<RenewalOutcome> {
  const deadline = Date.now() + (options.timeoutMs ?? 5000);
  const { subscriptionId, renewalNumber } = simulated;
  for (;;) {
    const [order] = await getDb()
      .select({ id: orders.id })
      .from(orders)
      .where(and(eq(orders.subscriptionId, subscriptionId), eq(orders.renewalNumber, renewalNumber)))
      .limit(1);
    if (order) return { outcome: "order_created", orderId: order.id, renewalNumber };
    const record = await findSubscription(getDb(), subscriptionId);
    if (
      record?.status === "past_due" &&
      record.unpaidInvoiceId &&
      (record.unpaidInvoiceId !== simulated.unpaidInvoiceIdBefore || simulated.retryFailed)
    ) {
      // The bank asked the customer to authenticate (3-D Secure): they were emailed the pay link.
      return { outcome: record.actionRequiredAt ? "action_required" : "payment_failed", renewalNumber };
    }
    if (record?.status === "canceled") return { outcome: "ended", renewalNumber };
    // Skipped or paused: Stripe voided the renewal's invoice and the period moved on, nothing charged.
    // Only then: a charged renewal's `customer.subscription.updated` may be recorded before its `invoice.paid`.
    if (
      simulated.voided &&
      record?.currentPeriodEnd &&
      simulated.periodEndBefore &&
      Date.parse(record.currentPeriodEnd) > Date.parse(simulated.periodEndBefore)
    ) {
      return { outcome: "skipped", renewalNumber, periodEnd: simulated.periodEndBefore, nextRenewalAt: record.currentPeriodEnd };
    }
    if (Date.now() >= deadline) return { outcome: "pending", renewalNumber };
    await sleep(options.pollMs ?? 100);
  }
}
