import { toResponse } from "../helpers/route-response";
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { orders } from "~/db/schema";
import { CURRENT_TERMS_VERSION, isTermsVersion, TERMS_VERSIONS, termsOfSale, termsVersionLabel } from "~/legal/terms-of-sale";
import { termsOfSaleText } from "~/legal/terms-text";
import { action as postOrder } from "~/routes/api.orders";
import { deliverySchema } from "~/schemas/delivery";
import { addToCart } from "~/services/cart.server";
import { submitDelivery } from "~/services/checkout.server";
import { getSettings } from "~/services/settings.server";
import { jsonRequest, routeArgs } from "../helpers/requests";

// The page reads its loader's data; here the test hands it the loader's real answer.
const loaderData: { current: unknown } = { current: null };
vi.mock("@remix-run/react", async (original) => ({
  ...(await original<Record<string, unknown>>()),
  useLoaderData: () => loaderData.current,
}));

async function renderCgv() {
  const { default: Cgv, loader } = await import("~/routes/cgv");
  loaderData.current = await toResponse(await loader(routeArgs(new Request("http://localhost:3000/cgv")))).json();
  return renderToStaticMarkup(createElement(StaticRouter, { location: "/cgv" }, createElement(Cgv)));
}

const SECTION_IDS = [
  "objet",
  "produits",
  "prix",
  "commande",
  "paiement",
  "abonnement",
  "livraison",
  "retractation",
  "garanties",
  "service-client",
  "responsabilite",
  "donnees",
  "mediation",
  "droit-applicable",
];

describe("/cgv renders the terms of sale in force", () => {
  it("has the 14 numbered sections with their anchors, the table of contents, the date and the settings' contact details", async () => {
    const html = await renderCgv();
    expect(html).toContain("<h1");
    expect(html).toContain("Conditions générales de vente</h1>");
    const headings = [
      ...html.matchAll(/<section aria-labelledby="([a-z-]+)-titre" id="\1"[^>]*><h2 id="\1-titre">(\d+)\. ([^<]+)<\/h2>/g),
    ];
    expect(headings.map((m) => m[1])).toEqual(SECTION_IDS);
    expect(headings.map((m) => Number(m[2]))).toEqual(SECTION_IDS.map((_, i) => i + 1));
    expect(headings[7][3]).toBe("Droit de rétractation");
    expect(html).toContain('<a href="#mediation"');
    expect(html).toContain(`Dernière mise à jour : ${termsVersionLabel(CURRENT_TERMS_VERSION)}`);
    expect(html).toContain("14 jours à compter de la réception");
    expect(html).toContain("Visa, Mastercard et American Express");
    expect(html).toContain("à partir du 30<sup>e</sup> jour");
    expect(html).toContain('data-testid="withdrawal-form"');
    expect(html).toContain("Modèle de formulaire de rétractation");
    expect(html).toContain(
      "À l&#x27;attention de Maison Éclat SAS, 12 rue des Lilas, 75011 Paris, France, contact@maison-eclat.fr :",
    );
    expect(html).toContain('href="mailto:contact@maison-eclat.fr"');
    expect(html).toContain('href="/mentions-legales"');
    expect(html).toContain("01 84 60 12 34");
    expect(html).not.toMatch(/(?<![0-9])5,90€/);
  });
});

