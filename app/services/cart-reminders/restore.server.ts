import { asc, eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { lockFor, lockRows } from "~/db/locks.server";
import { cartLines, carts, orderItems, orders } from "~/db/schema";
import { splitFullName } from "~/lib/names";
import { paymentReceived } from "~/lib/order-status";
import { checkoutKeyFor, touchCart } from "~/services/cart.server";
import { rewriteUnpaidOrder } from "~/services/orders/create.server";
import { OrderError } from "~/services/orders/errors.server";
import { priceOrderLines } from "~/services/orders/lines.server";
import { checkPromotion, PromotionError } from "~/services/promotions/rules.server";

/**
 * « Finaliser ma commande » of a reminder (orders/reminder-links.server.ts checked the link): in one transaction,
 * the visitor's cart gets the order's pack and quantity again, and its promotion code when the
 * code still holds for that address; the cart's checkout is that order, whose key now names
 * this cart, so /panier?etape=paiement shows its payment step. An order whose payment has not
 * started is priced again from the cart (as the delivery form would: a pack's new price, a code
 * that expired meanwhile); one whose payment has started keeps its amount.
 */

export type RestoreResult =
  { ok: true; orderId: number } | { ok: false; reason: "gone" | "paid" | "unavailable"; message: string };

export const RESTORE_MESSAGES = {
  gone: "Cette commande n'existe plus.",
  paid: "Cette commande est déjà réglée : il n'y a plus rien à payer.",
  unavailable:
    "Cette commande ne peut plus être reprise : un article n'est plus proposé. Choisissez un pack sur la fiche produit.",
} as const;

function refused(reason: keyof typeof RESTORE_MESSAGES): RestoreResult {
  return { ok: false, reason, message: RESTORE_MESSAGES[reason] };
}

export async function restoreCheckout(cartId: string, orderId: number): Promise<RestoreResult> {
  try {
    return await getDb().transaction(async (tx) => {
      await lockFor(tx, "cart", cartId);
      await lockRows(tx, orders, eq(orders.id, orderId));
      const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).limit(1);
      if (!order || order.renewalNumber !== null) return refused("gone");
      if (paymentReceived(order.paymentStatus)) return refused("paid");
      const items = await tx.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(asc(orderItems.id));
      if (items.length === 0 || items.some((item) => item.productId === null)) return refused("unavailable");

      await touchCart(tx, cartId);
      await tx.delete(cartLines).where(eq(cartLines.cartId, cartId));
      await tx.insert(cartLines).values(
        items.map((item) => ({
          cartId,
          productId: item.productId!,
          packId: item.packId,
          quantity: item.quantity,
          variantName: item.variantName,
          variantPriceCents: item.unitPriceCents,
        })),
      );
      let promotionCode: string | null = null;
      if (order.promotionCode) {
        try {
          await checkPromotion(tx, order.promotionCode, { email: order.customerEmail, orderId });
          promotionCode = order.promotionCode;
        } catch (error) {
          if (!(error instanceof PromotionError)) throw error;
        }
      }
      await tx.update(carts).set({ promotionCode, checkoutOrderId: orderId }).where(eq(carts.id, cartId));

      const lines = await tx.select().from(cartLines).where(eq(cartLines.cartId, cartId)).orderBy(asc(cartLines.id));
      const checkoutKey = checkoutKeyFor(cartId, lines);
      if (!order.stripePaymentIntentId && !order.stripeSubscriptionId) {
        const name = splitFullName(order.customerName);
        await rewriteUnpaidOrder(
          tx,
          orderId,
          {
            contact: {
              email: order.customerEmail,
              firstName: order.customerFirstName ?? name.firstName,
              lastName: order.customerLastName ?? name.lastName,
              address: order.shippingAddress ?? "",
              address2: order.shippingAddress2,
              postalCode: order.shippingPostalCode ?? "",
              city: order.shippingCity ?? "",
              country: order.shippingCountry ?? "France",
              phone: order.shippingPhone,
              reminderConsent: order.reminderConsent,
            },
            lines: await priceOrderLines(tx, lines, "cart"),
            cartId,
            checkoutKey,
            promotionCode,
          },
          { replaceItems: true },
        );
      } else {
        await tx.update(orders).set({ checkoutKey }).where(eq(orders.id, orderId));
      }
      await tx.update(orders).set({ cartId }).where(eq(orders.id, orderId));
      return { ok: true as const, orderId };
    });
  } catch (error) {
    // A pack no longer sold, the trial pack bought meanwhile: the order cannot be taken up as it was.
    if (error instanceof OrderError || error instanceof PromotionError) return refused("unavailable");
    throw error;
  }
}
