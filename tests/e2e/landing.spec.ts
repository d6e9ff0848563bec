import type { Page } from "@playwright/test";
import { expect, test } from "./shopper";
import { LANDING_FAQ } from "../../app/content/faq";

const STEPS = ["Nettoyez", "Appliquez", "Patientez", "Massez"];
const stepButton = (page: Page, i: number) => page.getByRole("button", { name: `Étape ${i + 1} : ${STEPS[i]}` });
/** The picture the step buttons control (their aria-controls target). */
async function stepImage(page: Page) {
  const figureId = await stepButton(page, 0).getAttribute("aria-controls");
  return page.locator(`[id="${figureId}"]`).getByRole("img");
}

/** Once React runs, the FAQ questions become buttons: the page is interactive. */
async function waitForHydration(page: Page) {
  await expect(page.getByRole("button", { name: LANDING_FAQ[0].question })).toBeVisible();
}

test.describe("landing page", () => {
  test("shows its seven sections in order, with one h1 and its own title", async ({ page }) => {
    await page.goto("/");
    await expect(page).toHaveTitle(/ \| Maison Éclat$/);
    await expect(page.locator("h1")).toHaveCount(1);
    const main = page.getByRole("main");

    // 1. Hero
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Hydratation, éclat, fermeté.");
    for (const line of [
      "Hydrate intensément dès la première pose",
      "Ravive l'éclat du teint en 20 minutes",
      "Raffermit la peau et lisse les ridules",
    ]) {
      await expect(main.getByText(line)).toBeVisible();
    }
    await expect(main.getByText("4,8 / +10\u202f000 clientes")).toBeVisible();

    // Sections 2 to 7, in this order.
    await expect(main.getByRole("heading", { level: 2 })).toHaveText([
      "Ils parlent de nous",
      "4 raisons d'essayer le masque",
      "Elles ont adopté le masque",
      "Votre rituel en 4 étapes",
      "Questions fréquentes",
      "Offrez à votre peau l'éclat qu'elle mérite",
    ]);

    // 2. Press: five magazines.
    await expect(page.getByRole("region", { name: "Ils parlent de nous" }).getByRole("listitem")).toHaveCount(5);
    // 3. Four reasons.
    await expect(
      page.getByRole("region", { name: "4 raisons d'essayer le masque" }).getByRole("heading", { level: 3 }),
    ).toHaveText(["Hydratation intense", "Éclat retrouvé", "Effet tenseur", "Formule douce"]);
    // 4. Three before/after testimonials.
    const testimonials = page.getByRole("region", { name: "Elles ont adopté le masque" });
    await expect(testimonials.getByRole("heading", { level: 3 })).toHaveText([
      "Sophie, 52 ans",
      "Camille, 34 ans",
      "Nadia, 41 ans",
    ]);
    await expect(testimonials.getByRole("img", { name: /avant la cure/ })).toHaveCount(3);
    await expect(testimonials.getByRole("img", { name: /après 4 semaines/ })).toHaveCount(3);
    // 5. Four steps.
    for (let i = 0; i < 4; i++) await expect(stepButton(page, i)).toBeVisible();
    // 6. The five questions.
    for (const { question } of LANDING_FAQ) await expect(main.getByText(question, { exact: true })).toBeVisible();
    // 7. Closing call to action and its notes.
    const cta = page.getByRole("region", { name: "Offrez à votre peau l'éclat qu'elle mérite" });
    for (const note of ["Livraison gratuite", "Satisfait ou remboursé", "Paiement sécurisé"]) {
      await expect(cta.getByText(note, { exact: true })).toBeVisible();
    }
  });

  test("every order button leads to the product page", async ({ page }) => {
    await page.goto("/");
    const orderLinks = page.getByRole("main").getByRole("link", { name: "Commander maintenant" });
    await expect(orderLinks).toHaveCount(2);
    for (const link of await orderLinks.all()) await expect(link).toHaveAttribute("href", "/product/1");
    await orderLinks.last().click();
    await expect(page).toHaveURL(/\/product\/1$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Masque Hydrogel au Collagène");
  });

  test("images have a size, a French text alternative, and load", async ({ page }) => {
    await page.goto("/");
    // The hero's illustration is drawn inline (it shows with the first paint): an image by its role and label.
    const hero = page.getByRole("main").locator("svg[role=img]").first();
    await expect(hero).toHaveAttribute("aria-label", /^Illustration : .+/);
    await expect(hero).toBeVisible();
    const images = page.getByRole("main").locator("img");
    expect(await images.count()).toBeGreaterThanOrEqual(7);
    const sources = new Set<string>();
    for (const img of await images.all()) {
      await expect(img).toHaveAttribute("width", /^\d+$/);
      await expect(img).toHaveAttribute("height", /^\d+$/);
      await expect(img).toHaveAttribute("alt", /^(|Illustration : .+)$/);
      sources.add((await img.getAttribute("src")) ?? "");
    }
    for (const src of sources) {
      expect(src).toMatch(/^\/images\/[\w-]+\.svg$/);
      const response = await page.request.get(src);
      expect(response.status(), src).toBe(200);
      expect(response.headers()["content-type"]).toContain("image/svg+xml");
    }
  });

  test("the first usage step is active at start and its image shows", async ({ page }) => {
    await page.goto("/");
    await expect(stepButton(page, 0)).toHaveAttribute("aria-pressed", "true");
    for (const i of [1, 2, 3]) await expect(stepButton(page, i)).toHaveAttribute("aria-pressed", "false");
    await expect(await stepImage(page)).toHaveAttribute("src", "/images/step-1-nettoyer.svg");
    await expect(page.getByText("Étape 1 sur 4 : Nettoyez")).toBeVisible();
  });
});

test.describe("landing page with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "needs JavaScript");

  test("usage steps switch the image, with the mouse and the keyboard", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);

    await stepButton(page, 2).click();
    await expect(stepButton(page, 2)).toHaveAttribute("aria-pressed", "true");
    await expect(stepButton(page, 0)).toHaveAttribute("aria-pressed", "false");
    await expect(await stepImage(page)).toHaveAttribute("src", "/images/step-3-patienter.svg");
    await expect(page.getByText("Étape 3 sur 4 : Patientez")).toBeVisible();

    await stepButton(page, 2).focus();
    await page.keyboard.press("Tab");
    await expect(stepButton(page, 3)).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(await stepImage(page)).toHaveAttribute("src", "/images/step-4-masser.svg");
    await expect(stepButton(page, 3)).toHaveAttribute("aria-pressed", "true");
  });

  test("FAQ: one answer open at a time, clicking the open question closes it", async ({ page }) => {
    await page.goto("/");
    await waitForHydration(page);
    const [q1, q2, q3] = LANDING_FAQ;
    const button = (q: (typeof LANDING_FAQ)[number]) => page.getByRole("button", { name: q.question });
    const answer = (q: (typeof LANDING_FAQ)[number]) => page.getByText(q.answer);

    for (const q of LANDING_FAQ) {
      await expect(button(q)).toHaveAttribute("aria-expanded", "false");
      await expect(answer(q)).toBeHidden();
    }
    await button(q1).click();
    await expect(button(q1)).toHaveAttribute("aria-expanded", "true");
    await expect(answer(q1)).toBeVisible();
    await expect(page.getByRole("region", { name: q1.question })).toBeVisible();

    await button(q2).click();
    await expect(answer(q2)).toBeVisible();
    await expect(answer(q1)).toBeHidden();
    await expect(button(q1)).toHaveAttribute("aria-expanded", "false");

    await button(q2).click();
    await expect(answer(q2)).toBeHidden();
    await expect(button(q2)).toHaveAttribute("aria-expanded", "false");

    // Keyboard: Space/Enter on a focused question.
    await button(q3).focus();
    await page.keyboard.press("Enter");
    await expect(answer(q3)).toBeVisible();
    await page.keyboard.press("Space");
    await expect(answer(q3)).toBeHidden();
  });
});

