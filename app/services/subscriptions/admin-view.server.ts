import { cardLabel } from "~/lib/cards";
import { renewalCharge } from "~/services/promotions/renewal-amount.server";
import { and, asc, desc, eq, gte, inArray, lt, lte, sql, type SQL } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { emails, orders, subscriptions, type Subscription } from "~/db/schema";
import { EMAIL_KIND_LABELS, type EmailKind, type EmailStatus } from "~/lib/email-kinds";
import { parseIdOrNull } from "~/lib/ids";
import { addDays, parisDayStart } from "~/lib/paris-days";
import { centsToDecimal } from "~/lib/money";
import type { SubscriptionFilters } from "~/schemas/admin-subscription";
import { findPackById } from "~/services/packs.server";
import { decodeCursor, pageOf } from "~/services/pagination/cursor.server";
import type { PageQuery } from "~/schemas/page";
import { subscriptionEventsOf } from "./history.server";

/**
 * The back office's view of subscriptions: the list with its filters, and one subscription
 * with its orders, its emails and what happened to it (the timeline). Read only: the
 * subscriptions are written by the payment flow and the webhooks (subscriptions/record.server.ts),
 * the admin's cancellations by admin-cancel.server.ts.
 */

const PAGE_SIZE = 20;
const UNKNOWN_CUSTOMER = "Client inconnu";
export const SUBSCRIPTION_NOT_FOUND = "Abonnement introuvable";

