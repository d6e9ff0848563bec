import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/lib/safe-redirect";

describe("safeRedirect", () => {
  it.each([
    ["/admin/orders?page=2", "/admin/orders?page=2"],
    ["/panier", "/panier"],
    ["//evil.example", "/fallback"],
    ["/\\evil.example", "/fallback"],
    ["https://evil.example/admin", "/fallback"],
    ["http:/evil.example", "/fallback"],
    ["javascript:alert(1)", "/fallback"],
    ["/admin/\tx", "/fallback"],
    ["/\t/evil.example", "/fallback"],
    ["/\n/evil.example", "/fallback"],
    ["/\u007f/evil.example", "/fallback"],
    ["evil.example", "/fallback"],
    ["", "/fallback"],
    [null, "/fallback"],
    [`/${"a".repeat(2000)}`, "/fallback"],
  ])("%j -> %s", (input, expected) => {
    expect(safeRedirect(input, "/fallback")).toBe(expected);
  });
});
