import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import stylesheetUrl from "~/tailwind.css";

type InlineStylesheet = { css: string; source: string };

let cached: { url: string; stylesheet: InlineStylesheet } | undefined;

/**
 * The shop's stylesheet (Tailwind's output, about 8 kB gzip), inlined in every page's head so
 * that no request stands between the page and its first paint. `source` is the Content-Security-
 * Policy source that allows it, its sha256 hash: no 'unsafe-inline', and the same for every page,
 * the pages of the page cache included. Read once from public/ (served from there like the other
 * files, server/app.js): a build's stylesheet never changes, its name carries its content's hash.
 */
export function inlineStylesheet(): InlineStylesheet {
  if (cached?.url !== stylesheetUrl) {
    const css = readFileSync(path.join("public", stylesheetUrl), "utf8");
    const source = `'sha256-${createHash("sha256").update(css, "utf8").digest("base64")}'`;
    cached = { url: stylesheetUrl, stylesheet: { css, source } };
  }
  return cached.stylesheet;
}
