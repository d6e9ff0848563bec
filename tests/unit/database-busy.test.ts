import { asResponses } from "../helpers/route-response";
import Database from "better-sqlite3";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { isDatabaseBusy } from "~/db/busy.server";
import { contactRequests, dialect } from "~/db/schema";
import { ConnectionWaitError, setBusyTimeout } from "~/db/sqlite-async.server";
import { BUSY_MESSAGE } from "~/lib/busy";
import { action as contactApiRoute } from "~/routes/api.contact";
import { action as contactPageRoute, headers as contactHeaders } from "~/routes/contact";
import { action as cartPageRoute } from "~/routes/panier";
import { addToCart, readCart } from "~/services/cart.server";
import { getCartCookie } from "~/services/cart-session.server";
import { resetAllRateLimits } from "~/services/limits.server";
import { snapshotDatabase } from "../helpers/api-db";
import { VALID_CONTACT_BODY } from "../helpers/api-fixtures";
import { formRequest, fromAddress, jsonRequest, routeArgs } from "../helpers/requests";

/**
 * A write that waits too long for the database's lock (64 shoppers buying at once) is refused
 * with a 503 in French and Retry-After, never a 500; nothing of it is written, and the same
 * request goes through once the lock is free. On SQLite the lock is held by a second connection
 * to the file (another process, as the shop's workers are); on PostgreSQL by a second client.
 */

const contactApi = asResponses(contactApiRoute);
const contactPage = asResponses(contactPageRoute);
const cartPage = asResponses(cartPageRoute);

const BUSY_BODY = { error: BUSY_MESSAGE, issues: [], code: "busy" };

let shopper = 0;
const postApi = (address: string) =>
  contactApi(routeArgs(jsonRequest("/api/contact", "POST", VALID_CONTACT_BODY), {}, fromAddress(address)));
const postForm = (address: string) =>
  contactPage(routeArgs(formRequest("/contact", VALID_CONTACT_BODY), {}, fromAddress(address)));

/** The API's and the contact form's answers while the lock is held, then after it is released. */
async function refusedThenAccepted(hold: () => Promise<unknown> | unknown, release: () => Promise<unknown> | unknown) {
  await resetAllRateLimits();
  const address = `203.0.113.${100 + ++shopper}`;
  const before = await snapshotDatabase();
  await hold();

  const api = await postApi(address);
  expect(api.status).toBe(503);
  expect(api.headers.get("Retry-After")).toBe("5");
  expect(await api.json()).toEqual(BUSY_BODY);

  // The contact form without JavaScript: the same sentence above the form, the message kept in it.
  const form = await postForm(address);
  expect(form.status).toBe(503);
  expect(await form.json()).toMatchObject({ outcome: "limited", message: BUSY_MESSAGE });
  const documentHeaders = new Headers(
    contactHeaders({
      loaderHeaders: new Headers(),
      actionHeaders: form.headers,
      parentHeaders: new Headers(),
      errorHeaders: undefined,
    }),
  );
  expect(documentHeaders.get("Retry-After")).toBe("5");

  await release();
  // Nothing was written: no contact request, no email, no rate-limit count.
  expect(await snapshotDatabase()).toBe(before);

  const accepted = await postApi(address);
  expect(accepted.status).toBe(201);
  expect((await postForm(address)).status).toBe(200);
  const stored = await getDb().select().from(contactRequests);
  expect(stored.filter((row) => row.message === VALID_CONTACT_BODY.message).length).toBeGreaterThanOrEqual(2);
}

describe("a database too busy to take a write", () => {
  it.skipIf(dialect !== "sqlite")(
    "SQLite: another process holds the write lock past the busy timeout: 503 in French, then the same request succeeds",
    async () => {
      const shop = globalThis.__shopDb!.sqlite!;
      const other = new Database(shop.name);
      setBusyTimeout(shop, 150);
      try {
        await refusedThenAccepted(
          () => other.exec("BEGIN IMMEDIATE"),
          () => other.exec("ROLLBACK"),
        );
      } finally {
        if (other.inTransaction) other.exec("ROLLBACK");
        other.close();
        setBusyTimeout(shop, 5_000);
      }
    },
  );

  it.skipIf(dialect !== "sqlite")(
    "SQLite: a cart line removed with JavaScript while the lock is held: 503, the sentence in the toast, the line kept",
    async () => {
      const shop = globalThis.__shopDb!.sqlite!;
      const cartId = crypto.randomUUID();
      await addToCart(cartId, { productId: 1, packId: 2 });
      const lineId = (await readCart(cartId)).lines[0]!.id;
      const cookie = (await getCartCookie().serialize(cartId)).split(";")[0]!;
      // Remix's fetch() from the cart: no text/html in Accept.
      const remove = () =>
        cartPage(
          routeArgs(
            formRequest("/panier", { intent: "remove", lineId: String(lineId) }, { headers: { Cookie: cookie, Accept: "*/*" } }),
          ),
        );
      const other = new Database(shop.name);
      setBusyTimeout(shop, 150);
      try {
        other.exec("BEGIN IMMEDIATE");
        const refused = await remove();
        expect(refused.status).toBe(503);
        expect(refused.headers.get("Retry-After")).toBe("5");
        expect(await refused.json()).toMatchObject({ ok: false, intent: "remove", error: BUSY_MESSAGE });
        expect(refused.headers.get("Set-Cookie")).toMatch(/toast-session=/);
        other.exec("ROLLBACK");
        expect((await readCart(cartId)).lines).toHaveLength(1);
        expect(await (await remove()).json()).toMatchObject({ ok: true, count: 0 });
      } finally {
        if (other.inTransaction) other.exec("ROLLBACK");
        other.close();
        setBusyTimeout(shop, 5_000);
      }
    },
  );

  it.skipIf(dialect !== "postgresql")(
    "PostgreSQL: a lock held by another server past lock_timeout: 503 in French, then the same request succeeds",
    async () => {
      const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await other.connect();
      try {
        await refusedThenAccepted(
          async () => {
            await other.query("BEGIN");
            await other.query("LOCK TABLE contact_requests IN ACCESS EXCLUSIVE MODE");
          },
          () => other.query("ROLLBACK"),
        );
      } finally {
        await other.end();
      }
    },
    30_000,
  );

  it("tells a saturated database from other failures", () => {
    const sqliteBusy = Object.assign(new Error("database is locked"), { code: "SQLITE_BUSY" });
    expect(isDatabaseBusy(sqliteBusy)).toBe(true);
    expect(isDatabaseBusy(new Error("Failed query", { cause: sqliteBusy }))).toBe(true);
    expect(isDatabaseBusy(new ConnectionWaitError(10_000))).toBe(true);
    for (const code of ["55P03", "40001", "40P01"]) expect(isDatabaseBusy(Object.assign(new Error(), { code }))).toBe(true);
    expect(isDatabaseBusy(Object.assign(new Error("UNIQUE constraint failed"), { code: "SQLITE_CONSTRAINT_UNIQUE" }))).toBe(
      false,
    );
    expect(isDatabaseBusy(new Error("boom"))).toBe(false);
  });
});
