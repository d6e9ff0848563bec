import { toResponse } from "../helpers/route-response";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { StaticRouter } from "react-router-dom/server";
import { describe, expect, it } from "vitest";
import { getRequest, routeArgs } from "../helpers/requests";

/**
 * A live shop (SHOP_MODE=live) whose legal mentions are missing, or still the demo company's: the
 * dashboard says which, with a link to the settings. Modules are imported after the environment
 * is set, so the configuration is read in live mode.
 */
process.env.SHOP_MODE = "live";
process.env.STRIPE_SECRET_KEY = "sk_test_legal_live_unit";
process.env.STRIPE_PUBLISHABLE_KEY = "pk_test_legal_live_unit";
process.env.STRIPE_WEBHOOK_SECRET = "whsec_legal_live_unit";
process.env.SESSION_SECRET = "une-cle-de-session-de-test-assez-longue";
process.env.SMTP_URL = "smtp://127.0.0.1:9";

async function dashboardWarning() {
  const { adminCookie } = await import("./admin-helpers");
  const { loader } = await import("~/routes/admin.dashboard");
  const data = await toResponse(await loader(routeArgs(getRequest("/admin/dashboard", { Cookie: await adminCookie() })))).json();
  return data.legalWarning as { missing: string[]; demoCompany: boolean } | null;
}

async function renderWarning(warning: { missing: string[]; demoCompany: boolean } | null) {
  const { LegalMentionsWarning } = await import("~/components/admin/LegalMentionsWarning");
  return renderToStaticMarkup(
    createElement(StaticRouter, { location: "/admin/dashboard" }, createElement(LegalMentionsWarning, { warning })),
  );
}

describe("legal mentions on the dashboard of a live shop", () => {
  it("warns while the settings still hold the demo company", async () => {
    const { getConfig } = await import("~/config.server");
    expect(getConfig().mode).toBe("live");
    const warning = await dashboardWarning();
    expect(warning).toEqual({ missing: [], demoCompany: true });
    const html = await renderWarning(warning);
    expect(html).toContain("L&#x27;identité de la société est encore celle de la boutique de démonstration.");
    expect(html).toContain('href="/admin/settings"');
    expect(html).not.toContain("Mentions obligatoires manquantes");
  });

  it("lists the empty mentions (RCS, host, mediator...), and says nothing once all are filled in", async () => {
    const { getSettings, updateSettings } = await import("~/services/settings.server");
    const { settingsSchema } = await import("~/schemas/settings");
    const shop = {
      ...(await getSettings()),
      legalName: "Atelier Lumière SARL",
      siret: "303 265 045 00031",
      vatNumber: "FR40303265045",
      rcsNumber: "",
      hostPhone: "",
      mediatorName: "",
      mediatorAddress: "",
      mediatorUrl: "",
    };
    await updateSettings(settingsSchema.parse(shop));
    const warning = await dashboardWarning();
    expect(warning).toEqual({ missing: ["RCS", "hébergeur", "médiateur de la consommation"], demoCompany: false });
    const html = await renderWarning(warning);
    expect(html).toContain("Mentions obligatoires manquantes : RCS, hébergeur, médiateur de la consommation.");
    expect(html).toContain('role="alert"');
    expect(html).toContain('href="/admin/settings"');
    expect(html).not.toContain("démonstration");

    await updateSettings(
      settingsSchema.parse({
        ...shop,
        rcsNumber: "303265045",
        hostPhone: "01 84 13 00 00",
        mediatorName: "Médiateur de la consommation FEVAD",
        mediatorAddress: "BP 20015\n75362 Paris Cedex 8",
        mediatorUrl: "https://www.mediateurfevad.fr",
      }),
    );
    expect(await dashboardWarning()).toBeNull();
    expect(await renderWarning(null)).toBe("");
  });
});
