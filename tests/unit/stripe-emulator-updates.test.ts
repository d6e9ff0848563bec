import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { encodeStripeParams } from "../../stripe-emulator/encoding.js";
import { startStripeEmulator } from "../../stripe-emulator/server.js";

/**
 * The emulator's updates, as Stripe answers them (what a customer's erasure relies on): form
 * encoded, `""` unsets a field, the updated object comes back, an unknown id is a 404 and an
 * unknown parameter a 400.
 */

let emulator: Awaited<ReturnType<typeof startStripeEmulator>>;
let stripe: Stripe;

beforeAll(async () => {
  emulator = await startStripeEmulator({ port: 0, webhookUrl: null, log: { info: () => {}, warn: () => {} } });
  stripe = new Stripe("sk_test_emulator", { host: "127.0.0.1", port: emulator.port, protocol: "http", maxNetworkRetries: 0 });
});
afterAll(async () => {
  await emulator.close();
});

/** A form-encoded POST with the secret key, as a raw HTTP client would send it. */
async function post(path: string, body: string) {
  const response = await fetch(`${emulator.url}${path}`, {
    method: "POST",
    body,
    headers: { Authorization: "Bearer sk_test_emulator", "Content-Type": "application/x-www-form-urlencoded" },
  });
  return { status: response.status, body: await response.json() };
}

const ADDRESS = { line1: "3 rue Lepic", postal_code: "75018", city: "Paris", country: "FR" };
const BILLING = { name: "Ondine Valmont", email: "ondine@example.fr", phone: "+33611223344", address: ADDRESS };

async function card(number = "4242424242424242") {
  return stripe.paymentMethods.create({
    type: "card",
    card: { number, exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: "123" } as Stripe.PaymentMethodCreateParams.Card,
    billing_details: BILLING,
  });
}

describe("a customer's update", () => {
  it("unsets email, phone, address and delivery address with an empty value, and answers the customer as it now is", async () => {
    const customer = await stripe.customers.create({
      email: "ondine@example.fr",
      name: "Ondine Valmont",
      phone: "+33611223344",
      address: ADDRESS,
      metadata: { orderId: "123456789", note: "client fidèle" },
    });
    await stripe.customers.update(customer.id, { shipping: { name: "Ondine Valmont", address: ADDRESS } });
    expect((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).toMatchObject({
      address: { line1: "3 rue Lepic", line2: null, city: "Paris" },
      shipping: { name: "Ondine Valmont", address: { line1: "3 rue Lepic" } },
    });

    const answer = await post(
      `/v1/customers/${customer.id}`,
      "email=&name=%5Beffac%C3%A9%5D&phone=&address=&shipping=&description=Effac%C3%A9&metadata[note]=",
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: customer.id,
      email: null,
      name: "[effacé]",
      phone: null,
      address: null,
      shipping: null,
      description: "Effacé",
      metadata: { orderId: "123456789" },
    });
    expect(answer.body.metadata).not.toHaveProperty("note");
    expect(await stripe.customers.retrieve(customer.id)).toEqual(answer.body);

    // `metadata=""` unsets every key.
    expect((await stripe.customers.update(customer.id, { metadata: "" })).metadata).toEqual({});
  });

  it("refuses an unknown customer (404) and an unknown parameter (400), changing nothing", async () => {
    expect(await post("/v1/customers/cus_missing", "email=")).toMatchObject({
      status: 404,
      body: { error: { code: "resource_missing", message: "No such customer: 'cus_missing'" } },
    });
    const customer = await stripe.customers.create({ email: "ondine@example.fr" });
    expect(await post(`/v1/customers/${customer.id}`, "email=&nickname=Ondine")).toMatchObject({
      status: 400,
      body: {
        error: {
          type: "invalid_request_error",
          code: "parameter_unknown",
          param: "nickname",
          message: "Received unknown parameter: nickname",
        },
      },
    });
    expect(await post(`/v1/customers/${customer.id}`, "address[street]=3%20rue%20Lepic")).toMatchObject({
      status: 400,
      body: { error: { code: "parameter_unknown", param: "address[street]" } },
    });
    expect(await post(`/v1/customers/${customer.id}`, "shipping[name]=Ondine")).toMatchObject({
      status: 400,
      body: { error: { code: "parameter_missing", param: "shipping[address][line1]" } },
    });
    expect(((await stripe.customers.retrieve(customer.id)) as Stripe.Customer).email).toBe("ondine@example.fr");
  });
});

