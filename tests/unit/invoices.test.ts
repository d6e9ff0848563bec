import { asResponses } from "../helpers/route-response";
import { eq } from "drizzle-orm";
import type Stripe from "stripe";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { InvoiceDocument } from "~/components/invoice/InvoiceDocument";
import { getDb, openDatabase } from "~/db/client.server";
import { setBusyTimeout } from "~/db/sqlite-async.server";
import { dialect, invoiceCounters, invoices, orders } from "~/db/schema";
import { carrierTrackingUrl, parseCarrier } from "~/lib/carriers";
import { excludingVat, vatLine, vatTotals } from "~/lib/vat";
import { loader as adminCreditNoteLoaderRoute } from "~/routes/admin_.orders.$id.credit-note";
import { loader as adminInvoiceLoaderRoute } from "~/routes/admin_.orders.$id.invoice";
import { loader as customerCreditNoteLoaderRoute } from "~/routes/avoir.$id";
import { loader as customerInvoiceLoaderRoute } from "~/routes/facture.$id";
import { findInvoice, findInvoiceNumber, formatInvoiceNumber, invoiceYear, issueInvoiceIn } from "~/services/invoices.server";
import { orderInvoiceUrl, orderLinkKey } from "~/services/orders/link.server";
import { markOrderPaid, markOrderPaidIn } from "~/services/payments/payment-state.server";
import { handleStripeEvent } from "~/services/payments/webhook.server";
import { renderEmail } from "~/services/email/render.server";
import { emails } from "~/db/schema";
import { updateAdminOrder } from "~/services/admin-orders.server";
import { getRequest, routeArgs, thrown } from "../helpers/requests";
import { adminCookie, insertOrder } from "./admin-helpers";

const adminCreditNoteLoader = asResponses(adminCreditNoteLoaderRoute);
const adminInvoiceLoader = asResponses(adminInvoiceLoaderRoute);
const customerCreditNoteLoader = asResponses(customerCreditNoteLoaderRoute);
const customerInvoiceLoader = asResponses(customerInvoiceLoaderRoute);

/** An unpaid order of `lines` (unit price in cents, quantity), the shipping given. */
async function unpaidOrder(unitCents = 2590, quantity = 1, shippingCents = 0) {
  const total = unitCents * quantity + shippingCents;
  return await insertOrder(
    { subtotalCents: unitCents * quantity, shippingCents, totalCents: total },
    { unitPriceCents: unitCents, quantity },
  );
}

function sequenceOf(number: string) {
  return Number(number.slice(-6));
}

describe("VAT (lib/vat.ts)", () => {
  it("splits each line from its price including VAT, to the cent, before VAT + VAT = including VAT", () => {
    // 0,99 € -> 0,825 before VAT, rounded half up to 0,83; VAT 0,16.
    expect(vatLine({ label: "Essai", quantity: 1, unitIncludingCents: 99 })).toMatchObject({
      excludingCents: 83,
      vatCents: 16,
      includingCents: 99,
      unitExcludingCents: 83,
    });
    expect(vatLine({ label: "6+2", quantity: 1, unitIncludingCents: 2590 })).toMatchObject({
      excludingCents: 2158,
      vatCents: 432,
      includingCents: 2590,
    });
    // Quantity 3 of 32,90 €: 98,70 € -> 82,25 € before VAT (computed on the line, not 3 × 27,42 = 82,26).
    const three = vatLine({ label: "9+3", quantity: 3, unitIncludingCents: 3290 });
    expect(three).toMatchObject({ includingCents: 9870, excludingCents: 8225, vatCents: 1645, unitExcludingCents: 2742 });
    // Half a cent goes up: 0,03 € / 1,2 = 0,025.
    expect(excludingVat(3)).toBe(3);
    expect(excludingVat(6)).toBe(5);
    expect(excludingVat(0)).toBe(0);
    const lines = [
      vatLine({ label: "a", quantity: 1, unitIncludingCents: 99 }),
      vatLine({ label: "b", quantity: 2, unitIncludingCents: 2590 }),
    ];
    const totals = vatTotals(lines);
    expect(totals.includingCents).toBe(99 + 5180);
    expect(totals.excludingCents + totals.vatCents).toBe(totals.includingCents);
  });
});

