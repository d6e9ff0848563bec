import { refreshStatistics } from "~/db/statistics.server";
import { backupIfDue } from "~/services/backups/schedule.server";
import { purgeExpiredEmailContent } from "~/services/email/retention.server";
import { queueOwnerDailySummary } from "~/services/email/owner-notifications.server";
import { wakeEmailSender } from "~/services/email/sender.server";
import { purgeStaleCarts } from "~/services/cart-purge.server";
import { retryDueStripeErasures } from "~/services/customers/stripe-erasure-queue.server";
import { acquireLease, PROCESS_HOLDER, releaseLease } from "~/services/leases.server";
import { queueDueRenewalReminders } from "./reminders.server";
import { queueDueCartReminders } from "~/services/cart-reminders/schedule.server";
import { log } from "~/log.server";

/**
 * The subscriptions' scheduler: runs in the server process (started and stopped with the email
 * sender, see lifecycle.server.ts) and, at every tick, re-reads the database for what is due
 * (today: the reminders before renewals, reminders.server.ts, and of abandoned checkouts,
 * cart-reminders/schedule.server.ts; and, as housekeeping, the stale
 * carts are deleted, cart-purge.server.ts, the Stripe part of the erasures that Stripe did
 * not answer is tried again, customers/stripe-erasure-queue.server.ts, a snapshot of the
 * database is taken every BACKUP_EVERY hours, backups/schedule.server.ts, the content of old
 * sent emails is deleted, email/retention.server.ts, and the planner's statistics are
 * refreshed once a day, db/statistics.server.ts). No timer per subscription: one
 * periodic tick, so a restart loses nothing and a subscription changed meanwhile is seen as it
 * is now.
 *
 * One process at a time does the work: the holder of the `subscription-scheduler` lease
 * (leases.server.ts), renewed at every tick and taken over by another process once expired.
 * The lease only spares the others the work: what makes a reminder unique is the outbox's
 * dedupe key, so even two processes ticking at once queue it once.
 */

const LEASE = "subscription-scheduler";

export type SchedulerOptions = {
  /** Time between two ticks (ms). */
  intervalMs?: number;
  /** How long the lease lasts without a tick renewing it (ms): a few intervals. */
  leaseMs?: number;
  /** Who holds the lease: this process by default (tests give two schedulers two holders). */
  holder?: string;
  /** The clock that decides what is due (tests move it). */
  now?: () => Date;
  /** Hours between two snapshots of the database: BACKUP_EVERY by default (0: none). */
  backupEveryHours?: number;
};

export type TickResult = { holding: false } | { holding: true; queued: number };

export type SubscriptionScheduler = {
  /** One tick now: takes or renews the lease, then queues what is due at `now`. */
  tick(now?: Date): Promise<TickResult>;
  /** No more ticks; waits for the tick under way, then gives the lease up. */
  stop(): Promise<void>;
};

