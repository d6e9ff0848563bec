import fs from "node:fs";
import path from "node:path";
import { asResponses } from "../helpers/route-response";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { orders, siteSettings, type Email } from "~/db/schema";
import { CURRENT_TERMS_VERSION, termsVersionLabel } from "~/legal/terms-of-sale";
import { deliverySchema } from "~/schemas/delivery";
import { addToCart } from "~/services/cart.server";
import { submitDelivery } from "~/services/checkout.server";
import { createContactRequest } from "~/services/contacts.server";
import type { EmailToRender } from "~/services/email/email-types";
import { renderEmail } from "~/services/email/render.server";
import { greeting } from "~/emails/text";
import { orderLinkKey } from "~/services/orders/link.server";
import { loader as cancelPageLoaderRoute } from "~/routes/abonnement.resilier";
import { getRequest, routeArgs } from "../helpers/requests";

const cancelPageLoader = asResponses(cancelPageLoaderRoute);

// Every link of an email must point at the shop's public address.
const PUBLIC_URL = vi.hoisted(() => {
  const url = "https://boutique.maison-eclat.test";
  process.env.PUBLIC_URL = url;
  return url;
});

let emailId = 0;
function email(
  kind: Email["kind"],
  refs: { orderId?: number; contactRequestId?: number },
  payload: Record<string, unknown> = {},
): EmailToRender {
  return {
    id: ++emailId,
    kind,
    orderId: refs.orderId ?? null,
    contactRequestId: refs.contactRequestId ?? null,
    toAddress: "client@example.fr",
    payload,
    createdAt: "2026-12-01T10:00:00.000Z",
  };
}

async function paidOrder(options: { subscription?: boolean; packId?: 1 | 2 | 3; termsVersion?: string | null } = {}) {
  const cartId = crypto.randomUUID();
  await addToCart(cartId, { productId: 1, packId: options.packId ?? 2 });
  const { orderId } = await submitDelivery(
    cartId,
    deliverySchema.parse({
      firstName: "Camille",
      lastName: "Martin",
      email: `camille.${crypto.randomUUID().slice(0, 8)}@example.fr`,
      address: "8 rue des Fleurs",
      postalCode: "69003",
      city: "Lyon",
    }),
  );
  await getDb()
    .update(orders)
    .set({
      paymentStatus: "paid",
      paidAt: "2026-12-01T09:30:00.000Z",
      createdAt: "2026-12-01T09:00:00.000Z",
      isSubscription: options.subscription ?? false,
      ...(options.termsVersion !== undefined ? { termsVersion: options.termsVersion } : {}),
    })
    .where(eq(orders.id, orderId));
  return orderId;
}

