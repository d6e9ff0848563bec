import { eq } from "drizzle-orm";
import type { BetterSQLite3Database } from "drizzle-orm/better-sqlite3";
import type { Carrier } from "~/lib/carriers";
import { COMPANY } from "~/lib/company";
import { hashPasswordSync } from "~/lib/passwords.server";
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

export const DEFAULT_SETTINGS = {
  id: 1,
  siteName: "Maison Éclat",
  siteEmail: "contact@maison-eclat.fr",
  siteDescription: "Masques au collagène pour une peau hydratée, lumineuse et ferme, conçus en France.",
  siteAddress: "12 rue des Lilas\n75011 Paris\nFrance",
  sitePhone: "01 84 60 12 34",
  siteFooterText: "© 2026 Maison Éclat. Tous droits réservés.",
  ...demoSellerIdentity(),
  defaultCarrier: "colissimo" as Carrier,
};

/**
 * The seller's identity on invoices: the demo company of the legal texts (lib/company.ts), a
 * fictitious one. A real shop replaces it in the settings before its first sale.
 */
function demoSellerIdentity(): { legalName: string; siret: string; vatNumber: string } {
  return { legalName: COMPANY.legalName, siret: `${COMPANY.siren} 00017`, vatNumber: COMPANY.vatNumber.replace(/\s+/g, "") };
}

/** Idempotent: safe to run at every start. Never overwrites data an admin changed. */
export function seed(
  db: BetterSQLite3Database<typeof schema>,
  options: { adminUsername: string; adminPassword: string },
) {
  db.insert(schema.products).values(SEED_PRODUCT).onConflictDoNothing().run();
  db.insert(schema.siteSettings).values(DEFAULT_SETTINGS).onConflictDoNothing().run();
  // A database made before the seller's identity was kept gets the demo company's (never over an admin's).
  db.update(schema.siteSettings).set(demoSellerIdentity()).where(eq(schema.siteSettings.legalName, "")).run();
  const admin = db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.username, options.adminUsername)).get();
  if (!admin) {
    db.insert(schema.users)
      .values({
        username: options.adminUsername,
        email: `${options.adminUsername}@maison-eclat.fr`,
        passwordHash: hashPasswordSync(options.adminPassword),
        firstName: "Administrateur",
        isAdmin: true,
        country: "France",
      })
      .onConflictDoNothing()
      .run();
  }
}
