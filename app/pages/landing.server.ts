import { PRODUCT_ID } from "~/content/brand";
import { shopPacks } from "~/services/packs.server";

/**
 * The landing page's loader: it sells product 1, its trial pack at today's price (the page is
 * rendered at each visit). Kept out of the route so that the browser's copy of it carries none of it.
 */
export async function landingLoader() {
  const trial = (await shopPacks(PRODUCT_ID)).find((p) => p.trial);
  return { trial: trial ? { masks: trial.masks, priceCents: trial.priceCents } : null };
}
