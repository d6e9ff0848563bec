import { asc, eq, or } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { orders, subscriptions, type FulfilmentStatus, type PaymentStatus, type Subscription } from "~/db/schema";
import { cardLabel } from "~/lib/cards";
import type { RenewalCharge } from "~/lib/renewal-amount";
import { renewalCharge } from "~/services/promotions/renewal-amount.server";
import { orderProgressLabel } from "~/lib/order-status";
import { ShopError } from "~/lib/shop-error";
import { splitFullName } from "~/lib/names";
import { formatFrenchPhone } from "~/lib/phone";
import { DELIVERY_COUNTRY } from "~/schemas/delivery";
import type { SubscriptionAddressInput } from "~/schemas/subscription-address";
import { invoicePayPath } from "~/services/invoice-link.server";
import { orderLinkKey } from "~/services/orders/link.server";
import type { SubscriptionAddressSnapshot } from "~/services/email/email-types";
import { queueSubscriptionAddressChangedEmail } from "~/services/email/notifications.server";
import { checkSubscriptionLink } from "~/services/subscription-link.server";
import { ordersWithWithdrawal } from "~/services/withdrawals.server";
import { documentsOf, documentsOfOrders, type OrderDocuments } from "./order-documents.server";
import { findSubscription } from "./record.server";

/**
 * The customer's private page of a subscription (/mon-abonnement?id=&expire=&cle=): no
 * account, the signed link of the subscription emails is the proof. What it shows, and the
 * one change it makes here: the delivery address of the next renewals (cancellation is
 * cancel.server.ts's, shared with the online form).
 */

export type SubscriptionPageAccess = { ok: true; record: Subscription } | { ok: false; reason: "invalid" | "expired" };

/** The link's subscription, or why not: a link to a subscription that does not exist is as invalid as a forged one. */
export async function openSubscriptionPage(params: URLSearchParams, now: Date = new Date()): Promise<SubscriptionPageAccess> {
  const check = checkSubscriptionLink(params, now);
  if (!check.ok) return check;
  const record = await findSubscription(getDb(), check.id);
  return record ? { ok: true, record } : { ok: false, reason: "invalid" };
}

export type SubscriptionPageState = "incomplete" | "active" | "past_due" | "cancel_scheduled" | "canceled";

export type SubscriptionPageOrder = {
  id: number;
  createdAt: string;
  totalCents: number;
  status: FulfilmentStatus;
  paymentStatus: PaymentStatus;
  /** Where it stands in one phrase: its step, or « Remboursée » (lib/order-status.ts). */
  progressLabel: string;
  /** null for the first order, else its renewal number. */
  renewalNumber: number | null;
  /** The order's tracking page with its key (a path of this site). */
  trackingPath: string;
} & OrderDocuments;

export type SubscriptionPageView = {
  id: number;
  state: SubscriptionPageState;
  productName: string;
  variantName: string | null;
  quantity: number;
  amountCents: number;
  /** The next renewal (ISO), or null when none is coming. */
  nextRenewalAt: string | null;
  /** When it ends or ended (ISO): the end of the period for a scheduled cancellation, the date for a cancelled one. */
  endsAt: string | null;
  address: {
    firstName: string;
    lastName: string;
    address: string;
    address2: string;
    postalCode: string;
    city: string;
    country: string;
    phone: string;
  };
  orders: SubscriptionPageOrder[];
  /** The path to pay the failed renewal (its key included), when one is unpaid. */
  payPath: string | null;
  /**
   * The renewal owed (past due): which one, of when (ISO), how much, and when the next one comes
   * once it is paid. `nextRenewalAt` is then null: the date of the unpaid one is never announced
   * as a renewal to come.
   */
  unpaidRenewal: UnpaidRenewal | null;
  canCancel: boolean;
  canChangeAddress: boolean;
  /** « Changer de carte »: an ongoing subscription, paid up or past due. */
  canChangeCard: boolean;
  /** « Visa •••• 3155 », once the subscriber changed it here; null for the card of the first payment. */
  card: string | null;
  customerEmail: string;
  /** What the next renewal really charges (promotions/renewal-amount.server.ts). */
  nextCharge: RenewalCharge;
};

export type UnpaidRenewal = {
  renewalNumber: number;
  dueAt: string | null;
  amountCents: number;
  nextAfterPaymentAt: string | null;
};

/** Every 4 weeks after a renewal. */
const RENEWAL_INTERVAL_MS = 28 * 86_400_000;

function unpaidRenewalOf(record: Subscription): UnpaidRenewal | null {
  if (record.status !== "past_due" || !record.unpaidInvoiceId) return null;
  // The period on record ends at the renewal that failed: it is moved on only by a paid one.
  const dueAt = record.currentPeriodEnd;
  const next = dueAt ? new Date(new Date(dueAt).getTime() + RENEWAL_INTERVAL_MS) : null;
  return {
    renewalNumber: record.renewalCount + 1,
    dueAt,
    amountCents: record.amountCents,
    nextAfterPaymentAt: next && !Number.isNaN(next.getTime()) ? next.toISOString() : null,
  };
}

export function stateOf(record: Subscription): SubscriptionPageState {
  if (record.status === "canceled") return "canceled";
  if (record.cancelAtPeriodEnd) return "cancel_scheduled";
  return record.status;
}

