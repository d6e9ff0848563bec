import { asResponses } from "../helpers/route-response";
import { describe, expect, it } from "vitest";
import { action as pageActionRoute } from "~/routes/contact";
import { contactSchema } from "~/schemas/contact";
import {
  countContactRequests,
  createContactRequest,
  deleteContactRequest,
  listContactRequests,
  openContactRequest,
  setContactStatus,
} from "~/services/contacts.server";
import { formRequest, routeArgs } from "../helpers/requests";

const action = asResponses(pageActionRoute);

const valid = {
  name: "Camille Martin",
  email: "camille@example.fr",
  subject: "Ma commande",
  message: "Bonjour, où en est ma commande ?",
};

describe("contact schema", () => {
  it("gives the spec's French message for each invalid field", () => {
    const result = contactSchema.safeParse({ name: "C", email: "pas-un-email", subject: "x", message: "court" });
    expect(result.success).toBe(false);
    const messages = Object.fromEntries(result.error!.issues.map((i) => [i.path[0], i.message]));
    expect(messages).toEqual({
      name: "Le nom doit contenir au moins 2 caractères.",
      email: "Veuillez entrer une adresse email valide.",
      subject: "L'objet doit contenir au moins 2 caractères.",
      message: "Le message doit contenir au moins 10 caractères.",
    });
  });
  it("trims the fields before checking their length", () => {
    expect(contactSchema.safeParse({ ...valid, name: "  A  " }).success).toBe(false);
  });
});

describe("contact service", () => {
  it("stores a request as non_lu, marks it lu when opened, and counts unread ones", async () => {
    const created = await createContactRequest(valid);
    expect(created.status).toBe("non_lu");
    expect(await countContactRequests()).toMatchObject({ unread: 1 });
    expect((await openContactRequest(created.id))?.status).toBe("lu");
    expect(await countContactRequests()).toMatchObject({ unread: 0 });
    await setContactStatus(created.id, "en_cours");
    // Opening again does not undo a status the admin chose.
    expect((await openContactRequest(created.id))?.status).toBe("en_cours");
    expect(await deleteContactRequest(created.id)).toEqual({ id: created.id });
    expect((await listContactRequests()).find((c) => c.id === created.id)).toBeUndefined();
  });
});

describe("contact page action", () => {
  it("stores a valid message and answers with a cleared form", async () => {
    const before = (await listContactRequests()).length;
    const response = await action(routeArgs(formRequest("/contact", valid)));
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.outcome).toBe("success");
    expect((await listContactRequests()).length).toBe(before + 1);
    expect((await listContactRequests())[0]).toMatchObject({ ...valid, status: "non_lu" });
  });

  it("refuses invalid input with a 400 and stores nothing", async () => {
    const before = (await listContactRequests()).length;
    const response = await action(routeArgs(formRequest("/contact", { ...valid, email: "faux" })));
    expect(response.status).toBe(400);
    const body = await response.json();
    expect(body.result.error?.email).toEqual(["Veuillez entrer une adresse email valide."]);
    expect((await listContactRequests()).length).toBe(before);
  });

  it("stores nothing when the honeypot is filled", async () => {
    const before = (await listContactRequests()).length;
    const response = await action(routeArgs(formRequest("/contact", { ...valid, website: "http://spam" })));
    expect(response.status).toBe(200);
    expect((await listContactRequests()).length).toBe(before);
  });
});
