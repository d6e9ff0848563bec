import { centsToDecimal } from "~/lib/money";
import type { AnalyticsReport, Compared } from "./report.server";

/**
 * The report as GET /api/admin/analytics gives it: amounts in euros as strings (`"25.90"`), as
 * the API's other amounts, and percentages rounded to a tenth.
 */

const oneDecimal = (n: number | null) => (n === null ? null : Math.round(n * 10) / 10);
const euros = (cents: number | null) => (cents === null ? null : centsToDecimal(cents));

function amount(c: Compared) {
  return { current: euros(c.current), previous: euros(c.previous), change: oneDecimal(c.change) };
}
function count(c: Compared) {
  return { current: c.current, previous: c.previous, change: oneDecimal(c.change) };
}
function percent(c: Compared) {
  return { current: oneDecimal(c.current), previous: oneDecimal(c.previous), change: oneDecimal(c.change) };
}

export function analyticsToApi(report: AnalyticsReport) {
  const r = report.revenue;
  const s = report.subscriptions;
  return {
    period: report.period,
    revenue: {
      netIncluding: amount(r.netIncludingCents),
      netExcluding: amount(r.netExcludingCents),
      refundedIncluding: amount(r.refundedIncludingCents),
      orders: count(r.orders),
      averageOrder: amount(r.averageOrderCents),
      oneOffNet: amount(r.oneOffNetCents),
      subscriptionNet: amount(r.subscriptionNetCents),
    },
    revenueSeries: report.revenueSeries.map((b) => ({
      from: b.from,
      to: b.to,
      netIncluding: centsToDecimal(b.netIncludingCents),
      netExcluding: centsToDecimal(b.netExcludingCents),
      orders: b.orders,
    })),
    packs: report.packs.map((p) => ({ label: p.label, quantity: p.quantity, amount: centsToDecimal(p.cents) })),
    subscriptions: {
      active: count(s.active),
      mrr: amount(s.mrrCents),
      started: count(s.started),
      ended: count(s.ended),
      churnPercent: percent(s.churnPercent),
      renewalSuccessPercent: percent(s.renewalSuccessPercent),
      renewalsFailed: count(s.renewalsFailed),
      renewalsRecovered: count(s.renewalsRecovered),
      paused: count(s.paused),
      pausedNow: count(s.pausedNow),
    },
    subscriberSeries: report.subscriberSeries.map((b) => ({
      from: b.from,
      to: b.to,
      active: b.active,
      mrr: centsToDecimal(b.mrrCents),
    })),
    cancelReasons: report.cancelReasons.map(({ reason, label, count: n }) => ({ reason, label, count: n })),
    funnel: report.funnel.map((step) => ({ ...step, fromPrevious: oneDecimal(step.fromPrevious) })),
    reminders: {
      sent: count(report.reminders.sent),
      recovered: count(report.reminders.recovered),
      recoveredRevenue: amount(report.reminders.recoveredCents),
    },
    promotions: report.promotions.map((p) => ({
      code: p.code,
      uses: p.uses,
      revenue: centsToDecimal(p.revenueCents),
      discount: centsToDecimal(p.discountCents),
    })),
    methods: report.methods,
  };
}
