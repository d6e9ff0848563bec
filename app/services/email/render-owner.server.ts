import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { contactRequests, type Order } from "~/db/schema";
import { ownerDailySummaryEmail, ownerNoticeEmail, type OwnerNotice } from "~/emails/OwnerNoticeEmail";
import { shopNewContactSubject } from "~/emails/ShopNewContactEmail";
import { oneLine } from "~/emails/text";
import type { EmailContent, EmailShop } from "~/emails/types";
import { formatDateTime, formatDayInWords } from "~/lib/dates";
import { EMAIL_KIND_LABELS, type EmailKind } from "~/lib/email-kinds";
import { formatPrice } from "~/lib/money";
import { displayName } from "~/lib/names";
import { WITHDRAWAL_REFUND_DAYS, withdrawalRefundDeadline } from "~/lib/withdrawal-deadline";
import { findOrder } from "~/services/orders/find.server";
import type { EmailPayloads, EmailToRender } from "./email-types";
import { noticesOfSummary, type OwnerNoticeKind } from "./owner-notifications.server";

/**
 * The owner's emails (owner-notifications.server.ts), read from the database when they are
 * rendered: one notice per event, sent alone or gathered in the daily summary.
 */

type NoticeSource = {
  kind: OwnerNoticeKind;
  orderId: number | null;
  contactRequestId: number | null;
  payload: Record<string, unknown> | null;
};

function customerOf(order: Order): string {
  return (
    displayName({ firstName: order.customerFirstName, lastName: order.customerLastName }) ||
    order.customerName?.trim() ||
    order.customerEmail ||
    "Client"
  );
}

async function requireOrderOf(source: NoticeSource): Promise<Order> {
  const order = source.orderId === null ? undefined : await findOrder(source.orderId);
  if (!order) throw new Error(`Notification ${source.kind} : la commande ${source.orderId ?? "(aucune)"} n'existe plus.`);
  return order;
}

function payloadOf<K extends OwnerNoticeKind>(source: NoticeSource, _kind: K): Partial<EmailPayloads[K]> {
  return (source.payload ?? {}) as Partial<EmailPayloads[K]>;
}

async function withdrawalNotice(source: NoticeSource, shop: EmailShop): Promise<OwnerNotice> {
  const order = await requireOrderOf(source);
  const payload = payloadOf(source, "owner_withdrawal");
  const requestedAt = payload.requestedAt ?? new Date().toISOString();
  const deadline = formatDayInWords(withdrawalRefundDeadline(requestedAt));
  const customer = oneLine(customerOf(order));
  return {
    subject: `Rétractation à rembourser avant le ${deadline} : commande n°${order.id}`,
    heading: `Demande de rétractation : commande n°${order.id}`,
    summary: `${customer} a demandé à se rétracter de la commande n°${order.id} le ${formatDateTime(requestedAt)} (heure de Paris), avec le formulaire en ligne. Un accusé de réception lui a été envoyé.`,
    rows: [
      ["Commande", `n°${order.id}`],
      ["Client", customer],
      ["Email", oneLine(order.customerEmail)],
      ["Montant payé", formatPrice(order.totalCents)],
      ["Motif", payload.reason ? oneLine(payload.reason) : "Non précisé"],
      ["Demande reçue le", formatDateTime(requestedAt)],
    ],
    todo: `remboursez la commande depuis sa fiche au plus tard ${WITHDRAWAL_REFUND_DAYS} jours après la demande (article L. 221-24 du Code de la consommation). Vous pouvez attendre d'avoir récupéré les produits, ou la preuve de leur renvoi, si elle arrive avant.`,
    deadline: `À rembourser au plus tard le ${deadline}`,
    link: { label: `Ouvrir la commande n°${order.id}`, url: `${shop.publicUrl}/admin/orders/${order.id}` },
  };
}

