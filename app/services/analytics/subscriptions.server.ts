import { and, eq, gt, gte, isNotNull, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { orders, renewalFailures, subscriptionEvents, subscriptions } from "~/db/schema";
import { CANCEL_REASON_LABELS, CANCEL_REASONS, type CancelReason } from "~/lib/cancel-reasons";
import type { Span } from "./period.server";
import { bySpan, countOf, inSpan, instant, SPAN_INDEX, spansTable, total } from "./sql.server";

/**
 * The subscriptions' figures. A subscription runs from its first payment (`started_at`) until
 * it ends (`canceled_at`: cancelled online, by the shop, or by Stripe after failed renewals).
 *
 * MRR (monthly recurring revenue): the amount every running subscription charges per 4-week
 * cycle, times 13/12, since 13 cycles of 4 weeks make a year of 12 months. A past subscription's
 * amount is its amount today.
 */

/** 13 cycles of 4 weeks a year, over 12 months. */
export const CYCLES_PER_MONTH = 13 / 12;

export const MRR_METHOD =
  "Revenu mensuel récurrent (MRR) : somme des montants par cycle de 4 semaines des abonnements en cours, × 13 / 12 (13 cycles de 4 semaines font une année de 12 mois).";
export const CHURN_METHOD =
  "Désabonnement mensuel : abonnements terminés pendant la période ÷ abonnements en cours à son début, ramené à 30 jours.";
export const RENEWAL_METHOD =
  "Taux de réussite des renouvellements : part des échéances payées du premier coup, parmi les échéances de la période (payées du premier coup, ou en échec).";

/** Running subscriptions, their MRR, and what they charge per cycle (the MRR before × 13/12). */
export type RunningFigures = { active: number; mrrCents: number; cycleCents: number };

/**
 * The subscriptions running at the end of each span, and their MRR: one pass over the
 * subscriptions started before the last end, read from `subscriptions_started_idx` alone (start,
 * end, amount), whatever the number of spans.
 */
export async function runningAtEndOf(spans: Span[]): Promise<RunningFigures[]> {
  if (spans.length === 0) return [];
  const runningAt = (end: string) =>
    sql`${subscriptions.startedAt} < ${instant(end)} and (${subscriptions.canceledAt} is null or ${subscriptions.canceledAt} >= ${instant(end)})`;
  const columns: Record<string, SQL<number>> = {};
  spans.forEach((span, i) => {
    columns[`active${i}`] = total(sql`case when ${runningAt(span.end)} then 1 else 0 end`);
    columns[`amount${i}`] = total(sql`case when ${runningAt(span.end)} then ${subscriptions.amountCents} else 0 end`);
  });
  const lastEnd = spans.map((s) => s.end).reduce((a, b) => (b > a ? b : a));
  const [row] = await getDb()
    .select(columns)
    .from(subscriptions)
    .where(sql`${subscriptions.startedAt} < ${instant(lastEnd)}`);
  return spans.map((_, i) => {
    const amount = row?.[`amount${i}`] ?? 0;
    return { active: row?.[`active${i}`] ?? 0, mrrCents: Math.round(amount * CYCLES_PER_MONTH), cycleCents: amount };
  });
}

/**
 * The running subscriptions at the end of each of consecutive spans (a chart's points): those
 * running at the first span's start, then, span after span, plus those started and minus those
 * ended in it. Each subscription is read once, whatever the number of points.
 */
export async function runningSeries(buckets: Span[]): Promise<RunningFigures[]> {
  if (buckets.length === 0) return [];
  const start = buckets[0].start;
  const [before] = await runningAtEndOf([{ ...buckets[0], end: start }]);
  const moves = async (column: typeof subscriptions.startedAt | typeof subscriptions.canceledAt) => {
    const rows = await getDb()
      .select({ i: SPAN_INDEX, n: countOf(sql`${subscriptions.id}`), amount: total(sql`${subscriptions.amountCents}`) })
      .from(spansTable(buckets))
      .leftJoin(subscriptions, and(inSpan(column, buckets), isNotNull(subscriptions.startedAt)))
      .groupBy(SPAN_INDEX);
    return bySpan(rows, buckets.length, { n: 0, amount: 0 });
  };
  const started = await moves(subscriptions.startedAt);
  const ended = await moves(subscriptions.canceledAt);
  let active = before.active;
  let amount = before.cycleCents;
  return buckets.map((_, i) => {
    active += started[i].n - ended[i].n;
    amount += started[i].amount - ended[i].amount;
    return { active, mrrCents: Math.round(amount * CYCLES_PER_MONTH), cycleCents: amount };
  });
}

export type MovementFigures = {
  started: number;
  ended: number;
  /** Renewals paid at their first attempt, renewals whose payment failed, and failed ones paid since. */
  renewalsPaidFirstTime: number;
  renewalsFailed: number;
  renewalsRecovered: number;
};

async function countBySpan(
  spans: Span[],
  column: Parameters<typeof inSpan>[0],
  counted: Parameters<typeof countOf>[0],
  table: typeof subscriptions | typeof renewalFailures,
) {
  const rows = await getDb()
    .select({ i: SPAN_INDEX, n: countOf(counted) })
    .from(spansTable(spans))
    .leftJoin(table, inSpan(column, spans))
    .groupBy(SPAN_INDEX);
  return bySpan(rows, spans.length, { n: 0 }).map((r) => r.n);
}

/** What moved in each span: subscriptions started and ended, renewals paid, failed and recovered. */
/** The subscriptions ended in each span (the dashboard's churn needs nothing more than movementsBySpan's `ended`). */
export async function endedBySpan(spans: Span[]): Promise<number[]> {
  return await countBySpan(spans, subscriptions.canceledAt, sql`${subscriptions.id}`, subscriptions);
}

export async function movementsBySpan(spans: Span[]): Promise<MovementFigures[]> {
  const started = await countBySpan(spans, subscriptions.startedAt, sql`${subscriptions.id}`, subscriptions);
  const ended = await endedBySpan(spans);
  const failed = await countBySpan(spans, renewalFailures.failedAt, sql`${renewalFailures.stripeInvoiceId}`, renewalFailures);
  const recovered = await countBySpan(
    spans,
    renewalFailures.recoveredAt,
    sql`${renewalFailures.stripeInvoiceId}`,
    renewalFailures,
  );
  const paidRows = await getDb()
    .select({
      i: SPAN_INDEX,
      n: countOf(
        sql`case when ${orders.id} is not null and not exists (select 1 from ${renewalFailures} where ${renewalFailures.stripeInvoiceId} = ${orders.stripeInvoiceId}) then 1 end`,
      ),
    })
    .from(spansTable(spans))
    .leftJoin(orders, and(inSpan(orders.paidAt, spans), isNotNull(orders.renewalNumber)))
    .groupBy(SPAN_INDEX);
  const paid = bySpan(paidRows, spans.length, { n: 0 }).map((r) => r.n);
  return spans.map((_, i) => ({
    started: started[i],
    ended: ended[i],
    renewalsPaidFirstTime: paid[i],
    renewalsFailed: failed[i],
    renewalsRecovered: recovered[i],
  }));
}

/** The monthly churn of a span, in % (null when no subscription was running at its start). */
export function monthlyChurn(endedInSpan: number, runningAtStart: number, days: number): number | null {
  if (runningAtStart <= 0) return null;
  return (endedInSpan / runningAtStart) * (30 / days) * 100;
}

/** The renewal success rate, in % (null with no renewal due). */
export function renewalSuccessRate(m: MovementFigures): number | null {
  const due = m.renewalsPaidFirstTime + m.renewalsFailed;
  return due > 0 ? (m.renewalsPaidFirstTime / due) * 100 : null;
}

export type ReasonCount = { reason: CancelReason | "none"; label: string; count: number };

/** Why the subscriptions that ended in the span were cancelled, as their subscribers said. */
export async function cancelReasons(period: Span): Promise<ReasonCount[]> {
  const rows = await getDb()
    .select({ reason: subscriptions.cancelReason, n: sql<number>`count(*)`.mapWith(Number) })
    .from(subscriptions)
    .where(and(gte(subscriptions.canceledAt, period.start), lt(subscriptions.canceledAt, period.end)))
    .groupBy(subscriptions.cancelReason);
  const count = (reason: CancelReason | null) => rows.find((r) => r.reason === reason)?.n ?? 0;
  return [
    ...CANCEL_REASONS.map((reason) => ({ reason, label: CANCEL_REASON_LABELS[reason], count: count(reason) })),
    { reason: "none" as const, label: "Sans motif indiqué", count: count(null) },
  ];
}

export const PAUSES_METHOD =
  "Pauses : abonnements mis en pause pendant la période (par l'abonné ou la boutique, comptés une fois), et abonnements en pause aujourd'hui.";

/** The subscriptions paused in each span (a subscription paused twice in a span counts once). */
export async function pausesBySpan(spans: Span[]): Promise<number[]> {
  const rows = await getDb()
    .select({ i: SPAN_INDEX, n: sql<number>`count(distinct ${subscriptionEvents.subscriptionId})`.mapWith(Number) })
    .from(spansTable(spans))
    .leftJoin(subscriptionEvents, and(eq(subscriptionEvents.action, "pause"), inSpan(subscriptionEvents.at, spans)))
    .groupBy(SPAN_INDEX);
  return bySpan(rows, spans.length, { n: 0 }).map((r) => r.n);
}

/** The subscriptions in a pause now: paused, not ended, and not yet at the date the pause ends. */
export async function pausedNow(now = new Date()): Promise<number> {
  const [row] = await getDb()
    .select({ n: countOf(sql`${subscriptions.id}`) })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.pauseKind, "pause"),
        isNull(subscriptions.canceledAt),
        or(isNull(subscriptions.pauseResumesAt), gt(subscriptions.pauseResumesAt, now.toISOString())),
      ),
    );
  return row?.n ?? 0;
}
