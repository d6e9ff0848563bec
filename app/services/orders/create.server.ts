import { eq } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { orderItems, orders } from "~/db/schema";
import { CURRENT_TERMS_VERSION } from "~/legal/terms-of-sale";
import { displayName, splitFullName } from "~/lib/names";
import { DELIVERY_COUNTRY } from "~/schemas/delivery";
import type { ApiOrderInput } from "~/schemas/order";
import { SHIPPING_CENTS } from "~/services/cart.server";
import { findOrCreateCustomer, linkableCustomerId } from "~/services/customers/accounts.server";
import { newOrderToken } from "./access.server";
import { getApiOrder, type ApiOrderView } from "./api-view.server";
import { newOrderId } from "./ids.server";
import { assertClientAmounts, assertTrialAvailable, priceOrderLines, subtotalOf, type PricedLine } from "./lines.server";
import { countOrderCreated } from "~/services/observability/metrics.server";
import { checkPromotion, promotionDiscount } from "~/services/promotions/rules.server";

/**
 * Creating an order: from the shop's checkout (insertOrder, then rewriteUnpaidOrder while it is
 * unpaid, called by services/checkout.server.ts) or from POST /api/orders (createOrderFromApi).
 * The order keeps its own copy of who it is for and where it goes.
 */

/** Who the order is for and where it goes: the order's own snapshot, never read back from an account. */
type OrderContact = {
  email: string | null;
  firstName: string;
  lastName: string;
  address: string;
  /** « Complément d'adresse », optional. */
  address2?: string | null;
  postalCode: string;
  city: string;
  country: string;
  /** For the carrier, optional (+33XXXXXXXXX). */
  phone?: string | null;
  /** « M'envoyer un rappel si je ne finalise pas ma commande »: missing is no. */
  reminderConsent?: boolean;
};

type OrderDraft = {
  contact: OrderContact;
  lines: PricedLine[];
  /** A client named by its id (POST /api/orders `userId`), linked instead of the email's. */
  userId?: number | null;
  cartId?: string | null;
  checkoutKey?: string | null;
  tokenHash?: string | null;
  /** The promotion code typed in the cart or given to the API: checked again here, with the order's email. */
  promotionCode?: string | null;
};

/** The customer account the order is linked to: the one named, else the email's (found or created, never changed). */
async function customerIdFor(db: DbOrTx, draft: OrderDraft): Promise<number | null> {
  if (draft.userId != null) return draft.userId;
  const c = draft.contact;
  if (!c.email) return null;
  return (await findOrCreateCustomer(db, { ...c, email: c.email })).id;
}

function snapshotValues(c: OrderContact) {
  return {
    customerEmail: c.email,
    customerName: displayName(c) ?? "",
    customerFirstName: c.firstName || null,
    customerLastName: c.lastName || null,
    shippingAddress: c.address,
    shippingAddress2: c.address2 ?? null,
    shippingPostalCode: c.postalCode,
    shippingCity: c.city,
    shippingCountry: c.country,
    shippingPhone: c.phone ?? null,
    reminderConsent: c.reminderConsent === true,
  };
}

/** The order's promotion and discount: the code checked for this email (a refusal is thrown with its French reason). */
async function promotionValues(db: DbOrTx, draft: OrderDraft, totalCents: number, orderId?: number) {
  if (!draft.promotionCode) return { promotionId: null, promotionCode: null, discountCents: 0 };
  const promotion = await checkPromotion(db, draft.promotionCode, { email: draft.contact.email, orderId });
  return { promotionId: promotion.id, promotionCode: promotion.code, discountCents: promotionDiscount(promotion, totalCents) };
}

async function orderValues(db: DbOrTx, draft: OrderDraft, orderId?: number) {
  const subtotalCents = subtotalOf(draft.lines);
  const promotion = await promotionValues(db, draft, subtotalCents + SHIPPING_CENTS, orderId);
  return {
    subtotalCents,
    shippingCents: SHIPPING_CENTS,
    // What is paid: the subtotal and shipping, less the promotion's discount (VAT is on that amount).
    totalCents: subtotalCents + SHIPPING_CENTS - promotion.discountCents,
    ...promotion,
    userId: await customerIdFor(db, draft),
    ...snapshotValues(draft.contact),
  };
}

async function insertItems(db: DbOrTx, orderId: number, lines: PricedLine[]) {
  await db.insert(orderItems).values(lines.map((l) => ({ orderId, ...l })));
}

/** Links or creates the customer, creates the order and its items. Call inside a transaction. */
export async function insertOrder(db: DbOrTx, draft: OrderDraft): Promise<number> {
  await assertTrialAvailable(db, draft.contact.email, draft.lines, undefined, "email");
  const id = await newOrderId(db);
  await db.insert(orders).values({
    id,
    status: "pending",
    // paymentStatus 'unpaid' and isSubscription false: the table's defaults. Only the
    // payment state (services/payments/payment-state.server.ts) changes them afterwards.
    cartId: draft.cartId ?? null,
    checkoutKey: draft.checkoutKey ?? null,
    tokenHash: draft.tokenHash ?? null,
    // The terms of sale accepted with this order; rewriteUnpaidOrder keeps them.
    termsVersion: CURRENT_TERMS_VERSION,
    ...(await orderValues(db, draft)),
  });
  await insertItems(db, id, draft.lines);
  return id;
}

/** Rewrites an unpaid order with new delivery details (and, if asked, new items). Call inside a transaction. */
export async function rewriteUnpaidOrder(db: DbOrTx, orderId: number, draft: OrderDraft, options: { replaceItems: boolean }) {
  await assertTrialAvailable(db, draft.contact.email, draft.lines, orderId, "email");
  await db
    .update(orders)
    .set({ ...(await orderValues(db, draft, orderId)), checkoutKey: draft.checkoutKey ?? null })
    .where(eq(orders.id, orderId));
  if (options.replaceItems) {
    await db.delete(orderItems).where(eq(orderItems.orderId, orderId));
    await insertItems(db, orderId, draft.lines);
  }
}

export type CreatedApiOrder = ApiOrderView & {
  /** Shown once: proves ownership of the order (X-Order-Token header, ?token= or a `token` body field). */
  token: string;
};

/**
 * POST /api/orders: one transaction; amounts checked against the packs, status decided here
 * (pending, unpaid). The customer named by `userId` or found by email is linked, never changed.
 * Answers the order as its owner sees it, with its token.
 */
export async function createOrderFromApi(input: ApiOrderInput): Promise<CreatedApiOrder> {
  const { firstName, lastName } = splitFullName(input.customerName);
  const { token, hash } = newOrderToken();
  const id = await getDb().transaction(async (tx) => {
    const lines = await priceOrderLines(tx, input.items);
    assertClientAmounts(input, lines);
    await assertTrialAvailable(tx, input.customerEmail ?? null, lines);
    return await insertOrder(tx, {
      contact: {
        email: input.customerEmail ?? null,
        firstName,
        lastName,
        address: input.shippingAddress,
        address2: input.shippingAddress2 ?? null,
        postalCode: input.shippingPostalCode,
        city: input.shippingCity,
        country: input.shippingCountry || DELIVERY_COUNTRY,
        phone: input.shippingPhone ?? null,
        reminderConsent: input.reminderConsent === true,
      },
      lines,
      userId: await linkableCustomerId(tx, input.userId),
      tokenHash: hash,
      promotionCode: input.promotionCode ?? null,
    });
  });
  countOrderCreated();
  return { ...(await getApiOrder(id, { admin: true }))!, token };
}
