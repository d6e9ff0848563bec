import { toResponse } from "../helpers/route-response";
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, it, vi } from "vitest";
import { MediatorNotice } from "~/components/shop/MediatorNotice";
import { getDb } from "~/db/client.server";
import { orders } from "~/db/schema";
import { DEFAULT_SETTINGS } from "~/db/seed.server";
import { companyDescription } from "~/lib/company";
import * as settingsApi from "~/routes/api.settings";
import { deliverySchema } from "~/schemas/delivery";
import { settingsPatchSchema, settingsSchema } from "~/schemas/settings";
import { addToCart } from "~/services/cart.server";
import { submitDelivery } from "~/services/checkout.server";
import type { EmailToRender } from "~/services/email/email-types";
import { renderEmail } from "~/services/email/render.server";
import { missingLegalMentions } from "~/services/legal-mentions.server";
import { getSettings, updateSettings } from "~/services/settings.server";
import { getRequest, jsonRequest, routeArgs } from "../helpers/requests";
import { adminCookie } from "./admin-helpers";

// The pages read their loader's data; here the test hands each its loader's real answer.
const loaderData: { current: unknown } = { current: null };
vi.mock("@remix-run/react", async (original) => ({
  ...(await original<Record<string, unknown>>()),
  useLoaderData: () => loaderData.current,
}));

type Handler = (args: ReturnType<typeof routeArgs>) => Promise<Response> | Response;

const { id: _id, ...defaults } = DEFAULT_SETTINGS;
const base = { ...defaults, trialOfferEndsAt: null };

/** The messages of a failed parse of the settings with these changes, by field. */
function problems(changes: Record<string, unknown>): Record<string, string[]> {
  const result = settingsSchema.safeParse({ ...base, ...changes });
  if (result.success) return {};
  const byField: Record<string, string[]> = {};
  for (const issue of result.error.issues) (byField[issue.path.join(".")] ??= []).push(issue.message);
  return byField;
}

function parsed(changes: Record<string, unknown>) {
  return settingsSchema.parse({ ...base, ...changes });
}

