import type { RenewalCharge } from "~/lib/renewal-amount";
import type { Carrier } from "~/lib/carriers";
import type { Email, EmailAttachment, EmailAttachmentRef } from "~/db/schema";
import type { EmailKind } from "~/lib/email-kinds";
import type { EmailAddress } from "~/emails/types";

/** What the renderer is given: the outbox row as queued (its order or contact request is read from the database). */
export type EmailToRender = Pick<Email, "id" | "kind" | "orderId" | "contactRequestId" | "toAddress" | "payload" | "createdAt">;

/**
 * What leaves the shop: both parts always, attachments when the email has some. `attachmentRefs`
 * names the attachments the shop can rebuild (email/attachments.server.ts): the outbox keeps
 * those references, never the files.
 */
export type RenderedEmail = {
  subject: string;
  html: string;
  text: string;
  attachments: EmailAttachment[];
  attachmentRefs?: EmailAttachmentRef[];
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post), kept with the rest and sent by SMTP. */
  headers?: Record<string, string>;
};

/**
 * The payload each kind carries from its event (the rest is read from the database when the
 * email is rendered, at its first attempt).
 */
export type EmailPayloads = {
  order_confirmation: Record<string, never>;
  /** The tracking number when the order was set to shipped, if there was one. */
  /** The tracking number and its carrier (lib/carriers.ts) when it was shipped; a payload queued before carriers were kept has none. */
  order_shipped: { trackingNumber: string | null; trackingCarrier?: Carrier | null };
  /** A tracking number given after the shipping email (lib/carriers.ts for its carrier). */
  order_tracking_number: { trackingNumber: string; trackingCarrier: Carrier | null };
  /**
   * A refund that succeeded (the refunds row), its amount, what remains paid after it, and its
   * credit note's number when one was issued.
   */
  order_refunded: {
    refundId: number;
    amountCents: number;
    remainingPaidCents: number;
    creditNoteNumber: string | null;
    /** Why the shop refunded on its own (the trial pack bought twice), when it did. */
    note?: string | null;
  };
  /** When the subscription ends (ISO), and who cancelled it. */
  subscription_canceled: { endsAt: string; canceledBy: "customer" | "shop" | "payment_failure" };
  /** A paid renewal's order (the email's order): which renewal it is, and when the next one is due (ISO). */
  renewal_receipt: { renewalNumber: number; nextRenewalAt: string | null };
  /**
   * A renewal whose payment failed (the email's order is the subscription's first): the invoice, its
   * amount, where to pay it, and the renewal's date (ISO, the start of the period it pays).
   */
  renewal_payment_failed: { invoiceId: string; amountCents: number; payUrl: string; renewalNumber: number; dueAt?: string };
  /** A renewal the bank asks the customer to confirm (3-D Secure; the email's order is the subscription's first): as a failed one. */
  renewal_action_required: { invoiceId: string; amountCents: number; payUrl: string; renewalNumber: number; dueAt?: string };
  contact_ack: Record<string, never>;
  shop_new_order: Record<string, never>;
  shop_new_contact: Record<string, never>;
  /** A renewal coming (the email's order is the subscription's first): which subscription, when (ISO) and how much, as reminded. */
  /** `amountCents`: what the renewal charges; `charge`, with the promotion code still discounting it (lib/renewal-amount.ts). */
  renewal_reminder: { subscriptionId: number; renewsAt: string; amountCents: number; charge?: RenewalCharge };
  /** An online withdrawal (the email's order): when it was confirmed (ISO) and the reason given, if any. */
  withdrawal_ack: { requestedAt: string; reason: string | null };
  /** Failed sign-ins for an administrator's username: which one, how many in how long, the last one's address and time (ISO). */
  admin_login_attack: { username: string; failures: number; windowMinutes: number; lastAddress: string; lastAt: string };
  /** A fresh management link asked for (the email's order is the subscription's first): which subscription; the link is made when the email is rendered. */
  subscription_link: { subscriptionId: number };
  /** The delivery address of a subscription changed on its page: when (ISO), from what, to what. */
  subscription_address_changed: {
    subscriptionId: number;
    changedAt: string;
    previous: SubscriptionAddressSnapshot;
    next: SubscriptionAddressSnapshot;
  };
  /** To the shop: a withdrawal was recorded (the email's order), when (ISO) and why. */
  owner_withdrawal: { requestedAt: string; reason: string | null };
  /** To the shop: a renewal refused, or waiting for the customer's authentication (the email's order is the subscription's first). */
  owner_renewal_problem: {
    subscriptionId: number;
    invoiceId: string;
    amountCents: number;
    renewalNumber: number;
    problem: "failed" | "action_required";
  };
  /** To the shop: a refund made at Stripe (its dashboard), not from the back office (the email's order). */
  owner_stripe_refund: { refundId: number; amountCents: number; remainingPaidCents: number };
  /** To the shop: an email that every attempt failed to deliver. */
  owner_email_failed: { emailId: number; kind: EmailKind; toAddress: string; attempts: number; lastError: string | null };
  /** To the shop: the day's notices (owner_notices rows whose summaryEmailId is this email), and the day (`2026-11-27`, Paris). */
  owner_daily_summary: { count: number; day: string };
  /** A change made to the subscription (skip, pause, pack...): its title and the sentence that says what it does. */
  subscription_changed: { subscriptionId: number; action: string; title: string; summary: string };
  /** The one reminder of an unpaid checkout whose buyer asked for it (the email's order): when it was queued (ISO), which starts the link's 7 days. */
  cart_reminder: { remindedAt: string };
};

/** A subscription's delivery address as the address-change email shows it. */
export type SubscriptionAddressSnapshot = EmailAddress;
