import { eq } from "drizzle-orm";
import { getDb, type DbOrTx } from "~/db/client.server";
import { prepared } from "~/db/prepared.server";
import { siteSettings } from "~/db/schema";
import { DEFAULT_SETTINGS } from "~/db/seed.server";
import { legalIdentityOf } from "~/lib/company";
import type { SettingsInput } from "~/schemas/settings";
import { bumpPageCacheVersion } from "./page-cache-version.server";

export type PublicSettings = Omit<typeof DEFAULT_SETTINGS, "id"> & {
  /** When the trial offer ends (ISO, UTC), or null: the product page's countdown banner. */
  trialOfferEndsAt: string | null;
};

/** The SIREN: the first 9 digits of the SIRET ("921 458 303"). */
export function sirenOf(siret: string): string {
  const digits = siret.replace(/\D/g, "").slice(0, 9);
  return digits.length === 9 ? `${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}` : "";
}

/** The settings' row: read several times per purchase (emails, invoice, pages), so prepared once per handle. */
const settingsRow = (db: DbOrTx) => db.select().from(siteSettings).where(eq(siteSettings.id, 1)).limit(1).prepare();

export async function getSettings(db: DbOrTx = getDb()): Promise<PublicSettings> {
  const [row] = await prepared(db, "settingsRow", settingsRow).execute();
  const source = row ?? DEFAULT_SETTINGS;
  return {
    siteName: source.siteName,
    siteEmail: source.siteEmail,
    siteDescription: source.siteDescription,
    siteAddress: source.siteAddress,
    sitePhone: source.sitePhone,
    siteFooterText: source.siteFooterText,
    ...legalIdentityOf(source),
    defaultCarrier: source.defaultCarrier,
    emailContentRetentionDays: source.emailContentRetentionDays,
    trialOfferEndsAt: row?.trialOfferEndsAt ?? null,
  };
}

export async function updateSettings(input: SettingsInput): Promise<PublicSettings> {
  await getDb().transaction(async (tx) => {
    await tx
      .insert(siteSettings)
      .values({ ...DEFAULT_SETTINGS, ...input, id: 1 })
      .onConflictDoUpdate({ target: siteSettings.id, set: { ...input, updatedAt: new Date().toISOString() } });
    await bumpPageCacheVersion(tx);
  });
  return await getSettings();
}
