import { sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  customType,
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { compressText, decompressText } from "./compressed-text";
import type { Carrier } from "../lib/carriers";
import type { VatLine, VatTotals } from "../lib/vat";
import { EMAIL_KINDS, EMAIL_STATUSES, type EmailKind, type EmailStatus } from "../lib/email-kinds";
import {
  CONTACT_STATUSES,
  FULFILMENT_STATUSES,
  PAYMENT_STATUSES,
  REFUND_STATUSES,
  type ContactStatus,
  type FulfilmentStatus,
  type PaymentStatus,
  type RefundStatus,
} from "../lib/statuses";
import { SALE_WITHOUT_PACK } from "../lib/packs";
import { AUDIT_ACTIONS, type AuditDetails, type StripeErasureResult } from "../lib/audit";
import type { CancelReason } from "../lib/cancel-reasons";
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from "../lib/subscription-status";

/** Store UTC ISO timestamps; display in Europe/Paris. */
const timestamps = {
  createdAt: text("created_at")
    .notNull()
    .$defaultFn(() => new Date().toISOString()),
  updatedAt: text("updated_at")
    .notNull()
    .$defaultFn(() => new Date().toISOString())
    .$onUpdateFn(() => new Date().toISOString()),
};

export { CONTACT_STATUSES, FULFILMENT_STATUSES, PAYMENT_STATUSES, REFUND_STATUSES, SUBSCRIPTION_STATUSES };
export type { ContactStatus, FulfilmentStatus, PaymentStatus, RefundStatus, SubscriptionStatus };

export const products = sqliteTable("products", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  images: text("images", { mode: "json" })
    .$type<string[]>()
    .notNull()
    .default(sql`'[]'`),
  sku: text("sku").notNull().unique(),
  priceCents: integer("price_cents").notNull(),
  originalPriceCents: integer("original_price_cents"),
  category: text("category").notNull().default(""),
  stock: integer("stock").notNull().default(0),
  /**
   * How the product is sold when it has no active pack: "unit" (one item at the product's
   * own price) or "not_sold" (shown, but cannot be ordered). With active packs, only they are sold.
   */
  saleWithoutPack: text("sale_without_pack", { enum: SALE_WITHOUT_PACK }).notNull().default("unit"),
  ...timestamps,
});

// ---------------------------------------------------------------------------------------------
// Packs and their price history (services/packs.server.ts, services/price-history.server.ts).

/**
 * The packs a product is sold in: what the product page, the cart, the checkout, the payment
 * and the API sell. A pack is never deleted (orders and subscriptions name it); an admin
 * deactivates it instead.
 */
export const packs = sqliteTable(
  "packs",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    masks: integer("masks").notNull(),
    priceCents: integer("price_cents").notNull(),
    /** The crossed-out "before" price, or null for none (shown only when lawful: see price_history). */
    referencePriceCents: integer("reference_price_cents"),
    popular: integer("popular", { mode: "boolean" }).notNull().default(false),
    /** The trial pack: one per order, once per email address, never by subscription. */
    trial: integer("trial", { mode: "boolean" }).notNull().default(false),
    /** Order on the product page, smallest first. */
    position: integer("position").notNull().default(0),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    ...timestamps,
  },
  (t) => [index("packs_product_idx").on(t.productId, t.position)],
);

/**
 * Every price a pack has had, from when (Code de la consommation L112-1-1): a crossed-out price
 * must be the lowest price charged in the 30 days before the reduction.
 */
export const priceHistory = sqliteTable(
  "price_history",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    packId: integer("pack_id")
      .notNull()
      .references(() => packs.id, { onDelete: "cascade" }),
    priceCents: integer("price_cents").notNull(),
    /** When this price started to apply (ISO, UTC). */
    startedAt: text("started_at").notNull(),
    /** Why the row exists when it is not a real sale price (the demo data's history). */
    note: text("note"),
  },
  (t) => [index("price_history_pack_idx").on(t.packId, t.startedAt)],
);

export const users = sqliteTable(
  "users",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    username: text("username").notNull().unique(),
    email: text("email").notNull().unique(),
    /** scrypt hash; null for shoppers created at checkout, who never sign in. */
    passwordHash: text("password_hash"),
    firstName: text("first_name"),
    lastName: text("last_name"),
    address: text("address"),
    city: text("city"),
    postalCode: text("postal_code"),
    country: text("country"),
    phone: text("phone"),
    isAdmin: integer("is_admin", { mode: "boolean" }).notNull().default(false),
    ...timestamps,
  },
  (t) => [index("users_email_lower_idx").on(sql`lower(${t.email})`)],
);

/**
 * Signed-in administrators' sessions. The `__admin` cookie holds a random secret token;
 * only its SHA-256 is stored, so a copy of the database opens no session. `id` is a
 * separate random public id that names the session in the sessions list and the API.
 * A session lasts 12 hours from sign-in (not sliding); `last_seen_at` is refreshed at
 * most once a minute.
 */
export const adminSessions = sqliteTable(
  "admin_sessions",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
    lastSeenAt: text("last_seen_at").notNull(),
    /** As sent at sign-in (truncated), to recognise the device in the list. */
    userAgent: text("user_agent"),
    /** The client's address at sign-in. */
    address: text("address"),
  },
  (t) => [index("admin_sessions_user_idx").on(t.userId)],
);

/**
 * An administrator's second factor (TOTP, RFC 6238): one row per administrator who has started
 * an enrolment. The shared secret is encrypted (AES-256-GCM, key derived from the session
 * secret: services/admin-totp/crypto.server.ts). `enabled_at` is null while the enrolment waits
 * for its first code; `last_used_step` is the time step of the last code accepted, so a code is
 * never accepted twice.
 */
