import { asResponses } from "../helpers/route-response";
import { eq } from "drizzle-orm";
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { OrderWithdrawal } from "~/components/admin/OrderWithdrawal";
import { getDb } from "~/db/client.server";
import { emails, orders, withdrawalRequests, type Email } from "~/db/schema";
import { withdrawalDeadline, formatRequestMoment } from "~/lib/withdrawal-deadline";
import { ShopError } from "~/lib/shop-error";
import { loader as dashboardLoaderRoute } from "~/routes/admin.dashboard";
import { loader as adminOrderLoaderRoute } from "~/routes/admin.orders.$id";
import { loader as apiOrderLoader } from "~/routes/api.orders.$id";
import { action as apiWithdrawalAction } from "~/routes/api.withdrawals";
import { action as pageActionRoute, loader as pageLoaderRoute } from "~/routes/retractation";
import { WITHDRAWAL_NEUTRAL_MESSAGE, WITHDRAWAL_NO_ACK_MESSAGE } from "~/schemas/withdrawal";
import { renderEmail } from "~/services/email/render.server";
import { adminWithdrawal, listOpenWithdrawals, requestWithdrawal, resetWithdrawalRateLimit } from "~/services/withdrawals.server";
import { formRequest, fromAddress, getRequest, jsonRequest, routeArgs } from "../helpers/requests";
import { adminCookie, insertOrder } from "./admin-helpers";

const dashboardLoader = asResponses(dashboardLoaderRoute);
const adminOrderLoader = asResponses(adminOrderLoaderRoute);
const pageAction = asResponses(pageActionRoute);
const pageLoader = asResponses(pageLoaderRoute);

const PUBLIC_URL = vi.hoisted(() => {
  const url = "https://boutique.maison-eclat.test";
  process.env.PUBLIC_URL = url;
  return url;
});

const EMAIL = "camille@example.fr"; // insertOrder's checkout email

beforeEach(async () => {
  await resetWithdrawalRateLimit();
});

async function withdrawalsOf(orderId: number) {
  return await getDb().select().from(withdrawalRequests).where(eq(withdrawalRequests.orderId, orderId));
}

async function acksOf(orderId: number): Promise<Email[]> {
  return (await getDb().select().from(emails).where(eq(emails.orderId, orderId))).filter((e) => e.kind === "withdrawal_ack");
}

function postPage(fields: Record<string, string>, address = "192.0.2.10") {
  return pageAction(routeArgs(formRequest("/retractation", fields), {}, fromAddress(address)));
}

