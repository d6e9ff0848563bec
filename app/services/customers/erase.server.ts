import { and, eq, inArray, or, type SQL } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { getDb, type DbOrTx } from "~/db/client.server";
import { lockFor, lockRows } from "~/db/locks.server";
import { contactRequests, emails, orders, ownerNotices, subscriptions, users, withdrawalRequests, type Email } from "~/db/schema";
import { ShopError } from "~/lib/shop-error";
import { recordAudit, type AuditActor } from "./audit.server";
import { erasureRefusal } from "./erasure-rules.server";
import { forgetUnsubscribedAddresses } from "./reminder-unsubscribes.server";
import { attemptStripeErasureNow, queueStripeErasure, stripeIdsOf } from "./stripe-erasure-queue.server";
import { ERASED, ERASED_HTML, ERASED_UNSENT, erasedEmail, erasedUsername } from "./placeholders.server";
import {
  customerOr404,
  readCustomerData,
  readOrders,
  readSubscriptions,
  recordIds,
  type RecordIds,
  type Account,
  type CustomerData,
} from "./records.server";

/**
 * The erasure of a customer's personal data (GDPR article 17). It anonymises, it deletes nothing:
 * amounts, dates, order numbers, statuses and invoices stay, because the accounts must be kept for
 * 10 years (Code de commerce L123-22). An issued invoice is a legal document that names its buyer
 * (Code général des impôts, art. 242 nonies A): its frozen copy (table invoices) is kept as it was
 * issued.
 */

/** The columns of an email marked PER_ROW in ERASED_COLUMNS; its other columns are erased with the rest. */
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
        lastError: unsent || row.lastError === ERASED_UNSENT ? ERASED_UNSENT : null,
        ...(unsent ? { status: "failed" as const, sendingSince: null } : {}),
      })
      .where(eq(emails.id, row.id));
  }
}

/** What an erased column becomes: a value, or a value made from the customer's id. */
type Placeholder = string | null | Record<string, never> | never[] | ((customerId: number) => string);
/** A column whose erased value depends on the row (eraseEmails): the shop's own address stays. */
export const PER_ROW = "per-row" as const;

type Erasure<T extends SQLiteTable> = {
  table: T;
  /** The customer's rows in this table, or null when they have none. */
  rows: (ids: RecordIds & { customerId: number }) => SQL | undefined | null;
  columns: { [K in keyof T["$inferInsert"]]?: Placeholder | typeof PER_ROW };
};
const erasure = <T extends SQLiteTable>(e: Erasure<T>) => e as unknown as Erasure<SQLiteTable>;

/**
 * Every column that holds a customer's personal data, table by table, and what it becomes. The
 * erasure writes exactly this list, and tests/unit/personal-columns.test.ts fails when a table
 * gains a personal-looking column that is neither here nor in KEPT_COLUMNS.
 */