export function createSubscriptionScheduler(options: SchedulerOptions = {}): SubscriptionScheduler {
  const intervalMs = options.intervalMs ?? 60_000;
  const leaseMs = options.leaseMs ?? 3 * intervalMs;
  const holder = options.holder ?? PROCESS_HOLDER;
  const clock = options.now ?? (() => new Date());

  let holding = false;
  let stopped = false;
  /** The tick under way, if any: stop() waits for it, so the database is never closed under it. */
  let current: Promise<TickResult> | undefined;

  function tick(now: Date = clock()): Promise<TickResult> {
    if (stopped) return Promise.resolve({ holding: false });
    const run = runTick(now);
    current = run;
    const done = () => {
      if (current === run) current = undefined;
    };
    run.then(done, done);
    return run;
  }

  async function runTick(now: Date): Promise<TickResult> {
    // The lease runs on the real clock: it says which process is alive, not what is due.
    holding = await acquireLease(LEASE, leaseMs, holder);
    if (!holding) return { holding: false };
    // The reminders before renewals, and the one reminder of an abandoned checkout whose buyer asked for it (cart-reminders).
    const queued = (await queueDueRenewalReminders(now)) + (await queueDueCartReminders(now));
    // The same lease covers the shop's other housekeeping: the stale carts (cart-purge.server.ts).
    const purged = await purgeStaleCarts(now);
    if (purged > 0) log.info(`Paniers supprimés : ${purged} (vides depuis plus d'un jour ou inchangés depuis 30 jours).`);
    // And the Stripe part of the erasures Stripe did not answer (customers/stripe-erasure-queue.server.ts).
    const erased = await retryDueStripeErasures(now);
    if (erased > 0) log.info(`Effacements chez Stripe terminés : ${erased}.`);
    // And the owner's daily summary, from 8:00 in Paris when there is something to tell (email/owner-notifications.server.ts).
    if (await queueOwnerDailySummary(now)) wakeEmailSender();
    // And the database's snapshot every BACKUP_EVERY hours (backups/schedule.server.ts): one process at a time.
    await backupIfDue(options.backupEveryHours);
    // And the content of the emails sent longer ago than the retention (email/retention.server.ts), in short batches.
    const emptied = await purgeExpiredEmailContent(now);
    if (emptied > 0) log.info(`Contenu d'emails envoyés supprimé (conservation) : ${emptied}.`);
    // And the planner's statistics, once a day (db/statistics.server.ts).
    await refreshStatisticsIfDue(now);
    // queueEmail wakes this process's sender too; asking once per tick keeps it explicit.
    if (queued > 0) wakeEmailSender();
    return { holding: true, queued };
  }

  return {
    tick,
    async stop() {
      stopped = true;
      // The tick under way ends first (its failure was already told by whoever awaited it).
      await current?.catch(() => undefined);
      if (holding) await releaseLease(LEASE, holder);
      holding = false;
    },
  };
}

const STATISTICS_LEASE = "database-statistics";
const DAY_MS = 86_400_000;

/**
 * ANALYZE (PostgreSQL) or PRAGMA optimize (SQLite) when the last run is a day old. Its lease is
 * taken by a holder that is new at each call and never released: only the call that finds it
 * expired gets it, so the servers of a shop run it once a day between them. Gives whether it ran.
 */
export async function refreshStatisticsIfDue(now: Date): Promise<boolean> {
  if (!(await acquireLease(STATISTICS_LEASE, DAY_MS, `${PROCESS_HOLDER}:${now.toISOString()}`, now.getTime()))) return false;
  try {
    await refreshStatistics();
    return true;
  } catch (error) {
    log.error({ err: error }, "Statistiques de la base impossibles à mettre à jour");
    return false;
  }
}

// ---------------------------------------------------------------------------------------------
// The process's scheduler

type Running = { scheduler: SubscriptionScheduler; timer: NodeJS.Timeout | undefined };
let running: Running | undefined;

/** Starts the scheduler of this process (server start): a first tick at once, then one per interval. */
export function startSubscriptionScheduler(options: SchedulerOptions = {}): SubscriptionScheduler {
  if (running) return running.scheduler;
  const scheduler = createSubscriptionScheduler(options);
  const state: Running = { scheduler, timer: undefined };
  running = state;
  const intervalMs = options.intervalMs ?? 60_000;
  const tickThenLoop = async () => {
    if (running !== state) return;
    try {
      await scheduler.tick();
    } catch (error) {
      // The database itself failed (locked, closed): the next tick tries again.
      log.error({ err: error }, "Subscription scheduler tick failed");
    }
    if (running === state) loop(intervalMs);
  };
  const loop = (delay: number) => {
    state.timer = setTimeout(() => void tickThenLoop(), delay);
    // Never keeps the process alive on its own.
    state.timer.unref();
  };
  loop(0);
  return scheduler;
}

/** Stops it (server shutdown): no tick after this, and the lease is released. */
export async function stopSubscriptionScheduler() {
  const state = running;
  running = undefined;
  if (!state) return;
  clearTimeout(state.timer);
  await state.scheduler.stop();
}