/** The first order and every renewal order, oldest first. */
async function subscriptionOrders(record: Subscription): Promise<SubscriptionPageOrder[]> {
  const rows = await getDb()
    .select({
      id: orders.id,
      createdAt: orders.createdAt,
      paidAt: orders.paidAt,
      totalCents: orders.totalCents,
      status: orders.status,
      paymentStatus: orders.paymentStatus,
      renewalNumber: orders.renewalNumber,
    })
    .from(orders)
    .where(
      record.firstOrderId === null
        ? eq(orders.subscriptionId, record.id)
        : or(eq(orders.subscriptionId, record.id), eq(orders.id, record.firstOrderId)),
    )
    .orderBy(asc(orders.createdAt), asc(orders.renewalNumber));
  const documents = await documentsOfOrders(rows.map((o) => o.id));
  const withdrawn = await ordersWithWithdrawal(rows.map((o) => o.id));
  return rows.map((o) => ({
    id: o.id,
    createdAt: o.paidAt ?? o.createdAt,
    totalCents: o.totalCents,
    status: o.status,
    paymentStatus: o.paymentStatus,
    progressLabel: orderProgressLabel({ ...o, withdrawn: withdrawn.has(o.id) }),
    renewalNumber: o.id === record.firstOrderId ? null : o.renewalNumber,
    trackingPath: `/track-order?id=${o.id}&cle=${orderLinkKey(o.id)}`,
    ...documentsOf(documents, o.id),
  }));
}

/** What the page shows. */
export async function subscriptionPageView(record: Subscription): Promise<SubscriptionPageView> {
  const state = stateOf(record);
  const name = splitFullName(record.shippingName ?? record.customerName);
  const ongoing = state === "active" || state === "past_due" || state === "incomplete";
  return {
    id: record.id,
    state,
    productName: record.productName ?? "Masque Hydrogel",
    variantName: record.variantName,
    quantity: record.quantity,
    amountCents: record.amountCents,
    nextRenewalAt: ongoing && !unpaidRenewalOf(record) ? record.currentPeriodEnd : null,
    endsAt: state === "canceled" ? record.canceledAt : state === "cancel_scheduled" ? record.currentPeriodEnd : null,
    address: {
      firstName: name.firstName,
      lastName: name.lastName,
      address: record.shippingAddress ?? "",
      address2: record.shippingAddress2 ?? "",
      postalCode: record.shippingPostalCode ?? "",
      city: record.shippingCity ?? "",
      country: record.shippingCountry ?? DELIVERY_COUNTRY,
      phone: formatFrenchPhone(record.shippingPhone),
    },
    orders: await subscriptionOrders(record),
    payPath: record.status === "past_due" && record.unpaidInvoiceId ? invoicePayPath(record.unpaidInvoiceId) : null,
    unpaidRenewal: unpaidRenewalOf(record),
    canCancel: state !== "canceled",
    canChangeAddress: state !== "canceled",
    canChangeCard: state === "active" || state === "past_due" || state === "cancel_scheduled",
    card: record.cardLast4 ? cardLabel(record.cardBrand, record.cardLast4) : null,
    customerEmail: record.customerEmail ?? "",
    nextCharge: await renewalCharge(record),
  };
}

export const SUBSCRIPTION_ENDED_MESSAGE = "Cet abonnement est résilié : il n'y a plus de livraison à venir.";

/** The subscription's delivery address as its emails print it. */
function addressOf(record: Subscription): SubscriptionAddressSnapshot {
  return {
    customerName: record.shippingName ?? record.customerName ?? "",
    shippingAddress: record.shippingAddress ?? "",
    shippingAddress2: record.shippingAddress2,
    shippingPostalCode: record.shippingPostalCode ?? "",
    shippingCity: record.shippingCity ?? "",
    shippingCountry: record.shippingCountry ?? DELIVERY_COUNTRY,
    shippingPhone: record.shippingPhone,
  };
}

/**
 * The delivery address of the next renewals: the next renewal order is made from it (see
 * createRenewalOrderIn); the orders already made keep theirs. Refused once the subscription
 * ended. The customer is told by email (« Votre adresse de livraison a été modifiée »), with the
 * old and the new address and a way to react, in the same transaction as the change.
 */
export async function changeSubscriptionAddress(
  record: Subscription,
  input: SubscriptionAddressInput,
  now: Date = new Date(),
): Promise<Subscription> {
  if (record.status === "canceled") throw new ShopError(409, "subscription_canceled", SUBSCRIPTION_ENDED_MESSAGE);
  return await getDb().transaction(async (tx) => {
    const [updated] = await tx
      .update(subscriptions)
      .set({
        shippingName: `${input.firstName} ${input.lastName}`,
        shippingAddress: input.address,
        shippingAddress2: input.address2,
        shippingPostalCode: input.postalCode,
        shippingCity: input.city,
        shippingCountry: DELIVERY_COUNTRY,
        shippingPhone: input.phone,
      })
      .where(eq(subscriptions.id, record.id))
      .returning();
    await queueSubscriptionAddressChangedEmail(tx, updated, {
      changedAt: now.toISOString(),
      previous: addressOf(record),
      next: addressOf(updated),
    });
    return updated;
  });
}
