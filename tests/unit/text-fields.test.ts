import { asResponses } from "../helpers/route-response";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { API_OPERATIONS } from "~/openapi/operations.server";
import { action as contactActionRoute } from "~/routes/contact";
import { action as cartActionRoute } from "~/routes/panier";
import { adminOrderFormSchema } from "~/schemas/admin-order";
import { billingSchema } from "~/schemas/billing";
import { contactSchema } from "~/schemas/contact";
import { deliverySchema } from "~/schemas/delivery";
import { loginSchema } from "~/schemas/login";
import { productSchema } from "~/schemas/product";
import { settingsSchema } from "~/schemas/settings";
import { subscriptionCancelSchema } from "~/schemas/subscription-cancel";
import { CONTROL_CHARACTERS_MESSAGE, hasControlCharacters } from "~/schemas/text";
import { trackingSchema } from "~/schemas/tracking";
import { userCreateSchema, userUpdateSchema } from "~/schemas/user";
import { addToCart } from "~/services/cart.server";
import { getCartCookie } from "~/services/cart-session.server";
import { callOperation } from "../helpers/api-client";
import { snapshotDatabase } from "../helpers/api-db";
import { formRequest, routeArgs } from "../helpers/requests";

const contactAction = asResponses(contactActionRoute);
const cartAction = asResponses(cartActionRoute);

/** NUL and the other control characters are refused in every text field, with one French message. */

const op = (operationId: string) => API_OPERATIONS.find((o) => o.operationId === operationId)!;

const CONTACT = {
  name: "Camille Martin",
  email: "camille@example.fr",
  subject: "Ma commande",
  message: "Bonjour, quand mon colis part-il ?",
};
const DELIVERY = {
  firstName: "Camille",
  lastName: "Martin",
  email: "camille@example.fr",
  address: "8 rue des Fleurs",
  postalCode: "69003",
  city: "Lyon",
};
const ORDER = {
  customerEmail: "camille@example.fr",
  customerName: "Camille Martin",
  shippingAddress: "12 rue des Lilas",
  shippingPostalCode: "75011",
  shippingCity: "Paris",
  items: [{ productId: 1, quantity: 1, packId: 2 }],
};

describe("the control character rule", () => {
  it("refuses C0, DEL and C1 controls; multi-line fields keep line breaks and tabs", () => {
    for (const bad of ["\u0000", "\u0007", "\u001b[31m", "\u007f", "\u0085", "\u009f"]) {
      expect(hasControlCharacters(`a${bad}b`), JSON.stringify(bad)).toBe(true);
      expect(hasControlCharacters(`a${bad}b`, { multiline: true }), JSON.stringify(bad)).toBe(true);
    }
    for (const ok of ["\r\n", "\n", "\t"]) {
      expect(hasControlCharacters(`a${ok}b`), JSON.stringify(ok)).toBe(true);
      expect(hasControlCharacters(`a${ok}b`, { multiline: true }), JSON.stringify(ok)).toBe(false);
    }
    expect(hasControlCharacters("Élodie d'Arc — 12 rue de l'Été 🙂")).toBe(false);
  });

  /** Every string field of the form and API schemas (from their JSON Schema), with a NUL in it. */
  const SCHEMAS: [string, z.ZodType][] = [
    ["contact", contactSchema],
    ["delivery", deliverySchema],
    ["tracking", trackingSchema],
    ["login", loginSchema],
    ["settings", settingsSchema],
    ["user (new)", userCreateSchema],
    ["user (edit)", userUpdateSchema],
    ["product", productSchema],
    ["billing", billingSchema],
    ["admin order", adminOrderFormSchema],
    ["subscription cancel", subscriptionCancelSchema],
    ...API_OPERATIONS.filter((o) => o.body && o.bodyMode !== "stripe-signed").map((o): [string, z.ZodType] => [
      o.operationId,
      o.body!,
    ]),
  ];

  function stringFields(schema: z.ZodType): string[][] {
    const json = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
      properties?: Record<string, Record<string, unknown>>;
    };
    const paths: string[][] = [];
    // Free text only: an enum or a constant ("one_off", "FR") is refused as such.
    const isText = (v: Record<string, unknown>) => v.type === "string" && v.enum === undefined && v.const === undefined;
    const isString = (s: Record<string, unknown> | undefined) =>
      !!s &&
      (isText(s) ||
        (Array.isArray(s.anyOf) && (s.anyOf as Record<string, unknown>[]).every((v) => isText(v) || v.type === "null")));
    for (const [key, property] of Object.entries(json.properties ?? {})) {
      if (isString(property)) paths.push([key]);
      const items =
        property.type === "array" ? (property.items as { properties?: Record<string, Record<string, unknown>> }) : undefined;
      for (const [inner, innerProperty] of Object.entries(items?.properties ?? {}))
        if (isString(innerProperty)) paths.push([key, "0", inner]);
    }
    return paths;
  }

  const WITH_TEXT = SCHEMAS.filter(([, schema]) => stringFields(schema).length > 0);

  it("finds the text fields of the forms and of the API bodies", () => {
    expect(WITH_TEXT.map(([name]) => name)).toEqual(
      expect.arrayContaining(["contact", "delivery", "createOrder", "updateOrder", "createContactRequest", "addToCart"]),
    );
    expect(stringFields(deliverySchema).map((p) => p.join("."))).toEqual([
      "firstName",
      "lastName",
      "email",
      "address",
      "address2",
      "postalCode",
      "city",
      "phone",
    ]);
  });

  it.each(WITH_TEXT)("%s: every text field refuses a NUL with 'Caractères non autorisés'", (_name, schema) => {
    const fields = stringFields(schema);
    for (const path of fields) {
      const value: Record<string, unknown> = {};
      if (path.length === 1) value[path[0]] = "ab\u0000cd";
      else value[path[0]] = [{ [path[2]]: "ab\u0000cd" }];
      const result = schema.safeParse(value);
      expect(result.success, path.join(".")).toBe(false);
      const issue = result.error!.issues.find((i) => i.path.map(String).join(".") === path.join("."));
      expect(issue?.message, `${path.join(".")}: ${JSON.stringify(result.error!.issues.slice(0, 3))}`).toBe(
        CONTROL_CHARACTERS_MESSAGE,
      );
    }
  });
});

