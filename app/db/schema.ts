import { sql } from "drizzle-orm";
import { type AnySQLiteColumn, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { EMAIL_KINDS, EMAIL_STATUSES, type EmailKind, type EmailStatus } from "../lib/email-kinds";
import { CONTACT_STATUSES, FULFILMENT_STATUSES, PAYMENT_STATUSES, type ContactStatus, type FulfilmentStatus, type PaymentStatus } from "../lib/statuses";
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

export { CONTACT_STATUSES, FULFILMENT_STATUSES, PAYMENT_STATUSES, SUBSCRIPTION_STATUSES };
export type { ContactStatus, FulfilmentStatus, PaymentStatus, SubscriptionStatus };

export const products = sqliteTable("products", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  name: text("name").notNull(),
  description: text("description").notNull().default(""),
  images: text("images", { mode: "json" }).$type<string[]>().notNull().default(sql`'[]'`),
  sku: text("sku").notNull().unique(),
  priceCents: integer("price_cents").notNull(),
  originalPriceCents: integer("original_price_cents"),
  category: text("category").notNull().default(""),
  stock: integer("stock").notNull().default(0),
  ...timestamps,
});

export const users = sqliteTable("users", {
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
});

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

/** One cart per visitor, identified by a random id kept in a signed HttpOnly cookie. */
export const carts = sqliteTable("carts", {
  id: text("id").primaryKey(),
  /** The unpaid order created from this cart by the delivery form, so checkout survives a reload. */
  checkoutOrderId: integer("checkout_order_id"),
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
    packId: integer("pack_id").notNull(),
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
    /** Random, non-sequential 9-digit number (see services/orders.server.ts). */
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
    ...timestamps,
  },
  (t) => [
    uniqueIndex("orders_checkout_key_idx").on(t.checkoutKey),
    uniqueIndex("orders_stripe_invoice_idx").on(t.stripeInvoiceId),
    index("orders_subscription_idx").on(t.subscriptionId),
    index("orders_created_idx").on(t.createdAt),
    index("orders_email_idx").on(t.customerEmail),
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
    /** What each renewal charges (cents): the first order's total. */
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
    ...timestamps,
  },
  (t) => [uniqueIndex("subscriptions_stripe_subscription_idx").on(t.stripeSubscriptionId), index("subscriptions_email_idx").on(t.customerEmail)],
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
  (t) => [index("order_items_order_idx").on(t.orderId)],
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
  (t) => [index("contact_requests_created_idx").on(t.createdAt)],
);

/** A single row (id 1). */
export const siteSettings = sqliteTable("site_settings", {
  id: integer("id").primaryKey(),
  siteName: text("site_name").notNull(),
  siteEmail: text("site_email").notNull(),
  siteDescription: text("site_description").notNull(),
  siteAddress: text("site_address").notNull(),
  sitePhone: text("site_phone").notNull(),
  siteFooterText: text("site_footer_text").notNull(),
  ...timestamps,
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
 * The subject, HTML, text and attachments are rendered at the first attempt and kept, so the
 * admin sees each email exactly as sent and a resend sends the same one.
 */
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
    html: text("html"),
    text: text("text"),
    /** [{ filename, contentType, content }] as attached (JSON). */
    attachments: text("attachments", { mode: "json" }).$type<EmailAttachment[]>(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex("emails_dedupe_key_idx").on(t.dedupeKey),
    index("emails_due_idx").on(t.status, t.nextAttemptAt),
    index("emails_order_idx").on(t.orderId),
    index("emails_created_idx").on(t.createdAt),
  ],
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

/** An attached file: `content` is its text, or its bytes in base64 when `encoding` says so (a PDF). */
export type EmailAttachment = { filename: string; contentType: string; content: string; encoding?: "base64" };
export type Email = typeof emails.$inferSelect;
export type { EmailKind, EmailStatus };

export type Order = typeof orders.$inferSelect;
export type Subscription = typeof subscriptions.$inferSelect;
