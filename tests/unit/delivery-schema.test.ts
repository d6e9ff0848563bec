import { describe, expect, it } from "vitest";
import { formatFrenchPhone, normalizeFrenchPhone } from "~/lib/phone";
import { apiOrderSchema } from "~/schemas/order";
import { DELIVERY_MESSAGES, deliverySchema } from "~/schemas/delivery";
import { subscriptionAddressSchema } from "~/schemas/subscription-address";

const VALID = {
  firstName: "Camille",
  lastName: "Martin",
  email: "camille.martin@example.fr",
  address: "8 rue des Fleurs",
  postalCode: "69003",
  city: "Lyon",
};

function messageFor(field: string, input: Record<string, unknown>): string | undefined {
  const result = deliverySchema.safeParse({ ...VALID, ...input });
  return result.success ? undefined : result.error.issues.find((i) => i.path[0] === field)?.message;
}

describe("delivery form: postal code", () => {
  it("accepts a French postal code of 5 digits, spaces ignored", () => {
    expect(deliverySchema.parse({ ...VALID, postalCode: "69003" }).postalCode).toBe("69003");
    expect(deliverySchema.parse({ ...VALID, postalCode: " 75 011 " }).postalCode).toBe("75011");
    // Corsica (2A/2B use 20xxx) is metropolitan France.
    expect(deliverySchema.parse({ ...VALID, postalCode: "20000" }).postalCode).toBe("20000");
    expect(deliverySchema.parse({ ...VALID, postalCode: "01000" }).postalCode).toBe("01000");
  });

  it("refuses letters and more than 5 digits with a message that says what to type", () => {
    expect(messageFor("postalCode", { postalCode: "ABCDE" })).toBe("Saisissez un code postal à 5 chiffres");
    expect(messageFor("postalCode", { postalCode: "6900A" })).toBe(DELIVERY_MESSAGES.postalCodeFormat);
    expect(messageFor("postalCode", { postalCode: "690031" })).toBe(DELIVERY_MESSAGES.postalCodeFormat);
  });

  it("keeps the spec's message for a code too short", () => {
    expect(messageFor("postalCode", { postalCode: "690" })).toBe("Le code postal doit contenir au moins 5 caractères");
    expect(messageFor("postalCode", { postalCode: "" })).toBe("Le code postal doit contenir au moins 5 caractères");
  });

  it("says why a 5-digit code is refused: no such code, or overseas", () => {
    expect(messageFor("postalCode", { postalCode: "00123" })).toBe(DELIVERY_MESSAGES.postalCodeUnknown);
    expect(messageFor("postalCode", { postalCode: "96000" })).toBe(DELIVERY_MESSAGES.postalCodeUnknown);
    expect(messageFor("postalCode", { postalCode: "97400" })).toMatch(/France métropolitaine/);
    expect(messageFor("postalCode", { postalCode: "98000" })).toMatch(/France métropolitaine/);
  });

  it("applies the same rule to the API's orders and to a subscription's new address", () => {
    const order = apiOrderSchema.safeParse({
      shippingAddress: "8 rue des Fleurs",
      shippingPostalCode: "ABCDE",
      shippingCity: "Lyon",
      items: [{ productId: 1, packId: 2, quantity: 1 }],
    });
    expect(order.success).toBe(false);
    expect(order.error!.issues).toContainEqual(
      expect.objectContaining({ path: ["shippingPostalCode"], message: "Saisissez un code postal à 5 chiffres" }),
    );
    const address = subscriptionAddressSchema.safeParse({ ...VALID, postalCode: "ABCDE" });
    expect(address.error!.issues[0]).toMatchObject({ path: ["postalCode"], message: "Saisissez un code postal à 5 chiffres" });
  });
});

describe("delivery form: telephone", () => {
  it("is optional: missing, empty or blank is null", () => {
    expect(deliverySchema.parse(VALID).phone).toBeNull();
    expect(deliverySchema.parse({ ...VALID, phone: "" }).phone).toBeNull();
    expect(deliverySchema.parse({ ...VALID, phone: "   " }).phone).toBeNull();
    expect(deliverySchema.parse({ ...VALID, phone: null }).phone).toBeNull();
  });

  it.each([
    ["06 12 34 56 78", "+33612345678"],
    ["0612345678", "+33612345678"],
    ["06.12.34.56.78", "+33612345678"],
    ["06-12-34-56-78", "+33612345678"],
    ["+33 6 12 34 56 78", "+33612345678"],
    ["+33612345678", "+33612345678"],
    ["0033 6 12 34 56 78", "+33612345678"],
    ["+33 (0)6 12 34 56 78", "+33612345678"],
    ["01 23 45 67 89", "+33123456789"],
    ["09 87 65 43 21", "+33987654321"],
  ])("keeps %s as %s", (typed, kept) => {
    expect(deliverySchema.parse({ ...VALID, phone: typed }).phone).toBe(kept);
  });

  it.each(["06 12 34 56", "06 12 34 56 78 9", "00 12 34 56 78", "+44 20 7946 0958", "téléphone", "6 12 34 56 78"])(
    "refuses %s and says how to write it",
    (typed) => {
      expect(messageFor("phone", { phone: typed })).toBe(
        "Saisissez un numéro de téléphone français à 10 chiffres, par exemple 06 12 34 56 78 (ou +33 6 12 34 56 78)",
      );
    },
  );

  it("shows a kept number in the national form", () => {
    expect(formatFrenchPhone("+33612345678")).toBe("06 12 34 56 78");
    expect(formatFrenchPhone(null)).toBe("");
    expect(normalizeFrenchPhone("07 00 00 00 00")).toBe("+33700000000");
  });
});

describe("delivery form: second address line", () => {
  it("is optional, trimmed, and refused past 100 characters", () => {
    expect(deliverySchema.parse(VALID).address2).toBeNull();
    expect(deliverySchema.parse({ ...VALID, address2: "  Bâtiment B, 3e étage " }).address2).toBe("Bâtiment B, 3e étage");
    expect(messageFor("address2", { address2: "x".repeat(101) })).toBe(
      "Le complément d'adresse ne doit pas dépasser 100 caractères",
    );
  });
});