describe("control characters through the forms and the API", () => {
  it("the contact form answers 400 with the French message; a message keeps its line breaks", async () => {
    const refused = await contactAction(routeArgs(formRequest("/contact", { ...CONTACT, name: "Camille\u0000Martin" })));
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { result: { error: Record<string, string[]> } }).result.error.name).toEqual([
      CONTROL_CHARACTERS_MESSAGE,
    ]);
    const escape = await contactAction(
      routeArgs(formRequest("/contact", { ...CONTACT, message: "Bonjour\u001b[2J, effacez l'écran" })),
    );
    expect(escape.status).toBe(400);
    const lines = await contactAction(
      routeArgs(formRequest("/contact", { ...CONTACT, message: "Bonjour,\r\n\tune question\r\nsur ma commande." })),
    );
    expect(lines.status).toBe(200);
  });

  it("the delivery form answers 400 with the French message and creates nothing", async () => {
    const cartId = crypto.randomUUID();
    await addToCart(cartId, { productId: 1, packId: 2 });
    const cookie = (await getCartCookie().serialize(cartId)).split(";")[0];
    const before = await snapshotDatabase();
    for (const field of Object.keys(DELIVERY)) {
      const response = await cartAction(
        routeArgs(
          formRequest(
            "/panier",
            { intent: "delivery", ...DELIVERY, [field]: `${DELIVERY[field as keyof typeof DELIVERY]}\u0000` },
            { headers: { Cookie: cookie } },
          ),
        ),
      );
      expect(response.status, field).toBe(400);
      const body = (await response.json()) as { result: { error: Record<string, string[]> } };
      expect(body.result.error[field], field).toContain(CONTROL_CHARACTERS_MESSAGE);
    }
    expect(await snapshotDatabase()).toBe(before);
  });

  it("POST /api/orders and POST /api/contact answer 422 with the message on the field", async () => {
    const before = await snapshotDatabase();
    for (const [field, value] of [
      ["customerName", "Camille\u0000Martin"],
      ["shippingAddress", "12 rue\u0000des Lilas"],
      ["shippingCity", "Paris\u0007"],
      ["shippingCountry", "France\u0000"],
      ["status", "paid\u0000"],
    ] as const) {
      const result = await callOperation(op("createOrder"), { body: { ...ORDER, [field]: value } });
      expect(result.status, field).toBe(422);
      expect((result.body as { issues: { path: string; message: string }[] }).issues, field).toContainEqual({
        path: field,
        message: CONTROL_CHARACTERS_MESSAGE,
      });
    }
    const item = await callOperation(op("createOrder"), {
      body: { ...ORDER, items: [{ productId: 1, quantity: 1, variantName: "6 masques\u0000" }] },
    });
    expect((item.body as { issues: { path: string; message: string }[] }).issues).toContainEqual({
      path: "items.0.variantName",
      message: CONTROL_CHARACTERS_MESSAGE,
    });
    const contact = await callOperation(op("createContactRequest"), { body: { ...CONTACT, subject: "Ma\u0000commande" } });
    expect(contact.status).toBe(422);
    expect((contact.body as { issues: unknown[] }).issues).toContainEqual({
      path: "subject",
      message: CONTROL_CHARACTERS_MESSAGE,
    });
    expect(await snapshotDatabase()).toBe(before);
  });
});
