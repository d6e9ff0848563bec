/**
 * The carriers a parcel leaves with, and the public page where anyone follows it with its
 * tracking number. Shared by the admin, the tracking page, the API and the shipped email.
 */

export const CARRIERS = ["colissimo", "chronopost", "mondial_relay", "dpd"] as const;
export type Carrier = (typeof CARRIERS)[number];

export const CARRIER_LABELS: Record<Carrier, string> = {
  colissimo: "Colissimo",
  chronopost: "Chronopost",
  mondial_relay: "Mondial Relay",
  dpd: "DPD",
};

/** The carriers' public tracking pages; the number is appended, URL-encoded. */
const TRACKING_PAGES: Record<Carrier, string> = {
  colissimo: "https://www.laposte.fr/outils/suivre-vos-envois?code=",
  chronopost: "https://www.chronopost.fr/tracking-no-cms/suivi-page?listeNumerosLT=",
  mondial_relay: "https://www.mondialrelay.fr/suivi-de-colis/?numeroExpedition=",
  dpd: "https://www.dpd.com/fr/fr/suivi-de-colis/?parcelNumber=",
};

export function isCarrier(value: unknown): value is Carrier {
  return typeof value === "string" && (CARRIERS as readonly string[]).includes(value);
}

/** Accepts a carrier's code or its name as shown ("Mondial Relay", "mondial-relay"); null otherwise. */
export function parseCarrier(input: string | null | undefined): Carrier | null {
  if (!input) return null;
  const v = input
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  return isCarrier(v) ? v : null;
}

/**
 * The page to follow the parcel on the carrier's site, or null without a carrier or a number.
 * The spaces people type inside a number are removed; the rest is URL-encoded.
 */
export function carrierTrackingUrl(carrier: string | null | undefined, trackingNumber: string | null | undefined): string | null {
  if (!isCarrier(carrier)) return null;
  const number = (trackingNumber ?? "").replace(/\s+/g, "");
  if (!number || number.toLowerCase() === "null") return null;
  return TRACKING_PAGES[carrier] + encodeURIComponent(number);
}