export const adminTotp = sqliteTable(
  "admin_totp",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    encryptedSecret: text("encrypted_secret").notNull(),
    createdAt: text("created_at").notNull(),
    enabledAt: text("enabled_at"),
    lastUsedStep: integer("last_used_step"),
  },
  (t) => [primaryKey({ columns: [t.userId] })],
);

/** Single-use recovery codes of an administrator's second factor: only their SHA-256 is kept. */
export const adminRecoveryCodes = sqliteTable(
  "admin_recovery_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    createdAt: text("created_at").notNull(),
    usedAt: text("used_at"),
  },
  (t) => [uniqueIndex("admin_recovery_codes_user_code_idx").on(t.userId, t.codeHash)],
);

/**
 * Browsers where an administrator ticked « Se souvenir de cet appareil »: the signed cookie
 * `__admin_device` holds a random token, this table its SHA-256. Valid 30 days; deleted when
 * the second factor is turned off, the password changes or the user's sessions are revoked.
 */
export const adminTrustedDevices = sqliteTable(
  "admin_trusted_devices",
  {
    id: text("id").primaryKey(),
    tokenHash: text("token_hash").notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: text("created_at").notNull(),
    expiresAt: text("expires_at").notNull(),
  },
  (t) => [index("admin_trusted_devices_user_idx").on(t.userId)],
);

/** One cart per visitor, identified by a random id kept in a signed HttpOnly cookie. */
export const carts = sqliteTable("carts", {
  id: text("id").primaryKey(),
  /** The unpaid order created from this cart by the delivery form, so checkout survives a reload. */
  checkoutOrderId: integer("checkout_order_id"),
  /** The promotion code typed in the cart (services/promotions), checked again at each step. */
  promotionCode: text("promotion_code"),
  ...timestamps,
});

export const cartLines = sqliteTable(
  "cart_lines",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    cartId: text("cart_id")
      .notNull()
      .references(() => carts.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    /** The pack, or null for a product sold as a single item (no active pack). */
    packId: integer("pack_id"),
    quantity: integer("quantity").notNull().default(1),
    variantName: text("variant_name"),
    variantPriceCents: integer("variant_price_cents"),
    variantOriginalPriceCents: integer("variant_original_price_cents"),
    ...timestamps,
  },
  (t) => [index("cart_lines_cart_idx").on(t.cartId)],
);

