import { createHash } from "node:crypto";
import css from "~/tailwind.css?inline";

type InlineStylesheet = { css: string; source: string };

let cached: InlineStylesheet | undefined;

/**
 * The shop's stylesheet (Tailwind's output, about 8 kB gzip), inlined in every page's head so
 * that no request stands between the page and its first paint. `source` is the Content-Security-
 * Policy source that allows it, its sha256 hash: no 'unsafe-inline', and the same for every page,
 * the pages of the page cache included. The build puts the processed, minified stylesheet in the
 * server's bundle (`?inline`): there is no stylesheet file to read, nor any request for one.
 */
export function inlineStylesheet(): InlineStylesheet {
  cached ??= { css, source: `'sha256-${createHash("sha256").update(css, "utf8").digest("base64")}'` };
  return cached;
}
