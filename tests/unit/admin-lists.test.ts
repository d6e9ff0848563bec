import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { users } from "~/db/schema";
import { loader as contactsLoaderRoute } from "~/routes/admin.contacts";
import { loader as usersLoaderRoute } from "~/routes/admin.users._index";
import { createContactRequest } from "~/services/contacts.server";
import { getRequest, routeArgs } from "../helpers/requests";
import { asResponses } from "../helpers/route-response";
import { adminCookie } from "./admin-helpers";

const usersLoader = asResponses(usersLoaderRoute);
const contactsLoader = asResponses(contactsLoaderRoute);

type ListPage = { page: number; pageCount: number };

describe("admin lists read one page at a time", () => {
  it("/admin/users: 50 accounts a page, the page asked for, the last one at most", async () => {
    await getDb()
      .insert(users)
      .values(Array.from({ length: 60 }, (_, i) => ({ username: `client-liste-${i}`, email: `client-liste-${i}@example.fr` })));
    const cookie = await adminCookie();
    const read = async (query: string) =>
      (await (await usersLoader(routeArgs(getRequest(`/admin/users${query}`, { Cookie: cookie })))).json()) as ListPage & {
        users: { id: number; username: string }[];
        total: number;
      };
    const first = await read("");
    expect(first).toMatchObject({ page: 1, pageCount: 2 });
    expect(first.users).toHaveLength(50);
    const second = await read("?page=2");
    expect(second.users).toHaveLength(first.total - 50);
    expect(second.users.map((u) => u.id).some((id) => first.users.some((u) => u.id === id))).toBe(false);
    expect((await read("?page=99")).page).toBe(2);
    expect((await read("?page=abc")).page).toBe(1);
    // The delete confirmation of an account of another page is still found.
    const other = second.users[0];
    expect(await read(`?delete=${other.id}`)).toMatchObject({ toDelete: { id: other.id, username: other.username } });
  });

  it("/admin/contacts: 50 requests a page, newest first", async () => {
    for (let i = 0; i < 55; i++) {
      await createContactRequest({
        name: `Client ${i}`,
        email: `c${i}@example.fr`,
        subject: `Question ${i}`,
        message: "Bonjour.",
      });
    }
    const cookie = await adminCookie();
    const read = async (query: string) =>
      (await (await contactsLoader(routeArgs(getRequest(`/admin/contacts${query}`, { Cookie: cookie })))).json()) as ListPage & {
        contacts: { subject: string }[];
      };
    const first = await read("");
    expect(first).toMatchObject({ page: 1, pageCount: 2 });
    expect(first.contacts).toHaveLength(50);
    expect(first.contacts[0].subject).toBe("Question 54");
    const second = await read("?page=2");
    expect(second.contacts.map((c) => c.subject)).toEqual(["Question 4", "Question 3", "Question 2", "Question 1", "Question 0"]);
  });
});