export const orders = sqliteTable(
  "orders",
  {
    /** Random, non-sequential 9-digit number (see services/orders/ids.server.ts). */
    id: integer("id").primaryKey(),
    status: text("status", { enum: FULFILMENT_STATUSES }).notNull().default("pending"),
    paymentStatus: text("payment_status", { enum: PAYMENT_STATUSES }).notNull().default("unpaid"),
    subtotalCents: integer("subtotal_cents").notNull(),
    shippingCents: integer("shipping_cents").notNull().default(0),
    totalCents: integer("total_cents").notNull(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    customerEmail: text("customer_email"),
    /**
     * The order's own snapshot of who it is for, as typed at checkout: every page reads these,
     * never the customer account (which an anonymous checkout links but never changes).
     */
    customerName: text("customer_name"),
    customerFirstName: text("customer_first_name"),
    customerLastName: text("customer_last_name"),
    shippingAddress: text("shipping_address"),
    shippingPostalCode: text("shipping_postal_code"),
    shippingCity: text("shipping_city"),
    shippingCountry: text("shipping_country"),
    /** Delivery details for the carrier, optional (delivery form): « Complément d'adresse », and a telephone kept as +33XXXXXXXXX. */
    shippingAddress2: text("shipping_address2"),
    shippingPhone: text("shipping_phone"),
    trackingNumber: text("tracking_number"),
    /** The carrier of the tracking number (lib/carriers.ts); null: the settings' default carrier. */
    trackingCarrier: text("tracking_carrier").$type<Carrier>(),
    isSubscription: integer("is_subscription", { mode: "boolean" }).notNull().default(false),
    stripeCustomerId: text("stripe_customer_id"),
    stripePaymentIntentId: text("stripe_payment_intent_id"),
    stripeSubscriptionId: text("stripe_subscription_id"),
    /**
     * SHA-256 (hex) of the order token given once to the API client that created the order;
     * the token itself is never stored. Holding it proves ownership of the order.
     */
    tokenHash: text("token_hash"),
    /** Makes the delivery-form submission idempotent. */
    checkoutKey: text("checkout_key"),
    cartId: text("cart_id"),
    paidAt: text("paid_at"),
    stockDecrementedAt: text("stock_decremented_at"),
    /** When the subscription was cancelled (ISO, UTC): online cancellation or Stripe's webhook. */
    subscriptionCanceledAt: text("subscription_canceled_at"),
    /** The version of the terms of sale the order was made under (app/legal); null before versions were kept. */
    termsVersion: text("terms_version"),
    /** The subscription the order belongs to: its first order, or one of its renewals. */
    subscriptionId: integer("subscription_id").references((): AnySQLiteColumn => subscriptions.id, { onDelete: "set null" }),
    /** The Stripe invoice a renewal order was made for: one order per paid invoice. */
    stripeInvoiceId: text("stripe_invoice_id"),
    /** 1 for the subscription's first renewal, 2 for the second...; null for any other order. */
    renewalNumber: integer("renewal_number"),
    /** The promotion the order was made with (its code as typed and the discount it gave, including VAT). */
    promotionId: integer("promotion_id").references((): AnySQLiteColumn => promotions.id, { onDelete: "set null" }),
    promotionCode: text("promotion_code"),
    discountCents: integer("discount_cents").notNull().default(0),
    /** « M'envoyer un rappel si je ne finalise pas ma commande », ticked on the delivery form (or `reminderConsent` of the API); unticked by default. */
    reminderConsent: integer("reminder_consent", { mode: "boolean" }).notNull().default(false),
    /** When the one abandoned-checkout reminder was queued (services/cart-reminders); set in the same transaction, never twice. */
    reminderSentAt: text("reminder_sent_at"),
    ...timestamps,
  },
  (t) => [
    index("orders_promotion_idx").on(t.promotionId),
    // The scheduler's abandoned checkouts to remind (consent given, none sent yet, by creation date).
    index("orders_reminder_due_idx").on(t.reminderConsent, t.reminderSentAt, t.createdAt),
    // The analytics' reminders sent and carts recovered, read from this index alone.
    index("orders_reminded_idx").on(t.reminderSentAt, t.paidAt, t.totalCents),
    // The analytics' carts recovered (reminded orders paid in a period): the period's reminded payments alone.
    index("orders_recovered_idx")
      .on(t.paidAt, t.reminderSentAt, t.totalCents)
      .where(sql`reminder_sent_at is not null`),
    // The analytics' uses and revenue per promotion code, read from this index alone.
    index("orders_promotion_paid_idx").on(t.promotionId, t.paidAt, t.totalCents, t.discountCents),
    uniqueIndex("orders_checkout_key_idx").on(t.checkoutKey),
    uniqueIndex("orders_stripe_invoice_idx").on(t.stripeInvoiceId),
    index("orders_subscription_idx").on(t.subscriptionId),
    index("orders_created_payment_idx").on(t.createdAt, t.paymentStatus),
    index("orders_email_idx").on(t.customerEmail),
    // The trial rule and the search look an email up in any case; the lists page by payment state and date.
    index("orders_email_lower_idx").on(sql`lower(${t.customerEmail})`, t.paymentStatus, t.createdAt),
    index("orders_email_domain_idx").on(
      sql`lower(substr(${t.customerEmail}, instr(${t.customerEmail}, '@')))`,
      t.paymentStatus,
      t.createdAt,
    ),
    index("orders_payment_created_idx").on(t.paymentStatus, t.createdAt),
    index("orders_user_idx").on(t.userId),
    // The analytics read these alone (covering): paid renewals by payment date, the funnel's checkouts by creation date.
    index("orders_paid_idx").on(t.paidAt, t.renewalNumber, t.stripeInvoiceId),
    index("orders_funnel_idx").on(t.createdAt, t.renewalNumber, t.paidAt, t.stripePaymentIntentId, t.stripeSubscriptionId),
    // The analytics tell one-off from subscription revenue from this index alone.
    index("orders_subscription_kind_idx").on(t.id, t.subscriptionId, t.isSubscription),
  ],
);

/**
 * A subscription (services/subscriptions): charged with its first order, then every 4 weeks
 * from day 30, each paid renewal making an order of its own. It keeps what the renewals
 * ship (the pack as it was bought, the amount, the delivery address) and where it stands at
 * Stripe, which is the only source of its status (webhooks).
 */
export const subscriptions = sqliteTable(
  "subscriptions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    customerEmail: text("customer_email"),
    customerName: text("customer_name"),
    productId: integer("product_id").references(() => products.id, { onDelete: "set null" }),
    packId: integer("pack_id"),
    quantity: integer("quantity").notNull().default(1),
    productName: text("product_name"),
    variantName: text("variant_name"),
    /** What each renewal charges (cents): the first order's total before its promotion code (services/promotions/renewal-amount.server.ts takes the code's discount off while it lasts). */
    amountCents: integer("amount_cents").notNull(),
    stripeSubscriptionId: text("stripe_subscription_id").notNull(),
    stripeCustomerId: text("stripe_customer_id"),
    status: text("status", { enum: SUBSCRIPTION_STATUSES }).notNull().default("incomplete"),
    startedAt: text("started_at"),
    /** The next renewal (ISO, UTC): the end of the period paid for. */
    currentPeriodEnd: text("current_period_end"),
    renewalCount: integer("renewal_count").notNull().default(0),
    canceledAt: text("canceled_at"),
    cancelAtPeriodEnd: integer("cancel_at_period_end", { mode: "boolean" }).notNull().default(false),
    /** Where the next renewals are delivered. */
    shippingName: text("shipping_name"),
    shippingAddress: text("shipping_address"),
    shippingPostalCode: text("shipping_postal_code"),
    shippingCity: text("shipping_city"),
    shippingCountry: text("shipping_country"),
    /** As on the order (orders.shippingAddress2, orders.shippingPhone): copied to every renewal order. */
    shippingAddress2: text("shipping_address2"),
    shippingPhone: text("shipping_phone"),
    firstOrderId: integer("first_order_id").references((): AnySQLiteColumn => orders.id, { onDelete: "set null" }),
    /** The renewal invoice that failed and is still unpaid (the customer's pay link), if any. */
    unpaidInvoiceId: text("unpaid_invoice_id"),
    /** When the bank asked the customer to authenticate that invoice's payment (3-D Secure), if it did. */
    actionRequiredAt: text("action_required_at"),
    /** Weeks between two renewals (4, 6 or 8): the frequency the subscriber chose. */
    intervalWeeks: integer("interval_weeks").notNull().default(4),
    /** A skipped delivery or a pause (Stripe's `pause_collection`): which one, or null. */
    pauseKind: text("pause_kind", { enum: ["skip", "pause"] }),
    /** When Stripe resumes collecting (its `resumes_at`, ISO): the renewals before it are not charged. */
    pauseResumesAt: text("pause_resumes_at"),
    /** The reason the customer chose when cancelling, if they chose one (never required): CANCEL_REASONS. */
    cancelReason: text("cancel_reason").$type<CancelReason>(),
    /** The card the renewals are charged to, as Stripe describes it (brand and last 4 digits), once the subscriber changed it. */
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("subscriptions_stripe_subscription_idx").on(t.stripeSubscriptionId),
    index("subscriptions_email_idx").on(t.customerEmail),
    index("subscriptions_email_lower_idx").on(sql`lower(${t.customerEmail})`),
    index("subscriptions_created_idx").on(t.createdAt),
    // The dashboard's figures (running, past due, the next cycle's amount) read this index alone.
    index("subscriptions_status_idx").on(t.status, t.cancelAtPeriodEnd, t.amountCents),
    // The running subscriptions at a date and their amount (dashboard, analytics) read these indexes alone.
    index("subscriptions_started_idx").on(t.startedAt, t.canceledAt, t.amountCents),
    index("subscriptions_canceled_idx").on(t.canceledAt, t.startedAt, t.amountCents),
    // The subscriptions in a pause now (analytics): the paused ones alone, not every running one.
    index("subscriptions_paused_idx").on(t.pauseKind, t.canceledAt, t.pauseResumesAt),
    // A customer's records (page, export, erasure) find their subscriptions by account and first order.
    index("subscriptions_user_idx").on(t.userId),
    index("subscriptions_first_order_idx").on(t.firstOrderId),
  ],
);

