import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { contactRequests, emails } from "~/db/schema";
import { loader as adminLayoutLoaderRoute } from "~/routes/admin";
import { asResponses } from "../helpers/route-response";
import { getRequest, routeArgs } from "../helpers/requests";
import { adminCookie } from "./admin-helpers";

const adminLayoutLoader = asResponses(adminLayoutLoaderRoute);

async function badges(cookie: string): Promise<{ failedEmails: number; unreadContacts: number }> {
  return await (await adminLayoutLoader(routeArgs(getRequest("/admin/dashboard", { Cookie: cookie })))).json();
}

/** The admin menu's badges, on every admin page: the failed emails and the unread contact requests, each counted alone. */
describe("admin menu badges", () => {
  it("count the failed emails and the unread requests, and nothing else", async () => {
    const cookie = await adminCookie();
    const before = await badges(cookie);
    const now = new Date().toISOString();
    const email = (status: "failed" | "sent" | "pending", n: number) => ({
      kind: "contact_ack" as const,
      dedupeKey: `badge-test:${status}:${n}:${now}`,
      toAddress: `badge-${n}@exemple.fr`,
      status,
      nextAttemptAt: now,
    });
    await getDb()
      .insert(emails)
      .values([email("failed", 1), email("failed", 2), email("sent", 3), email("pending", 4)]);
    const contact = (status: "non_lu" | "lu", n: number) => ({
      name: `Client ${n}`,
      email: `badge-${n}@exemple.fr`,
      subject: "Question",
      message: "Bonjour",
      status,
    });
    await getDb()
      .insert(contactRequests)
      .values([contact("non_lu", 1), contact("lu", 2)]);
    const after = await badges(cookie);
    expect(after.failedEmails).toBe(before.failedEmails + 2);
    expect(after.unreadContacts).toBe(before.unreadContacts + 1);
  });

  it("are not counted for a visitor without a session", async () => {
    expect(await badges("")).toMatchObject({ failedEmails: 0, unreadContacts: 0 });
  });
});
