import { z } from "zod";
import { parsePriceToCents } from "~/lib/money";
import { SALE_WITHOUT_PACK } from "~/lib/packs";
import { safeText } from "./text";

/** A price typed in euros, "25,90" or "25.90" (a trailing € is tolerated), turned into cents. */
function priceField(label: string) {
  return safeText({ error: `${label} est requis.` })
    .trim()
    .min(1, `${label} est requis.`)
    .transform((value, ctx) => {
      const cents = parsePriceToCents(value);
      if (cents === null) {
        ctx.addIssue({ code: "custom", message: `${label} doit être un montant en euros, par exemple 25,90.` });
        return z.NEVER;
      }
      return cents;
    });
}

/** An optional price in euros: empty means none (null). */
function optionalPriceField(message: string) {
  return safeText()
    .trim()
    .optional()
    .transform((value, ctx) => {
      if (!value) return null;
      const cents = parsePriceToCents(value);
      if (cents === null) {
        ctx.addIssue({ code: "custom", message });
        return z.NEVER;
      }
      return cents;
    });
}

/** A yes/no value: a checkbox ("on"), a select ("true"/"false") or a JSON boolean; absent means `absent`. */
function flag(absent: boolean) {
  return z
    .union([z.boolean(), z.enum(["on", "true", "false"], { error: "Valeur attendue : oui ou non." })])
    .optional()
    .transform((value) => (value === undefined ? absent : value === true || value === "on" || value === "true"));
}

const wholeNumber = (message: string, min: number, max: number) =>
  z.coerce.number({ error: message }).int(message).min(min, message).max(max, message);

/** One pack of the product form (and of PUT /api/products/{id}): an existing one names its `id`. */
export const packSchema = z
  .object({
    id: z.coerce.number().int().positive().optional(),
    name: safeText({ error: "Le nom du pack est requis." })
      .trim()
      .min(2, "Le nom du pack doit contenir au moins 2 caractères.")
      .max(80, "Le nom du pack ne doit pas dépasser 80 caractères."),
    description: safeText({ multiline: true })
      .trim()
      .max(300, "La description du pack ne doit pas dépasser 300 caractères.")
      .optional()
      .default(""),
    masks: wholeNumber("Le nombre de masques doit être un nombre entier entre 1 et 100.", 1, 100),
    price: priceField("Le prix du pack"),
    referencePrice: optionalPriceField("Le prix de référence doit être un montant en euros, par exemple 31,80."),
    popular: flag(false),
    trial: flag(false),
    position: wholeNumber("L'ordre doit être un nombre entier entre 0 et 999.", 0, 999).optional().default(0),
    active: flag(true),
  })
  .superRefine((value, ctx) => {
    if (value.price <= 0)
      ctx.addIssue({ code: "custom", path: ["price"], message: "Le prix du pack doit être supérieur à 0,00€." });
    if (value.referencePrice !== null && value.referencePrice <= value.price) {
      ctx.addIssue({
        code: "custom",
        path: ["referencePrice"],
        message: "Le prix de référence doit être supérieur au prix du pack, ou laissé vide.",
      });
    }
  });

export type PackInput = z.output<typeof packSchema>;

/** A row of the form left entirely blank (the "new pack" row): not a pack. */
function isBlankRow(row: unknown) {
  if (row === undefined || row === null) return true;
  if (typeof row !== "object") return false;
  const r = row as Record<string, unknown>;
  return ["name", "price", "masks", "referencePrice", "description"].every((k) => r[k] === undefined || r[k] === "");
}

const packsField = z
  .preprocess(
    (value) => (Array.isArray(value) ? value.filter((row) => !isBlankRow(row)) : value),
    z.array(packSchema, { error: "La liste des packs est invalide." }).max(12, "12 packs au maximum par produit."),
  )
  .optional()
  .default([])
  .superRefine((list, ctx) => {
    const seen = new Map<string, number>();
    list.forEach((pack, index) => {
      const key = pack.name.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({
          code: "custom",
          path: [index, "name"],
          message: "Deux packs de ce produit portent déjà ce nom : choisissez un nom unique.",
        });
      seen.set(key, index);
    });
    const trials = list.map((p, i) => (p.trial && p.active ? i : -1)).filter((i) => i >= 0);
    if (trials.length > 1) {
      ctx.addIssue({ code: "custom", path: [trials[1], "trial"], message: "Un seul pack d'essai en vente par produit." });
    }
  });