/**
 * What happened to a subscription by the hand of its subscriber or of the shop (skip, pause,
 * change of pack, reactivation...): the admin's history. `reason` is the admin's (required
 * there), null for the subscriber's own changes; `label` is the French sentence shown.
 */
export const subscriptionEvents = sqliteTable(
  "subscription_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    action: text("action").notNull(),
    actor: text("actor", { enum: ["customer", "admin"] }).notNull(),
    label: text("label").notNull(),
    reason: text("reason"),
    at: text("at").notNull(),
  },
  (t) => [
    index("subscription_events_subscription_idx").on(t.subscriptionId),
    // The analytics' new pauses of a period, read from this index alone.
    index("subscription_events_action_idx").on(t.action, t.at, t.subscriptionId),
  ],
);

export const orderItems = sqliteTable(
  "order_items",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    productId: integer("product_id").references(() => products.id, { onDelete: "set null" }),
    packId: integer("pack_id"),
    quantity: integer("quantity").notNull(),
    unitPriceCents: integer("unit_price_cents").notNull(),
    productName: text("product_name"),
    variantName: text("variant_name"),
    ...timestamps,
  },
  (t) => [
    index("order_items_order_idx").on(t.orderId),
    // The analytics' sales by pack read this index alone.
    index("order_items_pack_sales_idx").on(t.orderId, t.variantName, t.productName, t.quantity, t.unitPriceCents),
  ],
);

export const contactRequests = sqliteTable(
  "contact_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    name: text("name").notNull(),
    email: text("email").notNull(),
    subject: text("subject").notNull(),
    message: text("message").notNull(),
    status: text("status", { enum: CONTACT_STATUSES }).notNull().default("non_lu"),
    ...timestamps,
  },
  (t) => [
    index("contact_requests_created_idx").on(t.createdAt),
    index("contact_requests_email_lower_idx").on(sql`lower(${t.email})`),
    // The dashboard's counts (all, unread) read this index, not the messages.
    index("contact_requests_status_idx").on(t.status),
  ],
);

/** A single row (id 1). */
/**
 * A withdrawal from the contract made online (/retractation, article L. 221-21 du Code de la
 * consommation): one per order, recorded only for a paid order whose email matches.
 */
export const withdrawalRequests = sqliteTable(
  "withdrawal_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    /** When the customer confirmed the request (ISO, UTC): the refund is due 14 days later (L. 221-24). */
    requestedAt: text("requested_at").notNull(),
    /** The reason, if the customer gave one (never required). */
    reason: text("reason"),
    /** The email as the customer typed it. */
    email: text("email").notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("withdrawal_requests_order_idx").on(t.orderId),
    index("withdrawal_requests_requested_idx").on(t.requestedAt),
  ],
);

export const siteSettings = sqliteTable("site_settings", {
  id: integer("id").primaryKey(),
  siteName: text("site_name").notNull(),
  siteEmail: text("site_email").notNull(),
  siteDescription: text("site_description").notNull(),
  siteAddress: text("site_address").notNull(),
  sitePhone: text("site_phone").notNull(),
  siteFooterText: text("site_footer_text").notNull(),
  // The seller's identity on invoices and credit notes (Code de commerce L441-9).
  legalName: text("legal_name").notNull().default(""),
  /** 14 digits; the SIREN is its first 9. */
  siret: text("siret").notNull().default(""),
  /** Intra-community VAT number, e.g. FR51921458303. */
  vatNumber: text("vat_number").notNull().default(""),
  // The rest of the legal identity (legal notice, terms of sale, confirmation emails); "" until filled in.
  /** E.g. "SAS" or "société par actions simplifiée". */
  legalForm: text("legal_form").notNull().default(""),
  /** E.g. "10 000 €". */
  shareCapital: text("share_capital").notNull().default(""),
  rcsCity: text("rcs_city").notNull().default(""),
  /** The SIREN under which the company is registered, "921 458 303". */
  rcsNumber: text("rcs_number").notNull().default(""),
  publicationDirector: text("publication_director").notNull().default(""),
  publicationDirectorRole: text("publication_director_role").notNull().default(""),
  hostName: text("host_name").notNull().default(""),
  hostAddress: text("host_address").notNull().default(""),
  hostPhone: text("host_phone").notNull().default(""),
  /** The consumer mediator (Code de la consommation L616-1). */
  mediatorName: text("mediator_name").notNull().default(""),
  mediatorAddress: text("mediator_address").notNull().default(""),
  /** An https:// address. */
  mediatorUrl: text("mediator_url").notNull().default(""),
  /** The carrier of the tracking numbers entered without one (lib/carriers.ts). */
  defaultCarrier: text("default_carrier").$type<Carrier>().notNull().default("colissimo"),
  /** When the trial offer ends (ISO, UTC): the product page's countdown banner; null for no banner. */
  trialOfferEndsAt: text("trial_offer_ends_at"),
  // The owner's notifications (services/email/owner-notifications.server.ts): each can be switched off.
  notifyWithdrawal: integer("notify_withdrawal", { mode: "boolean" }).notNull().default(true),
  notifyRenewalProblem: integer("notify_renewal_problem", { mode: "boolean" }).notNull().default(true),
  notifyStripeRefund: integer("notify_stripe_refund", { mode: "boolean" }).notNull().default(true),
  notifyContact: integer("notify_contact", { mode: "boolean" }).notNull().default(true),
  notifyEmailFailed: integer("notify_email_failed", { mode: "boolean" }).notNull().default(true),
  /** Group them into one email a day (the scheduler sends it), instead of one email per event. */
  notifyDailySummary: integer("notify_daily_summary", { mode: "boolean" }).notNull().default(false),
  /** How many days the content (HTML, text) of a sent email is kept (email/retention.server.ts). */
  emailContentRetentionDays: integer("email_content_retention_days").notNull().default(90),
  ...timestamps,
});

