import { describe, expect, it } from "vitest";
import { ALL_FAQ } from "~/content/faq";
import { SPEC_PACKS } from "~/lib/packs";
import { buildSearchIndex, faqAnchor, normalize, queryTerms, search as searchIn, SITE_PAGES } from "~/lib/search";

/** The index as the search page builds it, with the spec's packs on sale. */
const SHOP_PACKS = SPEC_PACKS.map((p, i) => ({ ...p, id: i + 1, crossedOutCents: p.referencePriceCents }));
const SEARCH_INDEX = buildSearchIndex(undefined, SHOP_PACKS);
const search = (query: string, index = SEARCH_INDEX) => searchIn(query, index);
const titles = (query: string) => search(query).map((r) => r.title);

describe("normalize", () => {
  it("drops accents, case and punctuation", () => {
    expect(normalize("  Éclat, FERMETÉ !  ")).toBe("eclat fermete");
    expect(normalize("Collagène")).toBe("collagene");
    expect(normalize("Œil")).toBe("oeil");
  });
});

describe("queryTerms", () => {
  it("keeps significant words, singular, once", () => {
    expect(queryTerms("Les masques de la maison")).toEqual(["masque", "maison"]);
    expect(queryTerms("livraison livraisons")).toEqual(["livraison"]);
  });
  it("drops the small words that would match every entry", () => {
    expect(queryTerms("de la")).toEqual([]);
    expect(search("de la")).toEqual([]);
  });
  it("keeps words ending in x whole", () => {
    expect(queryTerms("prix")).toEqual(["prix"]);
  });
  it("is empty for a blank query", () => {
    expect(queryTerms("   ")).toEqual([]);
    expect(queryTerms("?!")).toEqual([]);
  });
});

describe("search", () => {
  it("finds the product whatever the accents and case", () => {
    for (const q of ["collagene", "COLLAGÈNE", "Collagène"]) {
      const results = search(q);
      expect(results[0]).toMatchObject({ kind: "produit", href: "/product/1", title: "Masque Hydrogel au Collagène" });
    }
  });

  it("finds the FAQ entry about ingredients, with or without accent, linked to its answer on /faq", () => {
    for (const q of ["ingrédients", "ingredients", "INGREDIENT"]) {
      const results = search(q);
      expect(results[0]).toMatchObject({
        kind: "question",
        title: "Quels sont les ingrédients ?",
        href: "/faq#quels-sont-les-ingredients",
      });
    }
  });

  it("finds the packs by what they contain, with their price", () => {
    const results = search("offerts");
    expect(results.map((r) => r.title)).toEqual(["6 masques + 2 offerts", "9 masques + 3 offerts"]);
    expect(results[0].summary).toContain("25,90€");
    expect(results[0].href).toBe("/product/1#packs");
  });

  it("finds the information pages by title and by keyword", () => {
    expect(titles("livraison")[0]).toBe("Livraison");
    expect(titles("rétractation")).toContain("Conditions générales de vente");
    expect(titles("cookies")).toContain("Politique de confidentialité");
    expect(titles("hébergeur")).toEqual(["Mentions légales"]);
  });

  it("matches the start of words, not the middle", () => {
    expect(titles("prix").length).toBeGreaterThan(0);
    expect(titles("prix")).not.toContain("Mentions légales");
    expect(titles("gel")).toEqual([]);
    expect(titles("hydro")).toContain("Masque Hydrogel au Collagène");
  });

  it("needs every word of the query", () => {
    expect(titles("livraison gratuite")).toContain("Livraison");
    expect(titles("livraison gratuite")).not.toContain("Mentions légales");
    expect(search("collagène licorne")).toEqual([]);
  });

  it("ranks a title match above a match in the text", () => {
    const results = search("abonnement");
    expect(
      results
        .slice(0, 2)
        .map((r) => r.title)
        .sort(),
    ).toEqual(["Comment fonctionne l'abonnement ?", "Résilier mon abonnement"]);
    expect(results.map((r) => r.title)).toContain("Conditions générales de vente");
  });

  it("finds the online cancellation for « résilier », « résiliation » and « annuler mon abonnement »", () => {
    for (const query of ["résilier", "Résiliation", "annuler mon abonnement", "résilier abonnement"]) {
      expect(search(query)[0], query).toMatchObject({ title: "Résilier mon abonnement", href: "/abonnement/resilier" });
    }
  });

  it("returns nothing for an empty query or an unknown word", () => {
    expect(search("")).toEqual([]);
    expect(search("   ")).toEqual([]);
    expect(search("xylophone")).toEqual([]);
  });

  it("finds the online withdrawal for « rétractation » and « rétracter »", () => {
    expect(search("rétractation")[0]).toMatchObject({ kind: "page", href: "/retractation" });
    expect(search("se retracter").map((r) => r.href)).toContain("/retractation");
  });

  it("searches the product under the name given by the catalog", () => {
    const index = buildSearchIndex({ id: 1, name: "Masque Velours Rosé", description: "Un soin doux." });
    expect(search("velours", index)[0]).toMatchObject({ kind: "produit", href: "/product/1" });
    expect(search("rose", index).map((r) => r.title)).toContain("Masque Velours Rosé");
  });
});

describe("index", () => {
  it("holds the product, every pack, every FAQ question and every information page", () => {
    expect(SEARCH_INDEX.filter((e) => e.kind === "produit")).toHaveLength(1);
    expect(SEARCH_INDEX.filter((e) => e.kind === "pack").map((e) => e.title)).toEqual(SPEC_PACKS.map((p) => p.name));
    expect(SEARCH_INDEX.filter((e) => e.kind === "question").map((e) => e.title)).toEqual(ALL_FAQ.map((f) => f.question));
    expect(
      SEARCH_INDEX.filter((e) => e.kind === "page")
        .map((e) => e.href)
        .sort(),
    ).toEqual([
      "/abonnement/resilier",
      "/cgv",
      "/contact",
      "/faq",
      "/livraison",
      "/mentions-legales",
      "/politique-confidentialite",
      "/retours",
      "/retractation",
      "/track-order",
    ]);
    expect(SITE_PAGES.every((p) => p.summary.length > 20)).toBe(true);
  });

  it("gives every FAQ question its own anchor", () => {
    const anchors = ALL_FAQ.map((f) => faqAnchor(f.question));
    expect(new Set(anchors).size).toBe(anchors.length);
    expect(anchors.every((a) => /^[a-z0-9-]+$/.test(a))).toBe(true);
  });
});