describe("a PaymentIntent's update", () => {
  it("after it succeeded: receipt_email and shipping unset with an empty value; not its amount", async () => {
    const pm = await card();
    const pi = await stripe.paymentIntents.create({
      amount: 2590,
      currency: "eur",
      receipt_email: "ondine@example.fr",
      shipping: { name: "Ondine Valmont", address: ADDRESS },
      metadata: { orderId: "987654321" },
      payment_method: pm.id,
      confirm: true,
    });
    expect(pi).toMatchObject({ status: "succeeded", receipt_email: "ondine@example.fr", shipping: { name: "Ondine Valmont" } });

    const answer = await post(`/v1/payment_intents/${pi.id}`, "receipt_email=&shipping=");
    expect(answer).toMatchObject({
      status: 200,
      body: { id: pi.id, status: "succeeded", receipt_email: null, shipping: null, metadata: { orderId: "987654321" } },
    });
    expect(await stripe.paymentIntents.retrieve(pi.id)).toMatchObject({ receipt_email: null, shipping: null });

    expect(await post(`/v1/payment_intents/${pi.id}`, "amount=100")).toMatchObject({
      status: 400,
      body: { error: { code: "payment_intent_unexpected_state" } },
    });
    expect(await post(`/v1/payment_intents/${pi.id}`, "customer_email=x")).toMatchObject({
      status: 400,
      body: { error: { code: "parameter_unknown", param: "customer_email" } },
    });
    expect((await post("/v1/payment_intents/pi_missing", "receipt_email=")).status).toBe(404);
  });

  it("once canceled: its receipt_email can no longer change, as at Stripe, but its metadata can", async () => {
    const pi = await stripe.paymentIntents.create({ amount: 2590, currency: "eur", receipt_email: "ondine@example.fr" });
    await stripe.paymentIntents.cancel(pi.id);
    const refused = await post(`/v1/payment_intents/${pi.id}`, "receipt_email=");
    expect(refused).toMatchObject({
      status: 400,
      body: {
        error: {
          code: "payment_intent_unexpected_state",
          message: expect.stringContaining("could not be updated because it has a status of canceled"),
        },
      },
    });
    expect((await stripe.paymentIntents.retrieve(pi.id)).receipt_email).toBe("ondine@example.fr");
    expect((await stripe.paymentIntents.update(pi.id, { metadata: { note: "x" } })).metadata).toEqual({ note: "x" });
  });
});

describe("a saved card", () => {
  it("is listed for its customer, its billing details emptied, then detached; the charge made with it keeps its own", async () => {
    const customer = await stripe.customers.create({ email: "ondine@example.fr" });
    const pm = await card();
    expect(await post(`/v1/payment_methods/${pm.id}`, "billing_details[name]=")).toMatchObject({
      status: 400,
      body: { error: { message: "You must save this PaymentMethod to a customer before you can update it." } },
    });
    await stripe.paymentMethods.attach(pm.id, { customer: customer.id });
    const pi = await stripe.paymentIntents.create({
      amount: 2590,
      currency: "eur",
      customer: customer.id,
      payment_method: pm.id,
      confirm: true,
    });

    const listed = await stripe.customers.listPaymentMethods(customer.id);
    expect(listed.data.map((p) => p.id)).toEqual([pm.id]);

    const answer = await post(
      `/v1/payment_methods/${pm.id}`,
      encodeStripeParams({ billing_details: { name: "", email: "", phone: "", address: "" } }),
    );
    expect(answer).toMatchObject({
      status: 200,
      body: {
        id: pm.id,
        billing_details: {
          name: null,
          email: null,
          phone: null,
          address: { line1: null, line2: null, city: null, postal_code: null, state: null, country: null },
        },
      },
    });
    expect(await post(`/v1/payment_methods/${pm.id}`, "billing_details[iban]=x")).toMatchObject({
      status: 400,
      body: { error: { code: "parameter_unknown", param: "billing_details[iban]" } },
    });
    await stripe.paymentMethods.detach(pm.id);
    expect((await stripe.customers.listPaymentMethods(customer.id)).data).toEqual([]);

    // What Stripe keeps as the processor: the charge's billing details, as they were.
    const charge = await stripe.charges.retrieve((await stripe.paymentIntents.retrieve(pi.id)).latest_charge as string);
    expect(charge.billing_details).toMatchObject({ name: "Ondine Valmont", email: "ondine@example.fr" });

    const missing = await fetch(`${emulator.url}/v1/customers/cus_missing/payment_methods`, {
      headers: { Authorization: "Bearer sk_test_emulator" },
    });
    expect(missing.status).toBe(404);
  });
});
