import { centsToDecimal } from "~/lib/money";
import type { CustomerData } from "./records.server";

/** A customer's data in the JSON API (/api/admin/customers/{id}): amounts as decimal strings, no email bodies. */

const money = (cents: number | null | undefined) => centsToDecimal(cents ?? 0);

export function customerDataToApi(data: CustomerData) {
  return {
    customer: data.customer,
    orders: data.orders.map(({ subtotalCents, shippingCents, totalCents, items, invoice, creditNote, ...o }) => ({
      ...o,
      subtotal: money(subtotalCents),
      shippingCost: money(shippingCents),
      total: money(totalCents),
      items: items.map(({ unitPriceCents, ...i }) => ({ ...i, unitPrice: money(unitPriceCents) })),
      invoice: invoice ? { number: invoice.number, issuedAt: invoice.issuedAt, total: money(invoice.totalCents) } : null,
      creditNote: creditNote
        ? { number: creditNote.number, issuedAt: creditNote.issuedAt, total: money(creditNote.totalCents) }
        : null,
    })),
    subscriptions: data.subscriptions.map(({ amountCents, ...s }) => ({ ...s, amount: money(amountCents) })),
    emails: data.emails.map(({ text: _text, ...e }) => e),
    contactRequests: data.contactRequests,
    audit: data.audit,
    erasure: data.erasure,
    stripeErasure: data.stripeErasure,
  };
}
