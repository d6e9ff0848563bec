import type { AnalyticsPageQuery } from "~/schemas/analytics";
import { FUNNEL_METHOD, FUNNEL_STEPS, funnelBySpan, type FunnelFigures } from "./funnel.server";
import { periodOf, presetDays, span, type Period } from "./period.server";
import { PROMOTIONS_METHOD, promotionUses, REMINDERS_METHOD, remindersBySpan, type PromotionUse } from "./recovery.server";
import { revenueByPack, revenueBySpan, type PackRevenue, type RevenueFigures } from "./revenue.server";
import {
  CHURN_METHOD,
  cancelReasons,
  monthlyChurn,
  movementsBySpan,
  MRR_METHOD,
  PAUSES_METHOD,
  pausedNow,
  pausesBySpan,
  RENEWAL_METHOD,
  renewalSuccessRate,
  runningAtEndOf,
  runningSeries,
  type ReasonCount,
} from "./subscriptions.server";

/**
 * The analytics of a period (/admin/analytique, GET /api/admin/analytics): every figure for the
 * period and for the same number of days just before, the series the charts draw (by Paris day,
 * or by week past 92 days), all computed by SQL aggregates.
 */

/** A figure now and in the previous period, and the change in % (null when there was nothing to compare with). */
export type Compared = { current: number | null; previous: number | null; change: number | null };

export function compared(current: number | null, previous: number | null): Compared {
  let change: number | null = null;
  if (current !== null && previous !== null) {
    if (previous === 0) change = current === 0 ? 0 : null;
    else change = ((current - previous) / Math.abs(previous)) * 100;
  }
  return { current, previous, change };
}

export type AnalyticsReport = {
  period: Pick<Period, "from" | "to" | "days" | "granularity"> & { previous: { from: string; to: string } };
  revenue: Record<
    | "netIncludingCents"
    | "netExcludingCents"
    | "refundedIncludingCents"
    | "orders"
    | "averageOrderCents"
    | "oneOffNetCents"
    | "subscriptionNetCents",
    Compared
  >;
  revenueSeries: Array<{
    label: string;
    from: string;
    to: string;
    netIncludingCents: number;
    netExcludingCents: number;
    orders: number;
  }>;
  packs: PackRevenue[];
  subscriptions: Record<
    | "active"
    | "mrrCents"
    | "started"
    | "ended"
    | "churnPercent"
    | "renewalSuccessPercent"
    | "renewalsFailed"
    | "renewalsRecovered"
    | "paused"
    | "pausedNow",
    Compared
  >;
  subscriberSeries: Array<{ label: string; from: string; to: string; active: number; mrrCents: number }>;
  cancelReasons: ReasonCount[];
  funnel: Array<{ key: keyof FunnelFigures; label: string; current: number; previous: number; fromPrevious: number | null }>;
  /** The abandoned-checkout reminders: sent, the carts they brought back, and what those paid (TTC). */
  reminders: Record<"sent" | "recovered" | "recoveredCents", Compared>;
  /** Each promotion code's paid orders in the period. */
  promotions: PromotionUse[];
  methods: {
    mrr: string;
    churn: string;
    renewals: string;
    funnel: string;
    reminders: string;
    promotions: string;
    pauses: string;
  };
};

/** The page's choice (a preset, or dates) as the days it covers. */
export function daysOfQuery(query: AnalyticsPageQuery, now = new Date()): { from: string; to: string } {
  if (query.periode === "dates" && query.du && query.au) return { from: query.du, to: query.au };
  return presetDays(query.periode === "dates" ? "30j" : query.periode, now);
}

/** The API's default: the last 30 days. */
export function defaultDays(now = new Date()) {
  return presetDays("30j", now);
}

function revenueFigures(current: RevenueFigures, previous: RevenueFigures): AnalyticsReport["revenue"] {
  const keys = [
    "netIncludingCents",
    "netExcludingCents",
    "refundedIncludingCents",
    "orders",
    "averageOrderCents",
    "oneOffNetCents",
    "subscriptionNetCents",
  ] as const;
  return Object.fromEntries(keys.map((k) => [k, compared(current[k], previous[k])])) as AnalyticsReport["revenue"];
}

