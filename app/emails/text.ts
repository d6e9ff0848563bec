import { formatPrice, shippingLabel } from "~/lib/money";
import { legalFooterLine } from "./seller";
import type { EmailAddress, EmailOrder, EmailShop } from "./types";
import { formatFrenchPhone } from "~/lib/phone";

/**
 * The plain-text parts, written for reading: short paragraphs, labelled lines, links in full.
 * Text typed by people goes through `userText` (or `oneLine` on a single line): control
 * characters removed and line breaks normalised, so nothing they type can break the layout or
 * a header.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u2028\u2029]/g;

/** Text typed by someone, several lines kept. */
export function userText(value: string | null | undefined): string {
  return (value ?? "").replace(/\r\n?/g, "\n").replace(CONTROL, "").trim();
}

/** Text typed by someone, on one line (a subject, a name): every line break becomes a space. */
export function oneLine(value: string | null | undefined, max = 200): string {
  const line = userText(value).replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * « Bonjour Camille, » with the first name given (or the next one), « Bonjour, » when there is
 * none: never « Bonjour , ».
 */
export function greeting(...names: (string | null | undefined)[]): string {
  const name = nameOf(...names);
  return name ? `Bonjour ${name},` : "Bonjour,";
}

/** The first of the names that is not blank, on one line; "" when none is. */
export function nameOf(...names: (string | null | undefined)[]): string {
  return names.map((n) => oneLine(n)).find((n) => n !== "") ?? "";
}

/** « Merci Camille ! », « Merci ! » without a name (the same for « Bonne nouvelle Camille : »). */
export function withName(before: string, name: string | null | undefined, after: string): string {
  const line = oneLine(name);
  return line ? `${before} ${line} ${after}` : `${before} ${after}`;
}

/** A multi-line message quoted in an email, each line prefixed with "> ". */
export function quoted(value: string): string {
  return userText(value)
    .split("\n")
    .map((l) => (l ? `> ${l}` : ">"))
    .join("\n");
}

/** A heading of a text part: the title, underlined with dashes. */
export function heading(title: string): string {
  return `${title}\n${"-".repeat(Math.min(title.length, 60))}`;
}

/** Paragraphs (and headings) separated by blank lines; empty ones dropped. */
export function paragraphs(...parts: (string | null | undefined | false)[]): string {
  return parts.filter((p): p is string => typeof p === "string" && p.trim() !== "").join("\n\n") + "\n";
}

export function addressText(order: EmailAddress): string {
  return [
    oneLine(order.customerName),
    oneLine(order.shippingAddress),
    oneLine(order.shippingAddress2 ?? ""),
    `${oneLine(order.shippingPostalCode)} ${oneLine(order.shippingCity)}`,
    oneLine(order.shippingCountry),
    order.shippingPhone ? `Tél. ${formatFrenchPhone(order.shippingPhone)}` : "",
  ]
    .filter((l) => l.trim() !== "")
    .join("\n");
}

/** The lines of an order and its totals, as labelled lines. */
export function orderLinesText(order: Pick<EmailOrder, "lines" | "subtotalCents" | "shippingCents" | "totalCents">): string {
  const lines = order.lines.map((l) => `${oneLine(l.name)} × ${l.quantity} : ${formatPrice(l.lineTotalCents)}`);
  return [
    ...lines,
    "",
    `Sous-total : ${formatPrice(order.subtotalCents)}`,
    `Livraison : ${shippingLabel(order.shippingCents)}`,
    `Total : ${formatPrice(order.totalCents)}`,
  ].join("\n");
}

/** The closing lines of every email: who writes, where, how to reach us. */
export function footerText(shop: EmailShop): string {
  const address = userText(shop.address)
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .join(", ");
  return ["--", oneLine(shop.name), address, legalFooterLine(shop), `Contact : ${oneLine(shop.email)}`, shop.publicUrl]
    .filter(Boolean)
    .join("\n");
}