describe("invoice numbering", () => {
  it("F + the Paris year + 6 digits, the year of Paris (New Year's Eve at 23:30 UTC is already next year)", () => {
    expect(formatInvoiceNumber("invoice", 2026, 1)).toBe("F2026-000001");
    expect(formatInvoiceNumber("credit_note", 2027, 42)).toBe("A2027-000042");
    expect(invoiceYear(new Date("2026-12-31T23:30:00.000Z"))).toBe(2027);
    expect(invoiceYear(new Date("2026-12-31T22:30:00.000Z"))).toBe(2026);
  });

  it("issues no invoice before the payment, one at the payment, and none again when the payment is seen twice (confirmation, then a replayed webhook)", async () => {
    const id = await unpaidOrder(3290);
    expect(await findInvoice(id, "invoice")).toBeUndefined();
    expect(await markOrderPaid(id, { paymentIntentId: `pi_${id}` })).toBe(true);
    const invoice = (await findInvoice(id, "invoice"))!;
    expect(invoice.number).toMatch(/^F\d{4}-\d{6}$/);
    expect(invoice.totalIncludingCents).toBe(3290);
    expect(invoice.document.seller).toMatchObject({
      legalName: "Maison Éclat SAS",
      siren: "921 458 303",
      siret: "921 458 303 00017",
      vatNumber: "FR51921458303",
    });
    expect(invoice.document.buyer).toMatchObject({
      name: "Camille Martin",
      address: "3 rue des Roses",
      postalCode: "69001",
      city: "Lyon",
    });

    // The webhook for the same payment, then its replay: the order is already paid, no second invoice.
    const event = {
      id: `evt_paid_${id}`,
      type: "payment_intent.succeeded",
      data: {
        object: {
          id: `pi_${id}`,
          status: "succeeded",
          amount: 3290,
          amount_received: 3290,
          currency: "eur",
          metadata: { orderId: String(id) },
        },
      },
    } as unknown as Stripe.Event;
    expect((await handleStripeEvent(event)).outcome).toBe("already_paid");
    expect((await handleStripeEvent(event)).outcome).toBe("duplicate");
    expect(await getDb().select().from(invoices).where(eq(invoices.orderId, id))).toHaveLength(1);
    // Asked again, the issue gives the invoice already issued, whole; its number alone is read apart.
    const again = await getDb().transaction(async (tx) => await issueInvoiceIn(tx, id));
    expect(again).toEqual(invoice);
    expect(await findInvoiceNumber(id, "invoice")).toEqual({ id: invoice.id, number: invoice.number });
    expect(await findInvoiceNumber(id, "credit_note")).toBeUndefined();
  });

  it("numbers without a gap: consecutive payments get consecutive numbers, and a payment that rolls back uses no number", async () => {
    const [a, b, c] = [await unpaidOrder(), await unpaidOrder(), await unpaidOrder()];
    await markOrderPaid(a, { paymentIntentId: `pi_${a}` });
    // A payment whose transaction fails after the invoice was issued: nothing of it stays, its number neither.
    await expect(
      getDb().transaction(async (tx) => {
        await markOrderPaidIn(tx, b, { paymentIntentId: `pi_${b}` });
        throw new Error("the transaction fails");
      }),
    ).rejects.toThrow("the transaction fails");
    expect(await findInvoice(b, "invoice")).toBeUndefined();
    expect((await getDb().select({ p: orders.paymentStatus }).from(orders).where(eq(orders.id, b)).limit(1))[0]!.p).toBe(
      "unpaid",
    );
    await markOrderPaid(c, { paymentIntentId: `pi_${c}` });
    await markOrderPaid(b, { paymentIntentId: `pi_${b}` });
    const numbers: number[] = [];
    for (const id of [a, c, b]) numbers.push(sequenceOf((await findInvoice(id, "invoice"))!.number));
    expect(numbers).toEqual([numbers[0], numbers[0] + 1, numbers[0] + 2]);
  });

  it("two payments in one transaction get two numbers in a row, never the same one", async () => {
    const [a, b] = [await unpaidOrder(), await unpaidOrder()];
    await getDb().transaction(async (tx) => {
      await markOrderPaidIn(tx, a, { paymentIntentId: `pi_${a}` });
      await markOrderPaidIn(tx, b, { paymentIntentId: `pi_${b}` });
    });
    const [na, nb] = [(await findInvoice(a, "invoice"))!.number, (await findInvoice(b, "invoice"))!.number];
    expect(sequenceOf(nb)).toBe(sequenceOf(na) + 1);
    // Issuing again for an invoiced order returns its invoice and uses no number.
    const year = (await findInvoice(b, "invoice"))!.year;
    const before = (await getDb().select().from(invoiceCounters)).find((c) => c.kind === "invoice" && c.year === year)!.last;
    expect((await getDb().transaction(async (tx) => await issueInvoiceIn(tx, b)))!.number).toBe(nb);
    expect((await getDb().select().from(invoiceCounters)).find((c) => c.kind === "invoice" && c.year === year)!.last).toBe(
      before,
    );
  });

  it.skipIf(dialect !== "sqlite")(
    "two server processes paying at once on SQLite: the second waits for the first's transaction, then takes the next number",
    async () => {
      const [a, b] = [await unpaidOrder(), await unpaidOrder()];
      // Another process's connection to the same database file, in the middle of a payment.
      const other = await openDatabase(process.env.DATABASE_URL!, { adminUsername: "admin", adminPassword: "motdepasse-test-1" });
      const here = globalThis.__shopDb!.sqlite!;
      setBusyTimeout(here, 50);
      try {
        other.sqlite!.exec("BEGIN IMMEDIATE");
        expect(await markOrderPaidIn(other.db, a, { paymentIntentId: `pi_${a}` })).toBe(true);
        // This process cannot issue a number meanwhile (the database is locked): nothing of its payment is written.
        await expect(markOrderPaid(b, { paymentIntentId: `pi_${b}` })).rejects.toThrow(/locked|busy/i);
        expect(await findInvoice(b, "invoice")).toBeUndefined();
        other.sqlite!.exec("COMMIT");
        expect(await markOrderPaid(b, { paymentIntentId: `pi_${b}` })).toBe(true);
        const [na, nb] = [(await findInvoice(a, "invoice"))!.number, (await findInvoice(b, "invoice"))!.number];
        expect(sequenceOf(nb)).toBe(sequenceOf(na) + 1);
      } finally {
        if (other.sqlite!.inTransaction) other.sqlite!.exec("ROLLBACK");
        other.sqlite!.close();
        setBusyTimeout(here, 5000);
      }
    },
  );

  it("starts a new sequence each year", async () => {
    const [a, b] = [await unpaidOrder(), await unpaidOrder()];
    const first = await getDb().transaction(async (tx) => {
      await tx.update(orders).set({ paymentStatus: "paid" }).where(eq(orders.id, a));
      return (await issueInvoiceIn(tx, a, new Date("2031-06-01T10:00:00.000Z")))!;
    });
    const second = await getDb().transaction(async (tx) => (await issueInvoiceIn(tx, b, new Date("2032-01-01T10:00:00.000Z")))!);
    expect(first.number).toBe("F2031-000001");
    expect(second.number).toBe("F2032-000001");
  });

  it("puts the shipping on its own line when it is charged", async () => {
    const id = await unpaidOrder(2590, 2, 590);
    await markOrderPaid(id, { paymentIntentId: `pi_${id}` });
    const doc = (await findInvoice(id, "invoice"))!.document;
    expect(doc.lines.map((l) => [l.label, l.quantity, l.includingCents])).toEqual([
      ["Masque Hydrogel au Collagène", 2, 5180],
      ["Livraison", 1, 590],
    ]);
    expect(doc.totals).toEqual({ excludingCents: 4317 + 492, vatCents: 863 + 98, includingCents: 5770 });
  });
});

