import { asResponses } from "../helpers/route-response";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/db/client.server";
import { contactRequests, orders } from "~/db/schema";
import { action as contactApi } from "~/routes/api.contact";
import { action as ordersApi } from "~/routes/api.orders";
import { loader as orderApi } from "~/routes/api.orders.$id";
import { action as contactPageRoute, headers as contactHeaders } from "~/routes/contact";
import { loader as confirmationPageRoute } from "~/routes/order-confirmation.$id";
import { action as cartPageRoute, headers as cartHeaders } from "~/routes/panier";
import { headers as trackingHeaders, loader as trackingPageRoute } from "~/routes/track-order";
import { LIMITS, resetAllRateLimits } from "~/services/limits.server";
import { createOrderFromApi } from "~/services/orders/create.server";
import { VALID_CONTACT_BODY, VALID_ORDER_BODY } from "../helpers/api-fixtures";
import { formRequest, fromAddress, getRequest, jsonRequest, routeArgs } from "../helpers/requests";
import { cookieFrom } from "./admin-helpers";

const contactPage = asResponses(contactPageRoute);
const confirmationPage = asResponses(confirmationPageRoute);
const cartPage = asResponses(cartPageRoute);
const trackingPage = asResponses(trackingPageRoute);

/**
 * Per-address limits of anonymous requests, through the routes, as a client would meet them:
 * order lookups (misses only) and public writes. Every refusal is a 429 in French with Retry-After.
 */

beforeEach(async () => {
  await resetAllRateLimits();
  // A frozen clock at the start of a window, so a test never straddles two windows.
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(new Date("2026-03-05T10:00:00Z"));
});
afterEach(() => {
  vi.useRealTimers();
});

const advance = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);
const UNKNOWN_IDS = Array.from({ length: 40 }, (_, i) => String(999_000_000 + i));

const apiLookup = (id: string, address: string, headers: Record<string, string> = {}) =>
  orderApi(routeArgs(getRequest(`/api/orders/${id}`, headers), { id }, fromAddress(address)));
const trackingLookup = (id: string, address: string) =>
  trackingPage(routeArgs(getRequest(`/track-order?id=${id}`), {}, fromAddress(address)));
const confirmationLookup = (id: string, address: string) =>
  confirmationPage(routeArgs(getRequest(`/order-confirmation/${id}`), { id }, fromAddress(address)));

describe("order lookups: unknown numbers per address", () => {
  it("the 21st unknown number gets 429 with Retry-After; known orders are not counted; another address is unaffected", async () => {
    const known = String((await createOrderFromApi(VALID_ORDER_BODY)).id);
    const lookups = [apiLookup, trackingLookup, confirmationLookup];
    for (let i = 0; i < LIMITS.orderLookupMissesPerAddress.max; i++) {
      // Hits in between cost nothing.
      expect((await apiLookup(known, "203.0.113.10")).status).toBe(200);
      expect((await lookups[i % 3](UNKNOWN_IDS[i], "203.0.113.10")).status).toBe(404);
    }
    const refused = await apiLookup(UNKNOWN_IDS[30], "203.0.113.10");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    const body = await refused.json();
    expect(body).toMatchObject({
      error: expect.stringMatching(/^Trop de numéros de commande introuvables ont été essayés\. Réessayez dans \d+ minutes?\.$/),
      issues: [],
    });
    // Once limited, the answer says nothing about the number: a known one is refused too.
    expect((await apiLookup(known, "203.0.113.10")).status).toBe(429);

    expect((await apiLookup(UNKNOWN_IDS[31], "203.0.113.11")).status).toBe(404);
    expect((await apiLookup(known, "203.0.113.11")).status).toBe(200);

    advance(Number(refused.headers.get("Retry-After")));
    expect((await apiLookup(known, "203.0.113.10")).status).toBe(200);
  });

  it("a rotated X-Forwarded-For does not escape the limit", async () => {
    for (let i = 0; i < LIMITS.orderLookupMissesPerAddress.max; i++) {
      expect((await apiLookup(UNKNOWN_IDS[i], "203.0.113.20", { "X-Forwarded-For": `198.18.0.${i}` })).status).toBe(404);
    }
    expect((await apiLookup(UNKNOWN_IDS[30], "203.0.113.20", { "X-Forwarded-For": "198.18.1.1" })).status).toBe(429);
  });

  it("the tracking and confirmation pages show the refusal with status 429 and Retry-After", async () => {
    for (let i = 0; i < LIMITS.orderLookupMissesPerAddress.max; i++) await apiLookup(UNKNOWN_IDS[i], "203.0.113.30");

    const tracking = await trackingLookup(UNKNOWN_IDS[30], "203.0.113.30");
    expect(tracking.status).toBe(429);
    const retryAfter = tracking.headers.get("Retry-After");
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(await tracking.json()).toMatchObject({
      order: null,
      outcome: "limited",
      message: expect.stringMatching(/^Trop de numéros de commande/),
    });
    // The document's headers keep the loader's Retry-After.
    const documentHeaders = new Headers(
      trackingHeaders({
        loaderHeaders: tracking.headers,
        actionHeaders: new Headers(),
        parentHeaders: new Headers(),
        errorHeaders: undefined,
      }),
    );
    expect(documentHeaders.get("Retry-After")).toBe(retryAfter);
    expect(documentHeaders.get("Cache-Control")).toBe("no-store");

    const confirmation = await confirmationLookup(UNKNOWN_IDS[31], "203.0.113.30");
    expect(confirmation.status).toBe(429);
    expect(confirmation.headers.get("Retry-After")).toBe(retryAfter);
    expect(await confirmation.json()).toMatchObject({ order: null, refusal: expect.stringMatching(/Réessayez dans/) });
  });

  it("malformed numbers are not counted (nothing is looked up)", async () => {
    for (let i = 0; i < 30; i++) expect((await trackingLookup(`abc${i}`, "203.0.113.40")).status).toBe(404);
    expect((await trackingLookup(UNKNOWN_IDS[0], "203.0.113.40")).status).toBe(404);
  });
});