export async function analyticsReport(from: string, to: string): Promise<AnalyticsReport> {
  const period = periodOf(from, to);
  const current = span(period.from, period.to);
  const previous = period.previous;
  // The periods' totals, then the charts' series.
  const [revenuePrevious, revenueCurrent, ...revenueSeries] = await revenueBySpan([previous, current, ...period.buckets]);
  // Running subscriptions at the end of the period before the previous one (= the previous one's start), of the previous one, and of this one.
  const startOfPrevious = { ...previous, end: previous.start };
  const [atPreviousStart, atPreviousEnd, atEnd] = await runningAtEndOf([startOfPrevious, previous, current]);
  const running = await runningSeries(period.buckets);
  const [movesPrevious, movesCurrent] = await movementsBySpan([previous, current]);
  const [funnelPrevious, funnelCurrent] = await funnelBySpan([previous, current]);
  const [remindersPrevious, remindersCurrent] = await remindersBySpan([previous, current]);
  const [pausesPrevious, pausesCurrent] = await pausesBySpan([previous, current]);

  return {
    period: {
      from: period.from,
      to: period.to,
      days: period.days,
      granularity: period.granularity,
      previous: { from: previous.from, to: previous.to },
    },
    revenue: revenueFigures(revenueCurrent, revenuePrevious),
    revenueSeries: period.buckets.map((b, i) => ({
      label: b.label,
      from: b.from,
      to: b.to,
      netIncludingCents: revenueSeries[i].netIncludingCents,
      netExcludingCents: revenueSeries[i].netExcludingCents,
      orders: revenueSeries[i].orders,
    })),
    packs: await revenueByPack(current),
    subscriptions: {
      active: compared(atEnd.active, atPreviousEnd.active),
      mrrCents: compared(atEnd.mrrCents, atPreviousEnd.mrrCents),
      started: compared(movesCurrent.started, movesPrevious.started),
      ended: compared(movesCurrent.ended, movesPrevious.ended),
      churnPercent: compared(
        monthlyChurn(movesCurrent.ended, atPreviousEnd.active, period.days),
        monthlyChurn(movesPrevious.ended, atPreviousStart.active, period.days),
      ),
      renewalSuccessPercent: compared(renewalSuccessRate(movesCurrent), renewalSuccessRate(movesPrevious)),
      renewalsFailed: compared(movesCurrent.renewalsFailed, movesPrevious.renewalsFailed),
      renewalsRecovered: compared(movesCurrent.renewalsRecovered, movesPrevious.renewalsRecovered),
      paused: compared(pausesCurrent, pausesPrevious),
      // Today's state: no earlier state is kept to compare it with.
      pausedNow: compared(await pausedNow(), null),
    },
    subscriberSeries: period.buckets.map((b, i) => ({
      label: b.label,
      from: b.from,
      to: b.to,
      active: running[i].active,
      mrrCents: running[i].mrrCents,
    })),
    cancelReasons: await cancelReasons(current),
    funnel: FUNNEL_STEPS.map((step, i) => {
      const before = i === 0 ? null : funnelCurrent[FUNNEL_STEPS[i - 1].key];
      return {
        key: step.key,
        label: step.label,
        current: funnelCurrent[step.key],
        previous: funnelPrevious[step.key],
        fromPrevious: before === null || before === 0 ? null : (funnelCurrent[step.key] / before) * 100,
      };
    }),
    reminders: {
      sent: compared(remindersCurrent.sent, remindersPrevious.sent),
      recovered: compared(remindersCurrent.recovered, remindersPrevious.recovered),
      recoveredCents: compared(remindersCurrent.recoveredCents, remindersPrevious.recoveredCents),
    },
    promotions: await promotionUses(current),
    methods: {
      mrr: MRR_METHOD,
      churn: CHURN_METHOD,
      renewals: RENEWAL_METHOD,
      funnel: FUNNEL_METHOD,
      reminders: REMINDERS_METHOD,
      promotions: PROMOTIONS_METHOD,
      pauses: PAUSES_METHOD,
    },
  };
}