/** One image per line: a path of the site (/images/...) or an https:// address. */
export function isAcceptableImageUrl(value: string) {
  if (/^\/(?![/\\])[A-Za-z0-9._~%/-]+$/.test(value)) return !value.includes("..");
  try {
    const url = new URL(value);
    return url.protocol === "https:" && url.hostname.includes(".") && !url.username && !url.password;
  } catch {
    return false;
  }
}

const imagesField = safeText({ multiline: true })
  .max(5000, "La liste d'images est trop longue.")
  .optional()
  .transform((value, ctx) => {
    const lines = (value ?? "")
      .split(/\r?\n/)
      .map((l) => l.trim())
      .filter(Boolean);
    if (lines.length > 10) {
      ctx.addIssue({ code: "custom", message: "10 images au maximum." });
      return z.NEVER;
    }
    const bad = lines.find((l) => !isAcceptableImageUrl(l));
    if (bad) {
      ctx.addIssue({
        code: "custom",
        message: `Adresse d'image invalide : « ${bad.slice(0, 80)} ». Utilisez un chemin du site (/images/...) ou une adresse https://.`,
      });
      return z.NEVER;
    }
    return lines;
  });

/** The product form of /admin/products/new and /admin/products/edit/{id}. */
export const productSchema = z
  .object({
    name: safeText({ error: "Le nom du produit est requis." })
      .trim()
      .min(2, "Le nom du produit doit contenir au moins 2 caractères.")
      .max(120, "Le nom du produit ne doit pas dépasser 120 caractères."),
    sku: safeText({ error: "Le SKU est requis." })
      .trim()
      .min(2, "Le SKU doit contenir au moins 2 caractères.")
      .max(40, "Le SKU ne doit pas dépasser 40 caractères.")
      .regex(/^[A-Za-z0-9._-]+$/, "Le SKU ne doit contenir que des lettres, des chiffres et . _ -"),
    price: priceField("Le prix"),
    originalPrice: safeText()
      .trim()
      .optional()
      .transform((value, ctx) => {
        if (!value) return null;
        const cents = parsePriceToCents(value);
        if (cents === null) {
          ctx.addIssue({ code: "custom", message: "Le prix barré doit être un montant en euros, par exemple 31,80." });
          return z.NEVER;
        }
        return cents;
      }),
    category: safeText().trim().max(60, "La catégorie ne doit pas dépasser 60 caractères.").optional().default(""),
    description: safeText({ multiline: true })
      .trim()
      .max(2000, "La description ne doit pas dépasser 2000 caractères.")
      .optional()
      .default(""),
    stock: z
      .number({ error: "Le stock doit être un nombre entier positif ou nul." })
      .int("Le stock doit être un nombre entier positif ou nul.")
      .min(0, "Le stock doit être un nombre entier positif ou nul.")
      .max(1_000_000, "Le stock ne doit pas dépasser 1 000 000."),
    images: imagesField,
    saleWithoutPack: z
      .enum(SALE_WITHOUT_PACK, { error: "Choisissez comment le produit est vendu sans pack." })
      .optional()
      .default("unit"),
    packs: packsField,
  })
  .superRefine((value, ctx) => {
    if (value.price <= 0) {
      ctx.addIssue({ code: "custom", path: ["price"], message: "Le prix doit être supérieur à 0,00€." });
    }
    if (value.originalPrice !== null && value.originalPrice < value.price) {
      ctx.addIssue({ code: "custom", path: ["originalPrice"], message: "Le prix barré doit être supérieur ou égal au prix." });
    }
  });

/** The catalogue's fields from the product form's values (prices in cents under their catalogue names), and its packs. */
export function productFields({ price, originalPrice, packs, ...rest }: z.output<typeof productSchema>) {
  return { fields: { ...rest, priceCents: price, originalPriceCents: originalPrice }, packs };
}
