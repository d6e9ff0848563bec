import { paymentReceived } from "~/lib/order-status";
import { createHash } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { lockFor } from "~/db/locks.server";
import { param, prepared } from "~/db/prepared.server";
import { cartLines, carts, cartStarts, orderItems, orders, products } from "~/db/schema";
import { parisDay } from "~/lib/paris-days";
import { centsToDecimal } from "~/lib/money";
import { splitFullName } from "~/lib/names";
import type { CartAddInput } from "~/schemas/cart";
import {
  maxQuantityOf,
  PACK_MESSAGES,
  quantityRefusal,
  SELLABLE_PRODUCT_COLUMNS,
  sellableItem,
  shopPacks,
  subscriptionRefusal,
} from "./packs.server";
import { formatFrenchPhone } from "~/lib/phone";
import { cartPromotionView, type CartPromotionView } from "./promotions/cart.server";
import { promotionSubscriptionRefusal } from "./promotions/rules.server";

/** Shipping is free; stored on each order as 0 (the order keeps its own fee). */
export const SHIPPING_CENTS = 0;

export type CartLineView = {
  id: number;
  productId: number;
  /** Null for a product sold as a single item, without pack. */
  packId: number | null;
  quantity: number;
  productName: string;
  variantName: string | null;
  unitPriceCents: number;
  originalPriceCents: number | null;
  lineTotalCents: number;
  image: string | null;
  /** The most of this pack one order may hold (1 for the trial pack). */
  maxQuantity: number;
  /** Why the quantity cannot go up, shown next to the buttons (the trial pack), or null. */
  quantityNote: string | null;
};

/** What the delivery form is prefilled with after a reload. */
export type DeliveryDefaults = {
  firstName: string;
  lastName: string;
  email: string;
  address: string;
  address2: string;
  postalCode: string;
  city: string;
  /** As typed for the carrier: shown as 06 12 34 56 78. */
  phone: string;
  /** The reminder box as last sent (unticked for a new checkout). */
  reminderConsent?: boolean;
};

/** The unpaid order created by the delivery form for this cart. */
export type CheckoutView = {
  orderId: number;
  amountCents: number;
  paymentStatus: string;
  /** True when the order was made from the cart's current content (the payment step is reachable). */
  current: boolean;
  customerEmail: string;
  customerName: string;
  delivery: DeliveryDefaults;
  /** Why the subscription is not offered for this order (the trial pack), or null. */
  subscriptionRefusal: string | null;
};

export type CartView = {
  id: string | null;
  lines: CartLineView[];
  count: number;
  subtotalCents: number;
  shippingCents: number;
  /** The « Code promo » typed in the cart, and what it takes off (already deducted from totalCents). */
  promotion: CartPromotionView | null;
  totalCents: number;
  checkout: CheckoutView | null;
};

type CartErrorCode =
  "product_not_found" | "invalid_pack" | "not_sold" | "trial_ended" | "out_of_stock" | "line_not_found" | "quantity_limit";

export class CartError extends Error {
  constructor(
    public code: CartErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "CartError";
  }
}

/** Number of items in a cart (sum of quantities), for the header badge; a paid cart counts 0. */
export async function getCartLineCount(cartId: string): Promise<number> {
  return await getDb().transaction(async (tx) => {
    await releasePaidCheckout(tx, cartId);
    const [row] = await tx
      .select({ count: sql<number>`coalesce(sum(${cartLines.quantity}), 0)`.mapWith(Number) })
      .from(cartLines)
      .where(eq(cartLines.cartId, cartId))
      .limit(1);
    return row?.count ?? 0;
  });
}

type LineKey = { id: number; productId: number; packId: number | null; quantity: number };

/**
 * Identifies "this cart with this content": the same lines (ids included, so a cart emptied
 * and filled again gets a new key) give the same key, hence the same order.
 */
