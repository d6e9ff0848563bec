import { and, eq, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { invoiceCounters, invoices, orderItems, orders, type Invoice, type InvoiceDocument, type InvoiceKind } from "~/db/schema";
import { displayName } from "~/lib/names";
import { vatLine, vatTotals, type VatLine } from "~/lib/vat";
import { getSettings, sirenOf } from "./settings.server";

/**
 * Invoices and credit notes (Code de commerce L441-9, CGI art. 242 nonies A).
 *
 * - An invoice is issued when an order becomes paid, never before, by the single writer of the
 *   payment state (payments/payment-state.server.ts), in the same transaction: a payment that
 *   does not commit issues no invoice, and a payment seen twice (the confirmation and the
 *   webhook, or a replayed webhook) issues one, since only the first one flips the order.
 * - A credit note (avoir) is issued when a paid order is refunded, in the same way, and
 *   refers to the invoice it cancels.
 * - Numbers: one sequence per kind and per calendar year (Europe/Paris), with no gap and never
 *   reused: F2026-000001, F2026-000002... and A2026-000001... The counter row of the sequence is
 *   incremented in the issuing transaction (SQLite lets one writer at a time in, so two payments
 *   at once get two consecutive numbers), and unique indexes refuse any duplicate.
 * - What the document says (seller, buyer, lines, VAT) is frozen at issue: later changes to the
 *   settings or to the order never alter an invoice. VAT rounding: lib/vat.ts.
 */

const PREFIX: Record<InvoiceKind, string> = { invoice: "F", credit_note: "A" };

const yearFormat = new Intl.DateTimeFormat("en-GB", { timeZone: "Europe/Paris", year: "numeric" });

/** The sequence's year of a date: the calendar year in Paris (a payment at 00:30 on 1 January, Paris time, is in the new year). */
export function invoiceYear(date: Date): number {
  return Number(yearFormat.format(date));
}

/** F2026-000001 */
export function formatInvoiceNumber(kind: InvoiceKind, year: number, sequence: number): string {
  return `${PREFIX[kind]}${year}-${String(sequence).padStart(6, "0")}`;
}

/** The next number of the sequence, taken inside the caller's transaction. */
function nextSequence(tx: DbOrTx, kind: InvoiceKind, year: number): number {
  const row = tx
    .insert(invoiceCounters)
    .values({ kind, year, last: 1 })
    .onConflictDoUpdate({ target: [invoiceCounters.kind, invoiceCounters.year], set: { last: sql`${invoiceCounters.last} + 1` } })
    .returning({ last: invoiceCounters.last })
    .get();
  return row.last;
}

export function findInvoice(orderId: number, kind: InvoiceKind, db: DbOrTx = getDb()): Invoice | undefined {
  return db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, kind)))
    .get();
}

/** The invoice's lines: each item, then the shipping when it is charged. */
function documentLines(tx: DbOrTx, orderId: number, shippingCents: number): VatLine[] {
  const items = tx.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(orderItems.id).all();
  const lines = items.map((item) =>
    vatLine({ label: item.productName?.trim() || "Article", detail: item.variantName, quantity: item.quantity, unitIncludingCents: item.unitPriceCents }),
  );
  if (shippingCents > 0) lines.push(vatLine({ label: "Livraison", quantity: 1, unitIncludingCents: shippingCents }));
  return lines;
}

function buildDocument(tx: DbOrTx, orderId: number, issuedAt: string): InvoiceDocument | null {
  const order = tx.select().from(orders).where(eq(orders.id, orderId)).get();
  if (!order) return null;
  const settings = getSettings(tx);
  const lines = documentLines(tx, orderId, order.shippingCents);
  return {
    seller: {
      legalName: settings.legalName || settings.siteName,
      address: settings.siteAddress,
      siren: sirenOf(settings.siret),
      siret: settings.siret,
      vatNumber: settings.vatNumber,
      email: settings.siteEmail,
      phone: settings.sitePhone,
    },
    buyer: {
      name: displayName({ firstName: order.customerFirstName, lastName: order.customerLastName }) || order.customerName?.trim() || order.customerEmail || "Client",
      email: order.customerEmail,
      // The shop asks for one address, used for the delivery and the billing.
      address: order.shippingAddress,
      address2: order.shippingAddress2,
      postalCode: order.shippingPostalCode,
      city: order.shippingCity,
      country: order.shippingCountry,
    },
    orderId: order.id,
    orderedAt: order.createdAt,
    paidAt: order.paidAt ?? issuedAt,
    lines,
    totals: vatTotals(lines),
  };
}

function insertDocument(tx: DbOrTx, kind: InvoiceKind, orderId: number, document: InvoiceDocument, issuedAt: Date, creditedInvoiceId: number | null): Invoice {
  const year = invoiceYear(issuedAt);
  const sequence = nextSequence(tx, kind, year);
  return tx
    .insert(invoices)
    .values({
      kind,
      number: formatInvoiceNumber(kind, year, sequence),
      year,
      sequence,
      orderId,
      creditedInvoiceId,
      issuedAt: issuedAt.toISOString(),
      totalExcludingCents: document.totals.excludingCents,
      totalVatCents: document.totals.vatCents,
      totalIncludingCents: document.totals.includingCents,
      document,
    })
    .returning()
    .get();
}

/**
 * Issues the paid order's invoice, in the caller's transaction (the one that marks it paid).
 * An order has one invoice: when it already has it, that one is returned and no number is used.
 */
export function issueInvoiceIn(tx: DbOrTx, orderId: number, now = new Date()): Invoice | null {
  const existing = findInvoice(orderId, "invoice", tx);
  if (existing) return existing;
  const document = buildDocument(tx, orderId, now.toISOString());
  if (!document) return null;
  return insertDocument(tx, "invoice", orderId, document, now, null);
}

/**
 * Issues the credit note of a refunded order, in the caller's transaction (the one that marks it
 * refunded): the whole invoice is credited. One per order; none without an invoice.
 */
export function issueCreditNoteIn(tx: DbOrTx, orderId: number, now = new Date()): Invoice | null {
  const existing = findInvoice(orderId, "credit_note", tx);
  if (existing) return existing;
  const invoice = findInvoice(orderId, "invoice", tx);
  if (!invoice) return null;
  const document: InvoiceDocument = { ...invoice.document, invoiceNumber: invoice.number, invoiceIssuedAt: invoice.issuedAt };
  return insertDocument(tx, "credit_note", orderId, document, now, invoice.id);
}

/** An invoice or a credit note as the pages show it. */
export type InvoiceView = Pick<Invoice, "kind" | "number" | "issuedAt" | "document">;

function toView(invoice: Invoice | undefined): InvoiceView | null {
  return invoice ? { kind: invoice.kind, number: invoice.number, issuedAt: invoice.issuedAt, document: invoice.document } : null;
}

/** The order's invoice and credit note, each null until issued. */
export function getOrderInvoices(orderId: number): { invoice: InvoiceView | null; creditNote: InvoiceView | null } {
  const db = getDb();
  return { invoice: toView(findInvoice(orderId, "invoice", db)), creditNote: toView(findInvoice(orderId, "credit_note", db)) };
}
