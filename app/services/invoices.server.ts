import { and, asc, desc, eq, sql } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { prepared } from "~/db/prepared.server";
import { findOrder, findOrderItems } from "~/services/orders/find.server";
import { invoiceCounters, invoices, type Invoice, type InvoiceDocument, type InvoiceKind, type Refund } from "~/db/schema";
import { rcsLine } from "~/lib/company";
import { displayName } from "~/lib/names";
import { excludingVat, STANDARD_VAT_RATE_BP, vatLine, vatTotals, type VatLine } from "~/lib/vat";
import { getSettings, sirenOf } from "./settings.server";

/**
 * Invoices and credit notes (Code de commerce L441-9, CGI art. 242 nonies A).
 *
 * - An invoice is issued when an order becomes paid, never before, by the single writer of the
 *   payment state (payments/payment-state.server.ts), in the same transaction: a payment that
 *   does not commit issues no invoice, and a payment seen twice (the confirmation and the
 *   webhook, or a replayed webhook) issues one, since only the first one flips the order.
 * - A credit note (avoir) is issued for each refund that succeeded, in the same way, for the
 *   refunded amount, and refers to the invoice it cancels in part or in full.
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
async function nextSequence(tx: DbOrTx, kind: InvoiceKind, year: number): Promise<number> {
  const [row] = await invoiceWrites(tx).nextSequence.execute({ kind, year });
  return row.last;
}

/**
 * The two writes of every invoice (its number, its row), prepared once per database handle
 * (db/prepared.server.ts): they run inside the transaction that holds the write lock.
 */
const invoiceWrites = (db: DbOrTx) =>
  prepared(db, "invoiceWrites", () => ({
    nextSequence: db
      .insert(invoiceCounters)
      .values({ kind: sql.placeholder("kind"), year: sql.placeholder("year"), last: 1 })
      .onConflictDoUpdate({
        target: [invoiceCounters.kind, invoiceCounters.year],
        set: { last: sql`${invoiceCounters.last} + 1` },
      })
      .returning({ last: invoiceCounters.last })
      .prepare(),
    insert: db
      .insert(invoices)
      .values({
        kind: sql.placeholder("kind"),
        number: sql.placeholder("number"),
        year: sql.placeholder("year"),
        sequence: sql.placeholder("sequence"),
        orderId: sql.placeholder("orderId"),
        creditedInvoiceId: sql.placeholder("creditedInvoiceId"),
        refundId: sql.placeholder("refundId"),
        issuedAt: sql.placeholder("issuedAt"),
        totalExcludingCents: sql.placeholder("totalExcludingCents"),
        totalVatCents: sql.placeholder("totalVatCents"),
        totalIncludingCents: sql.placeholder("totalIncludingCents"),
        document: sql.placeholder("document"),
      })
      .returning()
      .prepare(),
  }));

/**
 * The kind written into the query's text, not bound: SQLite's planner reads the bound value of
 * `kind` (the order's invoice has a partial index, WHERE kind = 'invoice'), so a bound kind
 * compiled the statement again at each run.
 */
const ofKind = (kind: InvoiceKind) => eq(invoices.kind, sql.raw(kind === "invoice" ? "'invoice'" : "'credit_note'"));

/** The order's last invoice (or credit note): read by the payment and by each email's links, so prepared once per handle. */
const invoiceByOrder = (kind: InvoiceKind) => (db: DbOrTx) =>
  db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, sql.placeholder("orderId")), ofKind(kind)))
    .orderBy(desc(invoices.id))
    .limit(1)
    .prepare();

/** The order's invoice, or its latest credit note. */
export async function findInvoice(orderId: number, kind: InvoiceKind, db: DbOrTx = getDb()): Promise<Invoice | undefined> {
  return (await prepared(db, `invoiceByOrder:${kind}`, invoiceByOrder(kind)).execute({ orderId }))[0];
}

/**
 * The number of the order's invoice (or latest credit note), without its document: the payment's
 * check that the invoice is not issued yet, and each email's link, read it at every purchase,
 * and the document is the row's largest part (JSON).
 */
