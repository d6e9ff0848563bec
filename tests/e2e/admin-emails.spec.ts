import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./shopper";
import Database from "better-sqlite3";
import pg from "pg";
import { databaseUrl, e2eOnPostgres } from "../../playwright.config";
import { createOrder, signIn, unique } from "./admin-fixtures";

/**
 * The admin mailbox in the browser, with and without JavaScript: a failed email put back in the
 * queue from the list, an email's page showing its HTML part in a sandboxed frame that the page's
 * Content-Security-Policy lets render (its scripts never run), its text part and its attachment.
 * The outbox rows are our own test data, written straight into the server's database, SQLite or
 * PostgreSQL (the server's sender then treats them as any other).
 */

type EmailRow = {
  kind: string;
  toAddress: string;
  status: string;
  orderId?: number | null;
  attempts?: number;
  lastError?: string | null;
  subject?: string | null;
  html?: string | null;
  text?: string | null;
  attachments?: string | null;
};

const COLUMNS = [
  "kind",
  "dedupeKey",
  "orderId",
  "toAddress",
  "status",
  "attempts",
  "lastError",
  "subject",
  "html",
  "text",
  "attachments",
  "now",
] as const;

async function insertEmail(row: EmailRow): Promise<number> {
  const values: Record<(typeof COLUMNS)[number], unknown> = {
    orderId: null,
    attempts: 0,
    lastError: null,
    subject: null,
    html: null,
    text: null,
    attachments: null,
    ...row,
    dedupeKey: `e2e:${unique()}`,
    now: new Date().toISOString(),
  };
  const insert = (param: (name: (typeof COLUMNS)[number]) => string) =>
    `insert into emails (kind, dedupe_key, order_id, to_address, payload, status, attempts, last_error, next_attempt_at, subject, html, text, attachments, transport, created_at, updated_at)
     values (${param("kind")}, ${param("dedupeKey")}, ${param("orderId")}, ${param("toAddress")}, '{}', ${param("status")}, ${param("attempts")}, ${param("lastError")}, ${param("now")}, ${param("subject")}, ${param("html")}, ${param("text")}, ${param("attachments")}, null, ${param("now")}, ${param("now")})`;
  if (e2eOnPostgres) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const result = await client.query(
        `${insert((name) => `$${COLUMNS.indexOf(name) + 1}`)} returning id`,
        COLUMNS.map((name) => values[name]),
      );
      return Number(result.rows[0].id);
    } finally {
      await client.end();
    }
  }
  const db = new Database(databaseUrl);
  db.pragma("busy_timeout = 5000");
  try {
    return Number(db.prepare(insert((name) => `@${name}`)).run(values).lastInsertRowid);
  } finally {
    db.close();
  }
}

test("a failed email is shown with its error and put back in the queue from the list", async ({
  page,
  request,
  javaScriptEnabled,
}) => {
  test.setTimeout(90_000);
  const to = `boite+${unique()}@example.fr`;
  const order = await createOrder(request, to);
  const id = await insertEmail({
    kind: "order_confirmation",
    toAddress: to,
    orderId: order.id,
    status: "failed",
    attempts: 5,
    lastError: "Connexion refusée par le serveur SMTP",
    subject: "Votre commande est confirmée",
    html: "<p>Merci</p>",
    text: "Merci",
  });
  // A reminder the sender dropped (the order was paid meantime): not sent, with why, and nothing to resend.
  const dropped = await insertEmail({
    kind: "cart_reminder",
    toAddress: to,
    orderId: order.id,
    status: "canceled",
    attempts: 1,
    lastError: "Non envoyé : la commande a été payée entre-temps.",
  });
  await signIn(page);
  await page.goto(`/admin/emails?to=${encodeURIComponent(to)}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Emails");
  await expect(page.getByTestId("demo-mailbox-note")).toContainText("boîte aux lettres de la boutique");
  const row = page.getByTestId(`email-row-${id}`);
  await expect(row).toContainText("Confirmation de commande");
  await expect(row).toContainText("Échec");
  await expect(row).toContainText("5 tentatives");
  await expect(row).toContainText("Connexion refusée par le serveur SMTP");
  const droppedRow = page.getByTestId(`email-row-${dropped}`);
  await expect(droppedRow).toContainText("Rappel de commande non finalisée");
  await expect(droppedRow).toContainText("Non envoyé : la commande a été payée entre-temps.");
  await expect(droppedRow.getByRole("button", { name: /Renvoyer/ })).toHaveCount(0);
  await expect(page.getByRole("list", { name: "Emails par statut" })).toContainText(/Non envoyé : \d+/);
  if (javaScriptEnabled) {
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: 900 });
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
      expect(
        results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${width}px ${v.id}`),
      ).toEqual([]);
      expect(
        await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
        `${width}px`,
      ).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `tests/.tmp/admin-emails-not-sent-${width}.png`, fullPage: true });
    }
  }
  await expect(row.getByRole("link", { name: `#${order.id}` })).toHaveAttribute("href", `/admin/orders/${order.id}`);

  await row.getByRole("button", { name: `Renvoyer l'email ${id}` }).click();
  await expect(page.getByTestId("toast")).toContainText("Email remis en file d'envoi");
  await expect(page).toHaveURL(new RegExp(`/admin/emails\\?to=`));
  await expect(row.getByRole("button", { name: /Renvoyer/ })).toHaveCount(0);
  // The server's sender takes it at once (the demo mailbox): sent after a reload.
  await expect(async () => {
    await page.reload();
    await expect(row).toHaveAttribute("data-status", "sent", { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });

  // The order's page lists it, with a link to its page.
  await page.goto(`/admin/orders/${order.id}`);
  await page.getByTestId("order-emails").getByRole("link", { name: "Confirmation de commande" }).click();
  await expect(page).toHaveURL(`/admin/emails/${id}`);
});

