import { asResponses } from "../helpers/route-response";
import { and, eq, ne } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { emails, subscriptions } from "~/db/schema";
import { action as pageActionRoute, loader as pageLoaderRoute } from "~/routes/mon-abonnement";
import { action as confirmationActionRoute, loader as confirmationLoaderRoute } from "~/routes/order-confirmation.$id";
import { loader as trackLoaderRoute } from "~/routes/track-order";
import { renderEmail } from "~/services/email/render.server";
import { resetAllRateLimits } from "~/services/limits.server";
import { orderLinkKey } from "~/services/orders/link.server";
import type { StripeEmulatorHandle } from "~/services/stripe.server";
import { subscriptionLink, subscriptionLinkQuery } from "~/services/subscription-link.server";
import { cancelSubscriptionRecord } from "~/services/subscriptions/cancel.server";
import type { OrderSubscriptionView } from "~/services/subscriptions/confirmation.server";
import { formRequest, fromAddress, getRequest } from "../helpers/requests";
import { getOrder, routeArgs, startTestEmulator, stopTestEmulator, TEST_ORDER_TOKEN } from "./payments-fixtures";
import { emailsOf, subscriptionDriver, subscriptionRecord } from "./subscription-fixtures";

/**
 * Each link gives what it should and no more: an order's view link (`cle`) never leads to the
 * subscription's page; a fresh management link is sent by email on request (neutral answer,
 * limited); a change of delivery address is told to the customer by email.
 */

const pageAction = asResponses(pageActionRoute);
const pageLoader = asResponses(pageLoaderRoute);
const confirmationLoader = asResponses(confirmationLoaderRoute);
const confirmationAction = asResponses(confirmationActionRoute);
const trackLoader = asResponses(trackLoaderRoute);

let emulator: StripeEmulatorHandle;
const { subscribed, withWebhooks } = subscriptionDriver(() => emulator);

beforeAll(async () => {
  emulator = await startTestEmulator();
});
afterAll(async () => {
  await stopTestEmulator();
});
beforeEach(async () => await resetAllRateLimits());

let shopper = 0;
/** A client address of its own: each test acts as another shopper. */
const newShopper = () => fromAddress(`10.77.${Math.floor(++shopper / 250)}.${(shopper % 250) + 1}`);

function pagePath(id: number, now = new Date()) {
  return `/mon-abonnement?${subscriptionLinkQuery(subscriptionLink(id, now))}`;
}

async function confirmationText(orderId: number, query: string, headers: Record<string, string> = {}) {
  const response = await confirmationLoader(
    routeArgs(getRequest(`/order-confirmation/${orderId}${query}`, headers), { id: String(orderId) }),
  );
  expect(response.status).toBe(200);
  const text = await response.text();
  return { text, body: JSON.parse(text) as { order: { owner: boolean }; subscription: OrderSubscriptionView | null } };
}

/** The subscription emails of this kind, newest last. */
async function linkEmails(subscriptionId: number, kind: "subscription_link" | "subscription_address_changed") {
  const rows = await getDb().select().from(emails).where(eq(emails.kind, kind)).orderBy(emails.id);
  return rows.filter((e) => (e.payload as { subscriptionId?: number }).subscriptionId === subscriptionId);
}

/** The management link of a rendered email, as a path of the site. */
function managePathOf(text: string): string {
  const url = text.match(/https?:\/\/\S+\/mon-abonnement\?\S+/)?.[0];
  expect(url).toBeDefined();
  const parsed = new URL(url!);
  return `${parsed.pathname}${parsed.search}`;
}

async function opens(path: string, subscriptionId: number) {
  const response = await pageLoader(routeArgs(getRequest(path)));
  const body = (await response.json()) as { subscription: { id: number } | null };
  return response.status === 200 && body.subscription?.id === subscriptionId;
}