export const ERASED_COLUMNS = [
  erasure({
    table: users,
    rows: (ids) => and(eq(users.id, ids.customerId), eq(users.isAdmin, false)),
    columns: {
      username: erasedUsername,
      email: erasedEmail,
      passwordHash: null,
      firstName: null,
      lastName: null,
      address: null,
      city: null,
      postalCode: null,
      country: null,
      phone: null,
    },
  }),
  erasure({
    table: orders,
    rows: (ids) => (ids.orderIds.length ? inArray(orders.id, ids.orderIds) : null),
    columns: {
      customerEmail: erasedEmail,
      customerName: null,
      customerFirstName: null,
      customerLastName: null,
      shippingAddress: null,
      shippingAddress2: null,
      shippingPostalCode: null,
      shippingCity: null,
      shippingPhone: null,
    },
  }),
  erasure({
    table: subscriptions,
    rows: (ids) => (ids.subscriptionIds.length ? inArray(subscriptions.id, ids.subscriptionIds) : null),
    columns: {
      customerEmail: erasedEmail,
      customerName: null,
      shippingName: null,
      shippingAddress: null,
      shippingAddress2: null,
      shippingPostalCode: null,
      shippingCity: null,
      shippingPhone: null,
    },
  }),
  erasure({
    table: contactRequests,
    rows: (ids) => (ids.contactIds.length ? inArray(contactRequests.id, ids.contactIds) : null),
    columns: { name: ERASED, email: erasedEmail, subject: ERASED, message: ERASED },
  }),
  erasure({
    table: withdrawalRequests,
    rows: (ids) => (ids.orderIds.length ? inArray(withdrawalRequests.orderId, ids.orderIds) : null),
    columns: { email: erasedEmail, reason: null },
  }),
  erasure({
    table: emails,
    rows: (ids) => (ids.emailIds.length ? inArray(emails.id, ids.emailIds) : null),
    columns: {
      toAddress: PER_ROW,
      subject: PER_ROW,
      lastError: PER_ROW,
      html: ERASED_HTML,
      text: ERASED,
      attachments: [],
      payload: {},
    },
  }),
  erasure({
    // The owner's notices waiting for the daily summary: a withdrawal's reason, an undelivered email's address.
    table: ownerNotices,
    rows: (ids) =>
      ids.orderIds.length || ids.contactIds.length
        ? or(
            ids.orderIds.length ? inArray(ownerNotices.orderId, ids.orderIds) : undefined,
            ids.contactIds.length ? inArray(ownerNotices.contactRequestId, ids.contactIds) : undefined,
          )
        : null,
    columns: { payload: {} },
  }),
];

/**
 * Columns that look personal and are kept, each with why (table name → column name → reason).
 * Read by tests/unit/personal-columns.test.ts only.
 */
export const KEPT_COLUMNS: Record<string, Record<string, string>> = {
  invoices: {
    document:
      "Facture ou avoir figé à l'émission : pièce comptable à garder 10 ans qui nomme l'acheteur (L123-22, CGI 242 nonies A).",
  },
  refunds: {
    reason: "Motif d'un remboursement saisi par un administrateur, repris sur l'avoir : pièce comptable.",
    actor_name: "Le nom de l'administrateur qui a remboursé, pas celui du client.",
    failure_message: "La réponse de Stripe à un remboursement refusé, pas un texte du client.",
  },
  orders: { shipping_country: "Le pays de livraison fixe la TVA : gardé pour les comptes." },
  subscriptions: {
    shipping_country: "Comme la commande : le pays de livraison fixe la TVA.",
    product_name: "Le produit vendu, pas une personne.",
    variant_name: "Le pack vendu, pas une personne.",
    cancel_reason: "Un motif choisi dans une liste fermée (« Prix », « Résultats »…), jamais un texte du client.",
  },
  subscription_events: {
    reason:
      "Le motif d'une modification saisi par un administrateur, ou le nom de l'action du client : pas une donnée du client.",
  },
  reminder_unsubscribes: {
    email_hash:
      "Empreinte SHA-256 d'une adresse qui refuse les rappels de commande : la ligne est supprimée à l'effacement du client (forgetUnsubscribedAddresses), pas remplacée.",
  },
  promotions: { once_per_email: "Une règle du code promo (une fois par adresse email), pas une adresse." },
  order_items: { product_name: "Le produit vendu, pas une personne.", variant_name: "Le pack vendu, pas une personne." },
  cart_lines: { variant_name: "Le pack dans un panier, pas une personne." },
  products: { name: "Le nom du produit." },
  packs: { name: "Le nom du pack." },
  price_history: { note: "Pourquoi une ligne de l'historique des prix existe (données de démonstration)." },
  emails: { message_id: "L'identifiant du message donné par le serveur SMTP, pas son contenu." },
  admin_sessions: {
    user_agent: "Les sessions des administrateurs, dont le compte ne peut pas être effacé.",
    address: "Les sessions des administrateurs, dont le compte ne peut pas être effacé.",
  },
  leases: { name: "Le nom d'une tâche de fond." },
  audit_log: { actor_username: "L'administrateur qui a agi, pas le client." },
  stripe_erasures: {
    actor_username: "L'administrateur qui a demandé l'effacement, pas le client.",
    last_error: "Le genre d'erreur de Stripe (type et code), jamais son texte ni une valeur du client.",
  },
  site_settings: Object.fromEntries(
    [
      "notify_email_failed",
      "email_content_retention_days",
      "site_name",
      "site_email",
      "site_footer_text",
      "site_address",
      "site_phone",
      "legal_name",
      "rcs_city",
      "publication_director",
      "host_name",
      "host_address",
      "host_phone",
      "mediator_name",
      "mediator_address",
    ].map((c) => [c, "L'identité de la boutique, de son hébergeur et de son médiateur, ou un réglage, pas d'un client."]),
  ),
};

