import { expect, test } from "./shopper";
import { createContact, createPaidOrder, signIn, signOut, unique } from "./admin-fixtures";

/** The day of an administrator, with JavaScript. */
test.describe("the day of an administrator", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "runs in the JavaScript project");
  // Long journeys (several sign-ins, each a deliberate scrypt check): more time than a single-page test.
  test.describe.configure({ timeout: 90_000 });

  test("reads a new contact request, changes its status and deletes it", async ({ page, request }) => {
    const subject = `Colis ${unique()}`;
    await createContact(request, subject, "Léa Dupont");
    await signIn(page);
    await expect(
      page.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: /Demandes de contact/ }),
    ).toBeVisible();
    await page
      .getByRole("navigation", { name: "Administration" })
      .getByRole("link", { name: /Demandes de contact/ })
      .click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Demandes de contact");

    const row = page.getByRole("row").filter({ hasText: subject });
    // The « Nouveau » badge beside the name, and the status « Non lu » in its own column.
    await expect(row.getByTestId("unread-badge")).toHaveText("Nouveau");
    await expect(row.getByRole("combobox", { name: /Statut de la demande/ }).locator("option:checked")).toHaveText("Non lu");
    await expect(row).toHaveAttribute("data-unread", "true");
    await expect(row.getByRole("link", { name: /^camille\+/ })).toHaveAttribute("href", /^mailto:camille\+/);
    await expect(row.getByRole("cell").first()).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);

    await row.getByRole("button", { name: "Lire le message de Léa Dupont" }).click();
    const dialog = page.getByRole("dialog", { name: "Message de Léa Dupont" });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText("Reçu le");
    await expect(dialog.getByTestId("contact-message")).toHaveText(
      "Bonjour,\nje voudrais savoir quand mon colis arrivera.\nMerci !",
    );
    await expect(dialog.getByRole("combobox")).toHaveValue("lu");
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(row.getByTestId("unread-badge")).toHaveCount(0);
    await expect(row.getByRole("combobox")).toHaveValue("lu");

    await row.getByRole("combobox").selectOption("en_cours");
    await expect(page.getByTestId("toast")).toContainText("Statut mis à jour");
    await expect(row.getByRole("combobox")).toHaveValue("en_cours");
    await page.reload();
    await expect(page.getByRole("row").filter({ hasText: subject }).getByRole("combobox")).toHaveValue("en_cours");

    await page
      .getByRole("row")
      .filter({ hasText: subject })
      .getByRole("link", { name: /Supprimer/ })
      .click();
    const confirm = page.getByRole("alertdialog", { name: "Confirmer la suppression" });
    await confirm.getByRole("button", { name: "Supprimer" }).click();
    await expect(page.getByTestId("toast")).toContainText("La demande de contact a été supprimée avec succès.");
    await expect(page.getByRole("row").filter({ hasText: subject })).toHaveCount(0);
  });

  test("the contact list refreshes itself every 30 seconds, without reloading the page", async ({ page, request }) => {
    await page.clock.install();
    await signIn(page);
    await page.goto("/admin/contacts");
    await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
    const subject = `Arrivée ${unique()}`;
    await createContact(request, subject);
    await expect(page.getByRole("row").filter({ hasText: subject })).toHaveCount(0);
    await page.clock.runFor(30_000);
    await expect(page.getByRole("row").filter({ hasText: subject })).toHaveCount(1);
    expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  });

  test("finds an order by email, ships it, and the customer sees it on the tracking page", async ({ page, request }) => {
    const email = `cliente+${unique()}@example.fr`;
    const order = await createPaidOrder(request, email);
    await signIn(page);
    await page.goto("/admin/orders");
    await page.getByLabel("Numéro de commande ou email du client").fill(email);
    await page.getByRole("button", { name: "Filtrer" }).click();
    await expect(page).toHaveURL(/q=cliente/);
    const rows = page.getByRole("region", { name: "Liste des commandes" }).getByRole("row");
    await expect(rows).toHaveCount(2);
    await expect(rows.nth(1)).toContainText(`#${order.id}`);
    await expect(rows.nth(1)).toContainText("25,90€");
    await rows
      .nth(1)
      .getByRole("link", { name: `Voir la commande ${order.id}` })
      .click();

    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Détails de la commande #${order.id}`);
    await expect(page.getByRole("link", { name: "Contacter" })).toHaveAttribute(
      "href",
      new RegExp(`^mailto:${email.replace("+", "\\+")}`),
    );
    await page.getByLabel("Statut").selectOption({ label: "Expédiée" });
    await page.getByLabel("Numéro de suivi").fill("6A98765432");
    const button = page.getByRole("button", { name: /Mettre à jour la commande|Mise à jour\.\.\./ });
    await button.click();
    await expect(page.getByTestId("toast")).toContainText("Commande mise à jour");
    await expect(page.getByText("Numéro de suivi: 6A98765432")).toBeVisible();

    await page.goto(`/track-order?id=${order.id}`);
    await expect(page.getByTestId("tracking-status")).toContainText("Expédiée");
    await expect(page.getByTestId("tracking-number")).toHaveText("6A98765432");

    // The invoice, issued at the payment, is a printable page of its own.
    await page.goto(`/admin/orders/${order.id}/invoice`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(/^Facture n°\sF\d{4}-\d{6}$/);
    await expect(page.getByText(`Commande n°\u00a0${order.id} du`)).toBeVisible();
  });

  test("edits a product price and the catalog API shows it", async ({ page }) => {
    await signIn(page);
    await page.goto("/admin/products");
    await expect(page.getByRole("row").filter({ hasText: "ME-COLL-MASK-01" })).toBeVisible();
    await page.goto("/admin/products/edit/1");
    const price = page.getByLabel("Prix TTC (€)");
    const original = await price.inputValue();
    try {
      await price.fill("24,50");
      await page.getByRole("button", { name: "Enregistrer les modifications" }).click();
      await expect(page.getByTestId("toast")).toContainText("Produit mis à jour");
      const api = await page.request.get("/api/products/1");
      expect(await api.json()).toMatchObject({ id: 1, price: "24.50" });
      // The list shows what the shop sells it at: its packs, whose prices are edited with them.
      await expect(page.getByRole("row").filter({ hasText: "ME-COLL-MASK-01" })).toContainText("3 packs : 0,99€ à 32,90€");
    } finally {
      await page.goto("/admin/products/edit/1");
      await page.getByLabel("Prix TTC (€)").fill(original);
      await page.getByRole("button", { name: "Enregistrer les modifications" }).click();
      await expect(page.getByTestId("toast")).toContainText("Produit mis à jour");
    }
    const restored = await page.request.get("/api/products/1");
    expect((await restored.json()).price).toBe(original.replace(",", "."));
  });

  test("creates a second administrator who can sign in; signed out, everything is refused", async ({ page, browser }) => {
    const username = `admin2-${unique()}`;
    const password = "motdepasse-second-admin";
    await signIn(page);
    await page.goto("/admin/users/new");
    await page.getByLabel("Nom d'utilisateur").fill(username);
    await page.getByLabel("Email").fill(`${username}@example.fr`);
    await page.getByLabel("Mot de passe").fill("court");
    await page.getByLabel("Administrateur (accès au back office)").check();
    await page.getByRole("button", { name: "Créer l'utilisateur" }).click();
    await expect(page.getByText("Le mot de passe doit contenir au moins 10 caractères.")).toBeVisible();
    await page.getByLabel("Mot de passe").fill(password);
    await page.getByRole("button", { name: "Créer l'utilisateur" }).click();
    await expect(page.getByTestId("toast")).toContainText("Utilisateur créé");
    await expect(page.getByRole("row").filter({ hasText: username })).toContainText("Administrateur");

    // The new administrator signs in from another browser.
    const other = await browser.newContext();
    const second = await other.newPage();
    await signIn(second, username, password);
    await expect(second.getByText(`Back office · ${username}`).first()).toBeVisible();
    await signOut(second);

    // Signed out: every admin page and admin API refuses.
    for (const path of ["/admin/dashboard", "/admin/orders", "/admin/products", "/admin/users", "/admin/settings"]) {
      await second.goto(path);
      await expect(second).toHaveURL(/\/admin\/login/);
    }
    await second.goto("/admin/contacts");
    await expect(second).toHaveURL(/\/admin\/login\?redirectTo=%2Fadmin%2Fcontacts$/);
    await expect(second.getByTestId("toast")).toContainText("Accès refusé");
    await expect(second.getByTestId("toast")).toContainText("Vous devez être connecté pour accéder à cette page");
    for (const path of ["/api/admin/session", "/api/users", "/api/orders", "/api/admin/contacts"]) {
      const response = await second.request.get(path);
      expect(response.status(), path).toBe(401);
    }
    await other.close();

    // Clean up: the first administrator removes the second one.
    await page.goto("/admin/users");
    await page
      .getByRole("row")
      .filter({ hasText: username })
      .getByRole("link", { name: `Supprimer ${username}` })
      .click();
    await page.getByRole("alertdialog", { name: "Confirmer la suppression" }).getByRole("button", { name: "Supprimer" }).click();
    await expect(page.getByTestId("toast")).toContainText("Utilisateur supprimé");
  });
});
