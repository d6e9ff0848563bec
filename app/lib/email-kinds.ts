/**
 * The emails the shop sends, one kind per event. Shared by the outbox (services/email), the
 * admin mailbox and the API.
 */
export const EMAIL_KINDS = [
  "order_confirmation",
  "order_shipped",
  "order_tracking_number",
  "order_refunded",
  "subscription_canceled",
  "renewal_receipt",
  "renewal_payment_failed",
  "renewal_action_required",
  "contact_ack",
  "shop_new_order",
  "shop_new_contact",
  "renewal_reminder",
  "withdrawal_ack",
  "admin_login_attack",
  "subscription_link",
  "subscription_address_changed",
  "owner_withdrawal",
  "owner_renewal_problem",
  "owner_stripe_refund",
  "owner_email_failed",
  "owner_daily_summary",
  "subscription_changed",
  "cart_reminder",
] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

export const EMAIL_KIND_LABELS: Record<EmailKind, string> = {
  order_confirmation: "Confirmation de commande",
  order_shipped: "Commande expédiée",
  order_tracking_number: "Numéro de suivi",
  order_refunded: "Remboursement",
  subscription_canceled: "Abonnement résilié",
  renewal_receipt: "Renouvellement d'abonnement payé",
  renewal_payment_failed: "Renouvellement d'abonnement impayé",
  renewal_action_required: "Renouvellement d'abonnement à confirmer (3-D Secure)",
  contact_ack: "Accusé de réception",
  shop_new_order: "Boutique : nouvelle commande payée",
  shop_new_contact: "Boutique : nouvelle demande de contact",
  renewal_reminder: "Rappel avant renouvellement",
  withdrawal_ack: "Accusé de réception de rétractation",
  admin_login_attack: "Boutique : tentatives de connexion administrateur",
  subscription_link: "Lien de gestion de l'abonnement",
  subscription_address_changed: "Adresse de livraison de l'abonnement modifiée",
  owner_withdrawal: "Boutique : demande de rétractation",
  owner_renewal_problem: "Boutique : renouvellement impayé ou à confirmer",
  owner_stripe_refund: "Boutique : remboursement fait depuis Stripe",
  owner_email_failed: "Boutique : email non remis",
  owner_daily_summary: "Boutique : résumé quotidien",
  subscription_changed: "Abonnement modifié",
  cart_reminder: "Rappel de commande non finalisée",
};

/**
 * pending: waiting for its (next) attempt; sending: an attempt is under way; sent: accepted
 * by the SMTP server (or put in the demo mailbox); failed: every attempt failed; canceled: no
 * longer to be sent when its turn came (a reminder of an order paid meantime), the reason in
 * `last_error` (email/send-checks.server.ts).
 */
export const EMAIL_STATUSES = ["pending", "sending", "sent", "failed", "canceled"] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];

export const EMAIL_STATUS_LABELS: Record<EmailStatus, string> = {
  pending: "En attente",
  sending: "En cours d'envoi",
  sent: "Envoyé",
  failed: "Échec",
  canceled: "Non envoyé",
};
