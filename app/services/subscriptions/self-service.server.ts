import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { subscriptions, type Subscription } from "~/db/schema";
import { formatDate } from "~/lib/dates";
import { renewalChargeText } from "~/lib/renewal-amount";
import type { Pack } from "~/lib/packs";
import { ShopError } from "~/lib/shop-error";
import { nextChargedRenewal, WEEK_MS, type SubscriptionAction } from "~/lib/subscription-actions";
import type { ChangeFrequencyInput, ChangePackInput, PauseInput } from "~/schemas/subscription-actions";
import { queueSubscriptionChangedEmail } from "~/services/email/notifications.server";
import { findPackById, listPacks } from "~/services/packs.server";
import { recordSubscriptionEvent, type SubscriptionActor } from "./history.server";
import { findSubscription } from "./record.server";
import { renewalCharge } from "~/services/promotions/renewal-amount.server";
import {
  changePriceAtStripe,
  pauseCollectionAtStripe,
  reactivateAtStripe,
  resumeCollectionAtStripe,
} from "./stripe-changes.server";

/**
 * The changes a subscriber makes to their subscription (/mon-abonnement), which the shop can
 * make for them with a reason (back office, API): skip the next delivery, pause, resume, change
 * pack, reactivate a cancellation planned at the end of the period. Stripe is told first; then,
 * in one transaction, the record follows what Stripe answered, the change is written in the
 * history and the confirmation email is queued (outbox).
 */

const DAY_MS = 86_400_000;

/** What the page, the email and the history say about a change. */
export type SubscriptionChange = { action: SubscriptionAction; title: string; summary: string; subscription: Subscription };

const refused = (code: string, message: string) => new ShopError(409, code, message);

export const SUBSCRIPTION_CHANGE_MESSAGES = {
  ended: "Cet abonnement est résilié : il ne peut plus être modifié.",
  notStarted: "Cet abonnement attend encore son premier paiement : il ne peut pas encore être modifié.",
  pastDue: "Le dernier renouvellement n'a pas été payé : réglez-le d'abord, puis vous pourrez modifier votre abonnement.",
  cancelScheduled: "La résiliation de cet abonnement est prévue : réactivez-le d'abord pour le modifier.",
  alreadyPaused: "Une pause est déjà en cours : reprenez l'abonnement avant d'en prévoir une autre.",
  notPaused: "Cet abonnement n'est pas en pause.",
  notSkipped: "Aucune livraison n'est sautée.",
  tooLateToUndo: "Le saut de cette livraison ne peut plus être annulé : il pouvait l'être jusqu'à la veille du renouvellement.",
  tooLateToSkip: "Le renouvellement a lieu dans moins d'un jour : il ne peut plus être sauté.",
  noRenewal: "Aucun renouvellement n'est prévu pour cet abonnement.",
  samePack: "C'est déjà le pack de votre abonnement.",
  sameFrequency: "C'est déjà la fréquence de votre abonnement.",
  packUnavailable: "Ce pack ne peut pas être choisi pour un abonnement.",
  nothingToReactivate: "Aucune résiliation n'est prévue pour cet abonnement : il n'y a rien à réactiver.",
  periodOver: "La période payée est terminée : l'abonnement ne peut plus être réactivé. Vous pouvez souscrire de nouveau.",
} as const;

const M = SUBSCRIPTION_CHANGE_MESSAGES;

/** An ongoing, paid-up subscription with no cancellation planned: the one that can be changed. */
function assertChangeable(record: Subscription): string {
  if (record.status === "canceled") throw refused("subscription_canceled", M.ended);
  if (record.status === "incomplete") throw refused("subscription_incomplete", M.notStarted);
  if (record.status === "past_due") throw refused("subscription_past_due", M.pastDue);
  if (record.cancelAtPeriodEnd) throw refused("cancel_scheduled", M.cancelScheduled);
  if (!record.currentPeriodEnd) throw refused("no_renewal", M.noRenewal);
  return record.currentPeriodEnd;
}

/** What the next charged renewal takes, as the page and the email say it (the code's discount while it lasts). */
async function nextAmount(record: Subscription, amountCents?: number): Promise<string> {
  return renewalChargeText(await renewalCharge(record, { amountCents }));
}

const intervalMs = (record: Subscription) => record.intervalWeeks * WEEK_MS;

/** The renewal `cycles` cycles after the next one (0: the next one). */
function renewalAfter(record: Subscription, periodEnd: string, cycles: number): string {
  return new Date(Date.parse(periodEnd) + cycles * intervalMs(record)).toISOString();
}

/** Whether the subscription is on a pause (or a skip) that is still ahead of its next renewal. */
export function activePause(record: Subscription): { kind: "skip" | "pause"; resumesAt: string } | null {
  if (!record.pauseKind || !record.pauseResumesAt) return null;
  if (record.currentPeriodEnd && Date.parse(record.pauseResumesAt) <= Date.parse(record.currentPeriodEnd)) return null;
  return { kind: record.pauseKind, resumesAt: record.pauseResumesAt };
}

