import { asResponses } from "../helpers/route-response";
import { describe, expect, it } from "vitest";
import { action as pageActionRoute, loader as pageLoaderRoute } from "~/routes/admin.contacts";
import { loader as testContactsLoaderRoute } from "~/routes/admin_.test-contacts";
import { action as settingsActionRoute, loader as settingsLoaderRoute } from "~/routes/admin.settings";
import { createContactRequest, getContactRequest } from "~/services/contacts.server";
import { getSettings } from "~/services/settings.server";
import { formRequest, getRequest, routeArgs } from "../helpers/requests";
import { adminCookie, cookieFrom } from "./admin-helpers";

const action = asResponses(pageActionRoute);
const loader = asResponses(pageLoaderRoute);
const testContactsLoader = asResponses(testContactsLoaderRoute);
const settingsAction = asResponses(settingsActionRoute);
const settingsLoader = asResponses(settingsLoaderRoute);

const message = {
  name: "Léa Petit",
  email: "lea@example.fr",
  subject: "Mon colis",
  message: "Bonjour,\nmon colis n'est pas arrivé.",
};

describe("admin contacts page", () => {
  it("opening a request (the admin's 'open' post) marks it read and shows it in the dialog (?id=)", async () => {
    const cookie = await adminCookie();
    const c = await createContactRequest(message);
    const response = await action(
      routeArgs(formRequest("/admin/contacts", { intent: "open", id: String(c.id) }, { headers: { Cookie: cookie } })),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`/admin/contacts?id=${c.id}`);
    expect((await getContactRequest(c.id))?.status).toBe("lu");
    const data = await (await loader(routeArgs(getRequest(`/admin/contacts?id=${c.id}`, { Cookie: cookie })))).json();
    expect(data.opened).toMatchObject({ id: c.id, status: "lu", message: message.message });
  });

  it("the open dialog's loader, run again by the 30-second refresh or a reload, does not mark a request read", async () => {
    const cookie = await adminCookie();
    const c = await createContactRequest(message);
    // What useRevalidator() fetches: the same URL, with Remix's _data parameter.
    for (const url of [`/admin/contacts?id=${c.id}&_data=routes%2Fadmin.contacts`, `/admin/contacts?id=${c.id}`]) {
      const data = await (await loader(routeArgs(getRequest(url, { Cookie: cookie })))).json();
      expect(data.opened).toMatchObject({ id: c.id, status: "non_lu" });
    }
    expect((await getContactRequest(c.id))?.status).toBe("non_lu");
  });

  it("opening keeps a status other than unread, and refuses an unknown request", async () => {
    const cookie = await adminCookie();
    const c = await createContactRequest(message);
    await action(
      routeArgs(
        formRequest(
          "/admin/contacts",
          { intent: "status", id: String(c.id), status: "traite", redirectTo: "/admin/contacts" },
          { headers: { Cookie: cookie } },
        ),
      ),
    );
    await action(
      routeArgs(formRequest("/admin/contacts", { intent: "open", id: String(c.id) }, { headers: { Cookie: cookie } })),
    );
    expect((await getContactRequest(c.id))?.status).toBe("traite");
    const unknown = await action(
      routeArgs(formRequest("/admin/contacts", { intent: "open", id: "999999999" }, { headers: { Cookie: cookie } })),
    );
    expect(unknown.headers.get("Location")).toBe("/admin/contacts");
    expect(cookieFrom(unknown, "toast-session")).not.toBeNull();
  });

  it("the list alone does not mark anything read; ?delete= asks for confirmation", async () => {
    const cookie = await adminCookie();
    const c = await createContactRequest(message);
    const data = await (await loader(routeArgs(getRequest(`/admin/contacts?delete=${c.id}`, { Cookie: cookie })))).json();
    expect(data.toDelete).toMatchObject({ id: c.id });
    expect((await getContactRequest(c.id))?.status).toBe("non_lu");
  });

  it("changes a status with a toast and comes back to the same view", async () => {
    const cookie = await adminCookie();
    const c = await createContactRequest(message);
    const response = await action(
      routeArgs(
        formRequest(
          "/admin/contacts",
          { intent: "status", id: String(c.id), status: "en_cours", redirectTo: `/admin/contacts?id=${c.id}` },
          { headers: { Cookie: cookie } },
        ),
      ),
    );
    expect(response.headers.get("Location")).toBe(`/admin/contacts?id=${c.id}`);
    expect(response.headers.get("X-Remix-Replace")).toBe("true");
    expect(cookieFrom(response, "toast-session")).not.toBeNull();
    expect((await getContactRequest(c.id))?.status).toBe("en_cours");
  });

  it("setting 'non lu' from the open dialog closes it (the request is left unread)", async () => {
    const cookie = await adminCookie();
    const c = await createContactRequest(message);
    const response = await action(
      routeArgs(
        formRequest(
          "/admin/contacts",
          { intent: "status", id: String(c.id), status: "non_lu", redirectTo: `/admin/contacts?id=${c.id}` },
          { headers: { Cookie: cookie } },
        ),
      ),
    );
    expect(response.headers.get("Location")).toBe("/admin/contacts");
    expect((await getContactRequest(c.id))?.status).toBe("non_lu");
  });

  it("refuses an unknown status and an open redirect", async () => {
    const cookie = await adminCookie();
    const c = await createContactRequest(message);
    const response = await action(
      routeArgs(
        formRequest(
          "/admin/contacts",
          { intent: "status", id: String(c.id), status: "archive", redirectTo: "https://evil.example" },
          { headers: { Cookie: cookie } },
        ),
      ),
    );
    expect(response.headers.get("Location")).toBe("/admin/contacts");
    expect((await getContactRequest(c.id))?.status).toBe("non_lu");
  });

  it("deletes a request", async () => {
    const cookie = await adminCookie();
    const c = await createContactRequest(message);
    const response = await action(
      routeArgs(formRequest("/admin/contacts", { intent: "delete", id: String(c.id) }, { headers: { Cookie: cookie } })),
    );
    expect(response.headers.get("Location")).toBe("/admin/contacts");
    expect(await getContactRequest(c.id)).toBeUndefined();
  });

  it("an action without a session changes nothing", async () => {
    const c = await createContactRequest(message);
    await expect(
      action(routeArgs(formRequest("/admin/contacts", { intent: "delete", id: String(c.id) }))),
    ).rejects.toBeInstanceOf(Response);
    expect(await getContactRequest(c.id)).toBeDefined();
  });
});