// ---------------------------------------------------------------------------------------------
// Invoices and credit notes (services/invoices.server.ts)

export const INVOICE_KINDS = ["invoice", "credit_note"] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/** What an invoice says, frozen when it is issued: later changes to the settings or the order never alter it. */
export type InvoiceDocument = {
  seller: {
    legalName: string;
    address: string;
    siren: string;
    siret: string;
    vatNumber: string;
    email: string;
    phone: string;
    /** « société par actions simplifiée », and « 10 000 € » (Code de commerce R123-237); absent on documents issued before they were printed. */
    legalForm?: string;
    shareCapital?: string;
    /** « RCS Paris 921 458 303 ». */
    rcs?: string;
  };
  buyer: {
    name: string;
    email: string | null;
    address: string | null;
    address2?: string | null;
    postalCode: string | null;
    city: string | null;
    country: string | null;
  };
  orderId: number;
  orderedAt: string;
  paidAt: string;
  lines: VatLine[];
  totals: VatTotals;
  /** A credit note: the invoice it cancels. */
  invoiceNumber?: string;
  invoiceIssuedAt?: string;
  /** A credit note of a refund: the amount refunded (including VAT) and why. */
  refund?: { amountCents: number; reason: string; partial: boolean };
};

/**
 * An invoice, issued once when an order is paid, or a credit note (avoir), issued once per
 * refund that succeeded, in the same transaction as the payment state. Numbers follow one
 * sequence per kind and per year, with no gap: F2026-000001..., A2026-000001...
 */
export const invoices = sqliteTable(
  "invoices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind", { enum: INVOICE_KINDS }).notNull(),
    number: text("number").notNull(),
    /** The year of the sequence (Europe/Paris) and the position in it. */
    year: integer("year").notNull(),
    sequence: integer("sequence").notNull(),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id),
    /** A credit note: the invoice it cancels. */
    creditedInvoiceId: integer("credited_invoice_id").references((): AnySQLiteColumn => invoices.id),
    /** A credit note: the refund it was issued for (null for a credit note of a whole order from before refunds were kept). */
    refundId: integer("refund_id").references((): AnySQLiteColumn => refunds.id),
    issuedAt: text("issued_at").notNull(),
    totalExcludingCents: integer("total_excluding_cents").notNull(),
    totalVatCents: integer("total_vat_cents").notNull(),
    totalIncludingCents: integer("total_including_cents").notNull(),
    document: text("document", { mode: "json" }).$type<InvoiceDocument>().notNull(),
  },
  (t) => [
    uniqueIndex("invoices_number_idx").on(t.number),
    uniqueIndex("invoices_kind_year_sequence_idx").on(t.kind, t.year, t.sequence),
    // One invoice per order, and one credit note per refund.
    uniqueIndex("invoices_order_invoice_idx")
      .on(t.orderId)
      .where(sql`kind = 'invoice'`),
    uniqueIndex("invoices_refund_idx").on(t.refundId),
    index("invoices_order_idx").on(t.orderId),
    // The analytics' sums read this index alone, never the documents.
    index("invoices_issued_idx").on(t.issuedAt, t.kind, t.orderId, t.totalIncludingCents, t.totalExcludingCents),
  ],
);

/**
 * A refund of an order (services/payments/refunds.server.ts): made from the back office (the
 * amount is reserved here, pending, before Stripe is asked), or at Stripe (its dashboard), then
 * known from its webhook. Its status is Stripe's; each refund that succeeded has its credit note.
 */
export const refunds = sqliteTable(
  "refunds",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id),
    /** Including VAT, in cents. */
    amountCents: integer("amount_cents").notNull(),
    reason: text("reason").notNull(),
    /** Stripe's refund (`re_…`), null until Stripe has answered. */
    stripeRefundId: text("stripe_refund_id"),
    status: text("status", { enum: REFUND_STATUSES }).notNull().default("pending"),
    /** Who made it: the administrator (their id and name as shown then), or « Stripe » for a refund made at Stripe. */
    actorUserId: integer("actor_user_id").references(() => users.id, { onDelete: "set null" }),
    actorName: text("actor_name").notNull(),
    /** The back office's key for the request (a double submit reuses it); `stripe:re_…` for a refund made at Stripe. */
    idempotencyKey: text("idempotency_key").notNull(),
    /** Why Stripe refused or failed it, when it did. */
    failureMessage: text("failure_message"),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("refunds_stripe_refund_idx").on(t.stripeRefundId),
    uniqueIndex("refunds_idempotency_key_idx").on(t.idempotencyKey),
    index("refunds_order_idx").on(t.orderId),
  ],
);