/** The packs a subscription can move to: the active packs of its product, never the trial pack. */
export async function subscribablePacks(record: Subscription): Promise<Pack[]> {
  if (record.productId === null) return [];
  return (await listPacks(record.productId)).filter((p) => !p.trial);
}

async function reload(id: number): Promise<Subscription> {
  const record = await findSubscription(getDb(), id);
  if (!record) throw new ShopError(404, "subscription_not_found", "Abonnement introuvable");
  return record;
}

/** The record's change, its history line and its email, in one transaction. */
async function commit(
  record: Subscription,
  change: { action: SubscriptionAction; title: string; summary: string; set: Partial<Subscription> },
  actor: SubscriptionActor,
  now: Date,
): Promise<SubscriptionChange> {
  const updated = await getDb().transaction(async (tx) => {
    const [row] = await tx.update(subscriptions).set(change.set).where(eq(subscriptions.id, record.id)).returning();
    await recordSubscriptionEvent(tx, record.id, { action: change.action, label: change.summary, actor, at: now.toISOString() });
    await queueSubscriptionChangedEmail(tx, row, { action: change.action, title: change.title, summary: change.summary });
    return row;
  });
  return { action: change.action, title: change.title, summary: change.summary, subscription: updated };
}

/** The next renewal is not charged (nor shipped); the one after it is. Until the renewal's eve. */
export async function skipNextDelivery(
  record: Subscription,
  actor: SubscriptionActor,
  now: Date = new Date(),
): Promise<SubscriptionChange> {
  const periodEnd = assertChangeable(record);
  if (activePause(record)) throw refused("already_paused", M.alreadyPaused);
  if (Date.parse(periodEnd) - now.getTime() < DAY_MS) throw refused("too_late", M.tooLateToSkip);
  const resumesAt = new Date(Date.parse(periodEnd) + DAY_MS).toISOString();
  await pauseCollectionAtStripe(record.stripeSubscriptionId, resumesAt);
  const next = renewalAfter(record, periodEnd, 1);
  return await commit(
    record,
    {
      action: "skip",
      title: "Votre prochaine livraison est sautée",
      summary: `Livraison du ${formatDate(periodEnd)} sautée : rien ne sera prélevé ce jour-là. Prochain prélèvement le ${formatDate(next)} (${await nextAmount(record)}). Vous pouvez annuler ce saut jusqu'à la veille du ${formatDate(periodEnd)}.`,
      set: { pauseKind: "skip", pauseResumesAt: resumesAt },
    },
    actor,
    now,
  );
}

/** Undoes a skipped delivery, until the day before the renewal: it is charged and shipped again. */
export async function undoSkip(
  record: Subscription,
  actor: SubscriptionActor,
  now: Date = new Date(),
): Promise<SubscriptionChange> {
  const periodEnd = assertChangeable(record);
  if (activePause(record)?.kind !== "skip") throw refused("not_skipped", M.notSkipped);
  if (Date.parse(periodEnd) - now.getTime() < DAY_MS) throw refused("too_late", M.tooLateToUndo);
  await resumeCollectionAtStripe(record.stripeSubscriptionId);
  return await commit(
    record,
    {
      action: "unskip",
      title: "Votre prochaine livraison est rétablie",
      summary: `Saut de livraison annulé : le renouvellement du ${formatDate(periodEnd)} sera prélevé (${await nextAmount(record)}) et livré.`,
      set: { pauseKind: null, pauseResumesAt: null },
    },
    actor,
    now,
  );
}

/** A pause of 1, 2 or 3 cycles: those renewals are not charged; the next one after them is. */
export async function pauseSubscription(
  record: Subscription,
  input: PauseInput,
  actor: SubscriptionActor,
  now: Date = new Date(),
): Promise<SubscriptionChange> {
  const periodEnd = assertChangeable(record);
  if (activePause(record)) throw refused("already_paused", M.alreadyPaused);
  if (Date.parse(periodEnd) - now.getTime() < DAY_MS) throw refused("too_late", M.tooLateToSkip);
  const resumesAt = new Date(Date.parse(renewalAfter(record, periodEnd, input.cycles - 1)) + DAY_MS).toISOString();
  await pauseCollectionAtStripe(record.stripeSubscriptionId, resumesAt);
  const next = renewalAfter(record, periodEnd, input.cycles);
  const cycles = input.cycles === 1 ? "1 cycle" : `${input.cycles} cycles`;
  return await commit(
    record,
    {
      action: "pause",
      title: "Votre abonnement est en pause",
      summary: `Abonnement en pause pour ${cycles}, jusqu'au ${formatDate(next)} : aucun prélèvement d'ici là. Reprise le ${formatDate(next)} (${await nextAmount(record)}).`,
      set: { pauseKind: "pause", pauseResumesAt: resumesAt },
    },
    actor,
    now,
  );
}