async function renewalNotice(source: NoticeSource, shop: EmailShop): Promise<OwnerNotice> {
  const order = await requireOrderOf(source);
  const payload = payloadOf(source, "owner_renewal_problem");
  const customer = oneLine(customerOf(order));
  const amount = formatPrice(payload.amountCents ?? order.totalCents);
  const renewal = `renouvellement n°${payload.renewalNumber ?? 1}`;
  const link = {
    label: "Ouvrir l'abonnement",
    url: payload.subscriptionId
      ? `${shop.publicUrl}/admin/subscriptions/${payload.subscriptionId}`
      : `${shop.publicUrl}/admin/orders/${order.id}`,
  };
  const rows: [string, string][] = [
    ["Client", customer],
    ["Email", oneLine(order.customerEmail)],
    ["Renouvellement", `n°${payload.renewalNumber ?? 1}`],
    ["Montant", amount],
    ["Commande d'origine", `n°${order.id}`],
    ["Facture Stripe", oneLine(payload.invoiceId)],
  ];
  if (payload.problem === "action_required")
    return {
      subject: `Renouvellement à confirmer par le client (3-D Secure) : abonnement de ${customer}`,
      heading: "Renouvellement en attente du client",
      summary: `La banque de ${customer} demande une authentification (3-D Secure) pour le ${renewal} de son abonnement, ${amount}. Rien n'est débité tant que le client ne l'a pas confirmé.`,
      rows,
      todo: "le client a reçu un email avec le lien pour confirmer ce paiement. S'il ne le fait pas dans les jours qui viennent, relancez-le ; l'abonnement est résilié si la facture reste impayée à la fin des relances de Stripe.",
      deadline: null,
      link,
    };
  return {
    subject: `Renouvellement refusé : abonnement de ${customer}`,
    heading: "Renouvellement d'abonnement refusé",
    summary: `La banque a refusé le paiement du ${renewal} de l'abonnement de ${customer}, ${amount}. Le colis de ce renouvellement n'est pas à préparer tant qu'il n'est pas payé.`,
    rows,
    todo: "le client a reçu un email avec le lien pour régler la facture, et Stripe retente le paiement automatiquement. S'il reste impayé, contactez le client ; l'abonnement est résilié à la fin des relances de Stripe.",
    deadline: null,
    link,
  };
}

async function stripeRefundNotice(source: NoticeSource, shop: EmailShop): Promise<OwnerNotice> {
  const order = await requireOrderOf(source);
  const payload = payloadOf(source, "owner_stripe_refund");
  const amount = formatPrice(payload.amountCents ?? 0);
  return {
    subject: `Remboursement fait depuis Stripe : ${amount} sur la commande n°${order.id}`,
    heading: "Remboursement fait depuis Stripe",
    summary: `Un remboursement de ${amount} sur la commande n°${order.id} a été fait depuis le tableau de bord Stripe, et non depuis l'administration de la boutique.`,
    rows: [
      ["Commande", `n°${order.id}`],
      ["Client", oneLine(customerOf(order))],
      ["Montant remboursé", amount],
      ["Reste payé", formatPrice(payload.remainingPaidCents ?? 0)],
    ],
    todo: "la commande, son avoir et l'email au client ont été mis à jour automatiquement. Vérifiez que ce remboursement était voulu ; sinon, voyez qui l'a fait dans le tableau de bord Stripe.",
    deadline: null,
    link: { label: `Ouvrir la commande n°${order.id}`, url: `${shop.publicUrl}/admin/orders/${order.id}` },
  };
}

