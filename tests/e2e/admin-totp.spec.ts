import AxeBuilder from "@axe-core/playwright";
import { generateTOTP } from "@epic-web/totp";
import type { Page } from "@playwright/test";
import { expect, test } from "./shopper";
import { createAdminUser, signOut } from "./admin-fixtures";

/**
 * The second factor of an administrator, with and without JavaScript: enrolment from the secret
 * shown on the page, sign-in with the password then a code computed here with the same library
 * as the shop, « Se souvenir de cet appareil », a recovery code, and turning the factor off.
 * Each test uses an administrator of its own: the seeded `admin` of the other specs keeps
 * signing in with its password alone.
 */

const STEP_MS = 30_000;

/**
 * The code an authenticator app shows at `ms`. The library reads the clock once, before its
 * first await: the clock is set for that moment only.
 */
async function codeAt(secret: string, ms: number): Promise<string> {
  const RealDate = Date;
  class ClockAt extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length === 0) super(ms);
      else super(...(args as [string]));
    }
    static now() {
      return ms;
    }
  }
  globalThis.Date = ClockAt as DateConstructor;
  let pending: ReturnType<typeof generateTOTP>;
  try {
    pending = generateTOTP({ secret, period: 30, digits: 6, algorithm: "SHA-1" });
  } finally {
    globalThis.Date = RealDate;
  }
  return (await pending).otp;
}

/** Codes as a phone would give them: each from a later step than the one before (the shop refuses a code twice). */
function authenticator(secret: string) {
  let lastStep = -Infinity;
  return async () => {
    const current = Math.floor(Date.now() / STEP_MS);
    // The shop accepts one step either side of its clock.
    const step = Math.max(lastStep + 1, current - 1);
    if (step > current + 1) await new Promise((resolve) => setTimeout(resolve, (step - 1) * STEP_MS - Date.now() + 50));
    lastStep = step;
    return await codeAt(secret, step * STEP_MS + 1000);
  };
}

async function signInWithPassword(page: Page, username: string, password: string) {
  await page.goto("/admin/login");
  await page.getByLabel("Nom d'utilisateur").fill(username);
  await page.getByLabel("Mot de passe").fill(password);
  await page.getByRole("button", { name: "Se connecter" }).click();
}

