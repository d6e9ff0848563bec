/** Product ids in URLs: a positive integer written plainly, at most 9 digits ("1", not "01", "1.5", "-1" or "1e3"). */
const PRODUCT_ID_PATTERN = /^[1-9][0-9]{0,8}$/;

export function parseProductId(raw: string | undefined | null): number | null {
  if (typeof raw !== "string" || !PRODUCT_ID_PATTERN.test(raw)) return null;
  return Number(raw);
}

/** Gallery image chosen without JavaScript (?image=N); anything else means the first one. */
export function parseImageIndex(raw: string | null, count: number): number {
  if (raw === null || !/^[0-9]{1,2}$/.test(raw)) return 0;
  const index = Number(raw);
  return index < Math.max(count, 1) ? index : 0;
}