describe("test contacts page (demo mode)", () => {
  it("lists the requests", async () => {
    await createContactRequest(message);
    const data = await (await testContactsLoader(routeArgs(getRequest("/admin/test-contacts")))).json();
    expect(data.contacts.length).toBeGreaterThan(0);
  });
});

describe("settings page", () => {
  const valid = {
    siteName: "Maison Éclat Paris",
    siteEmail: "bonjour@maison-eclat.fr",
    siteDescription: "Masques au collagène.",
    siteAddress: "1 rue de la Paix\n75002 Paris",
    sitePhone: "+33 1 23 45 67 89",
    siteFooterText: "© Maison Éclat",
    legalName: "Maison Éclat SAS",
    siret: "921 458 303 00017",
    vatNumber: "FR51921458303",
    legalForm: "SAS",
    shareCapital: "10 000 €",
    rcsCity: "Paris",
    rcsNumber: "921 458 303",
    publicationDirector: "Claire Dumont",
    publicationDirectorRole: "",
    hostName: "Scaleway SAS",
    hostAddress: "8 rue de la Ville-l'Évêque\n75008 Paris",
    hostPhone: "01 84 13 00 00",
    mediatorName: "Médiateur de la consommation FEVAD",
    mediatorAddress: "BP 20015\n75362 Paris Cedex 8",
    mediatorUrl: "https://www.mediateurfevad.fr",
    defaultCarrier: "colissimo",
  };

  it("saves the fields (the seller's identity, the default carrier, the trial offer's end read in Paris time) and redirects with the toast", async () => {
    const cookie = await adminCookie();
    const response = await settingsAction(
      routeArgs(
        formRequest("/admin/settings", { ...valid, trialOfferEndsAt: "2026-12-01T18:30" }, { headers: { Cookie: cookie } }),
      ),
    );
    expect(response.headers.get("Location")).toBe("/admin/settings");
    expect(cookieFrom(response, "toast-session")).not.toBeNull();
    expect(await getSettings()).toEqual({
      ...valid,
      trialOfferEndsAt: "2026-12-01T17:30:00.000Z",
      emailContentRetentionDays: 90,
    });
    const data = await (await settingsLoader(routeArgs(getRequest("/admin/settings", { Cookie: cookie })))).json();
    expect(data.settings).toEqual({ ...valid, trialOfferEndsAt: "2026-12-01T18:30", emailContentRetentionDays: "90" });
  });

  it("refuses an invalid email with a French message and keeps the settings", async () => {
    const cookie = await adminCookie();
    const before = await getSettings();
    const response = await settingsAction(
      routeArgs(formRequest("/admin/settings", { ...valid, siteEmail: "faux" }, { headers: { Cookie: cookie } })),
    );
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.result.error?.siteEmail).toEqual(["Veuillez entrer une adresse email valide."]);
    expect(body.toast.description).toBe("Impossible de mettre à jour les paramètres : Veuillez entrer une adresse email valide.");
    expect(await getSettings()).toEqual(before);
  });
});