/** Ends a pause now: the next renewal is charged as usual. */
export async function resumeSubscription(
  record: Subscription,
  actor: SubscriptionActor,
  now: Date = new Date(),
): Promise<SubscriptionChange> {
  const periodEnd = assertChangeable(record);
  const pause = activePause(record);
  if (!pause) throw refused("not_paused", M.notPaused);
  if (pause.kind === "skip") return await undoSkip(record, actor, now);
  await resumeCollectionAtStripe(record.stripeSubscriptionId);
  return await commit(
    record,
    {
      action: "resume",
      title: "Votre abonnement a repris",
      summary: `Abonnement repris : prochain renouvellement le ${formatDate(periodEnd)} (${await nextAmount(record)}).`,
      set: { pauseKind: null, pauseResumesAt: null },
    },
    actor,
    now,
  );
}

/** Another pack from the next renewal, at its current price, with no proration. */
export async function changeSubscriptionPack(
  record: Subscription,
  input: ChangePackInput,
  actor: SubscriptionActor,
  now: Date = new Date(),
): Promise<SubscriptionChange> {
  assertChangeable(record);
  const pack = await findPackById(input.packId);
  if (!pack || !pack.active || pack.trial || pack.productId !== record.productId) {
    throw new ShopError(422, "pack_unavailable", M.packUnavailable, { field: "packId" });
  }
  if (pack.id === record.packId) throw new ShopError(422, "same_pack", M.samePack, { field: "packId" });
  const quantity = Math.max(record.quantity, 1);
  const amountCents = pack.priceCents * quantity;
  await changePriceAtStripe(record.stripeSubscriptionId, { unitAmountCents: amountCents, intervalWeeks: record.intervalWeeks });
  const from = nextChargedRenewal(record.currentPeriodEnd, activePause(record)?.resumesAt ?? null, record.intervalWeeks);
  return await commit(
    record,
    {
      action: "change_pack",
      title: "Votre pack a changé",
      summary: `Nouveau pack « ${pack.name} » : ${await nextAmount(record, amountCents)} à partir du renouvellement du ${formatDate(from)}, sans prorata.`,
      set: { packId: pack.id, variantName: pack.name, amountCents },
    },
    actor,
    now,
  );
}

/**
 * Another frequency (every 4, 6 or 8 weeks) from the next renewal: that renewal keeps its date
 * and amount, the ones after it follow the new interval.
 */
export async function changeSubscriptionFrequency(
  record: Subscription,
  input: ChangeFrequencyInput,
  actor: SubscriptionActor,
  now: Date = new Date(),
): Promise<SubscriptionChange> {
  const periodEnd = assertChangeable(record);
  if (input.intervalWeeks === record.intervalWeeks) {
    throw new ShopError(422, "same_frequency", M.sameFrequency, { field: "intervalWeeks" });
  }
  if (activePause(record)) throw refused("already_paused", M.alreadyPaused);
  await changePriceAtStripe(
    record.stripeSubscriptionId,
    { unitAmountCents: record.amountCents, intervalWeeks: input.intervalWeeks },
    { keepRenewalDate: periodEnd },
  );
  const after = new Date(Date.parse(periodEnd) + input.intervalWeeks * WEEK_MS).toISOString();
  return await commit(
    record,
    {
      action: "change_frequency",
      title: "La fréquence de votre abonnement a changé",
      summary: `Livraison toutes les ${input.intervalWeeks} semaines à partir du renouvellement du ${formatDate(periodEnd)} (${await nextAmount(record)}) ; le suivant aura lieu le ${formatDate(after)}.`,
      set: { intervalWeeks: input.intervalWeeks },
    },
    actor,
    now,
  );
}

/** A cancellation planned at the end of the paid period is undone: the renewals go on, nothing is charged today. */
export async function reactivateSubscription(
  record: Subscription,
  actor: SubscriptionActor,
  now: Date = new Date(),
): Promise<SubscriptionChange> {
  if (record.status === "canceled") throw refused("subscription_canceled", M.periodOver);
  if (!record.cancelAtPeriodEnd) throw refused("no_cancellation_planned", M.nothingToReactivate);
  if (!record.currentPeriodEnd || Date.parse(record.currentPeriodEnd) <= now.getTime()) {
    throw refused("period_over", M.periodOver);
  }
  const sub = await reactivateAtStripe(record.stripeSubscriptionId);
  return await commit(
    record,
    {
      action: "reactivate",
      title: "Votre abonnement est réactivé",
      summary: `Abonnement réactivé, sans nouveau prélèvement aujourd'hui : prochain renouvellement le ${formatDate(record.currentPeriodEnd)} (${await nextAmount(record)}).`,
      set: { cancelAtPeriodEnd: sub.cancel_at_period_end },
    },
    actor,
    now,
  );
}

/** The shop's changes, by subscription id (back office and API): the same rules. */
export async function changeSubscriptionById<T>(id: number, run: (record: Subscription) => Promise<T>): Promise<T> {
  return await run(await reload(id));
}
