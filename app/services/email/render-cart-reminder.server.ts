import { cartReminderEmail } from "~/emails/CartReminderEmail";
import type { EmailOrder, EmailShop } from "~/emails/types";
import type { Order } from "~/db/schema";
import { resumePath, unsubscribePath } from "~/services/orders/reminder-links.server";
import type { EmailPayloads, EmailToRender, RenderedEmail } from "./email-types";

/**
 * The abandoned-checkout reminder (cart-reminders/schedule.server.ts): the pack and the amount of
 * its order, « Finaliser ma commande » (valid 7 days from the reminder), and the one-click
 * unsubscribe of RFC 8058: `List-Unsubscribe` names the page (a POST to it unsubscribes, with
 * nothing more to do) and the shop's address, and `List-Unsubscribe-Post` says so.
 */
export function renderCartReminder(email: EmailToRender, shop: EmailShop, row: Order, order: EmailOrder): RenderedEmail {
  const payload = (email.payload ?? {}) as Partial<EmailPayloads["cart_reminder"]>;
  const remindedAt = new Date(payload.remindedAt ?? email.createdAt);
  const resumeUrl = `${shop.publicUrl}${resumePath(row.id, remindedAt)}`;
  const unsubscribeUrl = `${shop.publicUrl}${unsubscribePath(row.id)}`;
  const content = cartReminderEmail({ shop, order, promotionCode: row.promotionCode, resumeUrl, unsubscribeUrl });
  const mailto = `mailto:${shop.email}?subject=${encodeURIComponent(`Désinscription des rappels (commande ${row.id})`)}`;
  return {
    ...content,
    attachments: [],
    headers: {
      "List-Unsubscribe": `<${unsubscribeUrl}>, <${mailto}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
  };
}