async function contactNotice(source: NoticeSource, shop: EmailShop): Promise<OwnerNotice> {
  const [contact] =
    source.contactRequestId === null
      ? []
      : await getDb().select().from(contactRequests).where(eq(contactRequests.id, source.contactRequestId)).limit(1);
  if (!contact) throw new Error(`Notification ${source.kind} : la demande de contact n'existe plus.`);
  return {
    subject: shopNewContactSubject(contact),
    heading: "Nouvelle demande de contact",
    summary: `${oneLine(contact.name)} a écrit via le formulaire de contact : « ${oneLine(contact.message, 300)} »`,
    rows: [
      ["De", oneLine(contact.name)],
      ["Email", oneLine(contact.email)],
      ["Reçue le", formatDateTime(contact.createdAt)],
      ["Objet", oneLine(contact.subject)],
    ],
    todo: `répondez à ${oneLine(contact.email)}, puis marquez la demande comme traitée.`,
    deadline: null,
    link: { label: "Voir les demandes de contact", url: `${shop.publicUrl}/admin/contacts` },
  };
}

function failedEmailNotice(source: NoticeSource, shop: EmailShop): OwnerNotice {
  const payload = payloadOf(source, "owner_email_failed");
  const label = EMAIL_KIND_LABELS[payload.kind as EmailKind] ?? "Email";
  const to = payload.toAddress ? oneLine(payload.toAddress) : "(adresse effacée)";
  return {
    subject: `Email non remis : « ${label} » à ${to}`,
    heading: "Un email n'a pas pu être remis",
    summary: `L'email « ${label} » à ${to} a été refusé à chacune de ses ${payload.attempts ?? 6} tentatives : le client ne l'a pas reçu.`,
    rows: [
      ["Email", label],
      ["Destinataire", to],
      ...(source.orderId === null ? [] : [["Commande", `n°${source.orderId}`] as [string, string]]),
      ["Dernière erreur", oneLine(payload.lastError ?? "inconnue", 300)],
    ],
    todo: "vérifiez l'adresse du destinataire (une faute de frappe est la cause la plus fréquente), puis renvoyez l'email depuis la boîte d'envoi, ou joignez le client autrement.",
    deadline: null,
    link: { label: "Ouvrir l'email", url: `${shop.publicUrl}/admin/emails/${payload.emailId ?? ""}` },
  };
}

/** One event's notice. */
export async function ownerNoticeOf(source: NoticeSource, shop: EmailShop): Promise<OwnerNotice> {
  switch (source.kind) {
    case "owner_withdrawal":
      return await withdrawalNotice(source, shop);
    case "owner_renewal_problem":
      return await renewalNotice(source, shop);
    case "owner_stripe_refund":
      return await stripeRefundNotice(source, shop);
    case "shop_new_contact":
      return await contactNotice(source, shop);
    case "owner_email_failed":
      return failedEmailNotice(source, shop);
  }
}

/** An owner's email sent on its own. */
export async function renderOwnerNotice(
  email: EmailToRender & { kind: Exclude<OwnerNoticeKind, "shop_new_contact"> },
  shop: EmailShop,
): Promise<EmailContent> {
  const notice = await ownerNoticeOf(
    { kind: email.kind, orderId: email.orderId, contactRequestId: email.contactRequestId, payload: email.payload },
    shop,
  );
  return ownerNoticeEmail({ shop, notice });
}

/** The daily summary: every notice it tells, each as it would have been sent alone. */
export async function renderOwnerDailySummary(email: EmailToRender, shop: EmailShop): Promise<EmailContent> {
  const rows = await noticesOfSummary(email.id);
  if (rows.length === 0) throw new Error(`Email ${email.id} (${email.kind}) : le résumé ne contient aucun événement.`);
  const notices = await Promise.all(rows.map((row) => ownerNoticeOf({ ...row, kind: row.kind as OwnerNoticeKind }, shop)));
  const { day } = (email.payload ?? {}) as Partial<EmailPayloads["owner_daily_summary"]>;
  return ownerDailySummaryEmail({
    shop,
    dayLabel: formatDayInWords(day ? `${day}T12:00:00Z` : email.createdAt),
    notices,
    settingsUrl: `${shop.publicUrl}/admin/settings#notifications`,
  });
}