async function expectAxeClean(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) return;
  const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).analyze();
  expect(
    results.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.help}`),
  ).toEqual([]);
}

test.describe("an administrator's second factor", () => {
  // Several sign-ins, each a deliberate scrypt check.
  test.describe.configure({ timeout: 120_000 });

  test("enrols from the page, then signs in with a code, a remembered browser and a recovery code", async ({
    page,
    browser,
    request,
    javaScriptEnabled,
  }) => {
    const { username, password } = await createAdminUser(request, "totp");

    // Enrolment: the account has no second factor yet, the password alone signs in.
    await signInWithPassword(page, username, password);
    await expect(page.getByTestId("toast")).toContainText("Connexion réussie");
    await page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Sécurité" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Sécurité du compte");
    await expect(page.getByText("État : désactivée")).toBeVisible();
    await page.getByRole("button", { name: "Activer la double authentification" }).click();

    await expect(page.getByRole("img", { name: `QR code de la double authentification du compte ${username}` })).toBeVisible();
    await expect(page.locator('[role="img"] svg')).toHaveCount(1);
    const secret = ((await page.getByTestId("totp-secret").textContent()) ?? "").replace(/\s+/g, "");
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await expect(page.getByTestId("totp-uri")).toHaveText(new RegExp(`^otpauth://totp/.+secret=${secret}&`));
    const code = await page.getByLabel("Code de vérification");
    await expect(code).toHaveAttribute("autocomplete", "one-time-code");
    await expect(code).toHaveAttribute("inputmode", "numeric");
    await expectAxeClean(page, javaScriptEnabled);

    const phone = authenticator(secret);
    await code.fill(await phone());
    await page.getByRole("button", { name: "Activer", exact: true }).click();
    await expect(page.getByRole("heading", { name: "Vos codes de secours" })).toBeVisible();
    const recoveryCodes = await page.getByTestId("recovery-codes").getByRole("listitem").allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    await expect(page.getByTestId("second-factor-state")).toContainText("activée");
    await expect(page.getByTestId("second-factor-state")).toContainText("Codes de secours restants : 10");
    // The secret is never shown again.
    await expect(page.getByTestId("totp-secret")).toHaveCount(0);
    await page.reload();
    await expect(page.getByTestId("recovery-codes")).toHaveCount(0);
    expect(await page.content()).not.toContain(secret);
    await signOut(page);

    // The password no longer opens a session by itself: the code page comes next.
    await signInWithPassword(page, username, password);
    await expect(page).toHaveURL(/\/admin\/login\/verification$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Vérification en deux étapes");
    await page.goto("/admin/dashboard");
    await expect(page).toHaveURL(/\/admin\/login$/);
    await signInWithPassword(page, username, password);
    await expect(page).toHaveURL(/\/admin\/login\/verification$/);
    await expectAxeClean(page, javaScriptEnabled);
    const stepCode = page.getByLabel("Code de vérification");
    await expect(stepCode).toHaveAttribute("autocomplete", "one-time-code");
    await expect(stepCode).toHaveAttribute("inputmode", "numeric");
    await stepCode.fill(await phone());
    await page.getByLabel("Se souvenir de cet appareil").check();
    await page.getByRole("button", { name: "Vérifier" }).click();
    await expect(page.getByTestId("toast")).toContainText("Connexion réussie");
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await signOut(page);

    // This browser is remembered: the password is enough here.
    await signInWithPassword(page, username, password);
    await expect(page.getByTestId("toast")).toContainText("Connexion réussie");
    await expect(page).toHaveURL(/\/admin\/dashboard$/);

    // Another browser is not: without the phone, a recovery code, once.
    const other = await browser.newContext({ javaScriptEnabled });
    const elsewhere = await other.newPage();
    await signInWithPassword(elsewhere, username, password);
    await expect(elsewhere).toHaveURL(/\/admin\/login\/verification$/);
    await elsewhere.getByText("Utiliser un code de secours").click();
    await elsewhere.getByLabel("Code de secours").fill(recoveryCodes[0]);
    await elsewhere.getByRole("button", { name: "Utiliser ce code de secours" }).click();
    await expect(elsewhere.getByTestId("toast")).toContainText("Connexion réussie");
    await signOut(elsewhere);
    await signInWithPassword(elsewhere, username, password);
    await elsewhere.getByText("Utiliser un code de secours").click();
    await elsewhere.getByLabel("Code de secours").fill(recoveryCodes[0]);
    await elsewhere.getByRole("button", { name: "Utiliser ce code de secours" }).click();
    await expect(elsewhere.getByRole("alert").filter({ hasText: "Code de secours invalide ou déjà utilisé" })).toBeVisible();
    await elsewhere.getByLabel("Code de secours").fill(recoveryCodes[1]);
    await elsewhere.getByRole("button", { name: "Utiliser ce code de secours" }).click();
    await expect(elsewhere.getByTestId("toast")).toContainText("Connexion réussie");

    // Turned off with the password: the remembered browser is forgotten, the password alone signs in again.
    await elsewhere.goto("/admin/securite");
    await expect(elsewhere.getByTestId("second-factor-state")).toContainText("Codes de secours restants : 8");
    const disable = elsewhere.getByRole("form", { name: "Désactiver la double authentification" });
    await disable.getByLabel("Ou mot de passe").fill(password);
    await disable.getByRole("button", { name: "Désactiver" }).click();
    await expect(elsewhere.getByTestId("toast")).toContainText("Double authentification désactivée");
    await expect(elsewhere.getByText("État : désactivée")).toBeVisible();
    await other.close();

    await signOut(page);
    await signInWithPassword(page, username, password);
    await expect(page.getByTestId("toast")).toContainText("Connexion réussie");
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
  });
});