describe("requestWithdrawal", () => {
  it("records the request of a paid order whose email matches (any case, spaces) and queues one acknowledgement", async () => {
    const orderId = await insertOrder({ paymentStatus: "paid" });
    const now = new Date("2026-11-25T18:42:00.000Z");
    const result = await requestWithdrawal(
      { orderId: ` ${orderId} `, email: "  Camille@EXAMPLE.fr ", reason: "  Le produit ne me convient pas.  " },
      { now },
    );
    expect(result.outcome).toBe("recorded");

    const [row] = await withdrawalsOf(orderId);
    expect(row).toMatchObject({
      orderId,
      requestedAt: now.toISOString(),
      reason: "Le produit ne me convient pas.",
      email: "Camille@EXAMPLE.fr",
    });
    const acks = await acksOf(orderId);
    expect(acks).toHaveLength(1);
    expect(acks[0]).toMatchObject({
      toAddress: EMAIL,
      status: "pending",
      payload: { requestedAt: now.toISOString(), reason: "Le produit ne me convient pas." },
    });
  });

  it("records a refunded order too (paid, then refunded), without a reason", async () => {
    const orderId = await insertOrder({ paymentStatus: "refunded" });
    expect((await requestWithdrawal({ orderId, email: EMAIL, reason: "   " })).outcome).toBe("recorded");
    expect((await withdrawalsOf(orderId))[0].reason).toBeNull();
  });

  it("records nothing and sends nothing for an unknown order, a wrong email, an unpaid or failed order", async () => {
    const unpaid = await insertOrder({ paymentStatus: "unpaid" });
    const failed = await insertOrder({ paymentStatus: "failed" });
    const paid = await insertOrder({ paymentStatus: "paid" });
    const noEmail = await insertOrder({ paymentStatus: "paid", customerEmail: null });
    const before = (await getDb().select().from(emails)).length;

    expect((await requestWithdrawal({ orderId: "987654321", email: EMAIL })).outcome).toBe("no_match");
    expect((await requestWithdrawal({ orderId: paid, email: "autre@example.fr" })).outcome).toBe("no_match");
    expect((await requestWithdrawal({ orderId: unpaid, email: EMAIL })).outcome).toBe("no_match");
    expect((await requestWithdrawal({ orderId: failed, email: EMAIL })).outcome).toBe("no_match");
    expect((await requestWithdrawal({ orderId: noEmail, email: "" })).outcome).toBe("no_match");

    for (const id of [unpaid, failed, paid, noEmail]) expect(await withdrawalsOf(id)).toEqual([]);
    expect(await getDb().select().from(emails)).toHaveLength(before);
  });

  it("keeps one request per order: a second one records nothing new and sends no second email", async () => {
    const orderId = await insertOrder({ paymentStatus: "paid" });
    const first = new Date("2026-11-25T10:00:00.000Z");
    expect((await requestWithdrawal({ orderId, email: EMAIL, reason: "Premier motif" }, { now: first })).outcome).toBe(
      "recorded",
    );
    expect(
      (await requestWithdrawal({ orderId, email: EMAIL, reason: "Second motif" }, { now: new Date("2026-11-25T10:05:00.000Z") }))
        .outcome,
    ).toBe("already_recorded");

    const rows = await withdrawalsOf(orderId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ requestedAt: first.toISOString(), reason: "Premier motif" });
    expect(await acksOf(orderId)).toHaveLength(1);
  });

  it("refuses an address that sent too many requests matching nothing (429), not the others", async () => {
    const orderId = await insertOrder({ paymentStatus: "paid" });
    for (let i = 0; i < 10; i++) await requestWithdrawal({ orderId: "987654321", email: EMAIL }, { address: "198.51.100.7" });
    let refusal: unknown;
    try {
      await requestWithdrawal({ orderId, email: EMAIL }, { address: "198.51.100.7" });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(ShopError);
    expect((refusal as ShopError).status).toBe(429);
    expect((refusal as ShopError).message).toMatch(/^Trop de demandes de rétractation.*Réessayez dans/);
    expect(await withdrawalsOf(orderId)).toEqual([]);

    expect((await requestWithdrawal({ orderId, email: EMAIL }, { address: "198.51.100.8" })).outcome).toBe("recorded");
  });
});

