import { getDb } from "~/db/client.server";
import {
  assertCustomerEmail,
  assertFreeOrder,
  assertOwner,
  assertPackRules,
  loadOrder,
  markOrderPaid,
  type PaymentAccess,
} from "./payment-state.server";
import { assertOrderPromotion } from "~/services/promotions/rules.server";

/**
 * A one-off order made free by a 100 % code needs no card: its owner confirms it, the code is
 * checked again, and the order is marked paid through the one path that does it (the invoice,
 * at 0,00 €, the code's use counted under its lock, the stock and the emails, once).
 */
export async function confirmFreeOrder(orderId: number, access: PaymentAccess): Promise<{ orderId: number; paid: boolean }> {
  const order = await loadOrder(orderId);
  assertOwner(order, access);
  if (order.paymentStatus === "paid") return { orderId, paid: true };
  await assertFreeOrder(order);
  assertCustomerEmail(order);
  await assertPackRules(order, "one_off");
  await assertOrderPromotion(getDb(), order, "one_off");
  await markOrderPaid(orderId, {});
  return { orderId, paid: true };
}
