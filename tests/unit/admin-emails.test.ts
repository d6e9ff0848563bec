import { asResponses } from "../helpers/route-response";
import { eq } from "drizzle-orm";
import { getToast } from "remix-toast";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { API_OPERATIONS } from "~/openapi/operations.server";
import { documentedErrors } from "~/openapi/document.server";
import { emails } from "~/db/schema";
import { action as detailActionRoute, loader as detailLoaderRoute } from "~/routes/admin.emails.$id";
import { action as listActionRoute, loader as listLoaderRoute } from "~/routes/admin.emails._index";
import { loader as attachmentLoader } from "~/routes/admin_.emails.$id.attachments.$index";
import { loader as orderLoaderRoute } from "~/routes/admin.orders.$id";
import { countEmailsByStatus, getEmail, listEmails, listOrderEmails, resendEmail } from "~/services/email/mailbox.server";
import { callOperation } from "../helpers/api-client";
import { formRequest, getRequest, routeArgs } from "../helpers/requests";
import { adminCookie, cookieFrom, insertOrder } from "./admin-helpers";

const detailAction = asResponses(detailActionRoute);
const detailLoader = asResponses(detailLoaderRoute);
const listAction = asResponses(listActionRoute);
const listLoader = asResponses(listLoaderRoute);
const orderLoader = asResponses(orderLoaderRoute);

let nextKey = 0;

/** An outbox row, as the outbox and the sender would leave it (test data written directly). */
async function insertEmail(overrides: Partial<typeof emails.$inferInsert> = {}) {
  const key = ++nextKey;
  return (
    await getDb()
      .insert(emails)
      .values({
        kind: "order_confirmation",
        dedupeKey: `test:${key}:${Math.random()}`,
        toAddress: `client${key}@example.fr`,
        status: "sent",
        attempts: 1,
        subject: "Votre commande est confirmée",
        html: "<p>Bonjour, <strong>merci</strong> pour votre commande.</p>",
        text: "Bonjour, merci pour votre commande.",
        transport: "demo",
        messageId: `<test-${key}@maison-eclat.fr>`,
        sentAt: new Date().toISOString(),
        ...overrides,
      })
      .returning()
  )[0];
}

/** The toast a redirect carries, as the next page's root loader reads it. */
async function toastOf(response: Response) {
  const cookie = cookieFrom(response, "toast-session");
  expect(cookie).not.toBeNull();
  return (await getToast(getRequest("/admin/emails", { Cookie: cookie! }))).toast;
}

async function readEmail(id: number) {
  return (await getDb().select().from(emails).where(eq(emails.id, id)).limit(1))[0]!;
}

const failed = {
  status: "failed" as const,
  attempts: 5,
  lastError: "Connexion refusée par le serveur SMTP",
  sentAt: null,
  transport: null,
  messageId: null,
};

