import { and, eq, isNull } from "drizzle-orm";
import type { Carrier } from "~/lib/carriers";
import type { LegalIdentity } from "~/lib/company";
import { SPEC_PACKS } from "~/lib/packs";
import { hashPasswordSync } from "~/lib/passwords.server";
import type { DbOrTx } from "./client.server";
import * as schema from "./schema";

const SEED_PRODUCT = {
  id: 1,
  name: "Masque Hydrogel au Collagène",
  description:
    "Masque en hydrogel infusé au collagène marin, à l'acide hyaluronique et à la niacinamide. " +
    "Il hydrate en profondeur, ravive l'éclat et raffermit la peau en 15 à 20 minutes.",
  images: ["/images/product-mask.svg", "/images/product-box.svg", "/images/product-texture.svg"],
  sku: "ME-COLL-MASK-01",
  priceCents: 2590,
  originalPriceCents: 3180,
  category: "Soin du visage",
  stock: 500,
};

/**
 * The seller's legal identity of the demo shop: a fictitious company, its host and its consumer
 * mediator. A real shop replaces them in the settings before its first sale.
 */
export const DEMO_LEGAL_IDENTITY: LegalIdentity = {
  legalName: "Maison Éclat SAS",
  legalForm: "SAS",
  shareCapital: "10 000 €",
  rcsCity: "Paris",
  rcsNumber: "921 458 303",
  siret: "921 458 303 00017",
  vatNumber: "FR51921458303",
  publicationDirector: "Claire Dumont",
  publicationDirectorRole: "Présidente",
  hostName: "OVH SAS",
  hostAddress: "2 rue Kellermann\n59100 Roubaix\nFrance",
  hostPhone: "1007",
  mediatorName: "CM2C (Centre de la Médiation de la Consommation de Conciliateurs de Justice)",
  mediatorAddress: "49 rue de Ponthieu\n75008 Paris",
  mediatorUrl: "https://www.cm2c.net",
};

export const DEFAULT_SETTINGS = {
  id: 1,
  siteName: "Maison Éclat",
  siteEmail: "contact@maison-eclat.fr",
  siteDescription: "Masques au collagène pour une peau hydratée, lumineuse et ferme, conçus en France.",
  siteAddress: "12 rue des Lilas\n75011 Paris\nFrance",
  sitePhone: "01 84 60 12 34",
  siteFooterText: "© 2026 Maison Éclat. Tous droits réservés.",
  ...DEMO_LEGAL_IDENTITY,
  defaultCarrier: "colissimo" as Carrier,
  /** Days the content of a sent email is kept (services/email/retention.server.ts). */
  emailContentRetentionDays: 90,
};

/** The legal identity's fields the seller's identity on invoices did not have yet (legal form to mediator). */
function demoLegalMentions(): Omit<LegalIdentity, "legalName" | "siret" | "vatNumber"> {
  return Object.fromEntries(
    Object.entries(DEMO_LEGAL_IDENTITY).filter(([field]) => !["legalName", "siret", "vatNumber"].includes(field)),
  ) as Omit<LegalIdentity, "legalName" | "siret" | "vatNumber">;
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** The note of the demo data's invented past prices (services/price-history.server.ts shows it). */
export const DEMO_HISTORY_NOTE = "Historique de démonstration";

/**
 * The spec's three packs of product 1 (ids 1 to 3, which older carts, orders and subscriptions
 * name), once: when the product has no pack at all, on a new database as on an existing one.
 * Their price history is the demo's: the reference price charged from 60 days before seeding,
 * then the reduced price from seeding on, so each crossed-out price is the lowest price of the
 * 30 days before the reduction. The trial offer's end is set 9 hours ahead at the same time.
 * Returns whether it seeded.
 */
async function seedSpecPacks(db: DbOrTx, now = new Date()): Promise<boolean> {
  const [product] = await db
    .select({ id: schema.products.id })
    .from(schema.products)
    .where(eq(schema.products.id, SEED_PRODUCT.id));
  if (!product) return false;
  const [any] = await db
    .select({ id: schema.packs.id })
    .from(schema.packs)
    .where(eq(schema.packs.productId, SEED_PRODUCT.id))
    .limit(1);
  if (any) return false;
  for (const [index, pack] of SPEC_PACKS.entries()) {
    const id = index + 1;
    const [taken] = await db.select({ id: schema.packs.id }).from(schema.packs).where(eq(schema.packs.id, id));
    const [created] = await db
      .insert(schema.packs)
      .values({ ...pack, ...(taken ? {} : { id }), productId: SEED_PRODUCT.id, position: id, active: true })
      .returning({ id: schema.packs.id });
    await db.insert(schema.priceHistory).values([
      {
        packId: created.id,
        priceCents: pack.referencePriceCents,
        startedAt: new Date(now.getTime() - 60 * DAY_MS).toISOString(),
        note: DEMO_HISTORY_NOTE,
      },
      { packId: created.id, priceCents: pack.priceCents, startedAt: now.toISOString(), note: null },
    ]);
  }
  await db
    .update(schema.siteSettings)
    .set({ trialOfferEndsAt: new Date(now.getTime() + 9 * HOUR_MS).toISOString() })
    .where(isNull(schema.siteSettings.trialOfferEndsAt));
  return true;
}

/**
 * Idempotent: safe to run at every start. Never overwrites data an admin changed. Runs in one
 * transaction (`tx`): a start that fails half-way leaves nothing of it.
 */
export async function seed(tx: DbOrTx, options: { adminUsername: string; adminPassword: string }) {
  await tx.insert(schema.products).values(SEED_PRODUCT).onConflictDoNothing();
  await tx.insert(schema.siteSettings).values(DEFAULT_SETTINGS).onConflictDoNothing();
  // A database made before the seller's identity was kept gets the demo company's (never over an admin's).
  const { legalName, siret, vatNumber } = DEMO_LEGAL_IDENTITY;
  await tx.update(schema.siteSettings).set({ legalName, siret, vatNumber }).where(eq(schema.siteSettings.legalName, ""));
  // A demo database made before the rest of the legal identity was kept gets the demo company's, while it still is the demo company.
  await tx
    .update(schema.siteSettings)
    .set(demoLegalMentions())
    .where(
      and(
        eq(schema.siteSettings.legalName, DEMO_LEGAL_IDENTITY.legalName),
        eq(schema.siteSettings.hostName, ""),
        eq(schema.siteSettings.mediatorName, ""),
      ),
    );
  await seedSpecPacks(tx);
  const [admin] = await tx
    .select({ id: schema.users.id })
    .from(schema.users)
    .where(eq(schema.users.username, options.adminUsername));
  if (!admin) {
    await tx
      .insert(schema.users)
      .values({
        username: options.adminUsername,
        email: `${options.adminUsername}@maison-eclat.fr`,
        passwordHash: hashPasswordSync(options.adminPassword),
        firstName: "Administrateur",
        isAdmin: true,
        country: "France",
      })
      .onConflictDoNothing();
  }
}
