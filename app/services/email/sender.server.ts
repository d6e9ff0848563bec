import cluster from "node:cluster";
import { getConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import type { Email } from "~/db/schema";
import { getSettings } from "~/services/settings.server";
import { acquireLease, PROCESS_HOLDER, releaseLease } from "~/services/leases.server";
import { attachmentsOf } from "./attachments.server";
import type { EmailToRender, RenderedEmail } from "./email-types";
import {
  claimNextDueEmail,
  markEmailAttemptFailed,
  markEmailSent,
  nextDueAt,
  recoverInterruptedEmails,
  setQueuedListener,
} from "./outbox.server";
import { notifyOwnerOfFailedEmail } from "./owner-notifications.server";
import { dropEmail, reasonNotToSend } from "./send-checks.server";
import { configuredTransport, type EmailTransport } from "./transport.server";
import { log } from "~/log.server";

/**
 * The sender: runs in the server process (started and stopped with it, see lifecycle.server.ts)
 * and sends what the outbox holds.
 *
 * - One process at a time sends: it holds the `email-sender` lease (leases.server.ts), renewed
 *   at every round; another process takes over once it has expired.
 * - Each email is marked `sending` before its attempt and `sent` after. Taking the lease over,
 *   a process puts back to pending the emails left `sending` by the previous holder: one of them
 *   may have reached the SMTP server just before that process died, and is then sent once more.
 * - A failed attempt is retried after a growing delay (30 s, 2 min, 8 min, 32 min, 2 h 8 min);
 *   after MAX_ATTEMPTS the email is `failed`, shown in /admin/emails, where it can be resent.
 * - Rendering happens at the first attempt and is kept with that attempt's outcome (sent, or
 *   failed and to be retried), in the same write: a retry or a resend sends exactly the same
 *   email (its attachments rebuilt from their references, attachments.server.ts). An attempt
 *   cut by the process's death keeps nothing: the next one renders the email again.
 * - Before each attempt, an email whose cause no longer holds (a cart reminder of an order paid
 *   meantime, send-checks.server.ts) is not sent: it ends `canceled`, with its reason.
 */

export const MAX_ATTEMPTS = 6;
const LEASE = "email-sender";

export type SenderOptions = {
  render: (email: EmailToRender) => Promise<RenderedEmail> | RenderedEmail;
  transport?: EmailTransport;
  /** How often it looks for due emails when nothing wakes it (ms). */
  pollMs?: number;
  /** The delay before attempt n + 1 after n failed attempts (ms). */
  retryDelayMs?: (failedAttempts: number) => number;
  maxAttempts?: number;
  leaseMs?: number;
  /** Who holds the lease: this process by default (tests give two senders two holders). */
  holder?: string;
};

export const defaultRetryDelayMs = (failedAttempts: number) => 30_000 * 4 ** (failedAttempts - 1);

export type EmailSender = {
  /** Sends everything due now; resolves when the round is over. */
  runOnce(): Promise<void>;
  /** Asks for a round as soon as possible (an email was queued or resent). */
  wake(): void;
  /** Stops taking emails, waits for the attempt under way, releases the lease. */
  stop(): Promise<void>;
};

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, 1000);
}

/** From: MAIL_FROM, or the shop's name and site email (settings); Reply-To: the site email. */
async function senderAddresses() {
  const settings = await getSettings();
  const from = getConfig().mailFrom ?? `"${settings.siteName.replace(/["\\]/g, "")}" <${settings.siteEmail}>`;
  return { from, replyTo: settings.siteEmail };
}