describe("public writes per address", () => {
  const countContacts = async () => (await getDb().select().from(contactRequests)).length;
  const postContact = (address: string, body: object = VALID_CONTACT_BODY) =>
    contactApi(routeArgs(jsonRequest("/api/contact", "POST", body), {}, fromAddress(address)));

  it("the 11th contact request from one address gets 429 in French with Retry-After; another address is unaffected", async () => {
    for (let i = 0; i < 10; i++) expect((await postContact("203.0.113.50")).status).toBe(201);
    const before = await countContacts();
    const refused = await postContact("203.0.113.50");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({
      error: "Trop de demandes de contact envoyées en peu de temps. Réessayez dans 11 minutes.",
      issues: [],
    });
    expect(await countContacts()).toBe(before);
    expect((await postContact("203.0.113.51")).status).toBe(201);
    advance(Number(refused.headers.get("Retry-After")));
    expect((await postContact("203.0.113.50")).status).toBe(201);
  });

  it("invalid requests are not counted", async () => {
    for (let i = 0; i < 15; i++)
      expect((await postContact("203.0.113.52", { ...VALID_CONTACT_BODY, email: "pas-un-email" })).status).toBe(422);
    expect((await postContact("203.0.113.52")).status).toBe(201);
  });

  it("the contact form: the 11th message shows the refusal on the page (429, Retry-After), the message is not stored", async () => {
    const send = () => contactPage(routeArgs(formRequest("/contact", VALID_CONTACT_BODY), {}, fromAddress("203.0.113.53")));
    for (let i = 0; i < LIMITS.contactMessagesPerAddress.max; i++) expect((await send()).status).toBe(200);
    const before = await countContacts();
    const refused = await send();
    expect(refused.status).toBe(429);
    const retryAfter = refused.headers.get("Retry-After");
    expect(Number(retryAfter)).toBeGreaterThan(0);
    expect(await refused.json()).toMatchObject({
      outcome: "limited",
      message: "Vous avez envoyé beaucoup de messages en peu de temps. Réessayez dans 11 minutes.",
    });
    expect(await countContacts()).toBe(before);
    const documentHeaders = new Headers(
      contactHeaders({
        loaderHeaders: new Headers(),
        actionHeaders: refused.headers,
        parentHeaders: new Headers(),
        errorHeaders: undefined,
      }),
    );
    expect(documentHeaders.get("Retry-After")).toBe(retryAfter);
  });

  it(`POST /api/orders: ${LIMITS.apiOrdersPerAddress.max} orders per address, then 429`, async () => {
    const post = () =>
      ordersApi(routeArgs(jsonRequest("/api/orders", "POST", VALID_ORDER_BODY), {}, fromAddress("203.0.113.54")));
    for (let i = 0; i < LIMITS.apiOrdersPerAddress.max; i++) expect((await post()).status).toBe(201);
    const count = (await getDb().select().from(orders)).length;
    const refused = await post();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toMatch(/^\d+$/);
    expect(await refused.json()).toMatchObject({
      error: expect.stringMatching(/^Trop de commandes créées en peu de temps\. Réessayez dans/),
      issues: [],
    });
    expect((await getDb().select().from(orders)).length).toBe(count);
  });

  it(`the delivery form: ${LIMITS.deliveryFormsPerAddress.max} per address, then 429 with the message on the form`, async () => {
    const add = await cartPage(routeArgs(formRequest("/panier", { intent: "add", productId: "1", packId: "2" })));
    const cookie = cookieFrom(add, "cart")!;
    const fields = {
      intent: "delivery",
      firstName: "Camille",
      lastName: "Martin",
      email: "camille@example.fr",
      address: "12 rue des Lilas",
      postalCode: "75011",
      city: "Paris",
    };
    const deliver = (mode: string) =>
      cartPage(
        routeArgs(
          formRequest("/panier", fields, { headers: { Cookie: cookie, "Sec-Fetch-Mode": mode } }),
          {},
          fromAddress("203.0.113.55"),
        ),
      );
    for (let i = 0; i < LIMITS.deliveryFormsPerAddress.max; i++) expect((await deliver("cors")).status).toBe(200);
    for (const mode of ["cors", "navigate"]) {
      // With JavaScript (fetch) and without (a plain form post, the page shown again with the message).
      const refused = await deliver(mode);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
      const body = (await refused.json()) as {
        ok: boolean;
        intent: string;
        error: string;
        result: { error: Record<string, string[]> };
      };
      expect(body).toMatchObject({
        ok: false,
        intent: "delivery",
        error: expect.stringMatching(/^Trop de commandes enregistrées en peu de temps\. Réessayez dans/),
      });
      expect(body.result.error[""]).toEqual([body.error]);
      const documentHeaders = new Headers(
        cartHeaders({
          loaderHeaders: new Headers(),
          actionHeaders: refused.headers,
          parentHeaders: new Headers(),
          errorHeaders: undefined,
        }),
      );
      expect(documentHeaders.get("Retry-After")).toBe(refused.headers.get("Retry-After"));
    }
  });
});
