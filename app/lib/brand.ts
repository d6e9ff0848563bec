/** Fixed brand facts used across the shop (the editable ones live in site settings). */
export const BRAND = "Maison Éclat";
export const PRODUCT_ID = 1;
export const FALLBACK_PRODUCT_IMAGE = "/images/product-fallback.svg";
export const DELIVERY = {
  shippedWithin: "24 heures",
  arrival: "7 à 10 jours ouvrés",
  withdrawalDays: 14,
  refundDays: 14,
} as const;
export const OPENING_HOURS = [
  { days: "Lundi - Vendredi", hours: "9h - 18h" },
  { days: "Samedi", hours: "10h - 15h" },
  { days: "Dimanche", hours: "Fermé" },
] as const;