function escapeLike(value: string) {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** A date column within [from, to] (whole days, Paris time). */
function dayRange(
  column: typeof subscriptions.startedAt | typeof subscriptions.currentPeriodEnd,
  from: string | undefined,
  to: string | undefined,
): SQL[] {
  const parts: SQL[] = [];
  if (from) parts.push(gte(column, parisDayStart(from)));
  if (to) parts.push(lt(column, parisDayStart(addDays(to, 1))));
  return parts;
}

function whereFor(filters: SubscriptionFilters): SQL | undefined {
  const parts: (SQL | undefined)[] = [];
  if (filters.status) parts.push(eq(subscriptions.status, filters.status));
  const q = filters.q?.trim().replace(/^#/, "");
  if (q) {
    const pattern = `%${escapeLike(q.toLowerCase())}%`;
    const text = sql`(lower(coalesce(${subscriptions.customerEmail}, '')) like ${pattern} escape '\\' or lower(coalesce(${subscriptions.customerName}, '')) like ${pattern} escape '\\')`;
    const id = parseIdOrNull(q);
    parts.push(id !== null ? sql`(${subscriptions.id} = ${id} or ${subscriptions.firstOrderId} = ${id} or ${text})` : text);
  }
  if (filters.pack !== undefined) parts.push(eq(subscriptions.packId, filters.pack));
  if (filters.minAmount !== undefined) parts.push(gte(subscriptions.amountCents, filters.minAmount));
  if (filters.maxAmount !== undefined) parts.push(lte(subscriptions.amountCents, filters.maxAmount));
  parts.push(...dayRange(subscriptions.startedAt, filters.startedFrom, filters.startedTo));
  parts.push(...dayRange(subscriptions.currentPeriodEnd, filters.renewsFrom, filters.renewsTo));
  if (filters.minRenewals !== undefined) parts.push(gte(subscriptions.renewalCount, filters.minRenewals));
  if (filters.maxRenewals !== undefined) parts.push(lte(subscriptions.renewalCount, filters.maxRenewals));
  return and(...parts);
}

async function packLabel(row: Pick<Subscription, "packId" | "variantName" | "productName">): Promise<string> {
  return (
    row.variantName?.trim() ||
    (row.packId ? (await findPackById(row.packId))?.name : undefined) ||
    row.productName?.trim() ||
    "Pack inconnu"
  );
}

async function toSummary(row: Subscription) {
  return {
    id: row.id,
    customer: row.customerName?.trim() || UNKNOWN_CUSTOMER,
    email: row.customerEmail || null,
    packId: row.packId,
    pack: await packLabel(row),
    quantity: row.quantity,
    amountCents: row.amountCents,
    status: row.status,
    startedAt: row.startedAt,
    /** The next renewal; none once canceled. */
    nextRenewalAt: row.status === "canceled" ? null : row.currentPeriodEnd,
    renewalCount: row.renewalCount,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    canceledAt: row.canceledAt,
    firstOrderId: row.firstOrderId,
    createdAt: row.createdAt,
  };
}

export type AdminSubscriptionSummary = Awaited<ReturnType<typeof toSummary>>;

/** One page of subscriptions, the most recent first. */
export async function listAdminSubscriptions(filters: SubscriptionFilters, pageSize = PAGE_SIZE) {
  const db = getDb();
  const where = whereFor(filters);
  const total =
    (
      await db
        .select({ n: sql<number>`count(*)`.mapWith(Number) })
        .from(subscriptions)
        .where(where)
        .limit(1)
    )[0]?.n ?? 0;
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const page = Math.min(Math.max(1, filters.page ?? 1), pageCount);
  const rows = await db
    .select()
    .from(subscriptions)
    .where(where)
    .orderBy(desc(sql`coalesce(${subscriptions.startedAt}, ${subscriptions.createdAt})`), desc(subscriptions.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return { subscriptions: await Promise.all(rows.map(toSummary)), total, page, pageCount, pageSize };
}

/** The list's order, the most recent first: the start (or creation) date, then the id. */
const sortDate = sql<string>`coalesce(${subscriptions.startedAt}, ${subscriptions.createdAt})`;

/**
 * A page of GET /api/admin/subscriptions: the list's filters and order, read by key from the
 * cursor (cursor.server.ts), so a subscription started between two pages is neither repeated nor lost.
 */
export async function pageAdminSubscriptions(filters: SubscriptionFilters, query: PageQuery) {
  const key = query.cursor ? decodeCursor(query.cursor, ["string", "number"]) : null;
  const rows = await getDb()
    .select()
    .from(subscriptions)
    .where(and(whereFor(filters), key ? sql`(${sortDate}, ${subscriptions.id}) < (${key[0]}, ${key[1]})` : undefined))
    .orderBy(desc(sortDate), desc(subscriptions.id))
    .limit(query.limit + 1);
  const page = pageOf(rows, query.limit, (row) => [row.startedAt ?? row.createdAt, row.id]);
  return { items: await Promise.all(page.items.map(toSummary)), nextCursor: page.nextCursor };
}

type TimelineEvent = {
  at: string | null;
  kind: "started" | "first_order" | "renewal" | "payment_failed" | "email" | "cancel_scheduled" | "canceled" | "change";
  label: string;
  orderId: number | null;
  emailId: number | null;
  /** A change made by the shop: its reason. */
  reason: string | null;
};

/** One subscription with its orders, its emails and its timeline (oldest first, each email after its order), or undefined. */
export async function getAdminSubscription(id: number) {
  const db = getDb();
  const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id)).limit(1);
  if (!row) return undefined;
  const orderRows = await db
    .select({
      id: orders.id,
      createdAt: orders.createdAt,
      paidAt: orders.paidAt,
      status: orders.status,
      paymentStatus: orders.paymentStatus,
      totalCents: orders.totalCents,
      renewalNumber: orders.renewalNumber,
      stripeInvoiceId: orders.stripeInvoiceId,
    })
    .from(orders)
    .where(eq(orders.subscriptionId, row.id))
    .orderBy(asc(sql`coalesce(${orders.renewalNumber}, 0)`), asc(orders.createdAt));
  const orderIds = [...new Set([...orderRows.map((o) => o.id), ...(row.firstOrderId ? [row.firstOrderId] : [])])];
  const emailRows = orderIds.length
    ? await db
        .select({
          id: emails.id,
          kind: emails.kind,
          status: emails.status,
          orderId: emails.orderId,
          toAddress: emails.toAddress,
          createdAt: emails.createdAt,
          sentAt: emails.sentAt,
        })
        .from(emails)
        .where(inArray(emails.orderId, orderIds))
        .orderBy(asc(emails.createdAt), asc(emails.id))
    : [];

  const events: TimelineEvent[] = [];
  const add = (event: Omit<TimelineEvent, "orderId" | "emailId" | "reason"> & Partial<TimelineEvent>) =>
    events.push({ orderId: null, emailId: null, reason: null, ...event });
  if (row.startedAt) add({ at: row.startedAt, kind: "started", label: "Abonnement souscrit (premier paiement)" });
  for (const order of orderRows) {
    if (order.renewalNumber) {
      add({
        at: order.paidAt ?? order.createdAt,
        kind: "renewal",
        label: `Renouvellement n°${order.renewalNumber} payé : commande #${order.id}`,
        orderId: order.id,
      });
    } else {
      add({ at: order.createdAt, kind: "first_order", label: `Première commande #${order.id}`, orderId: order.id });
    }
  }
  for (const email of emailRows) {
    if (email.kind === "renewal_payment_failed") {
      add({ at: email.createdAt, kind: "payment_failed", label: "Paiement d'un renouvellement refusé", orderId: email.orderId });
    }
    if (email.kind === "renewal_action_required") {
      add({
        at: email.createdAt,
        kind: "payment_failed",
        label: "Authentification requise par la banque pour un renouvellement",
        orderId: email.orderId,
      });
    }
    add({
      at: email.createdAt,
      kind: "email",
      label: `Email « ${EMAIL_KIND_LABELS[email.kind as EmailKind]} »`,
      orderId: email.orderId,
      emailId: email.id,
    });
  }
  if (
    row.unpaidInvoiceId &&
    !emailRows.some((e) => e.kind === "renewal_payment_failed" || e.kind === "renewal_action_required")
  ) {
    add({ at: row.updatedAt, kind: "payment_failed", label: "Paiement d'un renouvellement refusé" });
  }
  for (const change of await subscriptionEventsOf(row.id, db)) {
    const who = change.actor === "admin" ? "Par la boutique" : "Par le client";
    add({ at: change.at, kind: "change", label: `${who} : ${change.label}`, reason: change.reason });
  }
  if (row.status === "canceled") {
    add({ at: row.canceledAt, kind: "canceled", label: "Abonnement résilié" });
  } else if (row.cancelAtPeriodEnd) {
    add({ at: row.currentPeriodEnd, kind: "cancel_scheduled", label: "Résiliation prévue à la fin de la période payée" });
  }
  // An email comes after the event of its order: with a test clock, a renewal is dated at the
  // clock's time (ahead of the real one) while its email is dated when it was queued.
  const orderAt = new Map(
    events.filter((e) => e.kind === "renewal" || e.kind === "first_order").map((e) => [e.orderId, e.at ?? ""]),
  );
  const sortKey = (event: TimelineEvent) => {
    const at = event.at ?? "9";
    const after = event.kind === "email" || event.kind === "payment_failed" ? orderAt.get(event.orderId) : undefined;
    return after && after > at ? after : at;
  };
  const timeline = events
    .map((event, index) => ({ event, index, key: sortKey(event) }))
    .sort((a, b) => a.key.localeCompare(b.key) || a.index - b.index)
    .map(({ event }) => event);

  return {
    ...(await toSummary(row)),
    stripeSubscriptionId: row.stripeSubscriptionId,
    stripeCustomerId: row.stripeCustomerId,
    unpaidInvoiceId: row.unpaidInvoiceId,
    /** When the bank asked the customer to authenticate the unpaid renewal (3-D Secure), if it did. */
    actionRequiredAt: row.actionRequiredAt,
    intervalWeeks: row.intervalWeeks,
    /** What the next renewal really charges (the promotion code's discount while it lasts). */
    nextCharge: await renewalCharge(row),
    /** « Visa •••• 3155 » once the subscriber changed the card on their page; null for the first payment's card. */
    card: row.cardLast4 ? cardLabel(row.cardBrand, row.cardLast4) : null,
    pauseKind: row.pauseKind,
    pauseResumesAt: row.pauseResumesAt,
    shipping: {
      name: row.shippingName,
      address: row.shippingAddress,
      postalCode: row.shippingPostalCode,
      city: row.shippingCity,
      country: row.shippingCountry,
    },
    orders: orderRows,
    emails: emailRows.map((e) => ({ ...e, kind: e.kind as EmailKind, status: e.status as EmailStatus })),
    timeline,
  };
}

export type AdminSubscriptionDetail = NonNullable<Awaited<ReturnType<typeof getAdminSubscription>>>;

// ---------------------------------------------------------------------------------------------
// JSON API shapes (amounts as decimal strings)

export function subscriptionSummaryToApi(s: AdminSubscriptionSummary) {
  return {
    id: s.id,
    customerName: s.customer,
    customerEmail: s.email,
    packId: s.packId,
    pack: s.pack,
    quantity: s.quantity,
    amount: centsToDecimal(s.amountCents),
    status: s.status,
    startedAt: s.startedAt,
    nextRenewalAt: s.nextRenewalAt,
    renewalCount: s.renewalCount,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    canceledAt: s.canceledAt,
    firstOrderId: s.firstOrderId,
    createdAt: s.createdAt,
  };
}

export function subscriptionDetailToApi(s: AdminSubscriptionDetail) {
  return {
    ...subscriptionSummaryToApi(s),
    stripeSubscriptionId: s.stripeSubscriptionId,
    stripeCustomerId: s.stripeCustomerId,
    unpaidInvoiceId: s.unpaidInvoiceId,
    intervalWeeks: s.intervalWeeks,
    pause: s.pauseKind && s.pauseResumesAt ? { kind: s.pauseKind, resumesAt: s.pauseResumesAt } : null,
    shipping: s.shipping,
    orders: s.orders.map((o) => ({
      id: o.id,
      createdAt: o.createdAt,
      paidAt: o.paidAt,
      status: o.status,
      paymentStatus: o.paymentStatus,
      total: centsToDecimal(o.totalCents),
      renewalNumber: o.renewalNumber,
      stripeInvoiceId: o.stripeInvoiceId,
    })),
    emails: s.emails.map((e) => ({
      id: e.id,
      kind: e.kind,
      status: e.status,
      orderId: e.orderId,
      to: e.toAddress,
      createdAt: e.createdAt,
      sentAt: e.sentAt,
    })),
    timeline: s.timeline,
  };
}
