import { createHmac, timingSafeEqual } from "node:crypto";
import { getConfig } from "~/config.server";
import { INVOICE_PAY_LINK_DAYS } from "~/lib/link-lifetimes";

/**
 * The link to pay a subscription's unpaid renewal invoice, sent in the email of a failed
 * renewal when Stripe gives no page of its own (`hosted_invoice_url`), and shown on the
 * subscription's page: `/abonnement/payer?facture=in_…&expire=UNIX&cle=KEY`, where the key is
 * the HMAC-SHA256 of `invoice-pay:<invoice id>:<expire>` with the session secret, base64url.
 * Stored nowhere, verified against every session secret.
 *
 * It pays its own invoice and nothing else, while that invoice is open and unpaid, and for
 * INVOICE_PAY_LINK_DAYS at most. It never leads to the subscription's page: only a fresh
 * management link sent by email does. The links sent before the expiry was signed
 * (`/abonnement/payer?facture=…&cle=…`, key of `invoice-pay:<invoice id>`) still open the
 * page, under the same rule: only while their invoice is unpaid.
 */

export const INVOICE_PAY_KEY_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export { INVOICE_PAY_LINK_DAYS };

const DAY_MS = 86_400_000;

function sign(text: string, secret: string): Buffer {
  return createHmac("sha256", secret).update(text, "utf8").digest();
}

function signedText(invoiceId: string, expiresAt: number | null): string {
  return expiresAt === null ? `invoice-pay:${invoiceId}` : `invoice-pay:${invoiceId}:${expiresAt}`;
}

function keyMatches(text: string, key: string): boolean {
  if (!INVOICE_PAY_KEY_PATTERN.test(key)) return false;
  // Compared as text: two spellings of the same bytes (the last character's unused bits) are not both accepted.
  const given = Buffer.from(key, "ascii");
  return getConfig().sessionSecrets.some((secret) => {
    const expected = Buffer.from(sign(text, secret).toString("base64url"), "ascii");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The pay link's query (`facture=…&expire=…&cle=…`), valid INVOICE_PAY_LINK_DAYS from `now`. */
export function invoicePayQuery(invoiceId: string, now: Date = new Date()): string {
  const expiresAt = Math.floor((now.getTime() + INVOICE_PAY_LINK_DAYS * DAY_MS) / 1000);
  const [secret] = getConfig().sessionSecrets;
  const key = sign(signedText(invoiceId, expiresAt), secret).toString("base64url");
  return `facture=${encodeURIComponent(invoiceId)}&expire=${expiresAt}&cle=${key}`;
}

/** The shop's page to pay the invoice (a path of this site). */
export function invoicePayPath(invoiceId: string, now: Date = new Date()): string {
  return `/abonnement/payer?${invoicePayQuery(invoiceId, now)}`;
}

/** The shop's page to pay the invoice, as the failed-renewal email carries it. */
export function invoicePayUrl(invoiceId: string, now: Date = new Date()): string {
  return `${getConfig().publicUrl}${invoicePayPath(invoiceId, now)}`;
}

export type InvoicePayLinkCheck =
  | { ok: true; invoiceId: string; legacy: boolean }
  | { ok: false; reason: "invalid" }
  | { ok: false; reason: "expired"; invoiceId: string };

/**
 * Reads and checks a pay link's query (`facture`, `expire`, `cle`): `invalid` when anything is
 * malformed or not signed by us; `expired` when it was ours but is out of date (the invoice is
 * then known, to send a fresh management link to its subscription's address). A link without
 * `expire` is a legacy one: accepted, flagged `legacy`.
 */
export function checkInvoicePayLink(params: URLSearchParams, now: Date = new Date()): InvoicePayLinkCheck {
  const invoiceId = params.get("facture") ?? "";
  const expireText = params.get("expire");
  const key = params.get("cle") ?? "";
  if (!/^in_[A-Za-z0-9_]{1,120}$/.test(invoiceId)) return { ok: false, reason: "invalid" };
  if (expireText === null) {
    return keyMatches(signedText(invoiceId, null), key)
      ? { ok: true, invoiceId, legacy: true }
      : { ok: false, reason: "invalid" };
  }
  if (!/^[1-9]\d{0,11}$/.test(expireText)) return { ok: false, reason: "invalid" };
  const expiresAt = Number(expireText);
  if (!keyMatches(signedText(invoiceId, expiresAt), key)) return { ok: false, reason: "invalid" };
  if (expiresAt * 1000 <= now.getTime()) return { ok: false, reason: "expired", invoiceId };
  return { ok: true, invoiceId, legacy: false };
}
