import { sparkline } from "./charts.server";
import { periodOf, presetDays } from "./period.server";
import { compared, type Compared } from "./report.server";
import { revenueBySpan } from "./revenue.server";
import { endedBySpan, monthlyChurn, runningAtEndOf, runningSeries } from "./subscriptions.server";

/**
 * The dashboard's four figures, each with its trend line and the change against the period
 * before: net revenue over the last 7 days (by day), and over the last 30 days (by day) the
 * running subscribers, the MRR and the monthly churn (its line: the subscriptions ended each day).
 */

export type DashboardFigure = { value: Compared; trend: string };

export async function dashboardFigures(
  now = new Date(),
): Promise<Record<"revenue" | "active" | "mrr" | "churn", DashboardFigure>> {
  const week = periodOf(presetDays("7j", now).from, presetDays("7j", now).to);
  const [revenuePrevious, revenueCurrent, ...revenueDays] = await revenueBySpan([week.previous, week, ...week.buckets]);

  const month = periodOf(presetDays("30j", now).from, presetDays("30j", now).to);
  const startOfPrevious = { ...month.previous, end: month.previous.start };
  const [atPreviousStart, atPreviousEnd, atEnd] = await runningAtEndOf([startOfPrevious, month.previous, month]);
  const running = await runningSeries(month.buckets);
  // Only the ended subscriptions: the renewals' figures are the analytics page's.
  const [endedPrevious, endedCurrent] = await endedBySpan([month.previous, month]);
  const endedByDay = await endedBySpan(month.buckets);
  return {
    revenue: {
      value: compared(revenueCurrent.netIncludingCents, revenuePrevious.netIncludingCents),
      trend: sparkline(revenueDays.map((d) => d.netIncludingCents)),
    },
    active: { value: compared(atEnd.active, atPreviousEnd.active), trend: sparkline(running.map((r) => r.active)) },
    mrr: { value: compared(atEnd.mrrCents, atPreviousEnd.mrrCents), trend: sparkline(running.map((r) => r.mrrCents)) },
    churn: {
      value: compared(
        monthlyChurn(endedCurrent, atPreviousEnd.active, month.days),
        monthlyChurn(endedPrevious, atPreviousStart.active, month.days),
      ),
      trend: sparkline(endedByDay),
    },
  };
}
