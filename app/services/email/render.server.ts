import { CARRIER_LABELS, carrierTrackingUrl } from "~/lib/carriers";
import { asc, eq } from "drizzle-orm";
import { createElement } from "react";
import { getConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import { contactRequests, orderItems, products, type EmailAttachment, type Order } from "~/db/schema";
import { adminLoginAttackEmail } from "~/emails/AdminLoginAttackEmail";
import { contactAckEmail } from "~/emails/ContactAckEmail";
import { htmlDocument } from "~/emails/document";
import { orderConfirmationEmail } from "~/emails/OrderConfirmationEmail";
import { orderRefundedEmail } from "~/emails/OrderRefundedEmail";
import { orderShippedEmail } from "~/emails/OrderShippedEmail";
import { orderTrackingNumberEmail } from "~/emails/OrderTrackingNumberEmail";
import { shopContact } from "~/emails/seller";
import { renewalActionRequiredEmail } from "~/emails/RenewalActionRequiredEmail";
import { renewalPaymentFailedEmail } from "~/emails/RenewalPaymentFailedEmail";
import { renewalReceiptEmail } from "~/emails/RenewalReceiptEmail";
import { shopNewContactEmail } from "~/emails/ShopNewContactEmail";
import { shopNewOrderEmail } from "~/emails/ShopNewOrderEmail";
import { subscriptionCanceledEmail } from "~/emails/SubscriptionCanceledEmail";
import { TermsDocument } from "~/emails/TermsDocument";
import { withdrawalAckEmail } from "~/emails/WithdrawalAckEmail";
import type { EmailContactRequest, EmailContent, EmailOrder, EmailShop } from "~/emails/types";
import { legalIdentityOf } from "~/lib/company";
import { CURRENT_TERMS_VERSION, isTermsVersion, termsOfSale } from "~/legal/terms-of-sale";
import { SUBSCRIPTION_TRIAL_DAYS } from "~/lib/renewals";
import { getSettings } from "~/services/settings.server";
import { findInvoiceNumber } from "../invoices.server";
import { findOrder, findSubscriptionByStripeId } from "~/services/orders/find.server";
import { orderCreditNoteUrl, orderInvoiceUrl, orderTrackingUrl } from "~/services/orders/link.server";
import { subscriptionPageUrl } from "../subscription-link.server";
import type { EmailPayloads, EmailToRender, RenderedEmail } from "./email-types";
import { renderOwnerDailySummary, renderOwnerNotice } from "./render-owner.server";
import { renderRenewalReminder } from "./render-reminder.server";
import { renewalCharge } from "~/services/promotions/renewal-amount.server";
import { renderCartReminder } from "./render-cart-reminder.server";
import {
  renderSubscriptionAddressChanged,
  renderSubscriptionChanged,
  renderSubscriptionLink,
} from "./render-subscription.server";

/**
 * Renders an outbox email (subject, HTML, text, attachments) from what the database says now:
 * its order or contact request, and the site settings. Called at the email's first attempt;
 * the result is kept on the row, so a resend sends the same email.
 */

export async function shopOf(): Promise<EmailShop> {
  const settings = await getSettings();
  return {
    name: settings.siteName,
    email: settings.siteEmail,
    address: settings.siteAddress,
    phone: settings.sitePhone,
    publicUrl: getConfig().publicUrl,
    legal: legalIdentityOf(settings),
  };
}

async function requireOrder(email: EmailToRender): Promise<Order> {
  const order = email.orderId == null ? undefined : await findOrder(email.orderId);
  if (!order) throw new Error(`Email ${email.id} (${email.kind}) : la commande ${email.orderId ?? "(aucune)"} n'existe plus.`);
  return order;
}

async function emailOrder(order: Order): Promise<EmailOrder> {
  const lines = await getDb()
    .select({
      productName: orderItems.productName,
      currentName: products.name,
      variantName: orderItems.variantName,
      quantity: orderItems.quantity,
      unitPriceCents: orderItems.unitPriceCents,
    })
    .from(orderItems)
    .leftJoin(products, eq(products.id, orderItems.productId))
    .where(eq(orderItems.orderId, order.id))
    .orderBy(asc(orderItems.id));
  return {
    id: order.id,
    createdAt: order.createdAt,
    paidAt: order.paidAt,
    customerName: order.customerName?.trim() || [order.customerFirstName, order.customerLastName].filter(Boolean).join(" "),
    customerFirstName: order.customerFirstName,
    customerEmail: order.customerEmail,
    shippingAddress: order.shippingAddress ?? "",
    shippingAddress2: order.shippingAddress2,
    shippingPostalCode: order.shippingPostalCode ?? "",
    shippingCity: order.shippingCity ?? "",
    shippingCountry: order.shippingCountry ?? "",
    shippingPhone: order.shippingPhone,
    isSubscription: order.isSubscription,
    lines: lines.map((l) => {
      const product = l.productName ?? l.currentName ?? "Produit";
      return {
        name: l.variantName ? `${product} – ${l.variantName}` : product,
        quantity: l.quantity,
        unitPriceCents: l.unitPriceCents,
        lineTotalCents: l.unitPriceCents * l.quantity,
      };
    }),
    subtotalCents: order.subtotalCents,
    shippingCents: order.shippingCents,
    totalCents: order.totalCents,
    trackingUrl: orderTrackingUrl(order.id),
  };
}

/** The shop's id of a Stripe subscription, for an order not linked to its record yet. */
async function subscriptionIdOf(stripeSubscriptionId: string): Promise<number | undefined> {
  return (await findSubscriptionByStripeId(getDb(), stripeSubscriptionId))?.id;
}

/**
 * The link to the private page of the order's subscription (null for a one-off order), valid
 * SUBSCRIPTION_LINK_DAYS from the email's creation.
 */
async function subscriptionUrlOf(order: Order, email: EmailToRender): Promise<string | null> {
  const id =
    order.subscriptionId ?? (order.stripeSubscriptionId ? await subscriptionIdOf(order.stripeSubscriptionId) : undefined);
  if (!id) return null;
  const createdAt = new Date(email.createdAt);
  return subscriptionPageUrl(id, Number.isNaN(createdAt.getTime()) ? new Date() : createdAt);
}

async function requireContact(email: EmailToRender): Promise<EmailContactRequest> {
  const row =
    email.contactRequestId == null
      ? undefined
      : (await getDb().select().from(contactRequests).where(eq(contactRequests.id, email.contactRequestId)).limit(1))[0];
  if (!row)
    throw new Error(
      `Email ${email.id} (${email.kind}) : la demande de contact ${email.contactRequestId ?? "(aucune)"} n'existe plus.`,
    );
  return { name: row.name, email: row.email, subject: row.subject, message: row.message, createdAt: row.createdAt };
}

/** The terms' file name: `CGV-Maison-Eclat-2026-11-20.html` (the shop's name without accents or spaces). */
export function termsFileName(shopName: string, version: string): string {
  const name = shopName
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^A-Za-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return `CGV-${name || "boutique"}-${version}.html`;
}

/** The terms of sale the order was made under (the current ones for an order from before versions were kept), as an attachment. */
export function termsAttachment(shop: EmailShop, termsVersion: string | null): EmailAttachment & { version: string } {
  const version = isTermsVersion(termsVersion) ? termsVersion : CURRENT_TERMS_VERSION;
  // The same document for the same version and the same shop: rendered once, not for each order's email.
  const key = JSON.stringify([version, shop]);
  let content = renderedTerms.get(key);
  if (content === undefined) {
    const terms = termsOfSale(version, shopContact(shop));
    content = htmlDocument(createElement(TermsDocument, { terms, shopName: shop.name, baseUrl: shop.publicUrl }));
    if (renderedTerms.size >= RENDERED_TERMS_KEPT) renderedTerms.delete(renderedTerms.keys().next().value!);
    renderedTerms.set(key, content);
  }
  return { version, filename: termsFileName(shop.name, version), contentType: "text/html; charset=utf-8", content };
}

/** The terms documents rendered lately, by version and shop (its name, address and legal identity change rarely). */
const renderedTerms = new Map<string, string>();
const RENDERED_TERMS_KEPT = 8;

/** What the emails of an unpaid renewal say (refused, or waiting for the bank's authentication): the invoice, its amount and its pay link. */
async function unpaidRenewalOf(
  email: EmailToRender,
  kind: "renewal_payment_failed" | "renewal_action_required",
  shop: EmailShop,
) {
  const row = await requireOrder(email);
  const payload = payloadOf(email, kind);
  if (!payload.invoiceId || !payload.payUrl) throw new Error(`Email ${email.id} (${email.kind}) : la facture à régler manque.`);
  return {
    shop,
    order: await emailOrder(row),
    invoiceId: payload.invoiceId,
    amountCents: payload.amountCents ?? row.totalCents,
    payUrl: payload.payUrl,
    renewalNumber: payload.renewalNumber ?? 1,
    // The renewal's date (its period's start); an email queued before it was kept: the day of the failure.
    dueAt: payload.dueAt ?? email.createdAt,
    subscriptionUrl: await subscriptionUrlOf(row, email),
  };
}

/** The order's invoice (issued with its payment, so before its confirmation is queued): its number and the customer's link. */
async function invoiceLinkOf(orderId: number): Promise<{ number: string; url: string } | null> {
  const invoice = await findInvoiceNumber(orderId, "invoice");
  return invoice ? { number: invoice.number, url: orderInvoiceUrl(orderId) } : null;
}

function addDays(iso: string, days: number): string {
  return new Date(new Date(iso).getTime() + days * 86_400_000).toISOString();
}

function payloadOf<K extends keyof EmailPayloads>(email: EmailToRender, _kind: K): Partial<EmailPayloads[K]> {
  return (email.payload ?? {}) as Partial<EmailPayloads[K]>;
}

function rendered(content: EmailContent, attachments: EmailAttachment[] = []): RenderedEmail {
  return { ...content, attachments };
}

/** Subject, HTML and text parts, and attachments of an outbox email. Throws when its order or contact request is gone. */
export async function renderEmail(email: EmailToRender): Promise<RenderedEmail> {
  const shop = await shopOf();
  switch (email.kind) {
    case "order_confirmation": {
      const row = await requireOrder(email);
      const { version, ...attachment } = termsAttachment(shop, row.termsVersion);
      const firstRenewalAt = row.isSubscription ? addDays(row.paidAt ?? row.createdAt, SUBSCRIPTION_TRIAL_DAYS) : null;
      const subscriptionUrl = row.isSubscription ? await subscriptionUrlOf(row, email) : null;
      const content = orderConfirmationEmail({
        shop,
        order: await emailOrder(row),
        termsVersion: version,
        termsFileName: attachment.filename,
        firstRenewalAt,
        renewalCharge: row.isSubscription
          ? await renewalCharge({ firstOrderId: row.id, renewalCount: 0, amountCents: row.totalCents + row.discountCents })
          : null,
        subscriptionUrl,
        invoice: await invoiceLinkOf(row.id),
      });
      return { ...rendered(content, [attachment]), attachmentRefs: [{ kind: "terms_of_sale", version }] };
    }
    case "order_shipped": {
      const row = await requireOrder(email);
      const payload = payloadOf(email, "order_shipped");
      const trackingNumber = (payload.trackingNumber ?? row.trackingNumber)?.trim() || null;
      const number = trackingNumber === "null" ? null : trackingNumber;
      const carrier = payload.trackingCarrier !== undefined ? payload.trackingCarrier : row.trackingCarrier;
      return rendered(
        orderShippedEmail({
          shop,
          order: await emailOrder(row),
          trackingNumber: number,
          carrier: carrier ? CARRIER_LABELS[carrier] : null,
          carrierUrl: carrierTrackingUrl(carrier, number),
        }),
      );
    }
    case "order_tracking_number": {
      const row = await requireOrder(email);
      const payload = payloadOf(email, "order_tracking_number");
      const number = payload.trackingNumber?.trim() || row.trackingNumber?.trim();
      if (!number) throw new Error(`Email ${email.id} (${email.kind}) : le numéro de suivi manque.`);
      const carrier = payload.trackingCarrier !== undefined ? payload.trackingCarrier : row.trackingCarrier;
      return rendered(
        orderTrackingNumberEmail({
          shop,
          order: await emailOrder(row),
          trackingNumber: number,
          carrier: carrier ? CARRIER_LABELS[carrier] : null,
          carrierUrl: carrierTrackingUrl(carrier, number),
        }),
      );
    }
    case "order_refunded": {
      const row = await requireOrder(email);
      const payload = payloadOf(email, "order_refunded");
      if (typeof payload.amountCents !== "number")
        throw new Error(`Email ${email.id} (${email.kind}) : le montant remboursé manque.`);
      const number = payload.creditNoteNumber ?? null;
      return rendered(
        orderRefundedEmail({
          shop,
          order: await emailOrder(row),
          amountCents: payload.amountCents,
          remainingPaidCents: payload.remainingPaidCents ?? 0,
          creditNote: number ? { number, url: orderCreditNoteUrl(row.id, number) } : null,
          note: payload.note ?? null,
        }),
      );
    }
    case "subscription_canceled": {
      const row = await requireOrder(email);
      const payload = payloadOf(email, "subscription_canceled");
      const endsAt = payload.endsAt ?? row.subscriptionCanceledAt ?? email.createdAt;
      return rendered(
        subscriptionCanceledEmail({
          shop,
          order: await emailOrder(row),
          endsAt,
          canceledBy: payload.canceledBy ?? "customer",
          subscriptionUrl: await subscriptionUrlOf(row, email),
        }),
      );
    }
    case "renewal_receipt": {
      const row = await requireOrder(email);
      const payload = payloadOf(email, "renewal_receipt");
      const renewalNumber = payload.renewalNumber ?? row.renewalNumber ?? 1;
      return rendered(
        renewalReceiptEmail({
          shop,
          order: await emailOrder(row),
          renewalNumber,
          nextRenewalAt: payload.nextRenewalAt ?? null,
          invoice: await invoiceLinkOf(row.id),
          subscriptionUrl: await subscriptionUrlOf(row, email),
        }),
      );
    }
    case "renewal_payment_failed":
      return rendered(renewalPaymentFailedEmail(await unpaidRenewalOf(email, "renewal_payment_failed", shop)));
    case "renewal_action_required":
      return rendered(renewalActionRequiredEmail(await unpaidRenewalOf(email, "renewal_action_required", shop)));
    case "contact_ack":
      return rendered(contactAckEmail({ shop, contact: await requireContact(email) }));
    case "shop_new_order":
      return rendered(shopNewOrderEmail({ shop, order: await emailOrder(await requireOrder(email)) }));
    case "shop_new_contact":
      return rendered(shopNewContactEmail({ shop, contact: await requireContact(email) }));
    case "renewal_reminder":
      return rendered(await renderRenewalReminder(email, shop));
    case "cart_reminder": {
      const row = await requireOrder(email);
      return renderCartReminder(email, shop, row, await emailOrder(row));
    }
    case "admin_login_attack": {
      const payload = payloadOf(email, "admin_login_attack");
      return rendered(
        adminLoginAttackEmail({
          shop,
          username: payload.username ?? "",
          failures: payload.failures ?? 0,
          windowMinutes: payload.windowMinutes ?? 15,
          lastAddress: payload.lastAddress ?? "inconnue",
          lastAt: payload.lastAt ?? email.createdAt,
        }),
      );
    }
    case "subscription_link":
      return rendered(await renderSubscriptionLink(email, shop));
    case "subscription_address_changed":
      return rendered(await renderSubscriptionAddressChanged(email, shop));
    case "owner_withdrawal":
    case "owner_renewal_problem":
    case "owner_stripe_refund":
    case "owner_email_failed":
      return rendered(await renderOwnerNotice({ ...email, kind: email.kind }, shop));
    case "owner_daily_summary":
      return rendered(await renderOwnerDailySummary(email, shop));
    case "subscription_changed":
      return rendered(await renderSubscriptionChanged(email, shop));
    case "withdrawal_ack": {
      const row = await requireOrder(email);
      const payload = payloadOf(email, "withdrawal_ack");
      return rendered(
        withdrawalAckEmail({
          shop,
          order: await emailOrder(row),
          requestedAt: payload.requestedAt ?? email.createdAt,
          reason: payload.reason ?? null,
        }),
      );
    }
  }
}
