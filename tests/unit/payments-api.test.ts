import { describe, expect, it } from "vitest";
import { getConfig, getPublicConfig } from "~/config.server";
import { action as attachAction, loader as attachLoader } from "~/routes/api.attach-payment-method";
import { action as createSubscriptionAction } from "~/routes/api.create-subscription";
import { action as confirmAction } from "~/routes/api.payments.confirm";
import { action as startAction } from "~/routes/api.payments.start";
import { loader as scriptLoader } from "~/routes/stripe-emulator[.]js";
import { action as proxyAction } from "~/routes/stripe-emulator.api.$";
import { jsonRequest, routeArgs } from "../helpers/requests";

/** Bad input gets the API's JSON error shape ({ error, issues }), never a 500. No emulator needed. */

const routes = {
  "/api/payments/start": startAction,
  "/api/payments/confirm": confirmAction,
  "/api/create-subscription": createSubscriptionAction,
  "/api/attach-payment-method": attachAction,
} as const;

type Action = (typeof routes)[keyof typeof routes];

async function call(action: Action, request: Request) {
  const response = await action(routeArgs(request));
  return { status: response.status, body: await response.json() };
}

describe("payment API input", () => {
  for (const [path, action] of Object.entries(routes)) {
    it(`${path}: 415 for a non-JSON body, 400 for malformed JSON, 422 with issues for invalid fields`, async () => {
      const form = new Request(`http://localhost:3000${path}`, {
        method: "POST",
        body: "orderId=1",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: "http://localhost:3000" },
      });
      const notJson = await call(action, form);
      expect(notJson.status).toBe(415);
      expect(notJson.body).toEqual({ error: expect.stringContaining("JSON"), issues: [] });

      const malformed = await call(action, jsonRequest(path, "POST", "{orderId:"));
      expect(malformed).toEqual({ status: 400, body: { error: "JSON mal formé", issues: [] } });

      const invalid = await call(action, jsonRequest(path, "POST", { orderId: "abc", subscriptionId: 12 }));
      expect(invalid.status).toBe(422);
      expect(invalid.body.error).toBe("Données invalides");
      expect(invalid.body.issues.length).toBeGreaterThan(0);
      for (const issue of invalid.body.issues) expect(issue).toEqual({ path: expect.any(String), message: expect.any(String) });

      const foreign = await call(action, jsonRequest(path, "POST", { orderId: 1 }, { Origin: "https://evil.example" }));
      expect(foreign).toEqual({ status: 403, body: { error: "Origine de la requête non autorisée", issues: [] } });
    });
  }

  it("rejects negative, fractional and huge order numbers", async () => {
    for (const orderId of [-1, 0, 1.5, "1e30", 1e20]) {
      const result = await call(confirmAction, jsonRequest("/api/payments/confirm", "POST", { orderId }));
      expect(result.status).toBe(422);
      expect(result.body.issues[0]).toEqual({ path: "orderId", message: "Numéro de commande invalide" });
    }
  });

  it("rejects an unknown payment mode", async () => {
    const result = await call(startAction, jsonRequest("/api/payments/start", "POST", { orderId: 123456789, mode: "free" }));
    expect(result.status).toBe(422);
    expect(result.body.issues).toEqual([{ path: "mode", message: "Mode de paiement invalide" }]);
  });

  it("answers 404 in the same shape for an unknown order", async () => {
    expect(await call(confirmAction, jsonRequest("/api/payments/confirm", "POST", { orderId: 999999999 }))).toEqual({
      status: 404,
      body: { error: "Commande introuvable", issues: [] },
    });
    const sub = await call(createSubscriptionAction, jsonRequest("/api/create-subscription", "POST", { orderId: 999999999 }));
    expect(sub).toEqual({ status: 404, body: { error: "Commande introuvable", issues: [], code: "order_not_found" } });
    const attach = await call(
      attachAction,
      jsonRequest("/api/attach-payment-method", "POST", {
        subscriptionId: "sub_123",
        paymentMethodId: "pm_123",
        customerEmail: "camille@example.fr",
      }),
    );
    expect(attach).toEqual({
      status: 404,
      body: { error: "Abonnement introuvable", issues: [], code: "subscription_not_found" },
    });
  });

  it("answers 405 to other methods", async () => {
    expect((await attachLoader()).status).toBe(405);
    const put = await call(startAction, jsonRequest("/api/payments/start", "PUT", { orderId: 1 }));
    expect(put.status).toBe(405);
  });
});

describe("demo-only emulator routes", () => {
  it("serves the Stripe.js stand-in in demo mode", async () => {
    const response = await scriptLoader();
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/javascript/);
    expect(await response.text()).toMatch(/window\.Stripe = .*\(Stripe\)\);/);
  });

  it("never gives the emulator's secret key to the browser", async () => {
    const secret = getConfig().stripe.secretKey;
    expect(secret).toMatch(/^sk_test_emulator_[0-9a-f]{64}$/);
    expect(JSON.stringify(getPublicConfig())).not.toContain(secret);
    expect(await (await scriptLoader()).text()).not.toMatch(/sk_test/);
  });

  it("forwards only what Stripe.js does with the publishable key", async () => {
    const secretCall = new Request("http://localhost:3000/stripe-emulator/api/v1/customers", {
      method: "POST",
      body: "email=a%40b.fr",
      headers: {
        Authorization: `Bearer ${getConfig().stripe.secretKey}`,
        Origin: "http://localhost:3000",
        "Content-Type": "application/x-www-form-urlencoded",
      },
    });
    const refused = await proxyAction(routeArgs(secretCall, { "*": "v1/customers" }));
    expect(refused.status).toBe(404);
    const withSecretKey = new Request("http://localhost:3000/stripe-emulator/api/v1/payment_methods", {
      method: "POST",
      body: "type=card",
      headers: {
        Authorization: `Bearer ${getConfig().stripe.secretKey}`,
        Origin: "http://localhost:3000",
        "Content-Type": "application/x-www-form-urlencoded",
      },
    });
    expect((await proxyAction(routeArgs(withSecretKey, { "*": "v1/payment_methods" }))).status).toBe(401);
    const crossSite = new Request("http://localhost:3000/stripe-emulator/api/v1/payment_methods", {
      method: "POST",
      body: "type=card",
      headers: {
        Authorization: "Bearer pk_test_emulator",
        Origin: "https://evil.example",
        "Content-Type": "application/x-www-form-urlencoded",
      },
    });
    expect((await proxyAction(routeArgs(crossSite, { "*": "v1/payment_methods" }))).status).toBe(403);
  });
});