/** The account's address and every address its orders were made with. */
async function addressesOf(db: DbOrTx, accountEmail: string | null, orderIds: number[]): Promise<string[]> {
  const rows = orderIds.length
    ? await db.select({ email: orders.customerEmail }).from(orders).where(inArray(orders.id, orderIds))
    : [];
  return [accountEmail, ...rows.map((r) => r.email)].filter((e): e is string => Boolean(e?.trim()));
}

const resolve = (placeholder: Placeholder, customerId: number) =>
  typeof placeholder === "function" ? placeholder(customerId) : placeholder;

/**
 * Erases the customer's personal data, in one transaction: every column of ERASED_COLUMNS (the
 * account, their orders and subscriptions, contact requests, withdrawal requests, and the
 * recipient and content of the emails about them). Amounts, dates, numbers, statuses, the
 * delivery country (VAT) and issued invoices stay. Refused (409) for an administrator, while a
 * paid order is not shipped or a subscription still runs; recorded in the audit log. Erasing
 * again changes nothing more.
 *
 * What the shop sent to Stripe (the Stripe customers, their saved cards, the PaymentIntents'
 * receipt email) is queued in the same transaction and overwritten right after it
 * (stripe-erasure.server.ts); when Stripe fails, the database's erasure stands and the
 * scheduler tries Stripe again (stripe-erasure-queue.server.ts).
 */
export async function eraseCustomerData(id: number, actor: AuditActor): Promise<CustomerData> {
  const stripeErasure = await eraseInDatabase(id, actor);
  if (stripeErasure?.status === "pending") await attemptStripeErasureNow(stripeErasure);
  const db = getDb();
  return await readCustomerData(db, await customerOr404(db, id));
}

async function eraseInDatabase(id: number, actor: AuditActor) {
  return await getDb().transaction(async (tx) => {
    // The refusal reads the customer's orders and subscriptions: their payments and renewals wait until the erasure is done.
    await lockFor(tx, "user", id);
    await lockRows(tx, orders, eq(orders.userId, id));
    await lockRows(tx, subscriptions, eq(subscriptions.userId, id));
    const account = await customerOr404(tx, id);
    const ids = await recordIds(tx, account);
    const refusal = erasureRefusal(account, {
      orders: await readOrders(tx, ids.orderIds),
      subscriptions: await readSubscriptions(tx, ids.subscriptionIds),
    });
    if (refusal) throw new ShopError(409, refusal.code, refusal.message, { issues: refusal.issues });

    const placeholder = erasedEmail(id);
    // The address's refusal of the abandoned-checkout reminders (its hash) goes too: read before the addresses are replaced.
    await forgetUnsubscribedAddresses(tx, await addressesOf(tx, account.email, ids.orderIds));
    if (ids.emailIds.length) {
      // Read before the account's email is replaced: the rows sent to it are told apart by it.
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
    for (const { table, rows, columns } of ERASED_COLUMNS) {
      const where = rows({ ...ids, customerId: id });
      if (!where) continue;
      const set = Object.fromEntries(
        Object.entries(columns)
          .filter(([, value]) => value !== PER_ROW)
          .map(([key, value]) => [key, resolve(value as Placeholder, id)]),
      );
      await tx.update(table).set(set).where(where);
    }
    const stripeIds = await stripeIdsOf(tx, ids);
    const stripeErasure = await queueStripeErasure(tx, id, actor, stripeIds);
    await recordAudit(tx, actor, "customer.erase", id, {
      stripe: { customers: stripeIds.customerIds.length, paymentIntents: stripeIds.paymentIntentIds.length },
    });
    return stripeErasure;
  });
}
