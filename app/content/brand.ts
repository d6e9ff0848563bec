/** Fixed brand facts used across the shop (the editable ones live in site settings). */
export { BRAND } from "~/lib/meta";
export const PRODUCT_ID = 1;
export const FALLBACK_PRODUCT_IMAGE = "/images/product-fallback.svg";
export const DELIVERY = {
  shippedWithin: "24 heures",
  arrival: "7 à 10 jours ouvrés",
  withdrawalDays: 14,
  refundDays: 14,
} as const;
/**
 * How often to use the mask, said the same way everywhere (FAQ, product page, packs). The spec
 * says "1-2 times a week" on the landing page and "2-3 times a week" on the product page: we
 * say the one rhythm both agree on, the one the packs are sized for (8 masks a month, 12 for
 * six weeks).
 */
export const USAGE = {
  perWeek: "2 masques par semaine",
  advice:
    "Nous recommandons 2 masques par semaine, par exemple le lundi et le jeudi : le rythme d'une cure de 8 masques par mois.",
} as const;
export const OPENING_HOURS = [
  { days: "Lundi - Vendredi", hours: "9h - 18h" },
  { days: "Samedi", hours: "10h - 15h" },
  { days: "Dimanche", hours: "Fermé" },
] as const;