export function createEmailSender(options: SenderOptions): EmailSender {
  const transport = options.transport ?? configuredTransport();
  const pollMs = options.pollMs ?? 5_000;
  const retryDelayMs = options.retryDelayMs ?? defaultRetryDelayMs;
  const maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
  const leaseMs = options.leaseMs ?? 60_000;
  const holder = options.holder ?? PROCESS_HOLDER;

  let stopped = false;
  let holding = false;
  /** When this process last took or renewed the lease (while `holding`). */
  let renewedAt = 0;
  /**
   * The lease, taken or renewed; renewed at most every half of its duration (a renewal is a
   * write, and the sender wakes at every email queued): held, it cannot expire meanwhile.
   */
  async function holdLease() {
    const now = Date.now();
    if (holding && now - renewedAt < leaseMs / 2) return true;
    if (!(await acquireLease(LEASE, leaseMs, holder, now))) return false;
    renewedAt = now;
    return true;
  }
  let round: Promise<void> | null = null;
  let again = false;
  let timer: NodeJS.Timeout | undefined;

  async function attempt(email: Email) {
    /** What this attempt rendered (the first attempt), kept with its outcome. */
    let rendered: RenderedEmail | undefined;
    try {
      const dropped = await reasonNotToSend(email);
      if (dropped) {
        await dropEmail(email, dropped);
        log.info({ emailId: email.id, kind: email.kind }, `Email ${email.id} (${email.kind}) not sent: ${dropped}`);
        return;
      }
      const kept: RenderedEmail | undefined =
        email.subject !== null && email.html !== null && email.text !== null
          ? {
              subject: email.subject,
              html: email.html,
              text: email.text,
              attachments: await attachmentsOf(email),
              headers: email.headers ?? undefined,
            }
          : undefined;
      if (!kept) rendered = await options.render(email);
      const content = kept ?? rendered!;
      const outcome = await transport.deliver({ ...(await senderAddresses()), to: email.toAddress, ...content });
      await markEmailSent(email.id, outcome, new Date(), rendered);
    } catch (error) {
      const failedAttempts = email.attempts;
      const retryAt = failedAttempts >= maxAttempts ? null : new Date(Date.now() + retryDelayMs(failedAttempts));
      if (retryAt) await markEmailAttemptFailed(email.id, errorText(error), retryAt, getDb(), rendered);
      // Failed for good: the owner is told in the same transaction (owner-notifications.server.ts).
      else
        await getDb().transaction(async (tx) => {
          if (await markEmailAttemptFailed(email.id, errorText(error), null, tx, rendered))
            await notifyOwnerOfFailedEmail(tx, email, errorText(error));
        });
      if (!retryAt)
        log.warn(
          { emailId: email.id, kind: email.kind },
          `Email ${email.id} (${email.kind}) failed after ${failedAttempts} attempts: ${errorText(error)}`,
        );
    }
  }

  async function sendDue() {
    if (!(await holdLease())) {
      holding = false;
      return;
    }
    if (!holding) {
      holding = true;
      await recoverInterruptedEmails();
    }
    for (;;) {
      if (stopped) return;
      const email = await claimNextDueEmail();
      if (!email) return;
      await attempt(email);
      // Renew the lease between emails: a long queue must not let it expire.
      if (!(await holdLease())) {
        holding = false;
        return;
      }
    }
  }

  async function schedule() {
    if (stopped) return;
    const due = holding ? await nextDueAt() : null;
    if (stopped) return;
    clearTimeout(timer);
    const wait = due ? Math.min(Math.max(due.getTime() - Date.now(), 0), pollMs) : pollMs;
    timer = setTimeout(() => void runOnce(), wait);
    timer.unref();
  }

  function runOnce(): Promise<void> {
    if (stopped) return Promise.resolve();
    if (round) {
      again = true;
      return round;
    }
    round = (async () => {
      do {
        again = false;
        try {
          await sendDue();
        } catch (error) {
          // The database itself failed (locked, closed): the next round tries again.
          log.error({ err: error }, "Email sender round failed");
        }
      } while (again && !stopped);
    })().finally(async () => {
      round = null;
      await schedule();
    });
    return round;
  }

  return {
    runOnce,
    wake() {
      if (!stopped) setImmediate(() => void runOnce());
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await round;
      if (holding) await releaseLease(LEASE, holder);
      holding = false;
      transport.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The process's sender

let running: EmailSender | undefined;

/**
 * Between the workers of a multi-process start (server/index.js): an email queued in one worker
 * wakes the senders of the others through the primary, so the lease holder sends it at once
 * instead of at its next poll.
 */
export const EMAIL_QUEUED_MESSAGE = { shop: "email-queued" } as const;

function isEmailQueuedMessage(message: unknown) {
  return typeof message === "object" && message !== null && (message as { shop?: unknown }).shop === EMAIL_QUEUED_MESSAGE.shop;
}

function onPeerMessage(message: unknown) {
  if (isEmailQueuedMessage(message)) running?.wake();
}

/** Starts the sender of this process (server start): it sends what is due at once, then keeps watching. */
export function startEmailSender(options: SenderOptions): EmailSender {
  if (running) return running;
  const sender = createEmailSender(options);
  running = sender;
  setQueuedListener(() => {
    sender.wake();
    if (cluster.isWorker && process.connected) process.send?.(EMAIL_QUEUED_MESSAGE);
  });
  if (cluster.isWorker) process.on("message", onPeerMessage);
  sender.wake();
  return sender;
}

/** Stops it (server shutdown), after the attempt under way. */
export async function stopEmailSender() {
  const sender = running;
  running = undefined;
  setQueuedListener(undefined);
  process.off("message", onPeerMessage);
  await sender?.stop();
}

/** Asks the process's sender for a round now (after a resend from the back office). */
export function wakeEmailSender() {
  running?.wake();
}