export type Refund = typeof refunds.$inferSelect;

/** The last number given in each sequence (kind and year), incremented in the issuing transaction. */
export const invoiceCounters = sqliteTable(
  "invoice_counters",
  {
    kind: text("kind", { enum: INVOICE_KINDS }).notNull(),
    year: integer("year").notNull(),
    last: integer("last").notNull(),
  },
  (t) => [primaryKey({ columns: [t.kind, t.year] })],
);

export type Invoice = typeof invoices.$inferSelect;

/**
 * A renewal whose payment failed or needed the customer's authentication (services/analytics):
 * one row per Stripe invoice, from its first failure, and when it was paid after all.
 */
export const renewalFailures = sqliteTable(
  "renewal_failures",
  {
    stripeInvoiceId: text("stripe_invoice_id").primaryKey(),
    subscriptionId: integer("subscription_id").references(() => subscriptions.id, { onDelete: "cascade" }),
    failedAt: text("failed_at").notNull(),
    recoveredAt: text("recovered_at"),
  },
  (t) => [index("renewal_failures_failed_idx").on(t.failedAt), index("renewal_failures_recovered_idx").on(t.recoveredAt)],
);

/**
 * How many carts were started each day (Europe/Paris, `2026-11-27`): the first step of the
 * analytics' funnel. Carts themselves are deleted once stale; this count is all that is kept,
 * and it names no one.
 */
export const cartStarts = sqliteTable("cart_starts", {
  day: text("day").primaryKey(),
  count: integer("count").notNull(),
});

/**
 * The invoices and credit notes of each UTC hour, summed (the analytics' revenue): a Paris
 * midnight is always a UTC hour (the offsets are whole hours), so the revenue of any Paris day
 * is the sum of its 23, 24 or 25 hours, exactly. Kept by database triggers in the transaction
 * that issues the document (and that links its order to a subscription), filled from the
 * invoices by the migration that created it (drizzle 0027, drizzle-pg 0014); never written by
 * the services. An issued document is never changed or deleted.
 */
export const revenueHours = sqliteTable("revenue_hours", {
  /** The hour's first instant (`2026-11-27T23:00:00.000Z`). */
  startsAt: text("starts_at").primaryKey(),
  /** Invoices issued (one per paid order). */
  invoices: integer("invoices").notNull(),
  invoicedIncludingCents: integer("invoiced_including_cents").notNull(),
  invoicedExcludingCents: integer("invoiced_excluding_cents").notNull(),
  creditedIncludingCents: integer("credited_including_cents").notNull(),
  creditedExcludingCents: integer("credited_excluding_cents").notNull(),
  /** Invoiced minus credited (TTC), for the orders of a subscription (first payments and renewals). */
  subscriptionNetCents: integer("subscription_net_cents").notNull(),
});

/**
 * What each pack sold in each UTC hour (the analytics' revenue per pack): the lines of the
 * orders invoiced in that hour (TTC, before refunds, shipping apart), by the pack's name as the
 * line has it. Kept by database triggers like revenue_hours, as an invoice is issued (and should
 * an invoiced order's line be added or removed); never written by the services.
 */
