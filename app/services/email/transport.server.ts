import nodemailer from "nodemailer";
import { getConfig } from "~/config.server";
import type { EmailAttachment } from "~/db/schema";

/**
 * How an email leaves the shop.
 * - SMTP_URL set (always in live mode): nodemailer over SMTP (smtp://, or smtps:// for TLS
 *   from the first byte); the From is MAIL_FROM, or the shop's name and site email.
 * - Demo mode without SMTP_URL: the demo mailbox. Nothing leaves the machine; the email, kept
 *   in the outbox with what was rendered, is what /admin/emails shows.
 */

export type OutgoingEmail = {
  from: string;
  replyTo: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments: EmailAttachment[];
  /** Extra headers, sent as they are (List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string>;
};

export type DeliveryOutcome = { transport: "smtp" | "demo"; messageId: string | null };

export type EmailTransport = {
  deliver(email: OutgoingEmail): Promise<DeliveryOutcome>;
  close(): void;
};

/** Waits before giving an attempt up (an SMTP server that accepts the connection and then says nothing). */
const TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 };

export function smtpTransport(url: string): EmailTransport {
  const transporter = nodemailer.createTransport({ url, ...TIMEOUTS });
  return {
    async deliver(email) {
      const info = await transporter.sendMail({
        from: email.from,
        replyTo: email.replyTo,
        to: email.to,
        subject: email.subject,
        html: email.html,
        text: email.text,
        headers: email.headers ?? {},
        attachments: email.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.contentType,
          content: a.content,
          encoding: a.encoding,
        })),
      });
      return { transport: "smtp", messageId: info.messageId ?? null };
    },
    close() {
      transporter.close();
    },
  };
}

export const demoMailbox: EmailTransport = {
  async deliver() {
    return { transport: "demo", messageId: null };
  },
  close() {},
};

/** The transport the configuration asks for. */
export function configuredTransport(): EmailTransport {
  const { smtpUrl } = getConfig();
  return smtpUrl ? smtpTransport(smtpUrl) : demoMailbox;
}