test.describe("landing page without JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "checks the version without JavaScript");

  test("the FAQ answers still open, one at a time", async ({ page }) => {
    await page.goto("/");
    const [q1, q2] = LANDING_FAQ;
    await expect(page.getByText(q1.answer)).toBeHidden();
    await page.getByText(q1.question, { exact: true }).click();
    await expect(page.getByText(q1.answer)).toBeVisible();
    await page.getByText(q2.question, { exact: true }).click();
    await expect(page.getByText(q2.answer)).toBeVisible();
    await expect(page.getByText(q1.answer)).toBeHidden();
    await page.getByText(q2.question, { exact: true }).click();
    await expect(page.getByText(q2.answer)).toBeHidden();
  });
});

test.describe("links to a part of a long page", () => {
  // The parts below the first screen are laid out only as they come near it (content-visibility):
  // a link to one of them must still land on it, on a phone and on a desktop.
  for (const viewport of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    for (const target of ["/#usage-title", "/#faq-title", "/product/1#resultats-titre", "/product/1#faq-produit-titre"]) {
      test(`${target} lands on its heading at ${viewport.width} px`, async ({ page }) => {
        await page.setViewportSize(viewport);
        await page.goto(target);
        const heading = page.locator(`#${target.split("#")[1]}`);
        await expect(heading).toBeInViewport();
        await expect
          .poll(() => heading.evaluate((element) => Math.round(element.getBoundingClientRect().top)))
          .toBeLessThanOrEqual(1);
        expect(await heading.evaluate((element) => element.getBoundingClientRect().top)).toBeGreaterThanOrEqual(-1);
      });
    }
  }
});
