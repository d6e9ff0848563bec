/**
 * Packs: what a product is sold in (table `packs`, read by services/packs.server.ts).
 * Browser-safe types and labels; prices in cents.
 */

/** A pack as stored. */
export type Pack = {
  id: number;
  productId: number;
  name: string;
  description: string;
  masks: number;
  priceCents: number;
  /** The crossed-out "before" price as the admin set it, or null for none. */
  referencePriceCents: number | null;
  popular: boolean;
  /**
   * The trial pack: one per order, bought once per email address, and only as a one-off
   * purchase (the rules are in services/packs.server.ts).
   */
  trial: boolean;
  position: number;
  active: boolean;
};

/** A pack as the storefront shows it: the crossed-out price only when it is lawful (else null). */
export type ShopPack = Pick<Pack, "id" | "name" | "description" | "masks" | "priceCents" | "popular" | "trial"> & {
  /** The crossed-out price to show, or null (none set, or not the lowest price of the 30 days before). */
  crossedOutCents: number | null;
};

/** How a product without an active pack is sold. */
export const SALE_WITHOUT_PACK = ["unit", "not_sold"] as const;
export type SaleWithoutPack = (typeof SALE_WITHOUT_PACK)[number];

export const SALE_WITHOUT_PACK_LABELS: Record<SaleWithoutPack, string> = {
  unit: "Vendu à l'unité, à son prix",
  not_sold: "Non vendu",
};

/** The spec's three packs of the collagen mask (product 1): the seed's data. */
export const SPEC_PACKS = [
  {
    name: "3 masques d'essai",
    description: "Découvrez le masque au collagène : idéal pour un premier essai.",
    masks: 3,
    priceCents: 99,
    referencePriceCents: 1599,
    popular: false,
    trial: true,
  },
  {
    name: "6 masques + 2 offerts",
    description: "8 masques pour une cure complète d'un mois, à raison de 2 par semaine.",
    masks: 8,
    priceCents: 2590,
    referencePriceCents: 3180,
    popular: false,
    trial: false,
  },
  {
    name: "9 masques + 3 offerts",
    description: "12 masques pour six semaines de soin : le meilleur prix par masque.",
    masks: 12,
    priceCents: 3290,
    referencePriceCents: 4770,
    popular: true,
    trial: false,
  },
] as const;

/** The discount a crossed-out price shows, in whole percent (0 without one). */
export function discountPercent(priceCents: number, crossedOutCents: number | null): number {
  return crossedOutCents && crossedOutCents > priceCents ? Math.round((1 - priceCents / crossedOutCents) * 100) : 0;
}
