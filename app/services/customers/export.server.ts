import { getDb } from "~/db/client.server";
import { EMAIL_KIND_LABELS, EMAIL_STATUS_LABELS } from "~/lib/email-kinds";
import { centsToDecimal } from "~/lib/money";
import { FULFILMENT_LABELS, PAYMENT_LABELS } from "~/lib/order-status";
import { CONTACT_STATUS_LABELS } from "~/lib/statuses";
import { SUBSCRIPTION_STATUS_LABELS } from "~/lib/subscription-status";
import { recordAudit, type AuditActor } from "./audit.server";
import { customerOr404, readCustomerData, type CustomerData } from "./records.server";

/** The export of a customer's data as one JSON file (GDPR article 15, right of access; article 20, portability). */

const money = (cents: number | null | undefined) => centsToDecimal(cents ?? 0);

/** The export file, in French: what a customer receives when they ask for their data. No password, no token, no payment identifier. */
function toExport(data: CustomerData, at: Date) {
  const c = data.customer;
  return {
    format: "export-donnees-client-v1",
    exporteLe: at.toISOString(),
    note: "Montants en euros (chaînes décimales), dates en UTC (ISO 8601).",
    client: {
      id: c.id,
      nomUtilisateur: c.username,
      email: c.email,
      prenom: c.firstName,
      nom: c.lastName,
      adresse: c.address,
      codePostal: c.postalCode,
      ville: c.city,
      pays: c.country,
      telephone: c.phone,
      administrateur: c.isAdmin,
      donneesEffacees: c.erased,
      creeLe: c.createdAt,
      modifieLe: c.updatedAt,
    },
    commandes: data.orders.map((o) => ({
      numero: o.id,
      passeeLe: o.createdAt,
      payeeLe: o.paidAt,
      statut: FULFILMENT_LABELS[o.status],
      paiement: PAYMENT_LABELS[o.paymentStatus],
      sousTotal: money(o.subtotalCents),
      fraisDeLivraison: money(o.shippingCents),
      total: money(o.totalCents),
      abonnement: o.subscriptionId,
      renouvellement: o.renewalNumber,
      email: o.customerEmail,
      nom: o.customerName,
      prenomDestinataire: o.customerFirstName,
      nomDestinataire: o.customerLastName,
      livraison: {
        adresse: o.shipping.address,
        complementAdresse: o.shipping.address2,
        codePostal: o.shipping.postalCode,
        ville: o.shipping.city,
        pays: o.shipping.country,
        telephone: o.shipping.phone,
      },
      numeroDeSuivi: o.trackingNumber,
      versionDesCgv: o.termsVersion,
      articles: o.items.map((i) => ({
        produit: i.productName,
        pack: i.variantName,
        quantite: i.quantity,
        prixUnitaire: money(i.unitPriceCents),
      })),
      facture: o.invoice
        ? { numero: o.invoice.number, emiseLe: o.invoice.issuedAt, montantTtc: money(o.invoice.totalCents) }
        : null,
      avoir: o.creditNote
        ? { numero: o.creditNote.number, emisLe: o.creditNote.issuedAt, montantTtc: money(o.creditNote.totalCents) }
        : null,
    })),
    abonnements: data.subscriptions.map((s) => ({
      numero: s.id,
      statut: SUBSCRIPTION_STATUS_LABELS[s.status],
      resiliationPrevue: s.cancelAtPeriodEnd,
      produit: s.productName,
      pack: s.variantName,
      quantite: s.quantity,
      montantToutesLes4Semaines: money(s.amountCents),
      souscritLe: s.startedAt,
      prochainRenouvellement: s.status === "canceled" ? null : s.currentPeriodEnd,
      resilieLe: s.canceledAt,
      renouvellementsPayes: s.renewalCount,
      premiereCommande: s.firstOrderId,
      email: s.customerEmail,
      nom: s.customerName,
      livraison: {
        destinataire: s.shipping.name,
        adresse: s.shipping.address,
        complementAdresse: s.shipping.address2,
        codePostal: s.shipping.postalCode,
        ville: s.shipping.city,
        pays: s.shipping.country,
        telephone: s.shipping.phone,
      },
    })),
    emails: data.emails.map((e) => ({
      id: e.id,
      type: EMAIL_KIND_LABELS[e.kind],
      destinataire: e.toAddress,
      objet: e.subject,
      statut: EMAIL_STATUS_LABELS[e.status],
      commande: e.orderId,
      demandeDeContact: e.contactRequestId,
      creeLe: e.createdAt,
      envoyeLe: e.sentAt,
      texte: e.text,
    })),
    demandesDeContact: data.contactRequests.map((r) => ({
      id: r.id,
      nom: r.name,
      email: r.email,
      objet: r.subject,
      message: r.message,
      statut: CONTACT_STATUS_LABELS[r.status],
      recueLe: r.createdAt,
    })),
  };
}

export type CustomerExport = ReturnType<typeof toExport>;

/** The export file's name, e.g. donnees-client-42-2026-11-25.json. */
export function exportFilename(id: number, at: Date): string {
  return `donnees-client-${id}-${at.toISOString().slice(0, 10)}.json`;
}

/** The customer's data as one JSON document, the export recorded in the audit log. 404 for an unknown customer. */
export async function exportCustomerData(
  id: number,
  actor: AuditActor,
  at = new Date(),
): Promise<{ filename: string; data: CustomerExport }> {
  return await getDb().transaction(async (tx) => {
    const account = await customerOr404(tx, id);
    const data = await readCustomerData(tx, account);
    await recordAudit(tx, actor, "customer.export", id);
    return { filename: exportFilename(id, at), data: toExport(data, at) };
  });
}