/** Every http(s) address of an HTML document, outside the shop's own. */
function foreignUrls(html: string) {
  return [...html.matchAll(/https?:\/\/[^\s"'<>)]+/g)]
    .map((m) => m[0])
    .filter((url) => new URL(url).origin !== new URL(PUBLIC_URL).origin);
}

/** `quotesUserText`: the text part quotes what a visitor typed, as typed (tags included). */
function expectWellFormed(rendered: Awaited<ReturnType<typeof renderEmail>>, { quotesUserText = false } = {}) {
  expect(rendered.html.startsWith('<!doctype html><html lang="fr">')).toBe(true);
  expect(rendered.html).toContain("Maison Éclat");
  expect(rendered.html).toContain("12 rue des Lilas, 75011 Paris, France");
  expect(rendered.html).toContain('href="mailto:contact@maison-eclat.fr"');
  expect(foreignUrls(rendered.html)).toEqual([]);
  expect(rendered.html).not.toMatch(/<img|<link|<script|url\(/i);
  if (!quotesUserText) expect(rendered.text).not.toMatch(/<\/?[a-z][^>]*>/i);
  expect(rendered.text).toContain("contact@maison-eclat.fr");
  expect(rendered.subject).not.toMatch(/[\r\n]/);
}

describe("order_confirmation", () => {
  it("for a one-off purchase: number, date, pack, 25,90€, free shipping, address, estimate, tracking link, seller, withdrawal, terms attached", async () => {
    const id = await paidOrder();
    const rendered = await renderEmail(email("order_confirmation", { orderId: id }));
    expectWellFormed(rendered);
    expect(rendered.subject).toBe(`Confirmation de votre commande n°${id}`);
    const trackingUrl = `${PUBLIC_URL}/track-order?id=${id}&amp;cle=${orderLinkKey(id)}`;
    for (const part of [rendered.html, rendered.text.replaceAll("&", "&amp;")]) {
      expect(part).toContain(`n°${id}`);
      expect(part).toContain("01/12/2026");
      expect(part).toContain("6 masques + 2 offerts");
      expect(part).toContain("25,90€");
      expect(part).toContain("Gratuite");
      expect(part).toContain("8 rue des Fleurs");
      expect(part).toContain("69003 Lyon");
      expect(part).toContain("Camille Martin");
      expect(part).toContain("expédié sous 24 heures");
      expect(part).toContain("7 à 10 jours ouvrés");
      expect(part).toContain(trackingUrl);
      expect(part).toContain("Maison Éclat SAS");
      expect(part).toContain("RCS Paris 921 458 303");
      expect(part).toContain("14 jours");
      expect(part).toContain("article L. 221-28, 5° du Code de la consommation");
      expect(part).toContain("Modèle de formulaire de rétractation");
      expect(part).toContain("Je/Nous (*) vous notifie/notifions (*)");
      expect(part).toContain("Se rétracter du contrat ici");
      expect(part).toContain(`${PUBLIC_URL}/retractation?commande=${id}`);
      expect(part).toContain(`Conditions générales de vente, version du ${termsVersionLabel(CURRENT_TERMS_VERSION)}`);
      expect(part).not.toContain("/abonnement/resilier");
      expect(part).not.toContain("Votre abonnement");
      expect(part).not.toContain("/mon-abonnement");
    }
    expect(rendered.html).toMatch(/Total<\/td><td[^>]*>25,90€/);
    expect(rendered.text).toContain("Total : 25,90€");
    expect(rendered.text).toContain("Livraison : Gratuite");

    expect(rendered.attachments).toHaveLength(1);
    const [terms] = rendered.attachments;
    expect(terms.filename).toBe(`CGV-Maison-Eclat-${CURRENT_TERMS_VERSION}.html`);
    expect(terms.contentType).toMatch(/^text\/html/);
    expect(terms.content.startsWith("<!doctype html>")).toBe(true);
    expect(terms.content).toContain(`version du ${termsVersionLabel(CURRENT_TERMS_VERSION)}`);
    expect(terms.content).toContain("14. Droit applicable");
    expect(terms.content).toContain(`href="${PUBLIC_URL}/mentions-legales"`);
    expect(foreignUrls(terms.content)).toEqual([]);
    expect(rendered.html).toContain(terms.filename);
  });

  it("for a subscription: charged today, then every 4 weeks from day 30, cancellable at any time, with the cancellation link", async () => {
    const id = await paidOrder({ subscription: true });
    const rendered = await renderEmail(email("order_confirmation", { orderId: id }));
    expectWellFormed(rendered);
    const cancelUrl = `${PUBLIC_URL}/abonnement/resilier?commande=${id}`;
    for (const part of [rendered.html, rendered.text]) {
      expect(part).toContain("25,90€ débités aujourd");
      expect(part).toContain("toutes les 4 semaines à partir du 30e jour, le 31/12/2026");
      expect(part).toContain("résilier à tout moment");
      expect(part).toContain(cancelUrl);
      expect(part).toContain("Abonnement (toutes les 4 semaines)");
    }
  });

  it("the cancellation link opens the cancellation page with the order number filled in", async () => {
    const prefilled = async (query: string) =>
      (
        (await (await cancelPageLoader(routeArgs(getRequest(`/abonnement/resilier${query}`)))).json()) as {
          orderId: string | null;
        }
      ).orderId;
    expect(await prefilled("?commande=123456789")).toBe("123456789");
    expect(await prefilled("?commande=abc")).toBeNull();
    expect(await prefilled("")).toBeNull();
  });

  it("attaches the terms the order was made under, the current ones for an order from before versions were kept", async () => {
    const id = await paidOrder({ termsVersion: null });
    const rendered = await renderEmail(email("order_confirmation", { orderId: id }));
    expect(rendered.attachments[0].filename).toBe(`CGV-Maison-Eclat-${CURRENT_TERMS_VERSION}.html`);
  });

  it("attaches terms that follow the shop's name and address once the settings change", async () => {
    const id = await paidOrder();
    const before = (await renderEmail(email("order_confirmation", { orderId: id }))).attachments[0];
    expect(before.content).toContain("12 rue des Lilas");
    const [settings] = await getDb().select().from(siteSettings).where(eq(siteSettings.id, 1));
    try {
      await getDb()
        .update(siteSettings)
        .set({ siteName: "Atelier Lumière", siteAddress: "3 place Bellecour, 69002 Lyon, France" })
        .where(eq(siteSettings.id, 1));
      const after = (await renderEmail(email("order_confirmation", { orderId: id }))).attachments[0];
      expect(after.filename).toBe(`CGV-Atelier-Lumiere-${CURRENT_TERMS_VERSION}.html`);
      expect(after.content).toContain("3 place Bellecour, 69002 Lyon");
      expect(after.content).not.toContain("12 rue des Lilas");
    } finally {
      await getDb()
        .update(siteSettings)
        .set({ siteName: settings.siteName, siteAddress: settings.siteAddress })
        .where(eq(siteSettings.id, 1));
    }
    // Back to the first identity: the first document again.
    expect((await renderEmail(email("order_confirmation", { orderId: id }))).attachments[0].content).toBe(before.content);
  });

  it("throws a clear error when the order is gone", async () => {
    await expect(renderEmail(email("order_confirmation", { orderId: 999_999_999 }))).rejects.toThrow(
      /commande 999999999 n'existe plus/,
    );
    await expect(renderEmail(email("shop_new_order", {}))).rejects.toThrow(/n'existe plus/);
  });
});

describe("order_shipped", () => {
  it("gives the tracking number, the tracking link and the delivery estimate", async () => {
    const id = await paidOrder();
    const rendered = await renderEmail(email("order_shipped", { orderId: id }, { trackingNumber: "6A12345678901" }));
    expectWellFormed(rendered);
    expect(rendered.subject).toBe(`Votre commande n°${id} a été expédiée`);
    for (const part of [rendered.html, rendered.text]) {
      expect(part).toContain("6A12345678901");
      expect(part).toContain(`/track-order?id=${id}&`);
      expect(part).toContain("7 à 10 jours ouvrés");
    }
    const without = await renderEmail(email("order_shipped", { orderId: id }, { trackingNumber: null }));
    expect(without.text).not.toContain("Numéro de suivi");
  });
});

describe("subscription_canceled", () => {
  it("confirms the cancellation with its end date and what happens next", async () => {
    const id = await paidOrder({ subscription: true });
    const rendered = await renderEmail(
      email("subscription_canceled", { orderId: id }, { endsAt: "2026-12-15T10:00:00.000Z", canceledBy: "customer" }),
    );
    expectWellFormed(rendered);
    expect(rendered.subject).toBe(`Résiliation de votre abonnement (commande n°${id})`);
    for (const part of [rendered.html, rendered.text]) {
      expect(part).toContain("15/12/2026");
      expect(part).toContain("Aucun autre prélèvement");
      expect(part).toContain("déjà payées");
      expect(part).toContain("L. 215-1-1");
    }
  });
});

describe("contact emails", () => {
  const message = {
    name: "Zoé <b>Hack</b>",
    email: "zoe@example.fr",
    subject: "Question\r\nBcc: tous@example.fr",
    message: "Bonjour,\n<script>alert('x')</script>\nMerci !",
  };

  it("contact_ack acknowledges with the opening hours, quoting neither the message nor the name, and the subject cut to 80 characters", async () => {
    const contact = await createContactRequest(message);
    const rendered = await renderEmail(email("contact_ack", { contactRequestId: contact.id }));
    expectWellFormed(rendered);
    expect(rendered.subject).toBe("Nous avons bien reçu votre message");
    for (const part of [rendered.html, rendered.text]) {
      // Anyone can send the form with anyone's address: what they typed must not reach that address.
      expect(part).not.toContain("alert");
      expect(part).not.toContain("Merci !");
      expect(part).not.toContain("Hack");
      expect(part).toContain("Lundi - Vendredi");
    }
    expect(rendered.text).toContain("Objet : Question Bcc: tous@example.fr");
    expect(rendered.text).toContain("Lundi - Vendredi : 9h - 18h");
    expect(rendered.text).toContain("Dimanche : Fermé");

    const spam = await createContactRequest({
      ...message,
      subject: `Gagnez ${"x".repeat(100)} sur https://spam.example`,
      message: "Achetez sur https://spam.example",
    });
    const long = await renderEmail(email("contact_ack", { contactRequestId: spam.id }));
    const shown = `Gagnez ${"x".repeat(72)}…`;
    expect(shown).toHaveLength(80);
    for (const part of [long.html, long.text]) {
      expect(part).toContain(shown);
      expect(part).not.toContain("spam.example");
    }
  });

  it("shop_new_contact goes to the shop with the sender, the message and the admin link; the subject stays on one line", async () => {
    const contact = await createContactRequest(message);
    const rendered = await renderEmail(email("shop_new_contact", { contactRequestId: contact.id }));
    expectWellFormed(rendered, { quotesUserText: true });
    expect(rendered.subject).toBe("Nouvelle demande de contact : Question Bcc: tous@example.fr");
    for (const part of [rendered.html, rendered.text]) {
      expect(part).toContain("zoe@example.fr");
      expect(part).toContain(`${PUBLIC_URL}/admin/contacts`);
    }
    expect(rendered.html).not.toContain("<script>");
  });

  it("throws a clear error when the contact request is gone", async () => {
    await expect(renderEmail(email("contact_ack", { contactRequestId: 987654 }))).rejects.toThrow(
      /demande de contact 987654 n'existe plus/,
    );
  });
});

describe("shop_new_order", () => {
  it("tells the shop who bought what, for how much, one-off or subscription, with the admin link", async () => {
    const id = await paidOrder({ subscription: true, packId: 3 });
    const rendered = await renderEmail(email("shop_new_order", { orderId: id }));
    expectWellFormed(rendered);
    expect(rendered.subject).toBe(`Nouvelle commande payée n°${id}`);
    for (const part of [rendered.html, rendered.text]) {
      expect(part).toContain("Camille Martin");
      expect(part).toMatch(/camille\.[0-9a-f]{8}@example\.fr/);
      expect(part).toContain("9 masques + 3 offerts");
      expect(part).toContain("32,90€");
      expect(part).toContain("Abonnement");
      expect(part).toContain(`${PUBLIC_URL}/admin/orders/${id}`);
    }
  });
});

describe("the greeting", () => {
  it("reads « Bonjour, » when the order has no name, never « Bonjour , », in the HTML, the text and the preheader", async () => {
    const orderId = await paidOrder({ subscription: true });
    await getDb()
      .update(orders)
      .set({ customerFirstName: "", customerLastName: "", customerName: " ", trackingNumber: "6A12345678901" })
      .where(eq(orders.id, orderId));
    const kinds = [
      ["order_confirmation", {}],
      ["order_shipped", {}],
      ["order_tracking_number", {}],
      ["order_refunded", { refundId: 1, amountCents: 1000, remainingPaidCents: 1590, creditNoteNumber: null }],
      ["subscription_canceled", {}],
      ["renewal_receipt", {}],
      ["withdrawal_ack", {}],
      ["cart_reminder", { remindedAt: "2026-12-01T13:00:00.000Z" }],
    ] as const;
    for (const [kind, payload] of kinds) {
      const rendered = await renderEmail(email(kind, { orderId }, payload));
      const html = rendered.html.replace(/<[^>]+>/g, " ").replace(/\s+/g, " ");
      expect(rendered.text, kind).toMatch(/^Bonjour,$/m);
      expect(html, kind).toContain("Bonjour,");
      for (const part of [rendered.text, html]) expect(part, kind).not.toMatch(/Bonjour\s+,/);
      // The preheader: « Merci ! », not « Merci  ! ».
      expect(rendered.html, kind).not.toMatch(/(Merci|Bonne nouvelle) {2}[!:]/);
    }

    // With a first name, it is still used.
    await getDb().update(orders).set({ customerFirstName: "Camille" }).where(eq(orders.id, orderId));
    const named = await renderEmail(email("cart_reminder", { orderId }, { remindedAt: "2026-12-01T13:00:00.000Z" }));
    expect(named.text).toMatch(/^Bonjour Camille,$/m);

    // A blank first name and a full name: the preheader names the customer as the greeting does.
    await getDb().update(orders).set({ customerFirstName: "  ", customerName: "Camille Martin" }).where(eq(orders.id, orderId));
    const confirmation = await renderEmail(email("order_confirmation", { orderId }, {}));
    expect(confirmation.text).toMatch(/^Bonjour Camille Martin,$/m);
    expect(confirmation.html).toContain(`Merci Camille Martin ! Votre commande n°${orderId}`);
    const shipped = await renderEmail(email("order_shipped", { orderId }, {}));
    expect(shipped.html).toContain(`Bonne nouvelle Camille Martin : votre commande n°${orderId} est en route.`);
  });

  it("every template greets through greeting(), which never leaves a space before the comma", () => {
    expect(greeting("", null, undefined)).toBe("Bonjour,");
    expect(greeting("  ", "Camille Martin")).toBe("Bonjour Camille Martin,");
    expect(greeting("Camille\n")).toBe("Bonjour Camille,");
    const dir = path.resolve(import.meta.dirname, "../../app/emails");
    for (const file of fs.readdirSync(dir).filter((f) => f !== "text.ts")) {
      const source = fs.readFileSync(path.join(dir, file), "utf8");
      expect(source, file).not.toMatch(/Bonjour \{|Bonjour \$\{/);
    }
  });
});