describe("the /retractation page", () => {
  it("asks for the order number and the email, with French errors, and checks the number's 9 digits", async () => {
    const empty = await postPage({ intent: "review" });
    expect(empty.status).toBe(400);
    const body = await empty.json();
    expect(body.step).toBe("form");
    expect(body.result?.error).toEqual({ orderId: ["Le numéro de commande est requis"], email: ["L'adresse email est requise"] });

    const bad = await (await postPage({ intent: "review", orderId: "12345", email: "pas-un-email" })).json();
    expect(bad.result?.error).toEqual({
      orderId: ["Le numéro de commande comporte 9 chiffres : il figure dans l'email de confirmation de votre commande."],
      email: ["Adresse email invalide"],
    });

    const long = await (
      await postPage({ intent: "review", orderId: "123456789", email: EMAIL, reason: "a".repeat(1001) })
    ).json();
    expect(long.result?.error).toEqual({ reason: ["Le motif ne doit pas dépasser 1000 caractères."] });

    // A confirmation without the fields records nothing either.
    const confirm = await postPage({ intent: "confirm" });
    expect(confirm.status).toBe(400);
  });

  it("shows the request to confirm first (step 2), recording nothing yet; `edit` goes back to the form with it", async () => {
    const orderId = await insertOrder({ paymentStatus: "paid" });
    const review = await postPage({
      intent: "review",
      orderId: `n° ${orderId}`,
      email: ` ${EMAIL} `,
      reason: " Trop de masques ",
    });
    expect(review.status).toBe(200);
    expect(await review.json()).toMatchObject({
      step: "confirm",
      values: { orderId: String(orderId), email: EMAIL, reason: "Trop de masques" },
    });
    expect(await withdrawalsOf(orderId)).toEqual([]);

    const edit = await postPage({ intent: "edit", orderId: String(orderId), email: EMAIL, reason: "Trop de masques" });
    expect(await edit.json()).toMatchObject({
      step: "form",
      values: { orderId: String(orderId), email: EMAIL, reason: "Trop de masques" },
    });
    expect(await withdrawalsOf(orderId)).toEqual([]);
  });

  it("answers every confirmed request with the same neutral redirect, and records only the matching one", async () => {
    const orderId = await insertOrder({ paymentStatus: "paid" });
    const unpaid = await insertOrder({ paymentStatus: "unpaid" });
    const answers = [
      await postPage({ intent: "confirm", orderId: String(orderId), email: "CAMILLE@example.fr", reason: "" }),
      await postPage({ intent: "confirm", orderId: "987654321", email: EMAIL }),
      await postPage({ intent: "confirm", orderId: String(orderId), email: "autre@example.fr" }),
      await postPage({ intent: "confirm", orderId: String(unpaid), email: EMAIL }),
      await postPage({ intent: "confirm", orderId: String(orderId), email: EMAIL }),
    ];
    for (const answer of answers) {
      expect(answer.status).toBe(302);
      expect(answer.headers.get("Location")).toBe("/retractation?demande=envoyee");
    }
    expect(await withdrawalsOf(orderId)).toHaveLength(1);
    expect(await withdrawalsOf(unpaid)).toEqual([]);
    expect(await acksOf(orderId)).toHaveLength(1);

    const done = await (await pageLoader(routeArgs(getRequest("/retractation?demande=envoyee")))).json();
    expect(done.done).toBe(true);
    expect(WITHDRAWAL_NEUTRAL_MESSAGE).toBe(
      "Si une commande correspond à ces informations, votre demande de rétractation est enregistrée et un accusé de réception vous est envoyé par e-mail dans les minutes qui suivent.",
    );
    expect(WITHDRAWAL_NO_ACK_MESSAGE).toMatch(
      /^Pas d'accusé de réception d'ici quelques minutes \? Vérifiez vos courriers indésirables/,
    );
    expect(WITHDRAWAL_NO_ACK_MESSAGE).toContain("écrivez-nous depuis la page Contact");
  });

  it("records nothing when the hidden anti-bot field is filled, with the same answer", async () => {
    const orderId = await insertOrder({ paymentStatus: "paid" });
    const answer = await postPage({ intent: "confirm", orderId: String(orderId), email: EMAIL, website: "http://spam.example" });
    expect(answer.headers.get("Location")).toBe("/retractation?demande=envoyee");
    expect(await withdrawalsOf(orderId)).toEqual([]);
  });

  it("tells a limited address to wait (429), on the confirmation step", async () => {
    for (let i = 0; i < 10; i++) await postPage({ intent: "confirm", orderId: "987654321", email: EMAIL }, "203.0.113.9");
    const limited = await postPage({ intent: "confirm", orderId: "987654321", email: EMAIL }, "203.0.113.9");
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);
    const body = await limited.json();
    expect(body.step).toBe("confirm");
    expect(body.refusal).toMatch(/Réessayez dans/);
  });

  it("prefills the order number of the confirmation email's link and states the return address", async () => {
    const data = await (await pageLoader(routeArgs(getRequest("/retractation?commande=123456789")))).json();
    expect(data.orderId).toBe("123456789");
    expect(data.done).toBe(false);
    expect(data.rights.returnAddress).toEqual(["Maison Éclat SAS", "12 rue des Lilas", "75011 Paris", "France"]);
    expect(data.rights.modelFormPath).toBe("/cgv#retractation");
  });
});

