import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { lockRows } from "~/db/locks.server";
import { orderItems, orders, type Order } from "~/db/schema";
import { splitFullName } from "~/lib/names";
import { paymentReceived } from "~/lib/order-status";
import { DELIVERY_COUNTRY } from "~/schemas/delivery";
import { findOrCreateCustomer } from "~/services/customers/accounts.server";
import { subscriptionRefusal } from "~/services/packs.server";
import { OrderError } from "./errors.server";
import { assertTrialAvailable } from "./lines.server";

/** The checkout fields of PUT /api/orders/{id}, for the order's owner (or an administrator). */
export type OrderCheckoutUpdate = { customerEmail?: string; customerName?: string; isSubscription?: boolean };

function isPaid(order: Pick<Order, "paymentStatus">) {
  return paymentReceived(order.paymentStatus);
}

/**
 * The spec's checkout update, while the order is unpaid: the email (linking the order to that
 * email's customer, never changing an account) and the name. `isSubscription` changes nothing
 * (the mode is chosen when the payment starts) but is refused for the trial pack.
 * Returns false when there is no such order.
 */
export async function updateOrderCheckout(orderId: number, update: OrderCheckoutUpdate): Promise<boolean> {
  return await getDb().transaction(async (tx) => {
    // Read then changed while unpaid: the payment of this order waits for this change, or this change for it.
    await lockRows(tx, orders, eq(orders.id, orderId));
    const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).limit(1);
    if (!order) return false;
    const hasChange =
      update.customerEmail !== undefined || update.customerName !== undefined || update.isSubscription !== undefined;
    if (!hasChange) return true;
    if (isPaid(order))
      throw new OrderError("already_paid", "Cette commande a déjà été réglée : ses informations ne peuvent plus changer.");
    const lines = await tx.select({ packId: orderItems.packId }).from(orderItems).where(eq(orderItems.orderId, orderId));
    if (update.isSubscription === true) {
      const refusal = await subscriptionRefusal(lines, tx);
      if (refusal) throw new OrderError("trial_one_off_only", refusal, { field: "isSubscription" });
    }
    const set: Partial<typeof orders.$inferInsert> = {};
    if (update.customerEmail !== undefined && update.customerEmail !== order.customerEmail) {
      await assertTrialAvailable(tx, update.customerEmail, lines, orderId);
      const name = splitFullName(update.customerName ?? order.customerName);
      set.customerEmail = update.customerEmail;
      set.userId = (
        await findOrCreateCustomer(tx, {
          email: update.customerEmail,
          firstName: order.customerFirstName ?? name.firstName,
          lastName: order.customerLastName ?? name.lastName,
          address: order.shippingAddress ?? "",
          postalCode: order.shippingPostalCode ?? "",
          city: order.shippingCity ?? "",
          country: order.shippingCountry ?? DELIVERY_COUNTRY,
        })
      ).id;
    }
    if (update.customerName !== undefined) {
      const { firstName, lastName } = splitFullName(update.customerName);
      set.customerName = update.customerName.trim().replace(/\s+/g, " ");
      set.customerFirstName = firstName || null;
      set.customerLastName = lastName || null;
    }
    if (Object.keys(set).length) await tx.update(orders).set(set).where(eq(orders.id, orderId));
    return true;
  });
}
