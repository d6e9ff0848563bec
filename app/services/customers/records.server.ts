import { CUSTOMER_NOT_FOUND } from "~/lib/not-found";
import { asc, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { getDb, type DbOrTx } from "~/db/client.server";
import { auditLog, contactRequests, emails, invoices, orderItems, orders, subscriptions, users } from "~/db/schema";
import { ShopError } from "~/lib/shop-error";
import { auditView } from "./audit.server";
import { erasureRefusal } from "./erasure-rules.server";
import { isErased } from "./placeholders.server";
import { latestStripeErasure } from "./stripe-erasure-queue.server";

/**
 * A customer's personal data in the back office (GDPR articles 15, 17 and 20): everything the
 * shop holds about one customer (the account, the orders and subscriptions with their own copy
 * of the name and address, the emails sent about them, the contact requests). Its export is
 * export.server.ts, its erasure erase.server.ts, its JSON API shape api-view.server.ts.
 *
 * A customer's records are found by the account's id and by its email address (without regard
 * to case): an anonymous checkout links its order to the account of the email typed, and a
 * contact request knows only the email.
 */

export { CUSTOMER_NOT_FOUND };

export type Account = typeof users.$inferSelect;

async function findAccount(db: DbOrTx, id: number): Promise<Account | undefined> {
  return (await db.select().from(users).where(eq(users.id, id)).limit(1))[0];
}

/** A text column equal to this email address, without regard to case. */
const sameEmail = (column: SQLiteColumn, email: string): SQL => sql`lower(${column}) = lower(${email})`;

/** The ids of the customer's orders, subscriptions, contact requests and emails. */
export async function recordIds(db: DbOrTx, account: Account) {
  const orderIds = (
    await db
      .select({ id: orders.id })
      .from(orders)
      .where(or(eq(orders.userId, account.id), sameEmail(orders.customerEmail, account.email)))
  ).map((r) => r.id);
  const subscriptionIds = (
    await db
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(
        or(
          eq(subscriptions.userId, account.id),
          sameEmail(subscriptions.customerEmail, account.email),
          orderIds.length ? inArray(subscriptions.firstOrderId, orderIds) : undefined,
          orderIds.length
            ? sql`${subscriptions.id} in (select ${orders.subscriptionId} from ${orders} where ${inArray(orders.id, orderIds)})`
            : undefined,
        ),
      )
  ).map((r) => r.id);
  const contactIds = (
    await db.select({ id: contactRequests.id }).from(contactRequests).where(sameEmail(contactRequests.email, account.email))
  ).map((r) => r.id);
  const emailIds = (
    await db
      .select({ id: emails.id })
      .from(emails)
      .where(
        or(
          sameEmail(emails.toAddress, account.email),
          orderIds.length ? inArray(emails.orderId, orderIds) : undefined,
          contactIds.length ? inArray(emails.contactRequestId, contactIds) : undefined,
        ),
      )
  ).map((r) => r.id);
  return { orderIds, subscriptionIds, contactIds, emailIds };
}

export type RecordIds = Awaited<ReturnType<typeof recordIds>>;

export async function readOrders(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return [];
  const rows = await db.select().from(orders).where(inArray(orders.id, ids)).orderBy(desc(orders.createdAt), desc(orders.id));
  const items = await db.select().from(orderItems).where(inArray(orderItems.orderId, ids)).orderBy(asc(orderItems.id));
  const documents = await db
    .select({
      orderId: invoices.orderId,
      kind: invoices.kind,
      number: invoices.number,
      issuedAt: invoices.issuedAt,
      totalIncludingCents: invoices.totalIncludingCents,
    })
    .from(invoices)
    .where(inArray(invoices.orderId, ids));
  return rows.map((o) => {
    const invoice = documents.find((d) => d.orderId === o.id && d.kind === "invoice") ?? null;
    const creditNote = documents.find((d) => d.orderId === o.id && d.kind === "credit_note") ?? null;
    return {
      id: o.id,
      createdAt: o.createdAt,
      paidAt: o.paidAt,
      status: o.status,
      paymentStatus: o.paymentStatus,
      subtotalCents: o.subtotalCents,
      shippingCents: o.shippingCents,
      totalCents: o.totalCents,
      isSubscription: o.isSubscription,
      subscriptionId: o.subscriptionId,
      renewalNumber: o.renewalNumber,
      customerEmail: o.customerEmail,
      customerName: o.customerName,
      customerFirstName: o.customerFirstName,
      customerLastName: o.customerLastName,
      shipping: {
        address: o.shippingAddress,
        address2: o.shippingAddress2,
        postalCode: o.shippingPostalCode,
        city: o.shippingCity,
        country: o.shippingCountry,
        phone: o.shippingPhone,
      },
      trackingNumber: o.trackingNumber,
      termsVersion: o.termsVersion,
      items: items
        .filter((i) => i.orderId === o.id)
        .map((i) => ({
          productName: i.productName,
          variantName: i.variantName,
          quantity: i.quantity,
          unitPriceCents: i.unitPriceCents,
        })),
      invoice: invoice ? { number: invoice.number, issuedAt: invoice.issuedAt, totalCents: invoice.totalIncludingCents } : null,
      creditNote: creditNote
        ? { number: creditNote.number, issuedAt: creditNote.issuedAt, totalCents: creditNote.totalIncludingCents }
        : null,
    };
  });
}

export async function readSubscriptions(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return [];
  return (
    await db
      .select()
      .from(subscriptions)
      .where(inArray(subscriptions.id, ids))
      .orderBy(desc(subscriptions.createdAt), desc(subscriptions.id))
  ).map((s) => ({
    id: s.id,
    status: s.status,
    cancelAtPeriodEnd: s.cancelAtPeriodEnd,
    productName: s.productName,
    variantName: s.variantName,
    quantity: s.quantity,
    amountCents: s.amountCents,
    startedAt: s.startedAt,
    currentPeriodEnd: s.currentPeriodEnd,
    canceledAt: s.canceledAt,
    renewalCount: s.renewalCount,
    firstOrderId: s.firstOrderId,
    customerEmail: s.customerEmail,
    customerName: s.customerName,
    shipping: {
      name: s.shippingName,
      address: s.shippingAddress,
      address2: s.shippingAddress2,
      postalCode: s.shippingPostalCode,
      city: s.shippingCity,
      country: s.shippingCountry,
      phone: s.shippingPhone,
    },
    createdAt: s.createdAt,
  }));
}

async function readEmails(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return [];
  return await db
    .select({
      id: emails.id,
      kind: emails.kind,
      status: emails.status,
      toAddress: emails.toAddress,
      orderId: emails.orderId,
      contactRequestId: emails.contactRequestId,
      subject: emails.subject,
      text: emails.text,
      createdAt: emails.createdAt,
      sentAt: emails.sentAt,
    })
    .from(emails)
    .where(inArray(emails.id, ids))
    .orderBy(desc(emails.createdAt), desc(emails.id));
}

async function readContacts(db: DbOrTx, ids: number[]) {
  if (ids.length === 0) return [];
  return await db
    .select({
      id: contactRequests.id,
      name: contactRequests.name,
      email: contactRequests.email,
      subject: contactRequests.subject,
      message: contactRequests.message,
      status: contactRequests.status,
      createdAt: contactRequests.createdAt,
    })
    .from(contactRequests)
    .where(inArray(contactRequests.id, ids))
    .orderBy(desc(contactRequests.createdAt), desc(contactRequests.id));
}

export async function readCustomerData(db: DbOrTx, account: Account) {
  const ids = await recordIds(db, account);
  const customerOrders = await readOrders(db, ids.orderIds);
  const customerSubscriptions = await readSubscriptions(db, ids.subscriptionIds);
  const refusal = erasureRefusal(account, { orders: customerOrders, subscriptions: customerSubscriptions });
  return {
    customer: {
      id: account.id,
      username: account.username,
      email: account.email,
      firstName: account.firstName,
      lastName: account.lastName,
      address: account.address,
      postalCode: account.postalCode,
      city: account.city,
      country: account.country,
      phone: account.phone,
      isAdmin: account.isAdmin,
      erased: isErased(account),
      createdAt: account.createdAt,
      updatedAt: account.updatedAt,
    },
    orders: customerOrders,
    subscriptions: customerSubscriptions,
    emails: await readEmails(db, ids.emailIds),
    contactRequests: await readContacts(db, ids.contactIds),
    audit: (
      await db.select().from(auditLog).where(eq(auditLog.subjectId, account.id)).orderBy(desc(auditLog.at), desc(auditLog.id))
    ).map(auditView),
    erasure: {
      allowed: refusal === null,
      refusal: refusal?.message ?? null,
      reasons: refusal?.issues.map((i) => i.message) ?? [],
    },
    /** The Stripe part of the erasure: pending (with its attempts) or done, null before any erasure. */
    stripeErasure: await latestStripeErasure(db, account.id),
  };
}

/** Everything the shop holds about one customer, or undefined. */
export async function getCustomerData(id: number) {
  const db = getDb();
  const account = await findAccount(db, id);
  return account ? await readCustomerData(db, account) : undefined;
}

export type CustomerData = NonNullable<Awaited<ReturnType<typeof getCustomerData>>>;

export async function customerOr404(db: DbOrTx, id: number): Promise<Account> {
  const account = await findAccount(db, id);
  if (!account) throw new ShopError(404, "customer_not_found", CUSTOMER_NOT_FOUND);
  return account;
}
