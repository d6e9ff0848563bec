import { describe, expect, it } from "vitest";
import { frenchTypographyProblems } from "../helpers/french-typography";

/** The rule the e2e suite applies to every public page (tests/e2e/french-typography.spec.ts). */
describe("the French typography rule", () => {
  const rules = (text: string) => frenchTypographyProblems(text).map((p) => p.rule);

  it("wants a space before ! ? : ;", () => {
    expect(rules("Merci pour votre commande\u00a0!")).toEqual([]);
    expect(rules("Une question\u202f? Écrivez-nous\u202f; Téléphone\u00a0: 01 02 03 04 05")).toEqual([]);
    expect(rules("Merci pour votre commande !")).toEqual([]);
    expect(rules("Merci pour votre commande!")).toEqual(["espace"]);
    expect(rules("Une question? Téléphone: 01; fin")).toEqual(["espace", "espace", "espace"]);
  });

  it("leaves addresses, times and links alone", () => {
    expect(rules("https://maison-eclat.fr/suivi?commande=12 à 14:30, mailto:contact@maison-eclat.fr")).toEqual([]);
  });

  it("wants « € » after the amount in the shop's format", () => {
    expect(rules("25,90€ ; 10 000 € ; prix en €, 10\u202f000 €")).toEqual([]);
    expect(rules("€25,90")).toEqual(["euro"]);
    expect(rules("25.90€")).toEqual(["euro"]);
  });

  it("finds English interface words", () => {
    expect(rules("404 Page Not Found")).toEqual(["anglais", "anglais"]);
    expect(rules("BEST SELLER")).toEqual(["anglais"]);
    expect(rules("Loading…")).toEqual(["anglais"]);
    expect(rules("Meilleure vente, Fermer, Annuler")).toEqual([]);
  });
});
