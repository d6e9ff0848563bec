import { z } from "zod";
import { parsePriceToCents } from "~/lib/money";
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
    description: safeText({ multiline: true }).trim().max(2000, "La description ne doit pas dépasser 2000 caractères.").optional().default(""),
    stock: z
      .number({ error: "Le stock doit être un nombre entier positif ou nul." })
      .int("Le stock doit être un nombre entier positif ou nul.")
      .min(0, "Le stock doit être un nombre entier positif ou nul.")
      .max(1_000_000, "Le stock ne doit pas dépasser 1 000 000."),
    images: imagesField,
  })
  .superRefine((value, ctx) => {
    if (value.price <= 0) {
      ctx.addIssue({ code: "custom", path: ["price"], message: "Le prix doit être supérieur à 0,00€." });
    }
    if (value.originalPrice !== null && value.originalPrice < value.price) {
      ctx.addIssue({ code: "custom", path: ["originalPrice"], message: "Le prix barré doit être supérieur ou égal au prix." });
    }
  });

/** The catalogue's fields from the product form's values (prices in cents under their catalogue names). */
export function productFields({ price, originalPrice, ...rest }: z.output<typeof productSchema>) {
  return { ...rest, priceCents: price, originalPriceCents: originalPrice };
}
