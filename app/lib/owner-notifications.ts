/**
 * The emails the shop's owner receives at the settings' address when something needs them, each
 * of which can be switched off in the settings (« Notifications »), and the daily summary that
 * groups them. Shared by the settings page, its API and the services.
 */

export const OWNER_NOTIFICATION_SETTINGS = [
  "notifyWithdrawal",
  "notifyRenewalProblem",
  "notifyStripeRefund",
  "notifyContact",
  "notifyEmailFailed",
] as const;
export type OwnerNotificationSetting = (typeof OWNER_NOTIFICATION_SETTINGS)[number];

export type NotificationSettings = Record<OwnerNotificationSetting, boolean> & { notifyDailySummary: boolean };

export const OWNER_NOTIFICATION_LABELS: Record<OwnerNotificationSetting, { label: string; hint: string }> = {
  notifyWithdrawal: {
    label: "Demande de rétractation",
    hint: "Avec la date limite du remboursement (14 jours après la demande).",
  },
  notifyRenewalProblem: {
    label: "Renouvellement d'abonnement refusé ou à confirmer",
    hint: "Paiement refusé par la banque, ou en attente de l'authentification du client (3-D Secure).",
  },
  notifyStripeRefund: {
    label: "Remboursement fait depuis Stripe",
    hint: "Un remboursement fait dans le tableau de bord Stripe, et non depuis l'administration.",
  },
  notifyContact: { label: "Nouvelle demande de contact", hint: "Le message reçu par le formulaire de contact." },
  notifyEmailFailed: {
    label: "Email non remis",
    hint: "Un email à un client que le serveur d'envoi a refusé à chacune des 6 tentatives.",
  },
};

/** The hour (Paris time) from which the daily summary of the day before's notifications is sent. */
export const DAILY_SUMMARY_HOUR = 8;

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  notifyWithdrawal: true,
  notifyRenewalProblem: true,
  notifyStripeRefund: true,
  notifyContact: true,
  notifyEmailFailed: true,
  notifyDailySummary: false,
};