export function checkoutKeyFor(cartId: string, lines: LineKey[]): string {
  const content = [...lines]
    .sort((a, b) => a.id - b.id)
    .map((l) => `${l.id}:${l.productId}:${l.packId}:${l.quantity}`)
    .join(",");
  return createHash("sha256").update(`${cartId}|${content}`).digest("hex");
}

async function cartLineKeys(db: DbOrTx, cartId: string): Promise<LineKey[]> {
  return await db
    .select({ id: cartLines.id, productId: cartLines.productId, packId: cartLines.packId, quantity: cartLines.quantity })
    .from(cartLines)
    .where(eq(cartLines.cartId, cartId))
    .orderBy(asc(cartLines.id));
}

/**
 * Once the cart's checkout order is paid, the cart is done: its lines are removed (when they
 * are still the ones that were paid for) and the order is detached. Returns true if it acted.
 */
export async function releasePaidCheckout(db: DbOrTx, cartId: string): Promise<boolean> {
  const paidCheckout = async () => {
    const [row] = await cartQueries(db).checkoutOf.execute({ cartId });
    return row && paymentReceived(row.paymentStatus) ? row : undefined;
  };
  if (!(await paidCheckout())) return false;
  // The cart's writes wait for each other (another request may be filling it again): read again once alone.
  await lockFor(db, "cart", cartId);
  const row = await paidCheckout();
  if (!row) return false;
  if (row.checkoutKey === checkoutKeyFor(cartId, await cartLineKeys(db, cartId))) {
    await db.delete(cartLines).where(eq(cartLines.cartId, cartId));
  }
  // The code was used by the order just paid: the next purchase starts without one.
  await db.update(carts).set({ checkoutOrderId: null, promotionCode: null }).where(eq(carts.id, cartId));
  return true;
}

/** For the payment side: once an order is paid, empty the cart it came from. */
export async function clearCartAfterPayment(orderId: number): Promise<void> {
  const db = getDb();
  await db.transaction(async (tx) => {
    const [order] = await tx.select({ cartId: orders.cartId }).from(orders).where(eq(orders.id, orderId)).limit(1);
    if (order?.cartId) await releasePaidCheckout(tx, order.cartId);
  });
}

const EMPTY_CART: Omit<CartView, "id"> = {
  lines: [],
  count: 0,
  subtotalCents: 0,
  shippingCents: SHIPPING_CENTS,
  promotion: null,
  totalCents: SHIPPING_CENTS,
  checkout: null,
};

async function readCheckout(
  db: DbOrTx,
  cartId: string,
  orderId: number | null,
  lines: LineKey[],
  cartTotalCents: number,
): Promise<CheckoutView | null> {
  if (!orderId) return null;
  const [order] = await db
    .select({
      id: orders.id,
      totalCents: orders.totalCents,
      paymentStatus: orders.paymentStatus,
      checkoutKey: orders.checkoutKey,
      customerEmail: orders.customerEmail,
      customerName: orders.customerName,
      shippingAddress: orders.shippingAddress,
      shippingAddress2: orders.shippingAddress2,
      shippingPostalCode: orders.shippingPostalCode,
      shippingCity: orders.shippingCity,
      shippingPhone: orders.shippingPhone,
      firstName: orders.customerFirstName,
      lastName: orders.customerLastName,
      promotionId: orders.promotionId,
      discountCents: orders.discountCents,
      reminderConsent: orders.reminderConsent,
    })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!order || paymentReceived(order.paymentStatus)) return null;
  // The order's own copy of what was typed: never an account found by the typed email.
  const name = splitFullName(order.customerName);
  const items = await db.select({ packId: orderItems.packId }).from(orderItems).where(eq(orderItems.orderId, order.id));
  return {
    orderId: order.id,
    amountCents: order.totalCents,
    paymentStatus: order.paymentStatus,
    // The order was made from this content at these prices: a price changed since sends the
    // shopper back to the delivery form, whose submission reprices the order.
    current: lines.length > 0 && order.checkoutKey === checkoutKeyFor(cartId, lines) && order.totalCents === cartTotalCents,
    customerEmail: order.customerEmail ?? "",
    customerName: order.customerName ?? "",
    delivery: {
      firstName: order.firstName ?? name.firstName,
      lastName: order.lastName ?? name.lastName,
      email: order.customerEmail ?? "",
      address: order.shippingAddress ?? "",
      address2: order.shippingAddress2 ?? "",
      postalCode: order.shippingPostalCode ?? "",
      city: order.shippingCity ?? "",
      phone: formatFrenchPhone(order.shippingPhone),
      reminderConsent: order.reminderConsent,
    },
    subscriptionRefusal:
      (await subscriptionRefusal(items, db)) ??
      (order.discountCents > 0 ? await promotionSubscriptionRefusal(db, order.promotionId) : null),
  };
}

