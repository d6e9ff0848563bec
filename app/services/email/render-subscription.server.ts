import { getDb } from "~/db/client.server";
import type { Subscription } from "~/db/schema";
import { subscriptionAddressChangedEmail } from "~/emails/SubscriptionAddressChangedEmail";
import { subscriptionChangedEmail } from "~/emails/SubscriptionChangedEmail";
import { subscriptionLinkEmail } from "~/emails/SubscriptionLinkEmail";
import type { EmailContent, EmailShop } from "~/emails/types";
import { findSubscription } from "~/services/orders/find.server";
import { subscriptionPageUrl } from "~/services/subscription-link.server";
import type { EmailPayloads, EmailToRender } from "./email-types";

/**
 * The emails about a subscription's management link: a fresh link asked for, and the notice of
 * a changed delivery address. The link is made from the email's creation, so it works
 * SUBSCRIPTION_LINK_DAYS from the moment it was asked for.
 */

async function requireSubscription(email: EmailToRender, subscriptionId: number | undefined): Promise<Subscription> {
  const record = subscriptionId === undefined ? undefined : await findSubscription(getDb(), subscriptionId);
  if (!record) throw new Error(`Email ${email.id} (${email.kind}) : l'abonnement ${subscriptionId ?? "(aucun)"} n'existe plus.`);
  return record;
}

function manageUrlOf(email: EmailToRender, subscriptionId: number): string {
  const createdAt = new Date(email.createdAt);
  return subscriptionPageUrl(subscriptionId, Number.isNaN(createdAt.getTime()) ? new Date() : createdAt);
}

function helloOf(record: Subscription): string {
  const name = record.customerName?.trim() || record.shippingName?.trim() || "";
  return name.split(/\s+/)[0] ?? "";
}

export async function renderSubscriptionLink(email: EmailToRender, shop: EmailShop): Promise<EmailContent> {
  const payload = (email.payload ?? {}) as Partial<EmailPayloads["subscription_link"]>;
  const record = await requireSubscription(email, payload.subscriptionId);
  return subscriptionLinkEmail({
    shop,
    hello: helloOf(record),
    firstOrderId: record.firstOrderId,
    manageUrl: manageUrlOf(email, record.id),
  });
}

export async function renderSubscriptionAddressChanged(email: EmailToRender, shop: EmailShop): Promise<EmailContent> {
  const payload = (email.payload ?? {}) as Partial<EmailPayloads["subscription_address_changed"]>;
  const record = await requireSubscription(email, payload.subscriptionId);
  if (!payload.previous || !payload.next)
    throw new Error(`Email ${email.id} (${email.kind}) : les adresses de l'abonnement ${record.id} manquent.`);
  return subscriptionAddressChangedEmail({
    shop,
    hello: helloOf(record),
    firstOrderId: record.firstOrderId,
    changedAt: payload.changedAt ?? email.createdAt,
    previous: payload.previous,
    next: payload.next,
    manageUrl: manageUrlOf(email, record.id),
  });
}

export async function renderSubscriptionChanged(email: EmailToRender, shop: EmailShop): Promise<EmailContent> {
  const payload = (email.payload ?? {}) as Partial<EmailPayloads["subscription_changed"]>;
  const record = await requireSubscription(email, payload.subscriptionId);
  if (!payload.title || !payload.summary)
    throw new Error(`Email ${email.id} (${email.kind}) : le changement de l'abonnement ${record.id} manque.`);
  return subscriptionChangedEmail({
    shop,
    hello: helloOf(record),
    firstOrderId: record.firstOrderId,
    title: payload.title,
    summary: payload.summary,
    manageUrl: manageUrlOf(email, record.id),
  });
}
