/** Gallery image chosen without JavaScript (?image=N); anything else means the first one. */
export function parseImageIndex(raw: string | null, count: number): number {
  if (raw === null || !/^[0-9]{1,2}$/.test(raw)) return 0;
  const index = Number(raw);
  return index < Math.max(count, 1) ? index : 0;
}