describe("credit notes", () => {
  /** Stripe's charge.refunded for the order's payment, listing the charge's refunds. */
  const refundedEvent = (id: number, eventId: string, list: Array<{ id: string; amount: number }>) =>
    ({
      id: eventId,
      type: "charge.refunded",
      data: {
        object: {
          id: `ch_${id}`,
          refunded: list.reduce((sum, r) => sum + r.amount, 0) >= 2590,
          payment_intent: `pi_${id}`,
          metadata: {},
          refunds: {
            object: "list",
            has_more: false,
            data: list.map((r) => ({ ...r, object: "refund", status: "succeeded", metadata: {}, payment_intent: `pi_${id}` })),
          },
        },
      },
    }) as unknown as Stripe.Event;

  it("a full refund issues one credit note, with its own sequence, referring to the invoice; none for an unpaid order", async () => {
    const id = await unpaidOrder(2590);
    expect(
      (await handleStripeEvent(refundedEvent(id, `evt_refund_unpaid_${id}`, [{ id: `re_unpaid_${id}`, amount: 2590 }]))).outcome,
    ).toBe("ignored");
    expect(await findInvoice(id, "credit_note")).toBeUndefined();
    await markOrderPaid(id, { paymentIntentId: `pi_${id}` });
    const invoice = (await findInvoice(id, "invoice"))!;
    const full = [{ id: `re_full_${id}`, amount: 2590 }];
    expect((await handleStripeEvent(refundedEvent(id, `evt_refund_${id}`, full))).outcome).toBe("order_refunded");
    // The same refund in another event (Stripe sends refund.updated, or the event again under another id): nothing more.
    expect((await handleStripeEvent(refundedEvent(id, `evt_refund_again_${id}`, full))).outcome).toBe("ignored");
    const credit = (await findInvoice(id, "credit_note"))!;
    expect(credit.number).toMatch(/^A\d{4}-\d{6}$/);
    expect(credit.creditedInvoiceId).toBe(invoice.id);
    expect(credit.document).toMatchObject({
      invoiceNumber: invoice.number,
      totals: invoice.document.totals,
      lines: invoice.document.lines,
    });
    expect((await getDb().select({ p: orders.paymentStatus }).from(orders).where(eq(orders.id, id)).limit(1))[0]!.p).toBe(
      "refunded",
    );
    expect(await getDb().select().from(invoices).where(eq(invoices.orderId, id))).toHaveLength(2);
    // The legal form, share capital and RCS (Code de commerce R123-237), frozen and printed on both.
    for (const document of [invoice, credit]) {
      expect(document.document.seller).toMatchObject({
        legalForm: "SAS",
        shareCapital: "10 000 €",
        rcs: "RCS Paris 921 458 303",
      });
      const html = renderToStaticMarkup(createElement(InvoiceDocument, { invoice: document }));
      expect(html).toContain("SAS au capital de 10 000 €");
      expect(html).toContain("RCS Paris 921 458 303");
    }
  });

  it("a partial refund issues a credit note for its own amount, at 20 % VAT, and leaves the order partially refunded", async () => {
    const id = await unpaidOrder(2590);
    await markOrderPaid(id, { paymentIntentId: `pi_${id}` });
    const invoice = (await findInvoice(id, "invoice"))!;
    expect(
      (await handleStripeEvent(refundedEvent(id, `evt_partial_${id}`, [{ id: `re_part_${id}`, amount: 1000 }]))).outcome,
    ).toBe("order_refunded");
    const credit = (await findInvoice(id, "credit_note"))!;
    expect(credit.document.totals).toEqual({ excludingCents: 833, vatCents: 167, includingCents: 1000 });
    expect(credit.document.lines).toEqual([
      expect.objectContaining({
        label: `Remboursement partiel de la facture ${invoice.number}`,
        quantity: 1,
        includingCents: 1000,
        rateBp: 2000,
      }),
    ]);
    expect(credit.totalIncludingCents).toBe(1000);
    expect((await getDb().select({ p: orders.paymentStatus }).from(orders).where(eq(orders.id, id)).limit(1))[0]!.p).toBe(
      "partially_refunded",
    );

    // The rest, later: a second credit note, the next number of the sequence, and the order refunded.
    const both = [
      { id: `re_part_${id}`, amount: 1000 },
      { id: `re_rest_${id}`, amount: 1590 },
    ];
    expect((await handleStripeEvent(refundedEvent(id, `evt_rest_${id}`, both))).outcome).toBe("order_refunded");
    const notes = (await getDb().select().from(invoices).where(eq(invoices.orderId, id))).filter((i) => i.kind === "credit_note");
    expect(notes.map((n) => n.totalIncludingCents)).toEqual([1000, 1590]);
    expect(sequenceOf(notes[1].number)).toBe(sequenceOf(notes[0].number) + 1);
    expect((await getDb().select({ p: orders.paymentStatus }).from(orders).where(eq(orders.id, id)).limit(1))[0]!.p).toBe(
      "refunded",
    );
  });
});

