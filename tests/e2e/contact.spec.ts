import { expect, test } from "./shopper";

const SUCCESS = "Nous avons bien reçu votre message et vous répondrons dans les plus brefs délais.";

test.describe("contact page", () => {
  test("shows the shop's details, opening hours and social links", async ({ page }) => {
    await page.goto("/contact");
    await expect(page).toHaveTitle(/Contact/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Contactez-nous");
    await expect(page.getByText("Lundi - Vendredi")).toBeVisible();
    await expect(page.getByText("9h - 18h")).toBeVisible();
    await expect(page.getByText("10h - 15h")).toBeVisible();
    await expect(page.getByText("Fermé")).toBeVisible();
    await expect(page.getByRole("link", { name: "Instagram" })).toBeVisible();
    await expect(page.getByRole("main").getByRole("link", { name: "contact@maison-eclat.fr" })).toBeVisible();
  });

  test("shows each validation message and keeps what was typed", async ({ page }) => {
    await page.goto("/contact");
    await page.getByLabel("Nom", { exact: true }).fill("A");
    await page.getByLabel("Email", { exact: true }).fill("pas-un-email");
    await page.getByLabel("Objet", { exact: true }).fill("x");
    await page.getByLabel("Message", { exact: true }).fill("court");
    await page.getByRole("button", { name: "Envoyer le message" }).click();
    await expect(page.getByText("Le nom doit contenir au moins 2 caractères.")).toBeVisible();
    await expect(page.getByText("Veuillez entrer une adresse email valide.")).toBeVisible();
    await expect(page.getByText("L'objet doit contenir au moins 2 caractères.")).toBeVisible();
    await expect(page.getByText("Le message doit contenir au moins 10 caractères.")).toBeVisible();
    await expect(page.getByLabel("Message", { exact: true })).toHaveValue("court");
    await expect(page.getByLabel("Nom", { exact: true })).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByText(SUCCESS)).toHaveCount(0);
  });

  test("sends a message, says so in view on a phone, clears the form, and the banner goes away after 5 s with JavaScript", async ({
    page,
    javaScriptEnabled,
  }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/contact");
    await page.getByLabel("Nom", { exact: true }).fill("Camille Martin");
    await page.getByLabel("Email", { exact: true }).fill(`camille+${Date.now()}@example.fr`);
    await page.getByLabel("Objet", { exact: true }).fill("Question sur le pack");
    await page.getByLabel("Message", { exact: true }).fill("Bonjour, le pack 3 convient-il aux peaux sensibles ?");
    await page.getByRole("button", { name: "Envoyer le message" }).click();
    await expect(page.getByText(SUCCESS)).toBeVisible();
    // The answer is in view on a phone, not 900 px down: focused with JavaScript, scrolled to (#ecrire) without.
    await expect(page.getByText(SUCCESS)).toBeInViewport();
    if (javaScriptEnabled) await expect(page.getByTestId("contact-answer")).toBeFocused();
    else await expect(page).toHaveURL(/\/contact#ecrire$/);
    await expect(page.getByLabel("Nom", { exact: true })).toHaveValue("");
    await expect(page.getByLabel("Message", { exact: true })).toHaveValue("");
    if (javaScriptEnabled) {
      await expect(page.getByText(SUCCESS)).toBeHidden({ timeout: 7_000 });
    }
  });
});