describe("validation of the legal identity", () => {
  it("SIRET: 14 digits, typed with spaces, kept grouped", () => {
    expect(parsed({ siret: "92145830300017" }).siret).toBe("921 458 303 00017");
    expect(parsed({ siret: " 921 458 303 00017 " }).siret).toBe("921 458 303 00017");
    expect(problems({ siret: "921 458 303" })).toEqual({
      siret: ["Le SIRET compte 14 chiffres (par exemple 921 458 303 00017)."],
    });
    expect(problems({ siret: "92145830300O17" }).siret).toBeDefined();
    expect(problems({ siret: "" }).siret).toBeDefined();
  });

  it("VAT: an EU country code and 2 to 13 characters; a French one is the key and the SIREN, normalised", () => {
    expect(parsed({ vatNumber: "fr51 921 458 303" }).vatNumber).toBe("FR51921458303");
    expect(parsed({ vatNumber: "FR 51.921.458.303" }).vatNumber).toBe("FR51921458303");
    expect(parsed({ vatNumber: "DE123456789" }).vatNumber).toBe("DE123456789");
    expect(parsed({ vatNumber: "NL123456789B01" }).vatNumber).toBe("NL123456789B01");
    const shape = /commence par le code d'un pays de l'Union européenne/;
    expect(problems({ vatNumber: "US123456789" }).vatNumber?.[0]).toMatch(shape);
    expect(problems({ vatNumber: "DE1" }).vatNumber?.[0]).toMatch(shape);
    expect(problems({ vatNumber: "DE12345678901234" }).vatNumber?.[0]).toMatch(shape);
    expect(problems({ vatNumber: "FR5192145830" }).vatNumber).toEqual([
      "Un numéro de TVA français s'écrit FR, puis 2 caractères de clé, puis les 9 chiffres du SIREN (par exemple FR51 921 458 303).",
    ]);
    expect(problems({ vatNumber: "FR52921458303" }).vatNumber).toEqual([
      "La clé de ce numéro de TVA ne correspond pas à son SIREN : vérifiez les 2 caractères après FR.",
    ]);
    // A valid French number of another company than the SIRET's.
    expect(problems({ vatNumber: "FR40303265045" }).vatNumber).toEqual([
      "Un numéro de TVA français se termine par le SIREN du SIRET (921 458 303).",
    ]);
  });

  it("RCS number: the SIRET's SIREN; share capital: an amount in euros", () => {
    expect(parsed({ rcsNumber: "921458303" }).rcsNumber).toBe("921 458 303");
    expect(problems({ rcsNumber: "92145830" }).rcsNumber).toEqual([
      "Le numéro RCS est le SIREN : 9 chiffres (par exemple 921 458 303).",
    ]);
    expect(problems({ rcsNumber: "303 265 045" }).rcsNumber).toEqual([
      "Le numéro RCS doit être le SIREN, c'est-à-dire les 9 premiers chiffres du SIRET (921 458 303).",
    ]);
    expect(parsed({ shareCapital: "10000" }).shareCapital).toBe("10 000 €");
    expect(parsed({ shareCapital: "1 500,5 euros" }).shareCapital).toBe("1 500,50 €");
    expect(parsed({ shareCapital: "1000000 €" }).shareCapital).toBe("1 000 000 €");
    expect(problems({ shareCapital: "dix mille" }).shareCapital).toEqual([
      "Le capital social est un montant en euros (par exemple 10 000 ou 10 000 €).",
    ]);
  });

  it("mediator's website: an https address; host's phone: digits and separators; empty fields allowed", async () => {
    expect(parsed({ mediatorUrl: "https://www.mediateurfevad.fr/" }).mediatorUrl).toBe("https://www.mediateurfevad.fr/");
    const url = [
      "L'adresse du site du médiateur doit être une adresse web complète commençant par https:// (par exemple https://www.cm2c.net).",
    ];
    expect(problems({ mediatorUrl: "http://www.cm2c.net" }).mediatorUrl).toEqual(url);
    expect(problems({ mediatorUrl: "www.cm2c.net" }).mediatorUrl).toEqual(url);
    expect(problems({ mediatorUrl: "javascript:alert(1)" }).mediatorUrl).toEqual(url);
    expect(problems({ mediatorUrl: "https://localhost" }).mediatorUrl).toEqual(url);
    expect(problems({ hostPhone: "appelez-nous" }).hostPhone).toEqual([
      "Le téléphone de l'hébergeur ne doit contenir que des chiffres, espaces et + ( ) . -",
    ]);
    expect(problems({ hostName: "x".repeat(121) }).hostName).toEqual([
      "Le nom de l'hébergeur ne doit pas dépasser 120 caractères.",
    ]);
    const empty = parsed({
      legalForm: "",
      shareCapital: "",
      rcsCity: "",
      rcsNumber: null,
      hostName: "",
      hostAddress: "",
      hostPhone: "",
      mediatorName: "",
      mediatorAddress: "",
      mediatorUrl: "",
    });
    expect(empty).toMatchObject({ rcsNumber: "", mediatorUrl: "", hostName: "" });
    expect(missingLegalMentions(empty)).toEqual([
      "forme juridique",
      "capital social",
      "RCS",
      "hébergeur",
      "médiateur de la consommation",
    ]);
    expect(missingLegalMentions(await getSettings())).toEqual([]);
  });

  it("the demo shop's dashboard gives no legal mentions warning (live mode only: legal-live-mode.test.ts)", async () => {
    const { loader } = await import("~/routes/admin.dashboard");
    const data = await toResponse(
      await loader(routeArgs(getRequest("/admin/dashboard", { Cookie: await adminCookie() }))),
    ).json();
    expect(data.legalWarning).toBeNull();
  });

  it("the PATCH schema takes any of the legal fields, and nothing unknown", () => {
    expect(settingsPatchSchema.safeParse({ hostName: "Scaleway SAS" }).success).toBe(true);
    expect(settingsPatchSchema.safeParse({ hostWebsite: "https://example.fr" }).success).toBe(false);
  });
});

