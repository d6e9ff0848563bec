/**
 * The one helper for redirect targets coming from the browser (a `redirectTo` field or
 * parameter): only a path of this site ("/admin/orders?page=2"). Anything else gives the
 * fallback: other sites (//evil.example, /\evil.example, https://...), other schemes
 * (javascript:...), and control characters or backslashes, which some browsers drop or
 * turn into slashes ("/\t/evil.example" would become "//evil.example").
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback: string): string {
  if (typeof to !== "string" || to.length === 0 || to.length > 2000) return fallback;
  if (!to.startsWith("/") || to.startsWith("//") || to.startsWith("/\\")) return fallback;
  if (/[\p{Cc}\\]/u.test(to)) return fallback;
  try {
    const base = "http://shop.invalid";
    const url = new URL(to, base);
    if (url.origin !== base) return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