describe("mailbox service", () => {
  it("lists newest first and filters by status, kind, recipient and order number", async () => {
    const orderId = await insertOrder();
    const older = await insertEmail({ toAddress: "Alice.Durand@Example.fr", orderId, createdAt: "2026-01-01T10:00:00.000Z" });
    const newer = await insertEmail({
      kind: "shop_new_order",
      toAddress: "boutique@maison-eclat.fr",
      orderId,
      createdAt: "2026-01-02T10:00:00.000Z",
    });
    const other = await insertEmail({
      ...failed,
      kind: "contact_ack",
      toAddress: "bob_martin@example.fr",
      createdAt: "2026-01-03T10:00:00.000Z",
    });

    const all = (await listEmails({})).emails.map((e) => e.id);
    expect(all.indexOf(other.id)).toBeLessThan(all.indexOf(newer.id));
    expect(all.indexOf(newer.id)).toBeLessThan(all.indexOf(older.id));

    expect((await listEmails({ order: orderId })).emails.map((e) => e.id)).toEqual([newer.id, older.id]);
    expect((await listEmails({ order: orderId, kind: "order_confirmation" })).emails.map((e) => e.id)).toEqual([older.id]);
    expect((await listEmails({ to: "alice.durand" })).emails.map((e) => e.id)).toEqual([older.id]);
    // A LIKE wildcard typed by the administrator is a plain character.
    expect((await listEmails({ to: "bo%martin" })).emails).toEqual([]);
    expect((await listEmails({ to: "bo_martin" })).emails).toEqual([]);
    expect((await listEmails({ to: "bob_martin" })).emails.map((e) => e.id)).toEqual([other.id]);
    expect((await listEmails({ status: "failed" })).emails.map((e) => e.id)).toContain(other.id);
    expect((await listEmails({ status: "failed" })).emails.every((e) => e.status === "failed")).toBe(true);
    expect((await listOrderEmails(orderId)).map((e) => e.id)).toEqual([newer.id, older.id]);
  });

  it("pages the list and counts emails per status", async () => {
    const orderId = await insertOrder();
    for (let i = 0; i < 5; i++) await insertEmail({ orderId });
    const first = await listEmails({ order: orderId }, 2);
    expect(first).toMatchObject({ total: 5, page: 1, pageCount: 3, pageSize: 2 });
    const last = await listEmails({ order: orderId, page: 99 }, 2);
    expect(last.page).toBe(3);
    expect(last.emails).toHaveLength(1);
    const counts = await countEmailsByStatus();
    expect(Object.keys(counts).sort()).toEqual(["canceled", "failed", "pending", "sending", "sent"]);
    expect(counts.sent).toBeGreaterThanOrEqual(5);
  });

  it("puts a failed email back in the queue as it is: pending, no attempt, due now, last error kept", async () => {
    const email = await insertEmail({
      ...failed,
      nextAttemptAt: "2030-01-01T00:00:00.000Z",
      sendingSince: "2026-01-01T00:00:00.000Z",
    });
    const before = Date.now();
    expect(await resendEmail(email.id)).toBe(true);
    const row = await readEmail(email.id);
    expect(row).toMatchObject({ status: "pending", attempts: 0, lastError: failed.lastError, sendingSince: null });
    expect(Date.parse(row.nextAttemptAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(row.nextAttemptAt)).toBeLessThanOrEqual(Date.now());
    // The content is kept to be sent as it was.
    expect(row).toMatchObject({ subject: email.subject, html: email.html, text: email.text });
    // Now pending: a second click does nothing.
    expect(await resendEmail(email.id)).toBe(false);
  });

  it("never puts back a sent, pending or sending email, nor an unknown one", async () => {
    for (const status of ["sent", "pending", "sending"] as const) {
      const email = await insertEmail({ status, attempts: 2 });
      expect(await resendEmail(email.id), status).toBe(false);
      expect(await readEmail(email.id)).toMatchObject({ status, attempts: 2 });
    }
    expect(await resendEmail(999_999_999)).toBe(false);
  });

  it("says a pending email is not rendered yet", async () => {
    const email = await insertEmail({
      status: "pending",
      attempts: 0,
      subject: null,
      html: null,
      text: null,
      sentAt: null,
      transport: null,
      messageId: null,
    });
    expect(await getEmail(email.id)).toMatchObject({ rendered: false, html: null, text: null, attachments: [] });
  });
});

describe("/admin/emails", () => {
  it("lists the emails with the filters of the address, the counts and the demo note", async () => {
    const cookie = await adminCookie();
    const orderId = await insertOrder();
    const mine = await insertEmail({ orderId, toAddress: "liste@example.fr" });
    await insertEmail({ toAddress: "liste@example.fr", kind: "contact_ack" });
    const response = await listLoader(
      routeArgs(getRequest(`/admin/emails?order=%23${orderId}&to=LISTE&status=bogus`, { Cookie: cookie })),
    );
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    const data = await response.json();
    expect(data.filters).toEqual({ order: orderId, to: "LISTE" });
    expect(data.emails.map((e: { id: number }) => e.id)).toEqual([mine.id]);
    expect(data.emails[0]).toMatchObject({ toAddress: "liste@example.fr", kind: "order_confirmation", orderId, status: "sent" });
    expect(data.emails[0]).not.toHaveProperty("html");
    expect(data.counts.sent).toBeGreaterThan(0);
    expect(data.demo).toBe(true);
  });

  it("sends a visitor without a session to the login page", async () => {
    const response = await listLoader(routeArgs(getRequest("/admin/emails"))).catch((e: unknown) => e as Response);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/login?redirectTo=%2Fadmin%2Femails");
  });

  it("'Renvoyer' puts a failed email back in the queue, with the toast, back to the same view", async () => {
    const cookie = await adminCookie();
    const email = await insertEmail(failed);
    const response = await listAction(
      routeArgs(
        formRequest(
          "/admin/emails",
          { intent: "resend", id: String(email.id), redirectTo: "/admin/emails?status=failed" },
          { headers: { Cookie: cookie } },
        ),
      ),
    );
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/admin/emails?status=failed");
    expect(await toastOf(response)).toMatchObject({ type: "success", message: "Email remis en file d'envoi" });
    expect(await readEmail(email.id)).toMatchObject({ status: "pending", attempts: 0 });
  });

  it("refuses to resend a sent email (error toast, nothing changed) and an open redirect", async () => {
    const cookie = await adminCookie();
    const email = await insertEmail();
    const response = await listAction(
      routeArgs(
        formRequest(
          "/admin/emails",
          { intent: "resend", id: String(email.id), redirectTo: "https://evil.example/" },
          { headers: { Cookie: cookie } },
        ),
      ),
    );
    expect(response.headers.get("Location")).toBe("/admin/emails");
    expect(await toastOf(response)).toMatchObject({
      type: "error",
      description: expect.stringMatching(/^Seul un email en échec peut être renvoyé/),
    });
    expect(await readEmail(email.id)).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("changes nothing for a visitor without a session or a post from another site", async () => {
    const email = await insertEmail(failed);
    await expect(
      listAction(routeArgs(formRequest("/admin/emails", { intent: "resend", id: String(email.id) }))),
    ).rejects.toBeInstanceOf(Response);
    const cookie = await adminCookie();
    const foreign = await listAction(
      routeArgs(
        formRequest(
          "/admin/emails",
          { intent: "resend", id: String(email.id) },
          { headers: { Cookie: cookie, Origin: "https://evil.example" } },
        ),
      ),
    ).catch((e: unknown) => e as Response);
    expect(foreign.status).toBe(403);
    expect((await readEmail(email.id)).status).toBe("failed");
  });
});

describe("/admin/emails/{id}", () => {
  it("shows the email as it was sent, with its attachments' download addresses", async () => {
    const cookie = await adminCookie();
    const orderId = await insertOrder();
    const email = await insertEmail({
      orderId,
      attachments: [
        {
          filename: "facture-é.pdf",
          contentType: "application/pdf",
          content: Buffer.from("%PDF-1.4 facture").toString("base64"),
          encoding: "base64",
        },
      ],
    });
    const data = await (
      await detailLoader(routeArgs(getRequest(`/admin/emails/${email.id}`, { Cookie: cookie }), { id: String(email.id) }))
    ).json();
    expect(data.email).toMatchObject({
      id: email.id,
      toAddress: email.toAddress,
      subject: "Votre commande est confirmée",
      html: email.html,
      text: email.text,
      transport: "demo",
      messageId: email.messageId,
      orderId,
      rendered: true,
      attachments: [
        { filename: "facture-é.pdf", contentType: "application/pdf", size: 16, url: `/admin/emails/${email.id}/attachments/0` },
      ],
    });
  });

  it("answers 404 with a French message for an unknown or malformed id", async () => {
    const cookie = await adminCookie();
    for (const id of ["999999999", "abc"]) {
      const thrown = await detailLoader(routeArgs(getRequest(`/admin/emails/${id}`, { Cookie: cookie }), { id })).catch(
        (e: unknown) => e as Response,
      );
      expect(thrown.status).toBe(404);
      expect(await thrown.text()).toBe("Email introuvable");
    }
  });

  it("'Renvoyer' from the email's page comes back to it", async () => {
    const cookie = await adminCookie();
    const email = await insertEmail(failed);
    const response = await detailAction(
      routeArgs(
        formRequest(
          `/admin/emails/${email.id}`,
          { intent: "resend", id: String(email.id), redirectTo: `/admin/emails/${email.id}` },
          { headers: { Cookie: cookie } },
        ),
        {
          id: String(email.id),
        },
      ),
    );
    expect(response.headers.get("Location")).toBe(`/admin/emails/${email.id}`);
    expect((await readEmail(email.id)).status).toBe("pending");
  });

  it("downloads an attachment as it was sent, for the administrator only", async () => {
    const cookie = await adminCookie();
    const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10]);
    const email = await insertEmail({
      attachments: [
        { filename: "Facture n°1.pdf", contentType: "application/pdf", content: bytes.toString("base64"), encoding: "base64" },
      ],
    });
    const args = (headers: Record<string, string>, index = "0") =>
      routeArgs(getRequest(`/admin/emails/${email.id}/attachments/${index}`, headers), { id: String(email.id), index });
    const response = await attachmentLoader(args({ Cookie: cookie }));
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="Facture n1.pdf"; filename*=UTF-8''Facture%20n%C2%B01.pdf`,
    );
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);

    const missing = await attachmentLoader(args({ Cookie: cookie }, "1")).catch((e: unknown) => e as Response);
    expect(missing.status).toBe(404);
    const visitor = await attachmentLoader(args({})).catch((e: unknown) => e as Response);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toMatch(/^\/admin\/login/);
  });

  it("never lets a stored content type inject a header", async () => {
    const cookie = await adminCookie();
    const email = await insertEmail({
      attachments: [{ filename: "a.html", contentType: "text/html\r\nSet-Cookie: x=1", content: "PGI+aGk8L2I+" }],
    });
    const response = await attachmentLoader(
      routeArgs(getRequest(`/admin/emails/${email.id}/attachments/0`, { Cookie: cookie }), { id: String(email.id), index: "0" }),
    );
    expect(response.headers.get("Content-Type")).toBe("application/octet-stream");
    expect(response.headers.get("Content-Security-Policy")).toContain("sandbox");
  });
});

describe("/admin/orders/{id}", () => {
  it("lists the order's emails, newest first", async () => {
    const cookie = await adminCookie();
    const orderId = await insertOrder();
    const confirmation = await insertEmail({ orderId, createdAt: "2026-02-01T10:00:00.000Z" });
    const shipped = await insertEmail({
      orderId,
      kind: "order_shipped",
      status: "pending",
      createdAt: "2026-02-03T10:00:00.000Z",
    });
    await insertEmail({ kind: "contact_ack" });
    const data = await (
      await orderLoader(routeArgs(getRequest(`/admin/orders/${orderId}`, { Cookie: cookie }), { id: String(orderId) }))
    ).json();
    expect(data.emails.map((e: { id: number; kind: string; status: string }) => [e.id, e.kind, e.status])).toEqual([
      [shipped.id, "order_shipped", "pending"],
      [confirmation.id, "order_confirmation", "sent"],
    ]);
  });
});

describe("JSON API /api/admin/emails", () => {
  const op = (operationId: string) => API_OPERATIONS.find((o) => o.operationId === operationId)!;

  it("lists one page with the page's filters, without content, and the counts per status", async () => {
    const cookie = await adminCookie();
    const orderId = await insertOrder();
    const mine = await insertEmail({ ...failed, orderId, toAddress: "api.liste@example.fr" });
    await insertEmail({ orderId, toAddress: "api.liste@example.fr" });
    const result = await callOperation(op("listEmails"), {
      query: `order=${orderId}&status=failed&to=API.LISTE`,
      headers: { Cookie: cookie },
    });
    expect(result.status).toBe(200);
    const body = result.body as {
      emails: Record<string, unknown>[];
      limit: number;
      nextCursor: string | null;
      counts: Record<string, number>;
    };
    expect(body).toMatchObject({ limit: 50, nextCursor: null });
    expect(body.emails).toEqual([
      expect.objectContaining({
        id: mine.id,
        kind: "order_confirmation",
        status: "failed",
        to: "api.liste@example.fr",
        orderId,
        attempts: 5,
        lastError: failed.lastError,
      }),
    ]);
    expect(body.emails[0]).not.toHaveProperty("html");
    expect(body.counts.failed).toBeGreaterThanOrEqual(1);
  });

  it("gives one email with its content and attachments, 404 in French for an unknown one", async () => {
    const cookie = await adminCookie();
    const email = await insertEmail({
      attachments: [{ filename: "cgv.pdf", contentType: "application/pdf", content: "JVBERg==", encoding: "base64" }],
    });
    const result = await callOperation(op("getEmail"), { params: { id: String(email.id) }, headers: { Cookie: cookie } });
    expect(result.body).toMatchObject({
      id: email.id,
      html: email.html,
      text: email.text,
      transport: "demo",
      messageId: email.messageId,
      rendered: true,
      attachments: [
        { filename: "cgv.pdf", contentType: "application/pdf", size: 4, url: `/admin/emails/${email.id}/attachments/0` },
      ],
    });
    const unknown = await callOperation(op("getEmail"), { params: { id: "999999999" }, headers: { Cookie: cookie } });
    expect(unknown).toMatchObject({ status: 404, body: { error: "Email introuvable" } });
  });

  it("resends a failed email, and answers 409 in French for a sent, pending or sending one", async () => {
    const cookie = await adminCookie();
    const email = await insertEmail(failed);
    const done = await callOperation(op("resendEmail"), { params: { id: String(email.id) }, headers: { Cookie: cookie } });
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      id: email.id,
      status: "pending",
      attempts: 0,
      lastError: failed.lastError,
      html: email.html,
    });
    for (const status of ["pending", "sent", "sending"] as const) {
      const other = status === "pending" ? email : await insertEmail({ status });
      const refused = await callOperation(op("resendEmail"), { params: { id: String(other.id) }, headers: { Cookie: cookie } });
      expect(refused.status, status).toBe(409);
      expect(refused.body).toMatchObject({
        error: expect.stringMatching(/^Seul un email en échec peut être renvoyé/),
        code: "email_not_failed",
      });
    }
    expect(await readEmail(email.id)).toMatchObject({ status: "pending", attempts: 0 });
    expect(documentedErrors(op("resendEmail"))[409]).toMatch(/pas en échec/);
    const unknown = await callOperation(op("resendEmail"), { params: { id: "999999999" }, headers: { Cookie: cookie } });
    expect(unknown.status).toBe(404);
  });

  it("refuses a visitor without the admin session (401) and a post from another site (403)", async () => {
    const email = await insertEmail(failed);
    for (const operationId of ["listEmails", "getEmail", "resendEmail"]) {
      const result = await callOperation(op(operationId), { params: { id: String(email.id) } });
      expect(result.status, operationId).toBe(401);
    }
    const cookie = await adminCookie();
    const foreign = await callOperation(op("resendEmail"), {
      params: { id: String(email.id) },
      headers: { Cookie: cookie, Origin: "https://evil.example" },
    });
    expect(foreign.status).toBe(403);
    expect((await readEmail(email.id)).status).toBe("failed");
  });
});