export const packRevenueHours = sqliteTable(
  "pack_revenue_hours",
  {
    /** The hour's first instant. */
    startsAt: text("starts_at").notNull(),
    /** The line's pack (its variant's name, else the product's, else « Sans nom »). */
    label: text("label").notNull(),
    quantity: integer("quantity").notNull(),
    cents: integer("cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.startsAt, t.label] })],
);

/**
 * The addresses that unsubscribed from the abandoned-checkout reminders (services/cart-reminders):
 * only the SHA-256 of the address in lower case is kept. Checking an address needs nothing more,
 * and the list, which must outlive the orders, then holds no readable address; a customer's
 * erasure deletes the hash of their address (customers/erase.server.ts).
 */
export const reminderUnsubscribes = sqliteTable("reminder_unsubscribes", {
  emailHash: text("email_hash").primaryKey(),
  createdAt: text("created_at")
    .notNull()
    .$defaultFn(() => new Date().toISOString()),
});

/** Stripe events already handled, so a replayed webhook changes nothing. */
export const stripeEvents = sqliteTable("stripe_events", {
  id: text("id").primaryKey(),
  type: text("type").notNull(),
  receivedAt: text("received_at")
    .notNull()
    .$defaultFn(() => new Date().toISOString()),
});

/**
 * Rate-limit counters, shared by every server process (services/rate-limit.server.ts): one row
 * per key and fixed window, so a key has at most two live rows (the current window and the
 * previous one). Times are milliseconds since the epoch.
 */
export const rateLimits = sqliteTable(
  "rate_limits",
  {
    /** The limit's name and what it counts, e.g. `order-lookup:203.0.113.7`. */
    key: text("key").notNull(),
    windowStart: integer("window_start").notNull(),
    count: integer("count").notNull(),
    lastHitAt: integer("last_hit_at").notNull(),
    /** When the row stops counting (the end of the next window): rows past it are deleted. */
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index("rate_limits_expires_idx").on(t.expiresAt)],
);

/**
 * The outbox (services/email): one row per email, written in the same transaction as the
 * event that causes it, and sent afterwards by the sender running in the server process.
 * The subject, HTML and text are rendered at the first attempt and kept, so a retry sends the
 * same email and the admin sees it as sent. The record (kind, address, order, subject, dates)
 * is kept for ever; the HTML and text only for the days the settings say (email/retention.server.ts).
 * An attachment the shop can rebuild (the terms of sale of a version) is kept as a reference
 * and rebuilt when the email is sent or viewed, never stored.
 */
/** A long text stored gzipped, in a TEXT column (compressed-text.ts). */
const gzippedText = customType<{ data: string; driverData: Buffer | string }>({
  dataType: () => "text",
  toDriver: compressText,
  fromDriver: decompressText,
});

export const emails = sqliteTable(
  "emails",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind", { enum: EMAIL_KINDS }).notNull(),
    /** `kind:entity:id`: a replayed event never queues the same email twice. */
    dedupeKey: text("dedupe_key").notNull(),
    orderId: integer("order_id").references(() => orders.id, { onDelete: "set null" }),
    contactRequestId: integer("contact_request_id").references(() => contactRequests.id, { onDelete: "set null" }),
    toAddress: text("to_address").notNull(),
    /** What the event knew that the database may no longer say at sending time (JSON object). */
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
    status: text("status", { enum: EMAIL_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    /** When the next attempt may start (ISO, UTC). */
    nextAttemptAt: text("next_attempt_at")
      .notNull()
      .$defaultFn(() => new Date().toISOString()),
    /** When the current attempt started (status sending). */
    sendingSince: text("sending_since"),
    sentAt: text("sent_at"),
    /** How it left: `smtp` or `demo` (the demo mailbox). */
    transport: text("transport"),
    /** The SMTP server's Message-ID. */
    messageId: text("message_id"),
    subject: text("subject"),
    /** Gzipped (compressed-text.ts), like `text`: the content of two years of emails stays small. */
    html: gzippedText("html"),
    text: gzippedText("text"),
    /** [{ filename, contentType, content }]: the attachments of an email sent before they were kept as references (JSON). */
    attachments: text("attachments", { mode: "json" }).$type<EmailAttachment[]>(),
    /** What the email attached, as references the shop rebuilds the files from (email/attachments.server.ts). */
    attachmentRefs: text("attachment_refs", { mode: "json" }).$type<EmailAttachmentRef[]>(),
    /** Set when the HTML and text were deleted: the retention, in days, that applied then; null while kept. */
    contentPurgedAfterDays: integer("content_purged_after_days"),
    /** Extra headers the email carries (List-Unsubscribe and List-Unsubscribe-Post for a reminder), as rendered (JSON). */
    headers: text("headers", { mode: "json" }).$type<Record<string, string>>(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("emails_dedupe_key_idx").on(t.dedupeKey),
    index("emails_due_idx").on(t.status, t.nextAttemptAt),
    index("emails_order_idx").on(t.orderId),
    index("emails_created_idx").on(t.createdAt),
    // A tab of the mailbox (the sent emails, the failed ones), newest first: read by date within its status, not sorted whole.
    index("emails_status_created_idx").on(t.status, t.createdAt, t.id),
    // The mailbox filtered by kind (the daily summaries, the reminders), newest first and counted, from the index.
    index("emails_kind_created_idx").on(t.kind, t.createdAt, t.id),
    index("emails_to_lower_idx").on(sql`lower(${t.toAddress})`),
    // The health page's « échecs d'envoi en 24 h » reads the emails changed since, not every email.
    index("emails_updated_idx").on(t.updatedAt),
    // A customer's records find the emails of their contact requests (an OR of indexed lookups, not a scan).
    index("emails_contact_request_idx").on(t.contactRequestId),
    // The emails whose content is still kept, by date sent: the retention purge reads only those.
    index("emails_content_kept_idx")
      .on(t.sentAt)
      .where(sql`${t.html} is not null`),
  ],
);

/**
 * How many emails are in each status (the mailbox's and the API's counts, the metrics): kept by
 * database triggers on emails (a row queued, its status changed, a row deleted) in the
 * transaction that makes the change, filled from the emails by the migration that created it
 * (drizzle 0028, drizzle-pg 0015); never written by the services. Reading it costs a few rows
 * whatever the number of emails, where counting them by status read every email.
 *
 * On PostgreSQL a transaction adds to the row of its own connection's slot (`pg_backend_pid() %
 * 16`), so that transactions queuing emails side by side do not wait for one row; a status's
 * count is the sum of its slots, one of which may be negative. SQLite has one writer: slot 0.
 */
export const emailStatusCounts = sqliteTable(
  "email_status_counts",
  {
    status: text("status", { enum: EMAIL_STATUSES }).notNull(),
    slot: integer("slot").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.status, t.slot] })],
);

/**
 * The owner's notifications waiting for the daily summary (one row per event, unique like an
 * email's dedupe key); `summaryEmailId` is the summary email that told them, null until then.
 */
export const ownerNotices = sqliteTable(
  "owner_notices",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind", { enum: EMAIL_KINDS }).notNull(),
    dedupeKey: text("dedupe_key").notNull(),
    orderId: integer("order_id").references(() => orders.id, { onDelete: "set null" }),
    contactRequestId: integer("contact_request_id").references(() => contactRequests.id, { onDelete: "set null" }),
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
    summaryEmailId: integer("summary_email_id").references(() => emails.id, { onDelete: "set null" }),
    ...timestamps,
  },
  (t) => [uniqueIndex("owner_notices_dedupe_key_idx").on(t.dedupeKey), index("owner_notices_summary_idx").on(t.summaryEmailId)],
);

/**
 * Leases: a background job that must run in one process at a time (the email sender) holds
 * its lease by renewing it; another process takes it over only once it has expired.
 */
export const leases = sqliteTable("leases", {
  name: text("name").primaryKey(),
  /** The holding process (host, pid and a random part). */
  holder: text("holder").notNull(),
  /** Milliseconds since the epoch. */
  expiresAt: integer("expires_at").notNull(),
});