describe("an order's view link (cle)", () => {
  it("never leads to /mon-abonnement: the confirmation and tracking pages show the order, not the subscription's link", async () => {
    const { orderId, record } = await subscribed();
    const cle = orderLinkKey(orderId);

    const confirmation = await confirmationText(orderId, `?cle=${cle}`);
    expect(confirmation.body.order.owner).toBe(true);
    expect(confirmation.body.subscription).toMatchObject({ state: "active", managePath: null, canRequestLink: true });
    expect(confirmation.text).not.toContain("/mon-abonnement");

    const tracked = await trackLoader(routeArgs(getRequest(`/track-order?id=${orderId}&cle=${cle}`)));
    expect(tracked.status).toBe(200);
    const trackedText = await tracked.text();
    expect(trackedText).toContain((await getOrder(orderId)).shippingAddress!);
    expect(trackedText).not.toContain("/mon-abonnement");

    // The order's email typed on the tracking page: viewing only too.
    const email = (await getOrder(orderId)).customerEmail!;
    const typed = await trackLoader(routeArgs(getRequest(`/track-order?id=${orderId}&email=${encodeURIComponent(email)}`)));
    expect(await typed.text()).not.toContain("/mon-abonnement");

    // The buyer's own proof (the order token) still gets the link, and it opens the page.
    const holder = await confirmationText(orderId, "", { "X-Order-Token": TEST_ORDER_TOKEN });
    expect(holder.body.subscription).toMatchObject({ canRequestLink: false });
    expect(await opens(holder.body.subscription!.managePath!, record.id)).toBe(true);
  });

  it("offers « Recevoir un lien de gestion par email »: a fresh 7-day link to the subscription's own address", async () => {
    const { orderId, record } = await subscribed();
    const cle = orderLinkKey(orderId);
    const before = (await linkEmails(record.id, "subscription_link")).length;

    const asked = await confirmationAction(
      routeArgs(
        formRequest(`/order-confirmation/${orderId}?cle=${cle}`, { intent: "manage-link" }),
        { id: String(orderId) },
        newShopper(),
      ),
    );
    expect(asked.status).toBe(302);
    expect(asked.headers.get("Location")).toBe(`/order-confirmation/${orderId}?cle=${cle}`);
    const sent = await linkEmails(record.id, "subscription_link");
    expect(sent).toHaveLength(before + 1);
    const email = sent.at(-1)!;
    expect(email.toAddress).toBe(record.customerEmail);
    expect(email.orderId).toBe(orderId);

    const rendered = await renderEmail(email);
    expect(rendered.subject).toBe("Votre lien pour gérer votre abonnement");
    expect(rendered.text).toContain("Ce lien est valable 7 jours ; vous pourrez en demander un nouveau sur la page.");
    const link = managePathOf(rendered.text);
    expect(await opens(link, record.id)).toBe(true);
    const expire = Number(new URL(`http://x${link}`).searchParams.get("expire"));
    expect(Math.round((expire * 1000 - Date.now()) / 86_400_000)).toBe(7);
  });
});

