import { createHmac, timingSafeEqual } from "node:crypto";
import { getConfig } from "~/config.server";

/**
 * The link to pay a subscription's unpaid renewal invoice, sent in the email of a failed
 * renewal when Stripe gives no page of its own (`hosted_invoice_url`):
 * `/abonnement/payer?facture=in_…&cle=KEY`, where the key is the HMAC-SHA256 of
 * `invoice-pay:<invoice id>` with the session secret, base64url. Like the order links
 * (orders/link.server.ts): deterministic, stored nowhere, verified against every session secret.
 * It only lets its holder pay that invoice.
 */

export const INVOICE_PAY_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

function sign(invoiceId: string, secret: string): Buffer {
  return createHmac("sha256", secret).update(`invoice-pay:${invoiceId}`, "utf8").digest();
}

/** The key of the invoice's pay link, with the current session secret. */
export function invoicePayKey(invoiceId: string): string {
  const [secret] = getConfig().sessionSecrets;
  return sign(invoiceId, secret).toString("base64url");
}

/** Whether the key is the invoice's, with any of the session secrets (constant-time comparison). */
export function invoicePayKeyMatches(invoiceId: string, key: string | null | undefined): boolean {
  if (!invoiceId || !key || !INVOICE_PAY_KEY_PATTERN.test(key)) return false;
  const given = Buffer.from(key, "ascii");
  return getConfig().sessionSecrets.some((secret) => {
    const expected = Buffer.from(sign(invoiceId, secret).toString("base64url"), "ascii");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The shop's page to pay the invoice, with its key. */
export function invoicePayUrl(invoiceId: string): string {
  return `${getConfig().publicUrl}/abonnement/payer?facture=${encodeURIComponent(invoiceId)}&cle=${invoicePayKey(invoiceId)}`;
}
