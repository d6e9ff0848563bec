import { getDb } from "~/db/client.server";
import { renewalReminderEmail } from "~/emails/RenewalReminderEmail";
import type { EmailContent, EmailShop } from "~/emails/types";
import { findOrder, findSubscription } from "~/services/orders/find.server";
import { findPackById } from "~/services/packs.server";
import { subscriptionPageUrl } from "~/services/subscription-link.server";
import type { EmailPayloads, EmailToRender } from "./email-types";

/**
 * The renewal reminder, rendered from its subscription as it is now (pack, delivery address)
 * and the date and amount the scheduler reminded (the payload). The private page's link is
 * made now, at the first attempt, so it stays valid SUBSCRIPTION_LINK_DAYS from the sending.
 */
export async function renderRenewalReminder(email: EmailToRender, shop: EmailShop): Promise<EmailContent> {
  const payload = (email.payload ?? {}) as Partial<EmailPayloads["renewal_reminder"]>;
  const db = getDb();
  const subscription = payload.subscriptionId === undefined ? undefined : await findSubscription(db, payload.subscriptionId);
  if (!subscription || !payload.renewsAt)
    throw new Error(`Email ${email.id} (${email.kind}) : l'abonnement ${payload.subscriptionId ?? "(aucun)"} n'existe plus.`);
  const firstOrderId = email.orderId ?? subscription.firstOrderId;
  if (firstOrderId == null)
    throw new Error(`Email ${email.id} (${email.kind}) : l'abonnement ${subscription.id} n'a plus de première commande.`);
  const order = await findOrder(firstOrderId, db);

  // The number of masks only when the pack is still the one subscribed to (same name).
  const pack = subscription.packId == null ? undefined : await findPackById(subscription.packId);
  const masks = pack && pack.name === subscription.variantName ? pack.masks * subscription.quantity : null;
  const product = subscription.productName ?? "Masque Hydrogel au Collagène";
  const name = subscription.shippingName?.trim() || subscription.customerName?.trim() || order?.customerName?.trim() || "";

  return renewalReminderEmail({
    shop,
    firstOrderId,
    hello: order?.customerFirstName?.trim() || subscription.customerName?.trim() || name,
    renewsAt: payload.renewsAt,
    amountCents: payload.amountCents ?? subscription.amountCents,
    charge: payload.charge ?? null,
    pack: {
      name: subscription.variantName ? `${product} – ${subscription.variantName}` : product,
      quantity: subscription.quantity,
      masks,
    },
    address: {
      customerName: name,
      shippingAddress: subscription.shippingAddress ?? order?.shippingAddress ?? "",
      shippingPostalCode: subscription.shippingPostalCode ?? order?.shippingPostalCode ?? "",
      shippingCity: subscription.shippingCity ?? order?.shippingCity ?? "",
      shippingCountry: subscription.shippingCountry ?? order?.shippingCountry ?? "",
      shippingAddress2: subscription.shippingAddress ? subscription.shippingAddress2 : order?.shippingAddress2,
      shippingPhone: subscription.shippingPhone ?? order?.shippingPhone,
    },
    manageUrl: subscriptionPageUrl(subscription.id),
  });
}