describe("« Recevoir un nouveau lien » on /mon-abonnement", () => {
  function ask(email: string, context = newShopper(), extra: Record<string, string> = {}) {
    return pageAction(routeArgs(formRequest("/mon-abonnement", { intent: "new-link", email, ...extra }), {}, context));
  }

  it("is offered by an expired link's page, and answers the same for an unknown address, sending nothing", async () => {
    const { record } = await subscribed();
    const expired = await pageLoader(routeArgs(getRequest(pagePath(record.id, new Date(Date.now() - 8 * 86_400_000)))));
    expect(expired.status).toBe(410);
    expect(await expired.json()).toEqual({ problem: "expired", subscription: null });

    const count = async () =>
      (await getDb().select({ id: emails.id }).from(emails).where(eq(emails.kind, "subscription_link"))).length;
    const before = await count();
    const unknown = await ask("personne.inconnue@example.fr");
    expect(unknown.status).toBe(302);
    expect(unknown.headers.get("Location")).toBe("/mon-abonnement?lien=envoye");
    expect(await count()).toBe(before);

    const answer = await pageLoader(routeArgs(getRequest("/mon-abonnement?lien=envoye")));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ problem: "sent", subscription: null });

    const invalid = await ask("pas-une-adresse");
    expect(invalid.status).toBe(400);
    expect(JSON.stringify(await invalid.json())).toContain("Adresse email invalide");
  });

  it("sends one link per ongoing subscription of the address (any case), none for an ended one", async () => {
    const { record } = await subscribed();
    const { record: ended } = await subscribed();
    await withWebhooks(async () => cancelSubscriptionRecord(await subscriptionRecord(ended.id)));
    const address = record.customerEmail!;
    const ongoing = await getDb()
      .select({ id: subscriptions.id })
      .from(subscriptions)
      .where(and(eq(subscriptions.customerEmail, address), ne(subscriptions.status, "canceled")));
    expect(ongoing.map((s) => s.id)).toContain(record.id);
    expect(ongoing.map((s) => s.id)).not.toContain(ended.id);
    const before = new Map(
      await Promise.all(ongoing.map(async (s) => [s.id, (await linkEmails(s.id, "subscription_link")).length] as const)),
    );
    const endedBefore = (await linkEmails(ended.id, "subscription_link")).length;

    const response = await ask(`  ${address.toUpperCase()} `);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/mon-abonnement?lien=envoye");
    for (const s of ongoing) expect((await linkEmails(s.id, "subscription_link")).length).toBe(before.get(s.id)! + 1);
    expect((await linkEmails(ended.id, "subscription_link")).length).toBe(endedBefore);

    const mine = (await linkEmails(record.id, "subscription_link")).at(-1)!;
    expect(mine.toAddress).toBe(address);
    expect(await opens(managePathOf((await renderEmail(mine)).text), record.id)).toBe(true);
  });

  it("is limited per email address and per client address, with a French 429, the same for unknown addresses", async () => {
    const target = `limite.${crypto.randomUUID().slice(0, 8)}@example.fr`;
    for (let i = 0; i < 3; i++) expect((await ask(target)).status).toBe(302);
    const limited = await ask(target);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(JSON.stringify(await limited.json())).toContain("Vous avez demandé beaucoup de liens en peu de temps. Réessayez dans");

    const one = newShopper();
    for (let i = 0; i < 10; i++)
      expect((await ask(`adresse.${i}.${crypto.randomUUID().slice(0, 6)}@example.fr`, one)).status).toBe(302);
    expect((await ask(`encore.${crypto.randomUUID().slice(0, 6)}@example.fr`, one)).status).toBe(429);
    // Another shopper is not held back.
    expect((await ask(`autre.${crypto.randomUUID().slice(0, 6)}@example.fr`)).status).toBe(302);
  });
});

describe("a change of delivery address", () => {
  it("emails the customer « Votre adresse de livraison a été modifiée », with the old and new address and a way to react", async () => {
    const { orderId, record } = await subscribed();
    const saved = await pageAction(
      routeArgs(
        formRequest(pagePath(record.id), {
          intent: "address",
          firstName: "Léa",
          lastName: "Martin",
          address: "4 avenue Jean Jaurès",
          postalCode: "69007",
          city: "Lyon",
        }),
      ),
    );
    expect(saved.status).toBe(302);
    const sent = await linkEmails(record.id, "subscription_address_changed");
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ toAddress: record.customerEmail, orderId });
    expect(await emailsOf("subscription_address_changed", orderId)).toHaveLength(1);

    const rendered = await renderEmail(sent[0]);
    expect(rendered.subject).toBe("Votre adresse de livraison a été modifiée");
    const today = new Intl.DateTimeFormat("fr-FR", {
      timeZone: "Europe/Paris",
      day: "2-digit",
      month: "2-digit",
      year: "numeric",
    }).format(new Date());
    // The HTML part escapes apostrophes.
    const html = (text: string) => text.replaceAll("'", "&#x27;");
    for (const [part, as] of [
      [rendered.text, (t: string) => t],
      [rendered.html, html],
    ] as const) {
      expect(part).toContain("Ancienne adresse");
      expect(part).toContain("12 rue des Lilas");
      expect(part).toContain("75011 Paris");
      expect(part).toContain("Nouvelle adresse");
      expect(part).toContain("4 avenue Jean Jaurès");
      expect(part).toContain("69007 Lyon");
      expect(part).toContain(today);
      expect(part).toContain(as("Si vous n'êtes pas à l'origine de ce changement"));
      expect(part).toContain("/contact");
    }
    expect(rendered.text.indexOf("12 rue des Lilas")).toBeLessThan(rendered.text.indexOf("4 avenue Jean Jaurès"));
    expect(await opens(managePathOf(rendered.text), record.id)).toBe(true);

    // A refused change (bad postcode) tells nobody.
    await pageAction(
      routeArgs(
        formRequest(pagePath(record.id), {
          intent: "address",
          firstName: "X",
          lastName: "Y",
          address: "1 rue Z",
          postalCode: "69",
          city: "Lyon",
        }),
      ),
    );
    expect(await linkEmails(record.id, "subscription_address_changed")).toHaveLength(1);
  });
});
