import { describe, expect, it } from "vitest";
import { cartCountCookieUpdate, readCartCountCookie } from "~/lib/cart-count-cookie";

describe("the cart count cookie", () => {
  it("reads the count, and nothing else", () => {
    expect(readCartCountCookie("cart=abc; cart_count=3")).toBe(3);
    expect(readCartCountCookie("cart_count=0")).toBe(0);
    expect(readCartCountCookie("cart=abc")).toBeNull();
    expect(readCartCountCookie("cart_count=<script>")).toBeNull();
    expect(readCartCountCookie("cart_count=12345")).toBeNull();
    expect(readCartCountCookie("xcart_count=2")).toBeNull();
    expect(readCartCountCookie(null)).toBeNull();
  });

  it("is set when the browser's count differs from the cart, removed when the cart is empty, readable by the page", () => {
    const set = cartCountCookieUpdate("cart=abc", 2, { secure: true })!;
    expect(set).toMatch(/^cart_count=2; Max-Age=2592000; Path=\/; SameSite=Lax; Secure$/);
    expect(set).not.toMatch(/HttpOnly/);
    expect(cartCountCookieUpdate("cart=abc; cart_count=2", 2, { secure: false })).toBeNull();
    expect(cartCountCookieUpdate("cart_count=2", 1, { secure: false })).toBe(
      "cart_count=1; Max-Age=2592000; Path=/; SameSite=Lax",
    );
    expect(cartCountCookieUpdate("cart_count=2", 0, { secure: false })).toBe("cart_count=; Max-Age=0; Path=/; SameSite=Lax");
    expect(cartCountCookieUpdate("cart_count=0", 0, { secure: false })).toMatch(/^cart_count=; Max-Age=0/);
    expect(cartCountCookieUpdate("cart=abc", 0, { secure: false })).toBeNull();
  });
});
