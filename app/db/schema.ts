import { parseDatabaseUrl } from "./database-url";
import * as pgSchema from "./schema.pg";
import * as sqliteSchema from "./schema.sqlite";

/**
 * The shop's tables, for the engine DATABASE_URL names: the services import them from here and
 * are written once. The tables of schema.pg.ts are given the type of schema.sqlite.ts's: both
 * describe the same columns with the same JavaScript values (tests/unit/schema-parity.test.ts),
 * and the queries the services build with them read alike in both engines.
 *
 * The engine is chosen once, when this module loads: a process serves one database. An invalid
 * DATABASE_URL is reported by the configuration at start-up (getConfig), not here.
 */
function chosenDialect(): "sqlite" | "postgresql" {
  try {
    return parseDatabaseUrl(process.env.DATABASE_URL || "./data/shop.db").dialect;
  } catch {
    return "sqlite";
  }
}

export const dialect = chosenDialect();

const tables = (dialect === "postgresql" ? pgSchema : sqliteSchema) as unknown as typeof sqliteSchema;

export const {
  products,
  packs,
  priceHistory,
  users,
  adminSessions,
  adminTotp,
  adminRecoveryCodes,
  adminTrustedDevices,
  carts,
  cartLines,
  orders,
  subscriptions,
  subscriptionEvents,
  orderItems,
  contactRequests,
  withdrawalRequests,
  siteSettings,
  invoices,
  refunds,
  invoiceCounters,
  stripeEvents,
  rateLimits,
  emails,
  emailStatusCounts,
  ownerNotices,
  leases,
  pageCacheVersion,
  auditLog,
  stripeErasures,
  promotions,
  renewalFailures,
  cartStarts,
  revenueHours,
  packRevenueHours,
  reminderUnsubscribes,
} = tables;

export { INVOICE_KINDS, PROMOTION_KINDS, PROMOTION_TARGETS } from "./schema.sqlite";
export type * from "./schema.sqlite";
