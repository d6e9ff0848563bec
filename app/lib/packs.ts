/** The three packs of the product page (spec section 3). Prices in cents. */
export type Pack = {
  id: 1 | 2 | 3;
  name: string;
  description: string;
  masks: number;
  priceCents: number;
  originalPriceCents: number;
  discount: boolean;
  popular: boolean;
  /**
   * The trial pack: one per order, bought once per email address, and only as a one-off
   * purchase (the rules are in services/packs.server.ts).
   */
  trial: boolean;
};

export const PACKS: readonly Pack[] = [
  {
    id: 1,
    name: "3 masques d'essai",
    description: "Découvrez le masque au collagène : idéal pour un premier essai.",
    masks: 3,
    priceCents: 99,
    originalPriceCents: 1599,
    discount: true,
    popular: false,
    trial: true,
  },
  {
    id: 2,
    name: "6 masques + 2 offerts",
    description: "8 masques pour une cure complète d'un mois, à raison de 2 par semaine.",
    masks: 8,
    priceCents: 2590,
    originalPriceCents: 3180,
    discount: true,
    popular: false,
    trial: false,
  },
  {
    id: 3,
    name: "9 masques + 3 offerts",
    description: "12 masques pour six semaines de soin : le meilleur prix par masque.",
    masks: 12,
    priceCents: 3290,
    originalPriceCents: 4770,
    discount: true,
    popular: true,
    trial: false,
  },
] as const;

export const DEFAULT_PACK_ID = 1;

export function findPack(id: number): Pack | undefined {
  return PACKS.find((p) => p.id === id);
}

export function findPackByName(name: string | null | undefined): Pack | undefined {
  return PACKS.find((p) => p.name === name);
}
