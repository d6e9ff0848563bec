// The server matches each request's path against the route tree two or three times (Remix, then
// its data router). patches/@remix-run+router+*.patch keeps, per tree, the ranked branches and
// each path's compiled pattern instead of rebuilding them on every match (a fifth of the CPU of a
// checkout before). These tests check that matching still picks the same routes, in the same
// order of precedence, when a tree is matched many times.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { matchRoutes, type AgnosticRouteObject } from "@remix-run/router";
import { describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);

/** A tree shaped like the shop's: a root layout, static and dynamic paths, an API, a catch-all. */
function shopTree(): AgnosticRouteObject[] {
  return [
    {
      id: "root",
      path: "",
      children: [
        { id: "index", index: true },
        { id: "product", path: "product/:id" },
        { id: "panier", path: "panier" },
        { id: "api-orders", path: "api/orders" },
        { id: "api-order", path: "api/orders/:id" },
        { id: "api-order-items", path: "api/orders/:id/items" },
        { id: "api-orders-export", path: "api/orders/export" },
        {
          id: "admin",
          path: "admin",
          children: [
            { id: "admin-index", index: true },
            { id: "admin-order", path: "orders/:id" },
          ],
        },
        { id: "CASE", path: "FAQ", caseSensitive: true },
        { id: "splat", path: "*" },
      ],
    },
  ];
}

const leaf = (routes: AgnosticRouteObject[], path: string) => {
  const matches = matchRoutes(routes, path);
  const last = matches?.at(-1);
  return last ? { id: last.route.id, params: last.params } : null;
};

const CASES: [string, string, Record<string, string>][] = [
  ["/", "index", {}],
  ["/product/1", "product", { id: "1" }],
  ["/product/abc", "product", { id: "abc" }],
  ["/panier", "panier", {}],
  ["/PANIER", "panier", {}],
  ["/api/orders", "api-orders", {}],
  ["/api/orders/export", "api-orders-export", {}],
  ["/api/orders/42", "api-order", { id: "42" }],
  ["/api/orders/42/items", "api-order-items", { id: "42" }],
  ["/admin", "admin-index", {}],
  ["/admin/orders/7", "admin-order", { id: "7" }],
  ["/FAQ", "CASE", {}],
  ["/faq", "splat", { "*": "faq" }],
  ["/nope/deeper", "splat", { "*": "nope/deeper" }],
];

describe("route matching, each tree matched many times", () => {
  it("the installed router carries the shop's patch (npm install runs patch-package)", () => {
    const source = readFileSync(require.resolve("@remix-run/router"), "utf8");
    expect(source).toContain("rankedBranchesCache");
    expect(source).toContain("compiledPathCache");
    expect(source).toContain("recentMatchesCache");
  });

  it("a static segment beats a dynamic one, a dynamic one beats the catch-all, and case sensitivity holds, on every match", () => {
    const routes = shopTree();
    for (let round = 0; round < 3; round++) {
      for (const [path, id, params] of CASES) {
        expect({ path, ...leaf(routes, path) }).toEqual({ path, id, params: expect.objectContaining(params) });
      }
    }
  });

  it("two trees with the same paths but other routes each answer with their own routes", () => {
    const first = shopTree();
    const second: AgnosticRouteObject[] = [
      { id: "other-root", path: "", children: [{ id: "other-product", path: "product/:id" }] },
    ];
    expect(leaf(first, "/product/1")?.id).toBe("product");
    expect(leaf(second, "/product/1")?.id).toBe("other-product");
    expect(leaf(second, "/panier")).toBeNull();
    expect(leaf(first, "/panier")?.id).toBe("panier");
  });

  it("a path matched again gets matches of its own: changing one result's params changes no other", () => {
    const routes = shopTree();
    const first = matchRoutes(routes, "/admin/orders/7")!;
    expect(first.map((m) => m.route.id)).toEqual(["root", "admin", "admin-order"]);
    // One params object for the whole branch, as the router gives it.
    expect(first[0].params).toBe(first[2].params);
    (first[2].params as Record<string, string>).id = "changed";
    first.pop();
    const second = matchRoutes(routes, "/admin/orders/7")!;
    expect(second.map((m) => m.route.id)).toEqual(["root", "admin", "admin-order"]);
    expect(second.map((m) => m.params.id)).toEqual(["7", "7", "7"]);
    expect(second.map((m) => m.pathname)).toEqual(["/", "/admin", "/admin/orders/7"]);
    expect(matchRoutes(routes, "/admin/orders/8")!.at(-1)!.params).toEqual({ id: "8" });
  });

  it("an encoded segment is decoded into its parameter, an encoded slash is kept", () => {
    const routes = shopTree();
    expect(leaf(routes, "/product/a%20b")?.params).toEqual({ id: "a b" });
    expect(leaf(routes, "/product/a%2Fb")?.params).toEqual({ id: "a/b" });
  });
});