describe("invoice pages", () => {
  it("the customer's page needs the order's key: 404 for a forged one, a clear message before the payment, the invoice after", async () => {
    const id = await unpaidOrder(2590);
    const page = (key: string) =>
      customerInvoiceLoader(routeArgs(getRequest(`/facture/${id}?cle=${encodeURIComponent(key)}`), { id: String(id) }));
    const forged = await thrown(page("A".repeat(43)));
    expect(forged.status).toBe(404);
    expect((await thrown(page(orderLinkKey(id + 1)))).status).toBe(404);

    const before = await page(orderLinkKey(id));
    expect(before.headers.get("Cache-Control")).toBe("private, no-store");
    expect(before.headers.get("Referrer-Policy")).toBe("same-origin");
    expect(await before.json()).toMatchObject({ paid: false, document: null });

    await markOrderPaid(id, { paymentIntentId: `pi_${id}` });
    const after = await (await page(orderLinkKey(id))).json();
    expect(after.document).toMatchObject({ kind: "invoice", number: (await findInvoice(id, "invoice"))!.number });
    expect(after.document?.document.totals).toEqual({ excludingCents: 2158, vatCents: 432, includingCents: 2590 });
    const credit = await (
      await customerCreditNoteLoader(routeArgs(getRequest(`/avoir/${id}?cle=${orderLinkKey(id)}`), { id: String(id) }))
    ).json();
    expect(credit.document).toBeNull();
  });

  it("a credit note number the order does not have is a 404, on the customer's page and on the admin's", async () => {
    const cookie = await adminCookie();
    const id = await unpaidOrder(2590);
    const other = await unpaidOrder(2590);
    await markOrderPaid(id, { paymentIntentId: `pi_${id}` });
    await markOrderPaid(other, { paymentIntentId: `pi_${other}` });
    const refund = (orderId: number) =>
      ({
        id: `evt_numero_${orderId}`,
        type: "charge.refunded",
        data: {
          object: {
            id: `ch_${orderId}`,
            refunded: true,
            payment_intent: `pi_${orderId}`,
            metadata: {},
            refunds: {
              object: "list",
              has_more: false,
              data: [
                {
                  id: `re_numero_${orderId}`,
                  amount: 2590,
                  object: "refund",
                  status: "succeeded",
                  metadata: {},
                  payment_intent: `pi_${orderId}`,
                },
              ],
            },
          },
        },
      }) as unknown as Stripe.Event;
    await handleStripeEvent(refund(id));
    await handleStripeEvent(refund(other));
    const number = (await findInvoice(id, "credit_note"))!.number;
    const otherNumber = (await findInvoice(other, "credit_note"))!.number;
    const customer = (numero: string) =>
      customerCreditNoteLoader(
        routeArgs(getRequest(`/avoir/${id}?cle=${orderLinkKey(id)}&numero=${encodeURIComponent(numero)}`), { id: String(id) }),
      );
    const admin = (numero: string) =>
      adminCreditNoteLoader(
        routeArgs(getRequest(`/admin/orders/${id}/credit-note?numero=${encodeURIComponent(numero)}`, { Cookie: cookie }), {
          id: String(id),
        }),
      );

    expect((await (await customer(number)).json()).document?.number).toBe(number);
    expect((await (await admin(number)).json()).creditNote?.number).toBe(number);
    for (const unknown of ["A2099-999999", "inconnu", otherNumber]) {
      const missing = await thrown(customer(unknown));
      expect(missing.status, unknown).toBe(404);
      expect(missing.headers.get("Cache-Control")).toBe("private, no-store");
      expect((await thrown(admin(unknown))).status, unknown).toBe(404);
    }
    // Without a number, the latest credit note.
    expect(
      (
        await (
          await customerCreditNoteLoader(routeArgs(getRequest(`/avoir/${id}?cle=${orderLinkKey(id)}`), { id: String(id) }))
        ).json()
      ).document?.number,
    ).toBe(number);
  });

  it("the admin's invoice page needs a session, and says when no invoice has been issued", async () => {
    const cookie = await adminCookie();
    const id = await unpaidOrder();
    const load = () =>
      adminInvoiceLoader(routeArgs(getRequest(`/admin/orders/${id}/invoice`, { Cookie: cookie }), { id: String(id) }));
    expect(await (await load()).json()).toMatchObject({ orderId: id, invoice: null, paymentStatus: "unpaid" });
    await markOrderPaid(id, { paymentIntentId: `pi_${id}` });
    expect((await (await load()).json()).invoice?.number).toBe((await findInvoice(id, "invoice"))!.number);
    const anonymous = await thrown(adminInvoiceLoader(routeArgs(getRequest(`/admin/orders/${id}/invoice`), { id: String(id) })));
    expect(anonymous.status).toBe(302);
  });

  it("the confirmation email links the customer's invoice with its number", async () => {
    const id = await unpaidOrder();
    await markOrderPaid(id, { paymentIntentId: `pi_${id}` });
    const row = (await getDb().select().from(emails).where(eq(emails.orderId, id))).find((e) => e.kind === "order_confirmation")!;
    const rendered = await renderEmail(row);
    const number = (await findInvoice(id, "invoice"))!.number;
    expect(rendered.text).toContain(`Votre facture n°${number} : ${orderInvoiceUrl(id)}`);
    expect(rendered.html).toContain(orderInvoiceUrl(id).replace(/&/g, "&amp;"));
  });
});

