import { centsToDecimal } from "~/lib/money";
import { ShopError } from "~/lib/shop-error";
import { getAdminOrder, orderToApi } from "./admin-orders.server";
import { getOrderRefunds, refundToApi } from "./payments/refunds.server";

/** The back office's view of an order's refunds, for the JSON API. */
export async function orderRefundsToApi(orderId: number) {
  const order = await getAdminOrder(orderId);
  if (!order) throw new ShopError(404, "order_not_found", "Commande introuvable");
  const state = await getOrderRefunds(order);
  return {
    order: await orderToApi(order),
    remaining: centsToDecimal(state.refundable ? state.remainingCents : 0),
    refunds: state.refunds.map(refundToApi),
  };
}
