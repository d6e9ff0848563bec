import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { emails, subscriptions, users, withdrawalRequests } from "~/db/schema";
import * as contactsApi from "~/routes/api.admin.contacts";
import * as emailsApi from "~/routes/api.admin.emails";
import * as subscriptionsApi from "~/routes/api.admin.subscriptions";
import * as ordersApi from "~/routes/api.orders";
import * as usersApi from "~/routes/api.users";
import { createContactRequest } from "~/services/contacts.server";
import { getRequest, routeArgs } from "../helpers/requests";
import { adminCookie, insertOrder } from "./admin-helpers";

type Handler = (args: ReturnType<typeof routeArgs>) => Promise<Response> | Response;
type Page = { limit: number; nextCursor: string | null } & Record<string, { id: number }[]>;

/** Reads every page of a list from `first`, following the `Link` header, as a client would; calls `between` after the first page. */
async function readAllPages(handler: Handler, first: string, key: string, between: () => Promise<unknown>) {
  const cookie = await adminCookie();
  const ids: number[] = [];
  let path: string | null = first;
  let pages = 0;
  while (path) {
    const response = await handler(routeArgs(getRequest(path, { Cookie: cookie })));
    expect(response.status).toBe(200);
    const body = (await response.json()) as Page;
    expect(body.limit).toBe(2);
    expect(body[key].length).toBeLessThanOrEqual(2);
    ids.push(...body[key].map((row) => row.id));
    const link = response.headers.get("Link");
    if (body.nextCursor) {
      expect(link).toBe(`<${new URL(`http://x${path}`).pathname}?${nextSearch(path, body.nextCursor)}>; rel="next"`);
    } else {
      expect(link).toBeNull();
    }
    path = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1] : null;
    if (pages++ === 0) await between();
  }
  return { ids, pages };
}

function nextSearch(path: string, cursor: string) {
  const search = new URL(`http://x${path}`).searchParams;
  search.set("cursor", cursor);
  return search.toString();
}

