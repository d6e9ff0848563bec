import { ShopError } from "~/lib/shop-error";

/**
 * Keyset pagination: a page ends on a row, and the next page starts strictly after that row's
 * sort key (for example its date and id). A row written between two pages lands before the
 * first page or after the cursor, never twice and never skipped; and the database reads from
 * an index at the key instead of counting an offset.
 *
 * The cursor is that key, as opaque base64url text for the client.
 */
export type CursorKey = (string | number)[];

export const INVALID_CURSOR = "Curseur invalide : reprenez la valeur « nextCursor » de la page précédente.";

export function encodeCursor(key: CursorKey): string {
  return Buffer.from(JSON.stringify(key), "utf8").toString("base64url");
}

/** The key of a cursor whose values have these types, or a 422 `invalid_cursor`. */
export function decodeCursor(cursor: string, types: ("string" | "number")[]): CursorKey {
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    key = null;
  }
  if (
    !Array.isArray(key) ||
    key.length !== types.length ||
    key.some((value, i) => typeof value !== types[i] || (typeof value === "number" && !Number.isSafeInteger(value)))
  ) {
    throw new ShopError(422, "invalid_cursor", INVALID_CURSOR, { field: "cursor" });
  }
  return key as CursorKey;
}

/** A page read with `limit + 1` rows: the rows to show, and the next cursor when there are more. */
export function pageOf<T>(rows: T[], limit: number, keyOf: (row: T) => CursorKey) {
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? encodeCursor(keyOf(last)) : null };
}