describe("PATCH /api/settings with the legal identity", () => {
  it("answers 422 with each field's French message, then saves normalised values that GET shows", async () => {
    const cookie = await adminCookie();
    const patch = (body: unknown) =>
      (settingsApi.action as Handler)(routeArgs(jsonRequest("/api/settings", "PATCH", body, { Cookie: cookie })));
    const before = await getSettings();

    const bad = await patch({ vatNumber: "XX123", mediatorUrl: "ftp://mediateur.fr", rcsNumber: "12" });
    expect(bad.status).toBe(422);
    const issues = ((await bad.json()) as { issues: { path: string; message: string }[] }).issues;
    expect(issues.map((i) => i.path).sort()).toEqual(["mediatorUrl", "rcsNumber", "vatNumber"]);
    expect(issues.find((i) => i.path === "mediatorUrl")?.message).toMatch(/commençant par https:\/\//);
    expect(await getSettings()).toEqual(before);

    // Correct on its own, but not the SIRET's SIREN: refused on the merged settings.
    const mismatch = await patch({ rcsNumber: "303265045" });
    expect(mismatch.status).toBe(422);
    expect(((await mismatch.json()) as { issues: { path: string }[] }).issues[0]).toMatchObject({ path: "rcsNumber" });

    const ok = await patch({
      rcsCity: "Lyon",
      rcsNumber: "921458303",
      shareCapital: "25000",
      hostPhone: "+33 1 84 13 00 00",
      mediatorUrl: "https://www.mediateurfevad.fr",
    });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({
      rcsCity: "Lyon",
      rcsNumber: "921 458 303",
      shareCapital: "25 000 €",
      hostPhone: "+33 1 84 13 00 00",
    });
    const read = await (await (settingsApi.loader as Handler)(routeArgs(getRequest("/api/settings")))).json();
    expect(read).toMatchObject({ rcsCity: "Lyon", mediatorUrl: "https://www.mediateurfevad.fr", hostName: "OVH SAS" });
    await updateSettings(before);
  });
});

// ---------------------------------------------------------------------------------------------
// The texts read the settings: a change shows on the legal notice, the terms and the next email.

async function renderPage(path: "/mentions-legales" | "/cgv") {
  const { default: Page, loader } = path === "/cgv" ? await import("~/routes/cgv") : await import("~/routes/mentions-legales");
  loaderData.current = await toResponse(await loader(routeArgs(new Request(`http://localhost:3000${path}`)))).json();
  return renderToStaticMarkup(createElement(StaticRouter, { location: path }, createElement(Page)));
}

let emailId = 900;
function confirmationEmail(orderId: number): EmailToRender {
  return {
    id: ++emailId,
    kind: "order_confirmation",
    orderId,
    contactRequestId: null,
    toAddress: "client@example.fr",
    payload: {},
    createdAt: "2026-12-01T10:00:00.000Z",
  };
}

async function paidOrder() {
  const cartId = crypto.randomUUID();
  await addToCart(cartId, { productId: 1, packId: 2 });
  const delivery = {
    firstName: "Camille",
    lastName: "Martin",
    email: "camille.legal@example.fr",
    address: "8 rue des Fleurs",
    postalCode: "69003",
    city: "Lyon",
  };
  const { orderId } = await submitDelivery(cartId, deliverySchema.parse(delivery));
  await getDb().update(orders).set({ paymentStatus: "paid", paidAt: "2026-12-01T09:30:00.000Z" }).where(eq(orders.id, orderId));
  return orderId;
}

const NEW_IDENTITY = {
  legalName: "Atelier Lumière SARL",
  legalForm: "société à responsabilité limitée",
  shareCapital: "5 000 €",
  rcsCity: "Bordeaux",
  rcsNumber: "303 265 045",
  siret: "303 265 045 00031",
  vatNumber: "FR40303265045",
  publicationDirector: "Jeanne Martin",
  publicationDirectorRole: "Gérante",
  hostName: "Scaleway SAS",
  hostAddress: "8 rue de la Ville-l'Évêque\n75008 Paris",
  hostPhone: "01 84 13 00 00",
  mediatorName: "Médiateur de la consommation FEVAD",
  mediatorAddress: "BP 20015\n75362 Paris Cedex 8",
  mediatorUrl: "https://www.mediateurfevad.fr",
};

describe("the legal texts read the settings", () => {
  it("the demo settings give the legal notice its editor, registration, director, host and mediator", async () => {
    const html = await renderPage("/mentions-legales");
    expect(html).toContain("Le site Maison Éclat est édité par Maison Éclat SAS au capital de 10 000 €.");
    expect(html).toContain("Immatriculation : RCS Paris 921 458 303");
    expect(html).toContain("SIRET : 921 458 303 00017");
    expect(html).toContain("Numéro de TVA intracommunautaire : FR51921458303");
    expect(html).toContain("Claire Dumont, Présidente de Maison Éclat SAS.");
    expect(html).toContain("Le site est hébergé par OVH SAS, 2 rue Kellermann, 59100 Roubaix, France, téléphone : 1007.");
    expect(html).toContain("médiateur de la consommation : CM2C");
  });

  it("changing the RCS, the host and the mediator changes the legal notice, the terms of sale and the next confirmation email", async () => {
    const earlier = await paidOrder();
    const sentBefore = await renderEmail(confirmationEmail(earlier));
    expect(sentBefore.text).toContain("RCS Paris 921 458 303");

    await updateSettings(settingsSchema.parse({ ...(await getSettings()), ...NEW_IDENTITY }));

    const notice = await renderPage("/mentions-legales");
    expect(notice).toContain("édité par Atelier Lumière SARL, société à responsabilité limitée au capital de 5 000 €.");
    expect(notice).toContain("Immatriculation : RCS Bordeaux 303 265 045");
    expect(notice).toContain("Jeanne Martin, Gérante de Atelier Lumière SARL.");
    expect(notice).toContain(
      "Le site est hébergé par Scaleway SAS, 8 rue de la Ville-l&#x27;Évêque, 75008 Paris, téléphone : 01 84 13 00 00.",
    );
    expect(notice).toContain("Médiateur de la consommation FEVAD, BP 20015, 75362 Paris Cedex 8");
    expect(notice).not.toContain("OVH");
    expect(notice).not.toContain("921 458 303");

    const cgv = await renderPage("/cgv");
    expect(cgv).toContain(
      "entre la société Atelier Lumière SARL, société à responsabilité limitée au capital de 5 000 €, immatriculée au RCS Bordeaux 303 265 045, SIRET 303 265 045 00031, TVA intracommunautaire FR40303265045",
    );
    expect(cgv).toContain(
      'Médiateur de la consommation FEVAD, BP 20015, 75362 Paris Cedex 8, <a href="https://www.mediateurfevad.fr"',
    );
    expect(cgv).toContain("À l&#x27;attention de Atelier Lumière SARL");
    expect(cgv).not.toContain("CM2C");

    // The next confirmation email, its seller block and its attached terms.
    const next = await renderEmail(confirmationEmail(await paidOrder()));
    for (const part of [next.html, next.text]) {
      expect(part).toContain("Atelier Lumière SARL, société à responsabilité limitée au capital de 5 000 €");
      expect(part).toContain("RCS Bordeaux 303 265 045 – SIRET 303 265 045 00031 – TVA FR40303265045");
      expect(part).toContain(
        "En cas de litige, vous pouvez recourir gratuitement au médiateur de la consommation : Médiateur de la consommation FEVAD, BP 20015, 75362 Paris Cedex 8, www.mediateurfevad.fr.",
      );
      expect(part).not.toContain("921 458 303");
    }
    const terms = String(next.attachments?.[0]?.content ?? "");
    expect(terms).toContain("RCS Bordeaux 303 265 045");
    expect(terms).toContain("Médiateur de la consommation FEVAD");
    // An email already rendered is kept as it was sent (the outbox stores it).
    expect(sentBefore.text).toContain("RCS Paris 921 458 303");
  });

  it("the order pages' mediator line, and none without a mediator", () => {
    const line = renderToStaticMarkup(createElement(MediatorNotice, { settings: NEW_IDENTITY }));
    expect(line).toContain(
      'En cas de litige, vous pouvez recourir gratuitement au médiateur de la consommation : Médiateur de la consommation FEVAD, BP 20015, 75362 Paris Cedex 8, <a href="https://www.mediateurfevad.fr"',
    );
    expect(line).toContain(">www.mediateurfevad.fr</a>.");
    expect(
      renderToStaticMarkup(
        createElement(MediatorNotice, { settings: { mediatorName: "", mediatorAddress: "", mediatorUrl: "" } }),
      ),
    ).toBe("");
  });
});

describe("the company's description (invoices, credit notes, emails, legal texts)", () => {
  it("reads « SAS au capital de 10 000 € » with the demo settings, never « SAS, SAS »", () => {
    expect(DEFAULT_SETTINGS.legalForm).toBe("SAS");
    expect(companyDescription({ ...DEFAULT_SETTINGS, legalName: "" })).toBe("SAS au capital de 10 000 €");
    expect(companyDescription(DEFAULT_SETTINGS)).toBe("Maison Éclat SAS au capital de 10 000 €");
    expect(companyDescription({ legalName: "Atelier Lune", legalForm: "SARL", shareCapital: "5 000 €" })).toBe(
      "Atelier Lune, SARL au capital de 5 000 €",
    );
    expect(companyDescription({ legalName: "Atelier Lune SARL", legalForm: "sarl", shareCapital: "" })).toBe("Atelier Lune SARL");
    expect(companyDescription({ legalName: "", legalForm: "", shareCapital: "" })).toBe("");
  });
});