describe("carriers (lib/carriers.ts)", () => {
  it("builds each carrier's public tracking link, the number encoded and its spaces removed", () => {
    expect(carrierTrackingUrl("colissimo", "6A 123 456")).toBe("https://www.laposte.fr/outils/suivre-vos-envois?code=6A123456");
    expect(carrierTrackingUrl("chronopost", "XY123")).toBe(
      "https://www.chronopost.fr/tracking-no-cms/suivi-page?listeNumerosLT=XY123",
    );
    expect(carrierTrackingUrl("mondial_relay", "123/45")).toBe(
      "https://www.mondialrelay.fr/suivi-de-colis/?numeroExpedition=123%2F45",
    );
    expect(carrierTrackingUrl("dpd", "a&b=c")).toBe("https://www.dpd.com/fr/fr/suivi-de-colis/?parcelNumber=a%26b%3Dc");
    expect(carrierTrackingUrl("dpd", "")).toBeNull();
    expect(carrierTrackingUrl("dpd", "null")).toBeNull();
    expect(carrierTrackingUrl("ups", "123")).toBeNull();
    expect(carrierTrackingUrl(null, "123")).toBeNull();
    expect(parseCarrier("Mondial Relay")).toBe("mondial_relay");
    expect(parseCarrier("mondial-relay")).toBe("mondial_relay");
    expect(parseCarrier("La Poste")).toBeNull();
  });

  it("the shipped email names the carrier and links its tracking page", async () => {
    const id = await unpaidOrder();
    await markOrderPaid(id, { paymentIntentId: `pi_${id}` });
    await updateAdminOrder(id, { status: "shipped", trackingNumber: "0987 6543", trackingCarrier: "dpd" });
    const row = (await getDb().select().from(emails).where(eq(emails.orderId, id))).find((e) => e.kind === "order_shipped")!;
    expect(row.payload).toEqual({ trackingNumber: "0987 6543", trackingCarrier: "dpd" });
    const rendered = await renderEmail(row);
    expect(rendered.text).toContain("Transporteur : DPD");
    expect(rendered.text).toContain(
      "Suivre le colis sur le site de DPD : https://www.dpd.com/fr/fr/suivi-de-colis/?parcelNumber=09876543",
    );
    expect(rendered.html).toContain("https://www.dpd.com/fr/fr/suivi-de-colis/?parcelNumber=09876543");
  });
});