/**
 * The version of what the public pages show (catalog, prices, settings, stock running out):
 * one row, bumped by every write that changes them. Each process's page cache
 * (server/page-cache.js) drops the pages it rendered under an older version.
 */
export const pageCacheVersion = sqliteTable("page_cache_version", {
  id: integer("id").primaryKey(),
  version: integer("version").notNull().default(0),
});

/** An attached file: `content` is its text, or its bytes in base64 when `encoding` says so (a PDF). */
export type EmailAttachment = { filename: string; contentType: string; content: string; encoding?: "base64" };
/** An attachment the shop rebuilds when it sends or shows the email: the terms of sale of a version. */
export type EmailAttachmentRef = { kind: "terms_of_sale"; version: string };
export type Email = typeof emails.$inferSelect;
export type { EmailKind, EmailStatus };

export type Order = typeof orders.$inferSelect;
export type Subscription = typeof subscriptions.$inferSelect;
export type SubscriptionEvent = typeof subscriptionEvents.$inferSelect;

/**
 * What an administrator did to a customer's personal data (services/customers/):
 * who, when, what and to which customer, never the data itself. `subjectId` is a plain number
 * (no foreign key): the line outlives the account it names.
 */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    at: text("at")
      .notNull()
      .$defaultFn(() => new Date().toISOString()),
    actorId: integer("actor_id").references(() => users.id, { onDelete: "set null" }),
    /** As it was at the time: the line still names the administrator after their account is gone. */
    actorUsername: text("actor_username").notNull(),
    /** `customer.export`, `customer.erase`, `customer.erase_stripe` (app/lib/audit.ts). */
    action: text("action", { enum: AUDIT_ACTIONS }).notNull(),
    subjectId: integer("subject_id").notNull(),
    /** Counts only, never a value: how many Stripe objects an erasure reached (AuditDetails). */
    details: text("details", { mode: "json" }).$type<AuditDetails>(),
  },
  (t) => [index("audit_log_subject_idx").on(t.subjectId, t.at), index("audit_log_at_idx").on(t.at)],
);

/**
 * The Stripe part of a customer's erasure (services/customers/stripe-erasure.server.ts): the
 * Stripe customers and PaymentIntents of the erased orders and subscriptions, overwritten at
 * Stripe after the database's erasure. Written in the erasure's transaction, `pending` until
 * Stripe has answered for every id; the scheduler retries it until then. Ids and counts only.
 */
export const stripeErasures = sqliteTable(
  "stripe_erasures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** The erased account (no foreign key, like audit_log: the row outlives any change to it). */
    subjectId: integer("subject_id").notNull(),
    /** The administrator who asked for the erasure: the audit line of the Stripe part names them. */
    actorId: integer("actor_id"),
    actorUsername: text("actor_username").notNull(),
    status: text("status", { enum: ["pending", "done"] })
      .notNull()
      .default("pending"),
    /** `cus_…` ids. */
    customerIds: text("customer_ids", { mode: "json" }).$type<string[]>().notNull(),
    /** `pi_…` ids. */
    paymentIntentIds: text("payment_intent_ids", { mode: "json" }).$type<string[]>().notNull(),
    attempts: integer("attempts").notNull().default(0),
    createdAt: text("created_at")
      .notNull()
      .$defaultFn(() => new Date().toISOString()),
    lastAttemptAt: text("last_attempt_at"),
    nextAttemptAt: text("next_attempt_at").notNull(),
    doneAt: text("done_at"),
    /** Why the last attempt failed: the kind of Stripe error, never its text (it may repeat a value). */
    lastError: text("last_error"),
    /** What the Stripe part did, in counts (set when done). */
    result: text("result", { mode: "json" }).$type<StripeErasureResult>(),
  },
  (t) => [index("stripe_erasures_due_idx").on(t.status, t.nextAttemptAt), index("stripe_erasures_subject_idx").on(t.subjectId)],
);

export type AuditLine = typeof auditLog.$inferSelect;

export type WithdrawalRequest = typeof withdrawalRequests.$inferSelect;

// ---------------------------------------------------------------------------------------------
// Promotion codes (services/promotions)

export const PROMOTION_KINDS = ["percent", "amount"] as const;
export type PromotionKind = (typeof PROMOTION_KINDS)[number];
export const PROMOTION_TARGETS = ["one_off", "first_payment", "every_payment"] as const;
export type PromotionTarget = (typeof PROMOTION_TARGETS)[number];

/**
 * A promotion code: a percentage (`value` 10 for 10 %) or an amount (`value` in cents, including
 * VAT), for one-off purchases, the first payment of a subscription or its payments for `cycles`
 * renewals. `uses` counts the paid orders that used it, incremented in the transaction that marks
 * each one paid, never past `maxUses`.
 */
export const promotions = sqliteTable(
  "promotions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** Upper case, letters and digits. */
    code: text("code").notNull(),
    kind: text("kind", { enum: PROMOTION_KINDS }).notNull(),
    value: integer("value").notNull(),
    appliesTo: text("applies_to", { enum: PROMOTION_TARGETS }).notNull(),
    cycles: integer("cycles"),
    startsAt: text("starts_at"),
    endsAt: text("ends_at"),
    maxUses: integer("max_uses"),
    oncePerEmail: integer("once_per_email", { mode: "boolean" }).notNull().default(false),
    firstOrderOnly: integer("first_order_only", { mode: "boolean" }).notNull().default(false),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    uses: integer("uses").notNull().default(0),
    ...timestamps,
  },
  (t) => [uniqueIndex("promotions_code_idx").on(t.code)],
);

export type Promotion = typeof promotions.$inferSelect;
