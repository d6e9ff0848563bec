import { and, eq, inArray } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { contactRequests, emails, orders, subscriptions, users, type Email } from "~/db/schema";
import { ShopError } from "~/lib/shop-error";
import { recordAudit, type AuditActor } from "./audit.server";
import { erasureRefusal } from "./erasure-rules.server";
import { ERASED, ERASED_HTML, ERASED_UNSENT, erasedEmail, erasedUsername } from "./placeholders.server";
import {
  customerOr404,
  readCustomerData,
  readOrders,
  readSubscriptions,
  recordIds,
  type Account,
  type CustomerData,
} from "./records.server";

/**
 * The erasure of a customer's personal data (GDPR article 17). It anonymises, it deletes nothing:
 * amounts, dates, order numbers, statuses and invoices stay, because the accounts must be kept for
 * 10 years (Code de commerce L123-22). An issued invoice is a legal document that names its buyer
 * (Code général des impôts, art. 242 nonies A): its frozen copy (table invoices) is kept as it was
 * issued.
 */

async function eraseEmails(
  tx: DbOrTx,
  account: Account,
  rows: Pick<Email, "id" | "kind" | "status" | "toAddress" | "lastError">[],
  placeholder: string,
) {
  for (const row of rows) {
    const toCustomer = row.toAddress.toLowerCase() === account.email.toLowerCase() || row.toAddress === placeholder;
    // An email not sent yet never leaves: it would go to the placeholder address with an erased body.
    const unsent = row.status === "pending" || row.status === "sending";
    await tx
      .update(emails)
      .set({
        toAddress: toCustomer ? placeholder : row.toAddress,
        // The shop's notice of a contact request repeats the subject the customer typed.
        ...(row.kind === "shop_new_contact" ? { subject: `Nouvelle demande de contact : ${ERASED}` } : {}),
        html: ERASED_HTML,
        text: ERASED,
        attachments: [],
        payload: {},
        lastError: unsent || row.lastError === ERASED_UNSENT ? ERASED_UNSENT : null,
        ...(unsent ? { status: "failed" as const, sendingSince: null } : {}),
      })
      .where(eq(emails.id, row.id));
  }
}

/**
 * Erases the customer's personal data, in one transaction: the account (names, address,
 * telephone, password; email and username replaced by placeholders), the name, email, address
 * and telephone of their orders and subscriptions, their contact requests, and the recipient and
 * content of the emails about them. Amounts, dates, numbers, statuses, the delivery country (VAT)
 * and issued invoices stay. Refused (409) for an administrator, while a paid order is not shipped
 * or a subscription still runs; recorded in the audit log. Erasing again changes nothing more.
 */
export async function eraseCustomerData(id: number, actor: AuditActor): Promise<CustomerData> {
  return await getDb().transaction(async (tx) => {
    const account = await customerOr404(tx, id);
    const ids = await recordIds(tx, account);
    const refusal = erasureRefusal(account, {
      orders: await readOrders(tx, ids.orderIds),
      subscriptions: await readSubscriptions(tx, ids.subscriptionIds),
    });
    if (refusal) throw new ShopError(409, refusal.code, refusal.message, { issues: refusal.issues });

    const placeholder = erasedEmail(id);
    if (ids.orderIds.length) {
      await tx
        .update(orders)
        .set({
          customerEmail: placeholder,
          customerName: null,
          customerFirstName: null,
          customerLastName: null,
          shippingAddress: null,
          shippingAddress2: null,
          shippingPostalCode: null,
          shippingCity: null,
          shippingPhone: null,
        })
        .where(inArray(orders.id, ids.orderIds));
    }
    if (ids.subscriptionIds.length) {
      await tx
        .update(subscriptions)
        .set({
          customerEmail: placeholder,
          customerName: null,
          shippingName: null,
          shippingAddress: null,
          shippingAddress2: null,
          shippingPostalCode: null,
          shippingCity: null,
          shippingPhone: null,
        })
        .where(inArray(subscriptions.id, ids.subscriptionIds));
    }
    if (ids.contactIds.length) {
      await tx
        .update(contactRequests)
        .set({ name: ERASED, email: placeholder, subject: ERASED, message: ERASED })
        .where(inArray(contactRequests.id, ids.contactIds));
    }
    if (ids.emailIds.length) {
      const rows = await tx
        .select({
          id: emails.id,
          kind: emails.kind,
          status: emails.status,
          toAddress: emails.toAddress,
          lastError: emails.lastError,
        })
        .from(emails)
        .where(inArray(emails.id, ids.emailIds));
      await eraseEmails(tx, account, rows, placeholder);
    }
    await tx
      .update(users)
      .set({
        username: erasedUsername(id),
        email: placeholder,
        passwordHash: null,
        firstName: null,
        lastName: null,
        address: null,
        city: null,
        postalCode: null,
        country: null,
        phone: null,
      })
      .where(and(eq(users.id, id), eq(users.isAdmin, false)));
    await recordAudit(tx, actor, "customer.erase", id);
    return await readCustomerData(tx, await customerOr404(tx, id));
  });
}