const invoiceNumberByOrder = (kind: InvoiceKind) => (db: DbOrTx) =>
  db
    .select({ id: invoices.id, number: invoices.number })
    .from(invoices)
    .where(and(eq(invoices.orderId, sql.placeholder("orderId")), ofKind(kind)))
    .orderBy(desc(invoices.id))
    .limit(1)
    .prepare();

export async function findInvoiceNumber(
  orderId: number,
  kind: InvoiceKind,
  db: DbOrTx = getDb(),
): Promise<{ id: number; number: string } | undefined> {
  return (await prepared(db, `invoiceNumberByOrder:${kind}`, invoiceNumberByOrder(kind)).execute({ orderId }))[0];
}

/** The order's credit notes, oldest first (one per refund). */
export async function findCreditNotes(orderId: number, db: DbOrTx = getDb()): Promise<Invoice[]> {
  return await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.kind, "credit_note")))
    .orderBy(asc(invoices.id));
}

/**
 * The promotion's line, negative, after the items and before the VAT totals: its amounts are
 * what make the invoice's totals those of the discounted amount (the VAT is computed on what
 * the customer pays, not on the price before the discount).
 */
export function discountLine(lines: VatLine[], discountCents: number, code: string | null): VatLine {
  const before = vatTotals(lines);
  const includingCents = before.includingCents - discountCents;
  const excludingCents = excludingVat(includingCents, STANDARD_VAT_RATE_BP);
  const lineExcluding = excludingCents - before.excludingCents;
  const lineIncluding = -discountCents;
  return {
    label: code ? `Remise (code ${code})` : "Remise",
    detail: null,
    quantity: 1,
    unitIncludingCents: lineIncluding,
    unitExcludingCents: lineExcluding,
    rateBp: STANDARD_VAT_RATE_BP,
    excludingCents: lineExcluding,
    vatCents: lineIncluding - lineExcluding,
    includingCents: lineIncluding,
  };
}

/** The invoice's lines: each item, then the shipping when it is charged. */
async function documentLines(tx: DbOrTx, orderId: number, shippingCents: number): Promise<VatLine[]> {
  const items = await findOrderItems(orderId, tx);
  const lines = items.map((item) =>
    vatLine({
      label: item.productName?.trim() || "Article",
      detail: item.variantName,
      quantity: item.quantity,
      unitIncludingCents: item.unitPriceCents,
    }),
  );
  if (shippingCents > 0) lines.push(vatLine({ label: "Livraison", quantity: 1, unitIncludingCents: shippingCents }));
  return lines;
}