describe("versions of the terms of sale", () => {
  it("knows the current version and refuses an unknown one", async () => {
    expect(TERMS_VERSIONS).toContain(CURRENT_TERMS_VERSION);
    expect(isTermsVersion(CURRENT_TERMS_VERSION)).toBe(true);
    expect(isTermsVersion("1999-01-01")).toBe(false);
    expect(termsOfSale(null, await getSettings()).version).toBe(CURRENT_TERMS_VERSION);
    const settings = await getSettings();
    expect(() => termsOfSale("1999-01-01", settings)).toThrow(/inconnue/);
    expect(termsVersionLabel("2026-11-20")).toBe("20 novembre 2026");
  });

  it("keeps the text of 20 November 2026 as published, fixed prices included, for the orders made under it", async () => {
    expect(TERMS_VERSIONS).toEqual(expect.arrayContaining(["2026-11-20", "2026-11-25"]));
    expect(CURRENT_TERMS_VERSION).toBe("2026-11-25");
    const text = termsOfSaleText(termsOfSale("2026-11-20", await getSettings()), { baseUrl: "https://boutique.example" });
    expect(text).toContain("Version du 20 novembre 2026");
    expect(text).toContain("\n- 6 masques + 2 offerts : 25,90€ au lieu de 31,80€\n");
    expect(text).toContain(
      "entre la société Maison Éclat SAS au capital de 10 000 €, immatriculée au RCS Paris 921 458 303, dont le siège social est situé 12 rue des Lilas, 75011 Paris, France",
    );
    expect(text).not.toContain("Se rétracter du contrat ici");
  });

  it("reads as plain text: numbered headings, lists, the withdrawal form, absolute links to the shop", async () => {
    const text = termsOfSaleText(termsOfSale(CURRENT_TERMS_VERSION, await getSettings()), {
      baseUrl: "https://boutique.example",
    });
    expect(text).toMatch(/^CONDITIONS GÉNÉRALES DE VENTE\nVersion du \d+ \S+ \d{4}\n/);
    expect(text).toContain("\n\n8. DROIT DE RÉTRACTATION\n\n");
    // Prices are data (the packs): the current text refers to the product page and the checkout, and names no amount.
    expect(text).toContain(
      "Le prix de chaque pack est indiqué en euros, toutes taxes comprises (TVA française incluse), sur la fiche produit (https://boutique.example/product/1)",
    );
    expect(text).not.toMatch(/\d+,\d{2} ?€/);
    expect(text).toContain("« Se rétracter du contrat ici »");
    expect(text).toContain("article L. 221-24 du Code de la consommation");
    expect(text).toContain("à partir du 30e jour");
    expect(text).toContain("mentions légales (https://boutique.example/mentions-legales)");
    expect(text).toContain("--- Modèle de formulaire de rétractation ---");
    expect(text).toContain("article L. 221-28, 5° du Code de la consommation");
    expect(text).not.toMatch(/<[a-z]/);
  });
});

describe("orders record the terms of sale they were made under", () => {
  const delivery = {
    firstName: "Inès",
    lastName: "Morel",
    email: "ines.morel@example.fr",
    address: "3 rue du Port",
    postalCode: "44000",
    city: "Nantes",
  };

  it("the delivery form's order gets the current version, kept when the unpaid order is rewritten", async () => {
    const cartId = crypto.randomUUID();
    await addToCart(cartId, { productId: 1, packId: 2 });
    const { orderId } = await submitDelivery(cartId, deliverySchema.parse(delivery));
    const version = async () =>
      (await getDb().select({ v: orders.termsVersion }).from(orders).where(eq(orders.id, orderId)).limit(1))[0]!.v;
    expect(await version()).toBe(CURRENT_TERMS_VERSION);
    // An order made under an older text keeps it when its delivery details change.
    await getDb().update(orders).set({ termsVersion: "2025-01-01" }).where(eq(orders.id, orderId));
    const again = await submitDelivery(cartId, deliverySchema.parse({ ...delivery, city: "Rezé", postalCode: "44400" }));
    expect(again.orderId).toBe(orderId);
    expect(await version()).toBe("2025-01-01");
  });

  it("POST /api/orders gets the current version", async () => {
    const response = await postOrder(
      routeArgs(
        jsonRequest("/api/orders", "POST", {
          customerEmail: "api.cgv@example.fr",
          customerName: "Léa Api",
          shippingAddress: "5 quai Sud",
          shippingPostalCode: "13002",
          shippingCity: "Marseille",
          items: [{ productId: 1, quantity: 1, packId: 3 }],
        }),
      ),
    );
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };
    expect((await getDb().select({ v: orders.termsVersion }).from(orders).where(eq(orders.id, id)).limit(1))[0]!.v).toBe(
      CURRENT_TERMS_VERSION,
    );
  });
});
