import { describe, expect, it } from "vitest";
import { centsToDecimal, formatPrice, parsePriceToCents, shippingLabel } from "~/lib/money";

describe("formatPrice", () => {
  it("shows euros with a comma, two decimals and the euro sign right after", () => {
    expect(formatPrice(2590)).toBe("25,90€");
    expect(formatPrice(99)).toBe("0,99€");
    expect(formatPrice(3290)).toBe("32,90€");
    expect(formatPrice(123456)).toBe("1234,56€");
    expect(formatPrice(5)).toBe("0,05€");
  });
  it("shows 0,00€ for a missing price", () => {
    expect(formatPrice(null)).toBe("0,00€");
    expect(formatPrice(undefined)).toBe("0,00€");
    expect(formatPrice(Number.NaN)).toBe("0,00€");
  });
});

describe("centsToDecimal", () => {
  it("gives the API's decimal strings", () => {
    expect(centsToDecimal(2590)).toBe("25.90");
    expect(centsToDecimal(99)).toBe("0.99");
    expect(centsToDecimal(0)).toBe("0.00");
  });
});

describe("parsePriceToCents", () => {
  it("accepts a comma or a dot", () => {
    expect(parsePriceToCents("25,90")).toBe(2590);
    expect(parsePriceToCents("25.90")).toBe(2590);
    expect(parsePriceToCents("25,9")).toBe(2590);
    expect(parsePriceToCents("25")).toBe(2500);
    expect(parsePriceToCents(" 0,99€ ")).toBe(99);
  });
  it("refuses what is not a price", () => {
    for (const bad of ["", "abc", "-1", "1,999", "1e9", "25,90,1", "NaN", "99999999"]) {
      expect(parsePriceToCents(bad), bad).toBeNull();
    }
  });
});

describe("shippingLabel", () => {
  it("reads 'Gratuite' for free shipping, else the amount", () => {
    expect(shippingLabel(0)).toBe("Gratuite");
    expect(shippingLabel(590)).toBe("5,90€");
  });
});
