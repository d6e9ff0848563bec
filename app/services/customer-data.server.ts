import { CUSTOMER_NOT_FOUND } from "~/lib/not-found";
import { and, asc, desc, eq, inArray, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { getDb, type DbOrTx } from "~/db/client.server";
import { auditLog, contactRequests, emails, invoices, orderItems, orders, subscriptions, users, type Email } from "~/db/schema";
import { AUDIT_ACTION_LABELS, type AuditAction } from "~/lib/audit";
import { EMAIL_KIND_LABELS, EMAIL_STATUS_LABELS } from "~/lib/email-kinds";
import { centsToDecimal } from "~/lib/money";
import { FULFILMENT_LABELS, PAYMENT_LABELS } from "~/lib/order-status";
import { ShopError } from "~/lib/shop-error";
import { CONTACT_STATUS_LABELS } from "~/lib/statuses";
import { SUBSCRIPTION_STATUS_LABELS } from "~/lib/subscription-status";

/**
 * A customer's personal data in the back office (GDPR articles 15, 17 and 20): everything the
 * shop holds about one customer (the account, the orders and subscriptions with their own copy
 * of the name and address, the emails sent about them, the contact requests), its export as one
 * JSON file, and its erasure.
 *
 * A customer's records are found by the account's id and by its email address (without regard
 * to case): an anonymous checkout links its order to the account of the email typed, and a
 * contact request knows only the email.
 *
 * Erasure anonymises, it deletes nothing: amounts, dates, order numbers, statuses and invoices
 * stay, because the accounts must be kept for 10 years (Code de commerce L123-22). An issued
 * invoice is a legal document that names its buyer (Code général des impôts, art. 242 nonies A):
 * its frozen copy (table invoices) is kept as it was issued.
 */

export { CUSTOMER_NOT_FOUND };
export const ERASED = "[effacé]";
const ERASED_HTML = "<p>[effacé]</p>";
/** The last error of an email erased before it was sent (it is marked failed, so it never leaves). */
const ERASED_UNSENT = "Effacé à la demande du client avant son envoi.";

/** The non-personal email address an erased account (and its orders, subscriptions and requests) gets: unique, and never deliverable (.invalid). */
export function erasedEmail(id: number): string {
  return `efface-${id}@anonyme.invalid`;
}

export function erasedUsername(id: number): string {
  return `efface-${id}`;
}

/** Whether an account has been erased (its email is the placeholder). */
function isErased(user: { id: number; email: string }): boolean {
  return user.email === erasedEmail(user.id);
}

/** Who does it: the signed-in administrator. */
export type AuditActor = { id: number; username: string };

async function audit(db: DbOrTx, actor: AuditActor, action: AuditAction, subjectId: number) {
  await db.insert(auditLog).values({ actorId: actor.id, actorUsername: actor.username, action, subjectId });
}

function auditView(row: typeof auditLog.$inferSelect) {
  return {
    id: row.id,
    at: row.at,
    actor: row.actorUsername,
    actorId: row.actorId,
    action: row.action,
    label: AUDIT_ACTION_LABELS[row.action],
    customerId: row.subjectId,
  };
}

export type AuditView = ReturnType<typeof auditView>;

/** The last lines of the audit log, the most recent first. */
export async function listRecentAudit(limit = 10): Promise<AuditView[]> {
  return (await getDb().select().from(auditLog).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(limit)).map(auditView);
}

// ---------------------------------------------------------------------------------------------
// What the shop holds about one customer

type Account = typeof users.$inferSelect;

async function findAccount(db: DbOrTx, id: number): Promise<Account | undefined> {
  return (await db.select().from(users).where(eq(users.id, id)).limit(1))[0];
}

/** A text column equal to this email address, without regard to case. */
const sameEmail = (column: SQLiteColumn, email: string): SQL => sql`lower(${column}) = lower(${email})`;

/** The ids of the customer's orders, subscriptions, contact requests and emails. */
async function recordIds(db: DbOrTx, account: Account) {
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

async function readOrders(db: DbOrTx, ids: number[]) {
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

async function readSubscriptions(db: DbOrTx, ids: number[]) {
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

type CustomerRecords = {
  orders: Awaited<ReturnType<typeof readOrders>>;
  subscriptions: Awaited<ReturnType<typeof readSubscriptions>>;
};

/** Subscriptions that still charge or may charge: they must be cancelled before an erasure. */
const RUNNING_SUBSCRIPTION = new Set(["active", "past_due"]);

/** What stands in the way of an erasure: each paid order not yet shipped, each running subscription. */
function erasureBlockers(records: CustomerRecords): { path: string; message: string }[] {
  const blockers: { path: string; message: string }[] = [];
  for (const order of records.orders) {
    // Paid, in full or after a partial refund: the rest is still to be shipped.
    const toShip = order.paymentStatus === "paid" || order.paymentStatus === "partially_refunded";
    if (toShip && order.status !== "shipped" && order.status !== "delivered") {
      blockers.push({
        path: `orders.${order.id}`,
        message: `Effacement impossible : la commande n° ${order.id} n'est pas encore expédiée.`,
      });
    }
  }
  for (const subscription of records.subscriptions) {
    if (RUNNING_SUBSCRIPTION.has(subscription.status)) {
      blockers.push({
        path: `subscriptions.${subscription.id}`,
        message: `Effacement impossible : l'abonnement n° ${subscription.id} est actif : résiliez-le d'abord.`,
      });
    }
  }
  return blockers;
}

export const ADMIN_NOT_ERASABLE =
  "Effacement impossible : ce compte est un compte administrateur. Retirez-lui d'abord ses droits d'administrateur.";

/** Why this customer cannot be erased now (the first reason, then every one), or null. */
function erasureRefusal(
  account: Account,
  records: CustomerRecords,
): { message: string; code: string; issues: { path: string; message: string }[] } | null {
  if (account.isAdmin) return { message: ADMIN_NOT_ERASABLE, code: "customer_is_admin", issues: [] };
  const blockers = erasureBlockers(records);
  if (blockers.length === 0) return null;
  const code = blockers[0].path.startsWith("orders.") ? "customer_order_unshipped" : "customer_subscription_active";
  return { message: blockers[0].message, code, issues: blockers };
}

async function readCustomerData(db: DbOrTx, account: Account) {
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
  };
}

/** Everything the shop holds about one customer, or undefined. */
export async function getCustomerData(id: number) {
  const db = getDb();
  const account = await findAccount(db, id);
  return account ? await readCustomerData(db, account) : undefined;
}

export type CustomerData = NonNullable<Awaited<ReturnType<typeof getCustomerData>>>;

async function customerOr404(db: DbOrTx, id: number): Promise<Account> {
  const account = await findAccount(db, id);
  if (!account) throw new ShopError(404, "customer_not_found", CUSTOMER_NOT_FOUND);
  return account;
}

// ---------------------------------------------------------------------------------------------
// Export (article 15, right of access; article 20, portability)

const money = (cents: number | null | undefined) => centsToDecimal(cents ?? 0);

/** The export file, in French: what a customer receives when they ask for their data. No password, no token, no payment identifier. */
function toExport(data: CustomerData, at: Date) {
  const c = data.customer;
  return {
    format: "export-donnees-client-v1",
    exporteLe: at.toISOString(),
    note: "Montants en euros (chaînes décimales), dates en UTC (ISO 8601).",
    client: {
      id: c.id,
      nomUtilisateur: c.username,
      email: c.email,
      prenom: c.firstName,
      nom: c.lastName,
      adresse: c.address,
      codePostal: c.postalCode,
      ville: c.city,
      pays: c.country,
      telephone: c.phone,
      administrateur: c.isAdmin,
      donneesEffacees: c.erased,
      creeLe: c.createdAt,
      modifieLe: c.updatedAt,
    },
    commandes: data.orders.map((o) => ({
      numero: o.id,
      passeeLe: o.createdAt,
      payeeLe: o.paidAt,
      statut: FULFILMENT_LABELS[o.status],
      paiement: PAYMENT_LABELS[o.paymentStatus],
      sousTotal: money(o.subtotalCents),
      fraisDeLivraison: money(o.shippingCents),
      total: money(o.totalCents),
      abonnement: o.subscriptionId,
      renouvellement: o.renewalNumber,
      email: o.customerEmail,
      nom: o.customerName,
      prenomDestinataire: o.customerFirstName,
      nomDestinataire: o.customerLastName,
      livraison: {
        adresse: o.shipping.address,
        complementAdresse: o.shipping.address2,
        codePostal: o.shipping.postalCode,
        ville: o.shipping.city,
        pays: o.shipping.country,
        telephone: o.shipping.phone,
      },
      numeroDeSuivi: o.trackingNumber,
      versionDesCgv: o.termsVersion,
      articles: o.items.map((i) => ({
        produit: i.productName,
        pack: i.variantName,
        quantite: i.quantity,
        prixUnitaire: money(i.unitPriceCents),
      })),
      facture: o.invoice
        ? { numero: o.invoice.number, emiseLe: o.invoice.issuedAt, montantTtc: money(o.invoice.totalCents) }
        : null,
      avoir: o.creditNote
        ? { numero: o.creditNote.number, emisLe: o.creditNote.issuedAt, montantTtc: money(o.creditNote.totalCents) }
        : null,
    })),
    abonnements: data.subscriptions.map((s) => ({
      numero: s.id,
      statut: SUBSCRIPTION_STATUS_LABELS[s.status],
      resiliationPrevue: s.cancelAtPeriodEnd,
      produit: s.productName,
      pack: s.variantName,
      quantite: s.quantity,
      montantToutesLes4Semaines: money(s.amountCents),
      souscritLe: s.startedAt,
      prochainRenouvellement: s.status === "canceled" ? null : s.currentPeriodEnd,
      resilieLe: s.canceledAt,
      renouvellementsPayes: s.renewalCount,
      premiereCommande: s.firstOrderId,
      email: s.customerEmail,
      nom: s.customerName,
      livraison: {
        destinataire: s.shipping.name,
        adresse: s.shipping.address,
        complementAdresse: s.shipping.address2,
        codePostal: s.shipping.postalCode,
        ville: s.shipping.city,
        pays: s.shipping.country,
        telephone: s.shipping.phone,
      },
    })),
    emails: data.emails.map((e) => ({
      id: e.id,
      type: EMAIL_KIND_LABELS[e.kind],
      destinataire: e.toAddress,
      objet: e.subject,
      statut: EMAIL_STATUS_LABELS[e.status],
      commande: e.orderId,
      demandeDeContact: e.contactRequestId,
      creeLe: e.createdAt,
      envoyeLe: e.sentAt,
      texte: e.text,
    })),
    demandesDeContact: data.contactRequests.map((r) => ({
      id: r.id,
      nom: r.name,
      email: r.email,
      objet: r.subject,
      message: r.message,
      statut: CONTACT_STATUS_LABELS[r.status],
      recueLe: r.createdAt,
    })),
  };
}

export type CustomerExport = ReturnType<typeof toExport>;

/** The export file's name, e.g. donnees-client-42-2026-11-25.json. */
export function exportFilename(id: number, at: Date): string {
  return `donnees-client-${id}-${at.toISOString().slice(0, 10)}.json`;
}

/** The customer's data as one JSON document, the export recorded in the audit log. 404 for an unknown customer. */
export async function exportCustomerData(
  id: number,
  actor: AuditActor,
  at = new Date(),
): Promise<{ filename: string; data: CustomerExport }> {
  return await getDb().transaction(async (tx) => {
    const account = await customerOr404(tx, id);
    const data = await readCustomerData(tx, account);
    await audit(tx, actor, "customer.export", id);
    return { filename: exportFilename(id, at), data: toExport(data, at) };
  });
}

// ---------------------------------------------------------------------------------------------
// Erasure (article 17)

async function eraseEmails(
  tx: DbOrTx,
  account: Account,
  rows: Pick<Email, "id" | "kind" | "status" | "toAddress" | "lastError">[],
  placeholder: string,
) {
  for (const row of rows) {
    const toCustomer = row.toAddress.toLowerCase() === account.email.toLowerCase() || row.toAddress === placeholder;
    // An email not sent yet never leaves: it would go to the placeholder address with an erased body.
    const unsent = row.status === "pending" || row.status === "sending";
    await tx
      .update(emails)
      .set({
        toAddress: toCustomer ? placeholder : row.toAddress,
        // The shop's notice of a contact request repeats the subject the customer typed.
        ...(row.kind === "shop_new_contact" ? { subject: `Nouvelle demande de contact : ${ERASED}` } : {}),
        html: ERASED_HTML,
        text: ERASED,
        attachments: [],
        payload: {},
        lastError: unsent || row.lastError === ERASED_UNSENT ? ERASED_UNSENT : null,
        ...(unsent ? { status: "failed" as const, sendingSince: null } : {}),
      })
      .where(eq(emails.id, row.id));
  }
}

/**
 * Erases the customer's personal data, in one transaction: the account (names, address,
 * telephone, password; email and username replaced by placeholders), the name, email, address
 * and telephone of their orders and subscriptions, their contact requests, and the recipient and
 * content of the emails about them. Amounts, dates, numbers, statuses, the delivery country (VAT)
 * and issued invoices stay. Refused (409) for an administrator, while a paid order is not shipped
 * or a subscription still runs; recorded in the audit log. Erasing again changes nothing more.
 */
export async function eraseCustomerData(id: number, actor: AuditActor): Promise<CustomerData> {
  return await getDb().transaction(async (tx) => {
    const account = await customerOr404(tx, id);
    const ids = await recordIds(tx, account);
    const refusal = erasureRefusal(account, {
      orders: await readOrders(tx, ids.orderIds),
      subscriptions: await readSubscriptions(tx, ids.subscriptionIds),
    });
    if (refusal) throw new ShopError(409, refusal.code, refusal.message, { issues: refusal.issues });

    const placeholder = erasedEmail(id);
    if (ids.orderIds.length) {
      await tx
        .update(orders)
        .set({
          customerEmail: placeholder,
          customerName: null,
          customerFirstName: null,
          customerLastName: null,
          shippingAddress: null,
          shippingAddress2: null,
          shippingPostalCode: null,
          shippingCity: null,
          shippingPhone: null,
        })
        .where(inArray(orders.id, ids.orderIds));
    }
    if (ids.subscriptionIds.length) {
      await tx
        .update(subscriptions)
        .set({
          customerEmail: placeholder,
          customerName: null,
          shippingName: null,
          shippingAddress: null,
          shippingAddress2: null,
          shippingPostalCode: null,
          shippingCity: null,
          shippingPhone: null,
        })
        .where(inArray(subscriptions.id, ids.subscriptionIds));
    }
    if (ids.contactIds.length) {
      await tx
        .update(contactRequests)
        .set({ name: ERASED, email: placeholder, subject: ERASED, message: ERASED })
        .where(inArray(contactRequests.id, ids.contactIds));
    }
    if (ids.emailIds.length) {
      const rows = await tx
        .select({
          id: emails.id,
          kind: emails.kind,
          status: emails.status,
          toAddress: emails.toAddress,
          lastError: emails.lastError,
        })
        .from(emails)
        .where(inArray(emails.id, ids.emailIds));
      await eraseEmails(tx, account, rows, placeholder);
    }
    await tx
      .update(users)
      .set({
        username: erasedUsername(id),
        email: placeholder,
        passwordHash: null,
        firstName: null,
        lastName: null,
        address: null,
        city: null,
        postalCode: null,
        country: null,
        phone: null,
      })
      .where(and(eq(users.id, id), eq(users.isAdmin, false)));
    await audit(tx, actor, "customer.erase", id);
    return await readCustomerData(tx, await customerOr404(tx, id));
  });
}

// ---------------------------------------------------------------------------------------------
// JSON API shape (amounts as decimal strings)

export function customerDataToApi(data: CustomerData) {
  return {
    customer: data.customer,
    orders: data.orders.map(({ subtotalCents, shippingCents, totalCents, items, invoice, creditNote, ...o }) => ({
      ...o,
      subtotal: money(subtotalCents),
      shippingCost: money(shippingCents),
      total: money(totalCents),
      items: items.map(({ unitPriceCents, ...i }) => ({ ...i, unitPrice: money(unitPriceCents) })),
      invoice: invoice ? { number: invoice.number, issuedAt: invoice.issuedAt, total: money(invoice.totalCents) } : null,
      creditNote: creditNote
        ? { number: creditNote.number, issuedAt: creditNote.issuedAt, total: money(creditNote.totalCents) }
        : null,
    })),
    subscriptions: data.subscriptions.map(({ amountCents, ...s }) => ({ ...s, amount: money(amountCents) })),
    emails: data.emails.map(({ text: _text, ...e }) => e),
    contactRequests: data.contactRequests,
    audit: data.audit,
    erasure: data.erasure,
  };
}