/** A line whose pack is no longer sold (deactivated, or the product withdrawn from sale). */
export const UNAVAILABLE_LINE = "Cet article n'est plus proposé : retirez-le et choisissez un pack sur la fiche produit.";

/** The cart with its lines and totals; a cart whose checkout order was paid reads as empty. */
export async function readCart(cartId: string | null): Promise<CartView> {
  if (!cartId) return { id: null, ...EMPTY_CART };
  const db = getDb();
  return await db.transaction(async (tx) => {
    const [cart] = await tx.select().from(carts).where(eq(carts.id, cartId)).limit(1);
    if (!cart) return { id: cartId, ...EMPTY_CART };
    await releasePaidCheckout(tx, cartId);
    const rows = await tx
      .select({
        id: cartLines.id,
        productId: cartLines.productId,
        packId: cartLines.packId,
        quantity: cartLines.quantity,
        variantName: cartLines.variantName,
        variantPriceCents: cartLines.variantPriceCents,
        productName: products.name,
        productPriceCents: products.priceCents,
        saleWithoutPack: products.saleWithoutPack,
        images: products.images,
      })
      .from(cartLines)
      .innerJoin(products, eq(products.id, cartLines.productId))
      .where(eq(cartLines.cartId, cartId))
      .orderBy(asc(cartLines.id));
    // Each line at today's price of its pack (or of the product sold as a single item): the
    // price shown is the price the delivery form's order will charge.
    const lines: CartLineView[] = await Promise.all(
      rows.map(async (r) => {
        const sale = await sellableItem(
          { id: r.productId, name: r.productName, priceCents: r.productPriceCents, saleWithoutPack: r.saleWithoutPack },
          { packId: r.packId },
          tx,
        );
        const item = "item" in sale ? sale.item : null;
        const unit = item?.priceCents ?? r.variantPriceCents ?? r.productPriceCents;
        const crossedOut = item?.pack
          ? ((await shopPacks(r.productId, new Date(), tx)).find((p) => p.id === item.pack!.id)?.crossedOutCents ?? null)
          : null;
        return {
          id: r.id,
          productId: r.productId,
          packId: r.packId,
          quantity: r.quantity,
          productName: r.productName,
          variantName: item ? item.name : r.variantName,
          unitPriceCents: unit,
          originalPriceCents: crossedOut,
          lineTotalCents: unit * r.quantity,
          image: r.images[0] ?? null,
          maxQuantity: item ? maxQuantityOf(item) : 1,
          // The trial pack after the offer's end says so; any other line no longer sold, the general note.
          quantityNote: !item
            ? "refusal" in sale && sale.refusal === "trial_ended"
              ? sale.message
              : UNAVAILABLE_LINE
            : item.trial
              ? await PACK_MESSAGES.trialQuantity(item.name ?? undefined, tx)
              : null,
        };
      }),
    );
    const subtotalCents = lines.reduce((sum, l) => sum + l.lineTotalCents, 0);
    const checkoutOrderId =
      (await tx.select({ id: carts.checkoutOrderId }).from(carts).where(eq(carts.id, cartId)).limit(1))[0]?.id ?? null;
    const promotion = lines.length
      ? await cartPromotionView(tx, cart.promotionCode ?? null, subtotalCents + SHIPPING_CENTS)
      : null;
    const totalCents = subtotalCents + SHIPPING_CENTS - (promotion?.discountCents ?? 0);
    return {
      id: cartId,
      lines,
      count: lines.reduce((sum, l) => sum + l.quantity, 0),
      subtotalCents,
      shippingCents: SHIPPING_CENTS,
      promotion,
      totalCents,
      checkout: await readCheckout(tx, cartId, checkoutOrderId, lines, totalCents),
    };
  });
}

