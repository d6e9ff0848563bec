import { getDb } from "~/db/client.server";
import type { Subscription } from "~/db/schema";
import { nextChargedRenewal } from "~/lib/subscription-actions";
import { findSubscription } from "./record.server";
import { activePause, subscribablePacks } from "./self-service.server";

/**
 * What /mon-abonnement (and the back office) show of the subscriber's own changes: which ones
 * are open now, the pause and when it ends, the packs to move to.
 */

const DAY_MS = 86_400_000;

export type SelfServiceView = {
  intervalWeeks: number;
  /** A skipped delivery or a pause: the renewal(s) not charged, and the first one charged again (ISO). */
  pause: { kind: "skip" | "pause"; skippedRenewalAt: string | null; resumesOn: string | null } | null;
  /** The next renewal that is charged (ISO), pause included. */
  nextChargeAt: string | null;
  packs: { id: number; name: string; priceCents: number; current: boolean }[];
  currentPackId: number | null;
  canSkip: boolean;
  canUndoSkip: boolean;
  canPause: boolean;
  canResume: boolean;
  canChangePack: boolean;
  canChangeFrequency: boolean;
  canReactivate: boolean;
};

export async function selfServiceView(record: Subscription, now: Date = new Date()): Promise<SelfServiceView> {
  const pause = activePause(record);
  const periodEnd = record.currentPeriodEnd;
  const changeable =
    record.status === "active" && !record.cancelAtPeriodEnd && periodEnd !== null && Date.parse(periodEnd) > now.getTime();
  const beforeEve = periodEnd !== null && Date.parse(periodEnd) - now.getTime() >= DAY_MS;
  const packs = changeable ? await subscribablePacks(record) : [];
  return {
    intervalWeeks: record.intervalWeeks,
    pause: pause
      ? {
          kind: pause.kind,
          skippedRenewalAt: periodEnd,
          resumesOn: nextChargedRenewal(periodEnd, pause.resumesAt, record.intervalWeeks),
        }
      : null,
    nextChargeAt: nextChargedRenewal(periodEnd, pause?.resumesAt ?? null, record.intervalWeeks),
    packs: packs.map((p) => ({
      id: p.id,
      name: p.name,
      priceCents: p.priceCents * Math.max(record.quantity, 1),
      current: p.id === record.packId,
    })),
    currentPackId: record.packId,
    canSkip: changeable && !pause && beforeEve,
    canUndoSkip: changeable && pause?.kind === "skip" && beforeEve,
    canPause: changeable && !pause && beforeEve,
    canResume: changeable && pause?.kind === "pause",
    canChangePack: changeable && packs.some((p) => p.id !== record.packId),
    canChangeFrequency: changeable && !pause,
    canReactivate:
      record.status !== "canceled" && record.cancelAtPeriodEnd && periodEnd !== null && Date.parse(periodEnd) > now.getTime(),
  };
}

/** The same view by subscription id (back office), or null for none. */
export async function selfServiceViewById(id: number, now: Date = new Date()): Promise<SelfServiceView | null> {
  const record = await findSubscription(getDb(), id);
  return record ? await selfServiceView(record, now) : null;
}
