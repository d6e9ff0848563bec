import { eq } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { siteSettings } from "~/db/schema";
import { DEFAULT_SETTINGS } from "~/db/seed.server";
import type { SettingsInput } from "~/schemas/settings";

export type PublicSettings = Omit<typeof DEFAULT_SETTINGS, "id"> & {
  /** When the trial offer ends (ISO, UTC), or null: the product page's countdown banner. */
  trialOfferEndsAt: string | null;
};

export function getSettings(): PublicSettings {
  const row = getDb().select().from(siteSettings).where(eq(siteSettings.id, 1)).get();
  const source = row ?? DEFAULT_SETTINGS;
  return {
    siteName: source.siteName,
    siteEmail: source.siteEmail,
    siteDescription: source.siteDescription,
    siteAddress: source.siteAddress,
    sitePhone: source.sitePhone,
    siteFooterText: source.siteFooterText,
    trialOfferEndsAt: row?.trialOfferEndsAt ?? null,
  };
}

export function updateSettings(input: SettingsInput): PublicSettings {
  getDb()
    .insert(siteSettings)
    .values({ ...DEFAULT_SETTINGS, ...input, id: 1 })
    .onConflictDoUpdate({ target: siteSettings.id, set: { ...input, updatedAt: new Date().toISOString() } })
    .run();
  return getSettings();
}