describe("paged API lists", () => {
  it("GET /api/orders: every order once, newest first, with a row inserted between two pages", async () => {
    const day = (d: number) => `2026-02-${String(d).padStart(2, "0")}T10:00:00.000Z`;
    const made: number[] = [];
    // Two orders share a date: the number decides between them.
    for (const d of [1, 2, 3, 3, 4])
      made.push(await insertOrder({ createdAt: day(d), customerEmail: `p${made.length}@pages.test`, paymentStatus: "paid" }));
    await getDb()
      .insert(withdrawalRequests)
      .values({ orderId: made[1], requestedAt: day(5), email: "p1@pages.test" });
    let added = 0;
    const { ids, pages } = await readAllPages(
      ordersApi.loader as Handler,
      "/api/orders?q=%40pages.test&limit=2",
      "orders",
      async () => {
        added = await insertOrder({
          createdAt: new Date().toISOString(),
          customerEmail: "late@pages.test",
          paymentStatus: "paid",
        });
      },
    );
    expect(pages).toBe(3);
    // The new order is newer than the first page: it is not in the pages after it, and nothing moved.
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain(added);
    expect(ids.slice().sort()).toEqual(made.slice().sort());
    // Newest first: by date, then by number for the two of the same date.
    const sameDay = [made[2], made[3]].sort((a, b) => b - a);
    expect(ids).toEqual([made[4], ...sameDay, made[1], made[0]]);

    // The withdrawal comes with its order (read for the whole page at once).
    const response = await (ordersApi.loader as Handler)(
      routeArgs(getRequest(`/api/orders?q=p1%40pages.test`, { Cookie: await adminCookie() })),
    );
    const body = (await response.json()) as { orders: { id: number; withdrawal: { email: string } | null }[]; nextCursor: null };
    expect(body).toMatchObject({
      orders: [{ id: made[1], withdrawal: { email: "p1@pages.test" } }],
      nextCursor: null,
      limit: 50,
    });
  });

  it("GET /api/users: by id, a user created between two pages comes at the end, once", async () => {
    for (const n of [1, 2, 3])
      await getDb()
        .insert(users)
        .values({ username: `page-user-${n}`, email: `page-user-${n}@pages.test` });
    let created = 0;
    const { ids } = await readAllPages(usersApi.loader as Handler, "/api/users?limit=2", "users", async () => {
      [{ id: created }] = await getDb()
        .insert(users)
        .values({ username: "page-user-late", email: "late-user@pages.test" })
        .returning({ id: users.id });
    });
    const all = (await getDb().select({ id: users.id }).from(users)).map((u) => u.id).sort((a, b) => a - b);
    expect(ids).toEqual(all);
    expect(ids).toContain(created);
  });

  it("GET /api/admin/contacts: newest first, a request sent between two pages is not repeated", async () => {
    const contact = (n: number) => ({
      name: `Client ${n}`,
      email: `c${n}@pages.test`,
      subject: "Question",
      message: "Bonjour, une question.",
    });
    const before: number[] = [];
    for (const n of [1, 2, 3, 4, 5]) before.push((await createContactRequest(contact(n))).id);
    let late = 0;
    const { ids } = await readAllPages(contactsApi.loader as Handler, "/api/admin/contacts?limit=2", "contacts", async () => {
      late = (await createContactRequest(contact(6))).id;
    });
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).not.toContain(late);
    expect(ids.slice().sort()).toEqual(before.slice().sort());
  });

  it("GET /api/admin/emails: newest first with the mailbox's filters, an email queued between two pages is not repeated", async () => {
    const day = (d: number) => `2026-03-${String(d).padStart(2, "0")}T10:00:00.000Z`;
    const queue = async (createdAt: string, n: number) =>
      (
        await getDb()
          .insert(emails)
          .values({
            kind: "contact_ack",
            dedupeKey: `pages:${n}:${Math.random()}`,
            toAddress: `m${n}@mails-pages.test`,
            createdAt,
          })
          .returning({ id: emails.id })
      )[0]!.id;
    const made: number[] = [];
    // Two emails share a date: the id decides between them.
    for (const d of [1, 2, 3, 3, 4]) made.push(await queue(day(d), made.length));
    // Another recipient: the filter keeps it out.
    const other = await getDb()
      .insert(emails)
      .values({ kind: "contact_ack", dedupeKey: `pages:other:${Math.random()}`, toAddress: "x@ailleurs.test", createdAt: day(2) })
      .returning({ id: emails.id });
    let late = 0;
    const { ids, pages } = await readAllPages(
      emailsApi.loader as Handler,
      "/api/admin/emails?to=mails-pages.test&limit=2",
      "emails",
      async () => {
        late = await queue(new Date().toISOString(), 99);
      },
    );
    expect(pages).toBe(3);
    expect(ids).not.toContain(late);
    expect(ids).not.toContain(other[0]!.id);
    const sameDay = [made[2], made[3]].sort((a, b) => b - a);
    expect(ids).toEqual([made[4], ...sameDay, made[1], made[0]]);
    // The counts per status come with every page.
    const response = await (emailsApi.loader as Handler)(
      routeArgs(getRequest("/api/admin/emails?limit=1", { Cookie: await adminCookie() })),
    );
    const body = (await response.json()) as { counts: Record<string, number>; emails: unknown[]; nextCursor: string | null };
    expect(body.emails).toHaveLength(1);
    expect(body.nextCursor).not.toBeNull();
    expect(body.counts.pending).toBeGreaterThanOrEqual(7);
  });

  it("GET /api/admin/subscriptions: most recent first, a subscription started between two pages is not repeated", async () => {
    const day = (d: number) => `2026-04-${String(d).padStart(2, "0")}T09:00:00.000Z`;
    const subscribe = async (startedAt: string | null, n: number) => {
      const firstOrderId = await insertOrder({
        isSubscription: true,
        paymentStatus: "paid",
        customerEmail: `s${n}@subs-pages.test`,
      });
      return (
        await getDb()
          .insert(subscriptions)
          .values({
            stripeSubscriptionId: `sub_pages_${n}_${Math.random().toString(36).slice(2)}`,
            amountCents: 2590,
            status: "active",
            firstOrderId,
            customerEmail: `s${n}@subs-pages.test`,
            startedAt,
            createdAt: startedAt ?? day(2),
          })
          .returning({ id: subscriptions.id })
      )[0]!.id;
    };
    const made: number[] = [];
    // One has no start date yet: its creation date sorts it. Two share a date: the id decides.
    for (const d of [1, 2, null, 3, 3]) made.push(await subscribe(d === null ? null : day(d), made.length));
    let late = 0;
    const { ids, pages } = await readAllPages(
      subscriptionsApi.loader as Handler,
      "/api/admin/subscriptions?q=subs-pages.test&limit=2",
      "subscriptions",
      async () => {
        late = await subscribe(new Date().toISOString(), 99);
      },
    );
    expect(pages).toBe(3);
    expect(ids).not.toContain(late);
    const sameDay = [made[3], made[4]].sort((a, b) => b - a);
    const day2 = [made[1], made[2]].sort((a, b) => b - a);
    expect(ids).toEqual([...sameDay, ...day2, made[0]]);
  });

  it("refuses a bad limit or cursor with a French 422", async () => {
    const cookie = await adminCookie();
    for (const [handler, path] of [
      [ordersApi.loader, "/api/orders"],
      [usersApi.loader, "/api/users"],
      [contactsApi.loader, "/api/admin/contacts"],
      [emailsApi.loader, "/api/admin/emails"],
      [subscriptionsApi.loader, "/api/admin/subscriptions"],
    ] as [Handler, string][]) {
      for (const [query, field, message] of [
        ["limit=0", "limit", "Au moins 1."],
        ["limit=201", "limit", "Au plus 200."],
        ["limit=beaucoup", "limit", "Un nombre entier est attendu."],
        ["cursor=pas-un-curseur", "cursor", "Curseur invalide : reprenez la valeur « nextCursor » de la page précédente."],
      ]) {
        const response = await handler(routeArgs(getRequest(`${path}?${query}`, { Cookie: cookie })));
        expect(response.status, `${path}?${query}`).toBe(422);
        const body = (await response.json()) as { error: string; issues: { path: string; message: string }[] };
        expect(body.issues ?? [{ path: field, message: body.error }]).toContainEqual({ path: field, message });
      }
    }
    const period = await (ordersApi.loader as Handler)(routeArgs(getRequest("/api/orders?du=2026-13-01", { Cookie: cookie })));
    expect(period.status).toBe(422);
  });
});
