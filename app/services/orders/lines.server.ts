import { eq } from "drizzle-orm";
import type { DbOrTx } from "~/db/client.server";
import { products } from "~/db/schema";
import { centsToDecimal } from "~/lib/money";
import type { ShopIssue } from "~/lib/shop-error";
import { SHIPPING_CENTS } from "~/services/cart.server";
import {
  MAX_ORDER_LINES,
  PACK_MESSAGES,
  quantityRefusal,
  SELLABLE_PRODUCT_COLUMNS,
  sellableItem,
  trialRefusal,
} from "~/services/packs.server";
import { OrderError } from "./errors.server";

/**
 * An order's lines: priced from the packs as they are now, the amounts a client sent checked
 * against them, and the trial pack's rule (once per email).
 */

export type OrderLineInput = {
  productId: number;
  packId?: number | null;
  variantName?: string | null;
  /** The unit price the client expects, in cents: names the pack when it is exactly one pack's price. */
  price?: number | null;
  quantity: number;
};

export type PricedLine = {
  productId: number;
  packId: number | null;
  quantity: number;
  unitPriceCents: number;
  productName: string;
  variantName: string | null;
};

/**
 * Prices lines from the packs as they are now (never from what the client sent): one line,
 * naming one of the product's active packs (or none, for a product sold as a single item), in
 * a quantity the pack allows. The order items keep this name and price: a later change of the
 * pack changes no order. `path` prefixes the refusals' fields ("items").
 */
export async function priceOrderLines(db: DbOrTx, lines: OrderLineInput[], path = "items"): Promise<PricedLine[]> {
  if (lines.length === 0) throw new OrderError("empty_cart", "La commande doit contenir au moins un article.", { field: path });
  if (lines.length > MAX_ORDER_LINES) throw new OrderError("too_many_lines", PACK_MESSAGES.oneLine(), { field: path });
  const priced: PricedLine[] = [];
  for (const [index, line] of lines.entries()) {
    const [product] = await db.select(SELLABLE_PRODUCT_COLUMNS).from(products).where(eq(products.id, line.productId)).limit(1);
    if (!product)
      throw new OrderError("product_not_found", `Produit ${line.productId} introuvable`, { field: `${path}.${index}.productId` });
    if (product.stock <= 0)
      throw new OrderError("out_of_stock", `Le produit « ${product.name} » est en rupture de stock`, {
        field: `${path}.${index}.productId`,
      });
    const sale = await sellableItem(product, { packId: line.packId, variantName: line.variantName, priceCents: line.price }, db);
    if ("refusal" in sale) throw new OrderError(sale.refusal, sale.message, { field: `${path}.${index}` });
    const refusal = await quantityRefusal(sale.item, line.quantity, db);
    if (refusal) throw new OrderError("quantity_limit", refusal, { field: `${path}.${index}.quantity` });
    priced.push({
      productId: product.id,
      packId: sale.item.pack?.id ?? null,
      quantity: line.quantity,
      unitPriceCents: sale.item.priceCents,
      productName: product.name,
      variantName: sale.item.name,
    });
  }
  return priced;
}

export const subtotalOf = (lines: PricedLine[]) => lines.reduce((sum, l) => sum + l.unitPriceCents * l.quantity, 0);

/**
 * The amounts a client sent are checked, never used: a unit price or a total that is not the
 * server's is refused with the expected amounts (one issue each).
 */
export function assertClientAmounts(input: { items: { price?: number | null }[]; total?: number | null }, lines: PricedLine[]) {
  const issues: ShopIssue[] = [];
  input.items.forEach((item, index) => {
    const expected = lines[index]?.unitPriceCents;
    if (item.price != null && expected !== undefined && item.price !== expected) {
      issues.push({ path: `items.${index}.price`, message: `Prix attendu : ${centsToDecimal(expected)}` });
    }
  });
  const total = subtotalOf(lines) + SHIPPING_CENTS;
  if (input.total != null && input.total !== total)
    issues.push({ path: "total", message: `Total attendu : ${centsToDecimal(total)}` });
  if (issues.length) {
    throw new OrderError(
      "price_mismatch",
      "Les montants envoyés ne sont pas ceux de la boutique : les montants attendus sont indiqués.",
      { issues },
    );
  }
}

/** Refuses the trial pack for an email that already bought it. */
export async function assertTrialAvailable(
  db: DbOrTx,
  email: string | null,
  lines: { packId: number | null }[],
  orderId?: number,
  field = "customerEmail",
) {
  const refusal = await trialRefusal(db, { email, lines, orderId });
  if (refusal) throw new OrderError("trial_used", refusal, { field });
}
