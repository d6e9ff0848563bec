import type { Page } from "@playwright/test";
import { expect, test } from "./shopper";
import { gotoReady } from "../helpers/e2e";
import { createPaidOrder, signIn, unique } from "./admin-fixtures";

/**
 * Screens that read well: on a phone no toast lies over a control (and without JavaScript the
 * « Produit ajouté » toast is gone on the next page); in the back office, focus lands on the
 * message that reports an action's result; the orders table at 1280 px keeps dates, amounts
 * and order numbers on one line and cuts long emails.
 */

/**
 * The toasts a person sees (on top at their centre, not under the cart drawer), each with the
 * visible controls (buttons, links, fields) its box overlaps: an empty list when none does.
 */
async function toastsOverControls(page: Page) {
  return await page.evaluate(() => {
    const boxOf = (el: Element) => el.getBoundingClientRect();
    const shown = (el: Element) => {
      const box = boxOf(el);
      const style = getComputedStyle(el);
      // checkVisibility: not in a closed <details> (the phone menu's links), nor hidden by CSS.
      return (
        el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) &&
        box.width > 1 &&
        box.height > 1 &&
        style.visibility !== "hidden" &&
        box.bottom > 0 &&
        box.top < innerHeight &&
        box.right > 0 &&
        box.left < innerWidth
      );
    };
    const onTop = (el: Element) => {
      const box = boxOf(el);
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return hit !== null && el.contains(hit);
    };
    const toasts = [...document.querySelectorAll('[data-testid="toast"]')].filter((t) => shown(t) && onTop(t));
    const controls = [
      ...document.querySelectorAll(
        'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [role="link"]',
      ),
    ].filter(shown);
    return toasts.map((toast) => {
      const t = boxOf(toast);
      const covered = controls
        .filter((c) => !toast.contains(c))
        .filter((c) => {
          const b = boxOf(c);
          return (
            Math.min(t.right, b.right) - Math.max(t.left, b.left) > 0 && Math.min(t.bottom, b.bottom) - Math.max(t.top, b.top) > 0
          );
        })
        .map((c) => (c.getAttribute("aria-label") ?? c.textContent ?? c.tagName).trim().slice(0, 40));
      return { toast: (toast.textContent ?? "").trim().slice(0, 40), covered };
    });
  });
}

test("on a phone no toast lies over a control, and « Produit ajouté » is gone on the next page", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await gotoReady(page, "/product/1", javaScriptEnabled);
  await page.getByRole("radio", { name: "6 masques + 2 offerts" }).check();
  await page.getByRole("button", { name: "Commander" }).click();
  const toast = page.getByTestId("toast");
  await expect(toast).toContainText("Produit ajouté");
  if (javaScriptEnabled) {
    // The drawer is open over the page, its close button free.
    const drawer = page.getByRole("dialog", { name: "Mon panier" });
    await expect(drawer.getByTestId("cart-line")).toContainText("6 masques + 2 offerts");
    await expect(drawer.getByRole("button", { name: /Fermer/ }).first()).toBeVisible();
  } else {
    await expect(page).toHaveURL(/\/panier$/);
  }
  await page.screenshot({ path: test.info().outputPath("toast-390.png") });
  const seen = await toastsOverControls(page);
  expect(seen.flatMap((s) => s.covered)).toEqual([]);
  if (javaScriptEnabled) {
    await page.keyboard.press("Escape");
    await expect(page.getByRole("dialog", { name: "Mon panier" })).toHaveCount(0);
  }
  // The page itself (the cart page without JavaScript): a toast still shown covers nothing either.
  const after = await toastsOverControls(page);
  if (!javaScriptEnabled) expect(after.map((s) => s.toast).join(" ")).toContain("Produit ajouté");
  expect(after.flatMap((s) => s.covered)).toEqual([]);

  // The next page has no toast left (without JavaScript, nothing else would remove it).
  await gotoReady(page, "/faq", javaScriptEnabled);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(toast).toHaveCount(0);
});

test("the orders table at 1280 px: one line for dates, amounts and numbers, long emails cut; the quick action's result takes the focus", async ({
  page,
  javaScriptEnabled,
}) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  const email = `camille.martin-dupont-de-la-fontaine.${unique()}@un-nom-de-domaine-vraiment-long.example.fr`;
  const order = await createPaidOrder(page.request, email);
  await signIn(page);
  await gotoReady(page, `/admin/orders?q=${encodeURIComponent(email)}`, javaScriptEnabled);
  const row = page.getByRole("row").filter({ hasText: `#${order.id}` });
  await expect(row).toHaveCount(1);

  // Each of these cells holds one line of text, and the email is cut with its whole value in a title.
  const lines = await row.evaluate((tr) =>
    [...tr.querySelectorAll("td")].slice(0, 4).map((td) => {
      const box = td.firstElementChild!.getBoundingClientRect();
      const lineHeight = parseFloat(getComputedStyle(td).lineHeight);
      return Math.round(box.height / lineHeight);
    }),
  );
  // ID, date and total on one line; the client cell holds two (name, email).
  expect([lines[0], lines[1], lines[3]]).toEqual([1, 1, 1]);
  expect(lines[2]).toBe(2);
  const shownEmail = row.getByTestId("order-email");
  await expect(shownEmail).toHaveAttribute("title", email);
  expect(await shownEmail.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
  await expect(row.getByRole("cell").nth(3)).toHaveText("25,90€");
  await page.screenshot({ path: test.info().outputPath("commandes-1280.png") });

  // The next step of a received order is its preparation, not « Marquer livrée ».
  await expect(row.getByRole("button", { name: /comme livrée/ })).toHaveCount(0);
  await row.getByRole("button", { name: `Passer la commande ${order.id} en préparation` }).click();
  const toast = page.getByTestId("toast");
  await expect(toast).toContainText(`La commande #${order.id} est en préparation.`);
  if (javaScriptEnabled) {
    await expect(toast).toBeFocused();
  } else {
    // Without JavaScript the result comes first on the page, before the back office's menu
    // (which may still be on its way when the message shows: the page is streamed).
    await expect(page.getByRole("navigation", { name: "Administration" })).toBeAttached();
    const first = await page.evaluate(() => {
      const message = document.querySelector('[data-testid="toast"]')!;
      const menu = document.querySelector('nav[aria-label="Administration"]')!;
      return Boolean(message.compareDocumentPosition(menu) & Node.DOCUMENT_POSITION_FOLLOWING);
    });
    expect(first).toBe(true);
  }
  await expect(row.getByRole("link", { name: `Expédier la commande ${order.id}` })).toBeVisible();
});