/** Creates the cart, or notes that it changed; a new cart is counted in its day's cart starts (the analytics' funnel). */
export async function touchCart(db: DbOrTx, cartId: string) {
  const now = new Date();
  const queries = cartQueries(db);
  const created = await queries.createCart.execute({ cartId, now: now.toISOString() });
  if (created.length === 0) {
    await queries.touchCart.execute({ cartId, now: now.toISOString() });
    return;
  }
  await queries.countStart.execute({ day: parisDay(now) });
}

/**
 * The queries of every « Commander » (the product page's button puts the pack in the cart),
 * prepared once per database handle (db/prepared.server.ts): they run in the transaction that
 * holds the write lock. The writes give their own timestamps, which would otherwise be those of
 * the preparation.
 */
const cartQueries = (db: DbOrTx) =>
  prepared(db, "cartQueries", () => ({
    checkoutOf: db
      .select({ orderId: orders.id, paymentStatus: orders.paymentStatus, checkoutKey: orders.checkoutKey })
      .from(carts)
      .innerJoin(orders, eq(orders.id, carts.checkoutOrderId))
      .where(eq(carts.id, sql.placeholder("cartId")))
      .limit(1)
      .prepare(),
    product: db
      .select(SELLABLE_PRODUCT_COLUMNS)
      .from(products)
      .where(eq(products.id, sql.placeholder("productId")))
      .limit(1)
      .prepare(),
    createCart: db
      .insert(carts)
      .values({ id: sql.placeholder("cartId"), createdAt: sql.placeholder("now"), updatedAt: sql.placeholder("now") })
      .onConflictDoNothing()
      .returning({ id: carts.id })
      .prepare(),
    touchCart: db
      .update(carts)
      .set({ updatedAt: param<string>("now") })
      .where(eq(carts.id, sql.placeholder("cartId")))
      .prepare(),
    countStart: db
      .insert(cartStarts)
      .values({ day: sql.placeholder("day"), count: 1 })
      .onConflictDoUpdate({ target: cartStarts.day, set: { count: sql`${cartStarts.count} + 1` } })
      .prepare(),
    emptyCart: db
      .delete(cartLines)
      .where(eq(cartLines.cartId, sql.placeholder("cartId")))
      .prepare(),
    addLine: db
      .insert(cartLines)
      .values({
        cartId: sql.placeholder("cartId"),
        productId: sql.placeholder("productId"),
        packId: sql.placeholder("packId"),
        quantity: 1,
        variantName: sql.placeholder("variantName"),
        variantPriceCents: sql.placeholder("variantPriceCents"),
        variantOriginalPriceCents: sql.placeholder("variantOriginalPriceCents"),
        createdAt: sql.placeholder("now"),
        updatedAt: sql.placeholder("now"),
      })
      .prepare(),
  }));

/**
 * Adds a product: the cart holds one product at a time, so its content is replaced by one
 * line at quantity 1, named and priced from the pack (never from what the browser sent).
 */
export async function addToCart(cartId: string, input: CartAddInput): Promise<CartView> {
  await putInCart(cartId, input);
  return await readCart(cartId);
}