async function buildDocument(tx: DbOrTx, orderId: number, issuedAt: string): Promise<InvoiceDocument | null> {
  const order = await findOrder(orderId, tx);
  if (!order) return null;
  const settings = await getSettings(tx);
  const lines = await documentLines(tx, orderId, order.shippingCents);
  if (order.discountCents > 0) lines.push(discountLine(lines, order.discountCents, order.promotionCode));
  return {
    seller: {
      legalName: settings.legalName || settings.siteName,
      legalForm: settings.legalForm,
      shareCapital: settings.shareCapital,
      rcs: rcsLine(settings),
      address: settings.siteAddress,
      siren: sirenOf(settings.siret),
      siret: settings.siret,
      vatNumber: settings.vatNumber,
      email: settings.siteEmail,
      phone: settings.sitePhone,
    },
    buyer: {
      name:
        displayName({ firstName: order.customerFirstName, lastName: order.customerLastName }) ||
        order.customerName?.trim() ||
        order.customerEmail ||
        "Client",
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

async function insertDocument(
  tx: DbOrTx,
  kind: InvoiceKind,
  orderId: number,
  document: InvoiceDocument,
  issuedAt: Date,
  creditedInvoiceId: number | null,
  refundId: number | null = null,
): Promise<Invoice> {
  const year = invoiceYear(issuedAt);
  const sequence = await nextSequence(tx, kind, year);
  const [invoice] = await invoiceWrites(tx).insert.execute({
    kind,
    number: formatInvoiceNumber(kind, year, sequence),
    year,
    sequence,
    orderId,
    creditedInvoiceId,
    refundId,
    issuedAt: issuedAt.toISOString(),
    totalExcludingCents: document.totals.excludingCents,
    totalVatCents: document.totals.vatCents,
    totalIncludingCents: document.totals.includingCents,
    document,
  });
  return invoice;
}

/**
 * Issues the paid order's invoice, in the caller's transaction (the one that marks it paid).
 * An order has one invoice: when it already has it, that one is returned and no number is used.
 */
export async function issueInvoiceIn(tx: DbOrTx, orderId: number, now = new Date()): Promise<Invoice | null> {
  if (await findInvoiceNumber(orderId, "invoice", tx)) return (await findInvoice(orderId, "invoice", tx)) ?? null;
  const document = await buildDocument(tx, orderId, now.toISOString());
  if (!document) return null;
  return await insertDocument(tx, "invoice", orderId, document, now, null);
}

/**
 * The lines of a refund's credit note: the invoice's own lines when the refund credits the whole
 * invoice at once, else one line for the refunded amount (including VAT) at the standard rate.
 */
function refundLines(invoice: Invoice, refund: Pick<Refund, "amountCents" | "reason">): VatLine[] {
  if (refund.amountCents === invoice.totalIncludingCents) return invoice.document.lines;
  const label = `Remboursement partiel de la facture ${invoice.number}`;
  return [vatLine({ label, detail: refund.reason.trim() || null, quantity: 1, unitIncludingCents: refund.amountCents })];
}

/**
 * Issues the credit note of a refund that succeeded, in the caller's transaction (the one that
 * records it): it credits the refunded amount, with its amounts before VAT, VAT and including VAT.
 * One per refund (the unique index on its refund says so too); none without an invoice.
 */
export async function issueRefundCreditNoteIn(tx: DbOrTx, refund: Refund, now = new Date()): Promise<Invoice | null> {
  const [existing] = await tx.select().from(invoices).where(eq(invoices.refundId, refund.id)).limit(1);
  if (existing) return existing;
  const invoice = await findInvoice(refund.orderId, "invoice", tx);
  if (!invoice) return null;
  const lines = refundLines(invoice, refund);
  const document: InvoiceDocument = {
    ...invoice.document,
    lines,
    totals: vatTotals(lines),
    invoiceNumber: invoice.number,
    invoiceIssuedAt: invoice.issuedAt,
    refund: {
      amountCents: refund.amountCents,
      reason: refund.reason,
      partial: refund.amountCents !== invoice.totalIncludingCents,
    },
  };
  return await insertDocument(tx, "credit_note", refund.orderId, document, now, invoice.id, refund.id);
}

/** An invoice or a credit note as the pages show it. */
export type InvoiceView = Pick<Invoice, "kind" | "number" | "issuedAt" | "document">;

function toView(invoice: Invoice | undefined): InvoiceView | null {
  return invoice ? { kind: invoice.kind, number: invoice.number, issuedAt: invoice.issuedAt, document: invoice.document } : null;
}

/**
 * The order's invoice (null until issued) and its credit notes, oldest first; `creditNote` is the
 * one asked for by its number, else the latest (null when there is none, or no such number).
 */
export async function getOrderInvoices(
  orderId: number,
  creditNoteNumber?: string | null,
): Promise<{ invoice: InvoiceView | null; creditNote: InvoiceView | null; creditNotes: InvoiceView[] }> {
  const db = getDb();
  const creditNotes = await findCreditNotes(orderId, db);
  const creditNote = creditNoteNumber ? creditNotes.find((c) => c.number === creditNoteNumber) : creditNotes.at(-1);
  return {
    invoice: toView(await findInvoice(orderId, "invoice", db)),
    creditNote: toView(creditNote),
    creditNotes: creditNotes.map((c) => toView(c)!),
  };
}