describe("POST /api/withdrawals", () => {
  const post = (body: unknown, address = "192.0.2.20") =>
    apiWithdrawalAction(routeArgs(jsonRequest("/api/withdrawals", "POST", body), {}, fromAddress(address)));

  it("answers 200 with the same neutral message for a matching order and for anything else, recording only the match", async () => {
    const orderId = await insertOrder({ paymentStatus: "paid" });
    const matching = await post({ orderId: String(orderId), email: "CAMILLE@example.fr", reason: "Changement d'avis" });
    const unknown = await post({ orderId: "987654321", email: EMAIL });
    for (const response of [matching, unknown]) {
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        message: WITHDRAWAL_NEUTRAL_MESSAGE,
        ifNoAcknowledgement: WITHDRAWAL_NO_ACK_MESSAGE,
      });
    }
    expect(await withdrawalsOf(orderId)).toHaveLength(1);
    expect(await acksOf(orderId)).toHaveLength(1);
  });

  it("refuses missing or malformed fields with the form's French messages", async () => {
    const response = await post({ orderId: "12", reason: 5 });
    expect(response.status).toBe(422);
    const body = await response.json();
    expect(body.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ path: "orderId", message: expect.stringContaining("9 chiffres") }),
        expect.objectContaining({ path: "email", message: "L'adresse email est requise" }),
      ]),
    );
  });
});

describe("withdrawal_ack email", () => {
  it("gives the date and time of the request (Paris), the order number, the reason and what the right covers", async () => {
    const orderId = await insertOrder({ paymentStatus: "paid", customerFirstName: "Camille", customerLastName: "Martin" });
    await requestWithdrawal(
      { orderId, email: EMAIL, reason: "Je préfère <un autre> produit" },
      { now: new Date("2026-11-25T18:42:00.000Z") },
    );
    const [queued] = await acksOf(orderId);
    const rendered = await renderEmail(queued);

    expect(rendered.subject).toBe(`Accusé de réception de votre rétractation (commande n°${orderId})`);
    expect(rendered.html).toContain("Je préfère &lt;un autre&gt; produit");
    expect(rendered.text).toContain("> Je préfère <un autre> produit");
    for (const part of [rendered.html.replaceAll("&#x27;", "'"), rendered.text]) {
      expect(part).toContain("le 25 novembre 2026 à 19:42");
      expect(part).toContain(`n°${orderId}`);
      expect(part).toContain("14 jours à compter de la réception de votre commande");
      expect(part).toContain("Seuls les sachets de masques encore scellés peuvent être retournés");
      expect(part).toContain("article L. 221-28, 5° du Code de la consommation");
      expect(part).toContain("12 rue des Lilas");
      expect(part).toContain("75011 Paris");
      expect(part).toContain("Les frais de retour sont à votre charge");
      expect(part).toContain(
        "dans les 14 jours suivant votre demande (article L. 221-24 du Code de la consommation), par le même moyen de paiement",
      );
      expect(part).toContain(`${PUBLIC_URL}/cgv#retractation`);
      expect(part).toContain(`${PUBLIC_URL}/retours`);
    }
  });

  it("leaves the reason out when none was given", async () => {
    const orderId = await insertOrder({ paymentStatus: "paid" });
    await requestWithdrawal({ orderId, email: EMAIL }, { now: new Date("2026-12-01T07:05:00.000Z") });
    const rendered = await renderEmail((await acksOf(orderId))[0]);
    expect(rendered.text).toContain("le 1er décembre 2026 à 08:05");
    expect(rendered.text).not.toContain("motif");
  });
});

