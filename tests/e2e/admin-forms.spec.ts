import { expect, test } from "./shopper";
import { ADMIN, createContact, createPaidOrder, signIn, unique } from "./admin-fixtures";
import { emailText } from "./subscription-fixtures";

/** The admin forms, in both projects: with JavaScript and without (progressive enhancement). */
test.describe.configure({ timeout: 60_000 });

test.describe("admin sign-in", () => {
  test("redirects a visitor to the login page, then back to the page asked for", async ({ page }) => {
    await page.goto("/admin/orders?status=pending");
    await expect(page).toHaveURL(/\/admin\/login\?redirectTo=%2Fadmin%2Forders%3Fstatus%3Dpending$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Connexion administrateur");
    // The e2e server sets ADMIN_PASSWORD: the demo hint (documented demo password) is not shown.
    await expect(page.getByTestId("demo-credentials")).toHaveCount(0);
    await page.getByLabel("Nom d'utilisateur").fill(ADMIN.username);
    await page.getByLabel("Mot de passe").fill(ADMIN.password);
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect(page).toHaveURL(/\/admin\/orders\?status=pending$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Commandes");
    await expect(page.getByTestId("toast")).toContainText("Vous êtes maintenant connecté en tant qu'administrateur");
  });

  test("says which field is missing, and refuses wrong credentials", async ({ page }) => {
    // One failure, for an unknown username: far below the per-address limit (10 per 15 minutes).
    await page.goto("/admin/login");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect(page.getByText("Le nom d'utilisateur est requis")).toBeVisible();
    await expect(page.getByText("Le mot de passe est requis")).toBeVisible();

    await page.getByLabel("Nom d'utilisateur").fill(`inconnu-${unique()}`);
    await page.getByLabel("Mot de passe").fill("pas-le-bon-mot-de-passe");
    await page.getByRole("button", { name: "Se connecter" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "Échec de la connexion" })).toContainText("Identifiants invalides");
    await expect(page).toHaveURL(/\/admin\/login/);
    await expect(page.getByLabel("Mot de passe")).toHaveValue("");
    await page.goto("/admin/dashboard");
    await expect(page).toHaveURL(/\/admin\/login/);
  });

  test("a signed-in administrator going to the login page lands on the dashboard", async ({ page }) => {
    await signIn(page);
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page.goto("/admin/login");
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await page.goto("/admin");
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Tableau de bord");
  });
});

test.describe("admin order form", () => {
  test("sets an order shipped with a tracking number", async ({ page, request }) => {
    const order = await createPaidOrder(request, `suivi+${unique()}@example.fr`);
    await signIn(
      page,
      ADMIN.username,
      ADMIN.password,
      `/admin/login?redirectTo=${encodeURIComponent(`/admin/orders/${order.id}`)}`,
    );
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Détails de la commande #${order.id}`);
    await expect(page.getByText("Livraison", { exact: true }).locator("..")).toContainText("Gratuite");
    await expect(page.getByText("Expédié sans numéro de suivi")).toHaveCount(0);

    await page.getByLabel("Statut").selectOption({ label: "Expédiée" });
    await page.getByLabel("Numéro de suivi").fill("6A-E2E-123");
    await page.getByLabel("Transporteur").selectOption({ label: "Chronopost" });
    await page.getByRole("button", { name: "Mettre à jour la commande" }).click();
    await expect(page.getByTestId("toast")).toContainText("Commande mise à jour");
    await expect(page.getByTestId("toast")).toContainText("Les informations de la commande ont été mises à jour avec succès.");
    await expect(page.getByText("Numéro de suivi: 6A-E2E-123")).toBeVisible();
    await expect(page.getByLabel("Statut")).toHaveValue("shipped");
    await expect(page.getByRole("link", { name: /Suivre le colis sur le site de Chronopost/ })).toHaveAttribute(
      "href",
      "https://www.chronopost.fr/tracking-no-cms/suivi-page?listeNumerosLT=6A-E2E-123",
    );

    // Shipped without a number.
    await page.getByLabel("Numéro de suivi").fill("");
    await page.getByRole("button", { name: "Mettre à jour la commande" }).click();
    await expect(page.getByText("Expédié sans numéro de suivi")).toBeVisible();
  });

  test("asks before shipping with no number, then emails « Votre numéro de suivi » once it is added", async ({
    page,
    javaScriptEnabled,
  }) => {
    const order = await createPaidOrder(page.request, `sans-numero+${unique()}@example.fr`);
    await signIn(
      page,
      ADMIN.username,
      ADMIN.password,
      `/admin/login?redirectTo=${encodeURIComponent(`/admin/orders/${order.id}`)}`,
    );
    await page.getByLabel("Statut").selectOption({ label: "Expédiée" });
    await page.getByRole("button", { name: "Mettre à jour la commande" }).click();
    // A question first: nothing shipped, nothing sent.
    await expect(page.getByTestId("confirm-no-tracking")).toContainText("Aucun numéro de suivi saisi");
    if (javaScriptEnabled) await expect(page.getByTestId("confirm-no-tracking")).toBeFocused();
    await page.getByRole("button", { name: "Expédier sans numéro de suivi" }).click();
    await expect(page.getByText("Expédié sans numéro de suivi")).toBeVisible();
    await expect(page.getByTestId("confirm-no-tracking")).toHaveCount(0);
    const shipped = await emailText(page.request, String(order.id), "order_shipped");
    expect(shipped).not.toContain("non communiqué");
    expect(shipped).toContain("Si votre colis reçoit un numéro de suivi, nous vous l'enverrons par email.");

    // The number, added later: its own email, with the carrier's link.
    await page.getByLabel("Numéro de suivi").fill("6A55667788");
    await page.getByLabel("Transporteur").selectOption({ label: "Colissimo" });
    await page.getByRole("button", { name: "Mettre à jour la commande" }).click();
    await expect(page.getByText("Numéro de suivi: 6A55667788")).toBeVisible();
    const numberEmail = await emailText(page.request, String(order.id), "order_tracking_number");
    expect(numberEmail).toContain("Numéro de suivi : 6A55667788");
    expect(numberEmail).toContain("https://www.laposte.fr/outils/suivre-vos-envois?code=6A55667788");
    const list = await (await page.request.get(`/api/admin/emails?order=${order.id}&kind=order_tracking_number`)).json();
    expect(list.emails[0].subject).toBe(`Votre numéro de suivi pour la commande n°${order.id}`);
  });

  test("a non-numeric order id is a 404 page", async ({ page }) => {
    await signIn(page);
    const response = await page.goto("/admin/orders/abc");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Page introuvable (erreur 404)");
  });
});

test.describe("admin settings form", () => {
  test("saves the settings with the toast, and shows a French error for a bad email or retention", async ({ page }) => {
    await signIn(page);
    await page.goto("/admin/settings");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Paramètres du site");
    const description = page.getByLabel("Description du site");
    const original = await description.inputValue();
    const marked = `${original} (${unique()})`;
    try {
      const retention = page.getByLabel("Conservation du contenu des emails envoyés (jours)");
      await expect(retention).toHaveValue("90");
      await page.getByLabel("Email du site").fill("pas-un-email");
      await retention.fill("3");
      await page.getByRole("button", { name: "Enregistrer les paramètres" }).click();
      await expect(page.getByText("Veuillez entrer une adresse email valide.")).toBeVisible();
      await expect(
        page.getByText("La conservation du contenu des emails envoyés est un nombre entier de jours, entre 7 et 3650."),
      ).toBeVisible();

      await page.getByLabel("Email du site").fill("contact@maison-eclat.fr");
      await retention.fill("120");
      await description.fill(marked);
      await page.getByRole("button", { name: "Enregistrer les paramètres" }).click();
      await expect(page.getByTestId("toast")).toContainText("Paramètres mis à jour");
      await expect(page.getByTestId("toast")).toContainText("Les paramètres du site ont été mis à jour avec succès.");
      await expect(description).toHaveValue(marked);
      const api = await page.request.get("/api/settings");
      expect(await api.json()).toMatchObject({ siteDescription: marked, emailContentRetentionDays: 120 });
      await expect(retention).toHaveValue("120");
    } finally {
      await page.goto("/admin/settings");
      await page.getByLabel("Description du site").fill(original);
      await page.getByLabel("Conservation du contenu des emails envoyés (jours)").fill("90");
      await page.getByLabel("Email du site").fill("contact@maison-eclat.fr");
      await page.getByRole("button", { name: "Enregistrer les paramètres" }).click();
      await expect(page.getByTestId("toast")).toContainText("Paramètres mis à jour");
    }
  });
});

test.describe("admin contacts without and with JavaScript", () => {
  test("changes a status and deletes a request after confirming", async ({ page, request }) => {
    const subject = `Statut ${unique()}`;
    await createContact(request, subject);
    await signIn(page);
    await page.goto("/admin/contacts");
    const row = page.getByRole("row").filter({ hasText: subject });
    await expect(row.getByTestId("unread-badge")).toHaveText("Nouveau");
    // Opening the message (a small form, so it works without JavaScript too) marks it read.
    await row.getByRole("button", { name: subject }).click();
    const message = page.getByRole("dialog", { name: "Message de Camille Martin" });
    await expect(message.getByTestId("contact-message")).toContainText("je voudrais savoir quand mon colis arrivera.");
    await message.getByRole("link", { name: "Fermer", exact: true }).click();
    await expect(message).toHaveCount(0);
    await expect(row.getByTestId("unread-badge")).toHaveCount(0);
    const select = row.getByRole("combobox");
    await select.selectOption("traite");
    const noJs = (await row.getByRole("button", { name: "Modifier" }).count()) > 0;
    if (noJs) await row.getByRole("button", { name: "Modifier" }).click();
    await expect(page.getByTestId("toast")).toContainText("Statut mis à jour");
    await expect(page.getByRole("row").filter({ hasText: subject }).getByRole("combobox")).toHaveValue("traite");

    await page
      .getByRole("row")
      .filter({ hasText: subject })
      .getByRole("link", { name: /Supprimer/ })
      .click();
    const dialog = page.getByRole("alertdialog", { name: "Confirmer la suppression" });
    await expect(dialog).toContainText(
      "Êtes-vous sûr de vouloir supprimer cette demande de contact ? Cette action est irréversible.",
    );
    await dialog.getByRole("button", { name: "Supprimer" }).click();
    await expect(page.getByTestId("toast")).toContainText("Contact supprimé");
    await expect(page.getByRole("row").filter({ hasText: subject })).toHaveCount(0);
  });
});

test.describe("admin sessions", () => {
  test("lists the open sessions and revokes the others: the other browser is signed out", async ({
    page,
    browser,
    javaScriptEnabled,
  }) => {
    // An administrator of this test only: revoking 'the other sessions' must not sign out the other tests.
    const username = `sessions-${unique()}`;
    const password = "motdepasse-sessions-1";
    await signIn(page);
    const created = await page.request.post("/api/users", {
      data: { username, email: `${username}@example.fr`, password, isAdmin: true },
    });
    expect(created.status(), await created.text()).toBe(201);

    const here = await browser.newContext({ javaScriptEnabled });
    const there = await browser.newContext({ javaScriptEnabled });
    try {
      const elsewhere = await there.newPage();
      await signIn(elsewhere, username, password);
      const mine = await here.newPage();
      await signIn(mine, username, password);

      await mine.getByRole("navigation", { name: "Administration" }).getByRole("link", { name: "Sessions", exact: true }).click();
      await expect(mine).toHaveURL(/\/admin\/sessions$/);
      await expect(mine.getByRole("heading", { level: 1 })).toHaveText("Sessions ouvertes");
      const sessions = mine.getByTestId("admin-session");
      await expect(sessions).toHaveCount(2);
      await expect(sessions.filter({ hasText: "Cette session" })).toHaveCount(1);
      await expect(sessions.first()).toContainText("Chrome sur");
      await expect(sessions.first()).toContainText("Expire le");

      await mine.getByRole("button", { name: "Révoquer les autres sessions" }).click();
      await expect(mine.getByTestId("toast")).toContainText("Autres sessions révoquées");
      await expect(mine.getByTestId("toast")).toContainText("1 autre session a été fermée.");
      await expect(sessions).toHaveCount(1);
      await expect(sessions).toContainText("Cette session");
      await expect(mine.getByRole("button", { name: "Révoquer les autres sessions" })).toHaveCount(0);

      // The other browser's cookie is refused: 401 from the admin API, the login page for admin pages.
      expect((await elsewhere.request.get("/api/admin/session")).status()).toBe(401);
      await elsewhere.goto("/admin/dashboard");
      await expect(elsewhere).toHaveURL(/\/admin\/login/);
      // This one is still signed in.
      await mine.goto("/admin/dashboard");
      await expect(mine.getByRole("heading", { level: 1 })).toHaveText("Tableau de bord");
    } finally {
      await here.close();
      await there.close();
    }

    // Clean up: the first administrator removes the test's one.
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