/**
 * What addToCart writes, without reading the cart back: the cart then holds this one line,
 * quantity 1 (what the product page's button needs for the badge).
 */
export async function putInCart(cartId: string, input: CartAddInput): Promise<{ count: 1 }> {
  await getDb().transaction(async (tx) => {
    await lockFor(tx, "cart", cartId);
    await releasePaidCheckout(tx, cartId);
    const queries = cartQueries(tx);
    const [product] = await queries.product.execute({ productId: input.productId });
    if (!product) throw new CartError("product_not_found", "Produit introuvable");
    if (product.stock <= 0) throw new CartError("out_of_stock", "Produit en rupture de stock");
    const sale = await sellableItem(product, { packId: input.packId, variantName: input.variantName }, tx);
    if ("refusal" in sale) throw new CartError(sale.refusal, sale.message);
    await touchCart(tx, cartId);
    await queries.emptyCart.execute({ cartId });
    await queries.addLine.execute({
      cartId,
      productId: product.id,
      packId: sale.item.pack?.id ?? null,
      variantName: sale.item.name,
      variantPriceCents: sale.item.priceCents,
      variantOriginalPriceCents: sale.item.pack?.referencePriceCents ?? null,
      now: new Date().toISOString(),
    });
  });
  return { count: 1 };
}

/**
 * Sets a line's quantity; below 1 removes it. Only a line of this cart can be changed, and
 * only to a quantity its pack allows (at most 10, exactly 1 of the trial pack).
 */
export async function setLineQuantity(cartId: string, lineId: number, quantity: number): Promise<CartView> {
  await getDb().transaction(async (tx) => {
    await lockFor(tx, "cart", cartId);
    const where = and(eq(cartLines.id, lineId), eq(cartLines.cartId, cartId));
    const [line] = await tx
      .select({
        packId: cartLines.packId,
        productId: products.id,
        name: products.name,
        priceCents: products.priceCents,
        saleWithoutPack: products.saleWithoutPack,
      })
      .from(cartLines)
      .innerJoin(products, eq(products.id, cartLines.productId))
      .where(where)
      .limit(1);
    if (!line) throw new CartError("line_not_found", "Article introuvable dans votre panier");
    if (quantity < 1) {
      await tx.delete(cartLines).where(where);
    } else {
      const sale = await sellableItem(
        { id: line.productId, name: line.name, priceCents: line.priceCents, saleWithoutPack: line.saleWithoutPack },
        { packId: line.packId },
        tx,
      );
      const refusal =
        "item" in sale
          ? await quantityRefusal(sale.item, quantity, tx)
          : sale.refusal === "trial_ended"
            ? sale.message
            : UNAVAILABLE_LINE;
      if (refusal) throw new CartError("quantity_limit", refusal);
      await tx.update(cartLines).set({ quantity }).where(where);
    }
    await touchCart(tx, cartId);
  });
  return await readCart(cartId);
}

export async function clearCart(cartId: string): Promise<CartView> {
  await getDb().delete(cartLines).where(eq(cartLines.cartId, cartId));
  return await readCart(cartId);
}

/** Cart items as the JSON API gives them (spec section 3 'Cart item'), prices as decimal strings. */
export function toApiCartItems(cart: CartView) {
  const decimal = centsToDecimal;
  return cart.lines.map((l) => ({
    id: l.id,
    cartId: cart.id,
    /** The spec's cart item `userId`: here the visitor's cart id (one cart per visitor). */
    userId: cart.id,
    productId: l.productId,
    packId: l.packId,
    quantity: l.quantity,
    variantName: l.variantName,
    variantPrice: decimal(l.unitPriceCents),
    variantOriginalPrice: l.originalPriceCents == null ? null : decimal(l.originalPriceCents),
    product: { id: l.productId, name: l.productName, images: l.image ? [l.image] : [], price: decimal(l.unitPriceCents) },
  }));
}