describe("refund deadline", () => {
  const requestedAt = "2026-11-25T18:42:00.000Z"; // Paris: 25 November, 19:42; due 9 December

  it("counts the calendar days left (Paris) before the 14th day, highlighted from 3 days and once past", () => {
    expect(withdrawalDeadline(requestedAt, new Date(requestedAt))).toMatchObject({
      deadline: "2026-12-09T18:42:00.000Z",
      daysLeft: 14,
      urgency: "ok",
      label: "14 jours restants",
    });
    expect(withdrawalDeadline(requestedAt, new Date("2026-12-05T10:00:00.000Z"))).toMatchObject({ daysLeft: 4, urgency: "ok" });
    expect(withdrawalDeadline(requestedAt, new Date("2026-12-06T10:00:00.000Z"))).toMatchObject({
      daysLeft: 3,
      urgency: "soon",
      label: "3 jours restants",
    });
    expect(withdrawalDeadline(requestedAt, new Date("2026-12-08T10:00:00.000Z"))).toMatchObject({
      daysLeft: 1,
      urgency: "soon",
      label: "1 jour restant",
    });
    expect(withdrawalDeadline(requestedAt, new Date("2026-12-09T22:30:00.000Z"))).toMatchObject({
      daysLeft: 0,
      urgency: "soon",
      label: "Dernier jour pour rembourser",
    });
    expect(withdrawalDeadline(requestedAt, new Date("2026-12-09T23:30:00.000Z"))).toMatchObject({
      daysLeft: -1,
      urgency: "overdue",
      label: "Délai dépassé de 1 jour",
    });
    expect(withdrawalDeadline(requestedAt, new Date("2026-12-12T12:00:00.000Z"))).toMatchObject({
      daysLeft: -3,
      urgency: "overdue",
      label: "Délai dépassé de 3 jours",
    });
  });

  it("highlights the order's block: amber from 3 days left, red once past, plain once refunded", () => {
    const block = (now: string, refunded = false) =>
      renderToStaticMarkup(
        createElement(OrderWithdrawal, {
          withdrawal: { requestedAt, reason: null, email: EMAIL, refunded, ...withdrawalDeadline(requestedAt, new Date(now)) },
        }),
      );
    const calm = block("2026-11-26T10:00:00.000Z");
    expect(calm).toContain("13 jours restants");
    expect(calm).toContain('data-urgency="ok"');
    expect(calm).not.toMatch(/bg-(amber|red)-50/);
    const soon = block("2026-12-07T10:00:00.000Z");
    expect(soon).toContain("2 jours restants");
    expect(soon).toContain("bg-amber-50");
    const late = block("2026-12-11T10:00:00.000Z");
    expect(late).toContain("Délai dépassé de 2 jours");
    expect(late).toContain("bg-red-50");
    expect(late).toContain("Remboursement à faire avant le 09/12/2026 19:42");
    const settled = block("2026-12-11T10:00:00.000Z", true);
    expect(settled).toContain("Commande remboursée : la rétractation est traitée.");
    expect(settled).not.toContain("Délai dépassé");
  });

  it("says the moment of a request in words, Paris time", () => {
    expect(formatRequestMoment("2026-11-25T18:42:00.000Z")).toBe("le 25 novembre 2026 à 19:42");
    expect(formatRequestMoment("2026-07-01T06:05:00.000Z")).toBe("le 1er juillet 2026 à 08:05");
  });
});

describe("back office", () => {
  it("shows the request on the order, lists it on the dashboard until the order is refunded, and gives it in the order API", async () => {
    const orderId = await insertOrder({ paymentStatus: "paid", customerFirstName: "Louise", customerLastName: "Bernard" });
    await requestWithdrawal({ orderId, email: EMAIL, reason: "Erreur de commande" });
    const cookie = await adminCookie();

    const page = await (
      await adminOrderLoader(routeArgs(getRequest(`/admin/orders/${orderId}`, { Cookie: cookie }), { id: String(orderId) }))
    ).json();
    expect(page.withdrawal).toMatchObject({
      reason: "Erreur de commande",
      email: EMAIL,
      daysLeft: 14,
      urgency: "ok",
      refunded: false,
    });

    const dashboard = await (await dashboardLoader(routeArgs(getRequest("/admin/dashboard", { Cookie: cookie })))).json();
    expect(dashboard.withdrawals).toContainEqual(
      expect.objectContaining({ orderId, customer: "Louise Bernard", daysLeft: 14, urgency: "ok" }),
    );

    const api = await (
      await apiOrderLoader(routeArgs(getRequest(`/api/orders/${orderId}`, { Cookie: cookie }), { id: String(orderId) }))
    ).json();
    expect(api.withdrawal).toMatchObject({ reason: "Erreur de commande", email: EMAIL, daysLeft: 14 });
    const anonymous = await (
      await apiOrderLoader(routeArgs(getRequest(`/api/orders/${orderId}`), { id: String(orderId) }, fromAddress("192.0.2.99")))
    ).json();
    expect(anonymous).not.toHaveProperty("withdrawal");

    await getDb().update(orders).set({ paymentStatus: "refunded" }).where(eq(orders.id, orderId));
    expect((await listOpenWithdrawals()).map((w) => w.orderId)).not.toContain(orderId);
    expect((await adminWithdrawal(orderId))?.refunded).toBe(true);
  });
});
