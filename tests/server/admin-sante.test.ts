import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backupFileName } from "~/services/backups/files.server";
import { chromiumPath } from "../helpers/chromium";
import { adminCookie, api } from "./shop-api";
import { freePort, spawnShop, type ShopProcess } from "./shop-process";

/**
 * The owner's health page (/admin/sante) of a real shop process whose SMTP server does not
 * answer (SMTP_URL on a closed port) and whose last backup is three days old: the emails go
 * amber then red as failures accumulate, the backup is red, and the dashboard says so.
 */

let shop: ShopProcess;
let cookie: string;
const backupDir = mkdtempSync(path.join(os.tmpdir(), "shop-sante-backups-"));

const page = async (pathname: string) => {
  const response = await fetch(`${shop.url}${pathname}`, { headers: { Cookie: cookie } });
  expect(response.status).toBe(200);
  return await response.text();
};
const levelOf = (html: string, key: string) => new RegExp(`data-testid="health-${key}" data-level="(\\w+)"`).exec(html)?.[1];

/** Replaces every snapshot of BACKUP_DIR by one taken three days ago (a finished one: with its checksum). */
function leaveOnlyAStaleBackup() {
  rmSync(backupDir, { recursive: true, force: true });
  mkdirSync(backupDir);
  const file = path.join(backupDir, backupFileName(new Date(Date.now() - 72 * 3_600_000), "sqlite"));
  const content = Buffer.from("instantané de trois jours");
  writeFileSync(file, content);
  const sha256 = createHash("sha256").update(content).digest("hex");
  writeFileSync(`${file}.sha256`, `${sha256}  ${path.basename(file)}\n`);
  return sha256;
}

beforeAll(async () => {
  const closedPort = await freePort();
  shop = await spawnShop({
    SHOP_MODE: "demo",
    SMTP_URL: `smtp://127.0.0.1:${closedPort}`,
    BACKUP_DIR: backupDir,
    BACKUP_EVERY: "24",
  });
  await shop.ready();
  // The scheduler's first tick takes a snapshot at start (none was there); the next tick is a minute away.
  const deadline = Date.now() + 20_000;
  while (!readdirSync(backupDir).some((name) => name.endsWith(".sha256"))) {
    if (Date.now() > deadline) throw new Error(`no snapshot at start:\n${shop.stdout()}\n${shop.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  cookie = await adminCookie(shop.url);
}, 60_000);

afterAll(async () => {
  await shop?.dispose();
  rmSync(backupDir, { recursive: true, force: true });
});

describe("/admin/sante", () => {
  it("a fresh backup is green; three days old it is red, with its checksum, and the dashboard shows a banner", async () => {
    const fresh = await page("/admin/sante");
    expect(fresh).toContain("<h1");
    expect(fresh).toContain("Santé de la boutique");
    expect(levelOf(fresh, "backup")).toBe("green");
    expect(await page("/admin/dashboard")).not.toContain('data-testid="health-alert"');

    const sha256 = leaveOnlyAStaleBackup();
    const stale = await page("/admin/sante");
    expect(levelOf(stale, "backup")).toBe("red");
    expect(stale).toContain("La dernière sauvegarde date de 3 j : c&#x27;est plus du double de l&#x27;intervalle prévu.");
    expect(stale).toContain(`Empreinte SHA-256 : ${sha256}`);
    expect(stale).toContain("Rouge · à traiter");
    const dashboard = await page("/admin/dashboard");
    expect(dashboard).toContain("À traiter maintenant : Sauvegarde.");
    expect(dashboard).toMatch(/<a[^>]+href="\/admin\/sante"[^>]*>Voir la santé de la boutique<\/a>/);
  });

  it("emails: green, amber once the SMTP server has refused one contact's emails, red after three", async () => {
    expect(levelOf(await page("/admin/sante"), "emails")).toBe("green");
    const contact = async (n: number) => {
      const sent = await api(shop.url, "/api/contact", {
        body: {
          name: "Léa Petit",
          email: `lea${n}@example.fr`,
          subject: `Livraison (message ${n})`,
          message: `Bonjour (message ${n})`,
        },
      });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    };
    // The acknowledgement and the shop's copy: two emails, each failing at its first attempt.
    await contact(1);
    await expect.poll(async () => levelOf(await page("/admin/sante"), "emails"), { timeout: 15_000 }).toBe("amber");
    const amber = await page("/admin/sante");
    expect(amber).toContain("Des emails n&#x27;ont pas pu partir : 2 échecs d&#x27;envoi en 24 h.");
    expect(amber).toMatch(/<a[^>]+href="\/admin\/emails"[^>]*>Voir les emails<\/a>/);
    expect(await page("/admin/dashboard")).toContain("À traiter maintenant : Sauvegarde.");

    await contact(2);
    await contact(3);
    await expect.poll(async () => levelOf(await page("/admin/sante"), "emails"), { timeout: 15_000 }).toBe("red");
    expect(await page("/admin/sante")).toContain("Des emails n&#x27;ont pas pu partir : 6 échecs d&#x27;envoi en 24 h.");
    expect(await page("/admin/dashboard")).toContain("À traiter maintenant : Sauvegarde, Emails.");
  });

  it("fits a 390 px phone without JavaScript", async () => {
    const browser = await chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox", "--disable-gpu"] });
    try {
      const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
      const [name, ...value] = cookie.split("; ")[0]!.split("=");
      await context.addCookies([{ name: name!, value: value.join("="), url: shop.url }]);
      const tab = await context.newPage();
      await tab.goto(`${shop.url}/admin/sante`);
      await expect.poll(() => tab.locator("h1").textContent()).toBe("Santé de la boutique");
      expect(await tab.getByText("Rouge · à traiter").count()).toBeGreaterThan(0);
      mkdirSync("tests/.tmp", { recursive: true });
      await tab.screenshot({ path: "tests/.tmp/admin-sante-390.png", fullPage: true });
      const overflow = await tab.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, "the page scrolls sideways").toBeLessThanOrEqual(0);
    } finally {
      await browser.close();
    }
  });
});