test("an email's page shows the HTML part in a sandboxed frame, the text part and the attachment", async ({
  page,
  javaScriptEnabled,
}) => {
  test.setTimeout(90_000);
  const blocked: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) blocked.push(message.text());
  });
  const attachments = JSON.stringify([
    {
      filename: "facture.txt",
      contentType: "text/plain",
      content: Buffer.from("Facture n°1").toString("base64"),
      encoding: "base64",
    },
  ]);
  const id = await insertEmail({
    kind: "contact_ack",
    toAddress: `lecture+${unique()}@example.fr`,
    status: "sent",
    attempts: 1,
    subject: "Nous avons bien reçu votre message",
    html: '<style>h1{color:rgb(190,18,60)}</style><h1>Bonjour Camille</h1><p id="corps" style="font-family:&quot;Georgia&quot;, serif; font-weight:700">Nous vous répondons sous 48 heures.</p><script>document.title="exécuté"</script>',
    text: "Bonjour Camille,\n\nNous vous répondons sous 48 heures.",
    attachments,
  });
  const pending = await insertEmail({ kind: "order_shipped", toAddress: `attente+${unique()}@example.fr`, status: "pending" });
  await signIn(page);
  await page.goto(`/admin/emails/${id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Nous avons bien reçu votre message");

  const frame = page.frameLocator(`iframe[title="Contenu HTML de l'email n°${id}"]`);
  await expect(frame.getByRole("heading", { name: "Bonjour Camille" })).toBeVisible();
  await expect(frame.getByRole("heading", { name: "Bonjour Camille" })).toHaveCSS("color", "rgb(190, 18, 60)");
  // Its styles run under the page's policy, which allows them by their hashes (no 'unsafe-inline').
  await expect(frame.locator("#corps")).toHaveCSS("font-weight", "700");
  await expect(page.locator("iframe[srcdoc]")).toHaveAttribute("sandbox", "");
  // Its script never ran (sandbox without allow-scripts).
  const child = page.frames().find((f) => f.parentFrame() === page.mainFrame());
  expect(await child!.evaluate(() => document.title)).toBe("");
  expect(blocked).toEqual([]);

  await expect(page.getByTestId("email-text")).toContainText("Nous vous répondons sous 48 heures.");
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "facture.txt" }).click();
  expect((await download).suggestedFilename()).toBe("facture.txt");

  if (javaScriptEnabled) {
    // The page around the email; the email itself is the templates' (a frame where axe cannot run its script).
    const results = await new AxeBuilder({ page })
      .exclude("iframe")
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
      .analyze();
    expect(results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id)).toEqual([]);
  }

  await page.goto(`/admin/emails/${pending}`);
  await expect(page.getByText("Pas encore rendu : il le sera à son premier envoi.").first()).toBeVisible();

  const unknown = await page.goto("/admin/emails/999999999");
  expect(unknown?.status()).toBe(404);
  await expect(page.getByText("Email introuvable : vérifiez son numéro.")).toBeVisible();
});
