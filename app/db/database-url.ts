import { fileURLToPath } from "node:url";

/**
 * Where the shop's data lives, from DATABASE_URL:
 * - a SQLite file: a path (`./data/shop.db`, `/var/lib/shop/shop.db`), a `file:` URL
 *   (`file:./data/shop.db`, `file:///var/lib/shop/shop.db`) or `:memory:`;
 * - a PostgreSQL database: `postgres://…` or `postgresql://…`.
 * Any other scheme is refused: a typo (`postgress://`) must not become a SQLite file in a
 * folder named after it.
 */
export type DatabaseTarget = { dialect: "sqlite"; path: string } | { dialect: "postgresql"; url: string };

export const ACCEPTED_DATABASE_URLS =
  "un chemin de fichier SQLite (./data/shop.db), une URL file: (file:./data/shop.db, file:///var/lib/boutique/shop.db) " +
  "ou une URL PostgreSQL (postgres://utilisateur:motdepasse@hôte:5432/base ou postgresql://…)";

/** A DATABASE_URL the shop cannot use; its message is meant for the person starting the shop. */
export class DatabaseUrlError extends Error {
  override name = "DatabaseUrlError";
}

/** A URL scheme: two characters at least, so that a Windows drive (C:\…) stays a path. */
const SCHEME = /^([a-z][a-z0-9+.-]+):/i;

export function parseDatabaseUrl(value: string): DatabaseTarget {
  const url = value.trim();
  if (url === "") throw new DatabaseUrlError(`DATABASE_URL est vide. Formes acceptées : ${ACCEPTED_DATABASE_URLS}.`);
  if (url === ":memory:") return { dialect: "sqlite", path: url };
  const scheme = SCHEME.exec(url)?.[1].toLowerCase();
  if (scheme === undefined) return { dialect: "sqlite", path: url };
  if (scheme === "file") return { dialect: "sqlite", path: filePath(url) };
  if (scheme === "postgres" || scheme === "postgresql") {
    if (!URL.canParse(url)) {
      throw new DatabaseUrlError(
        `DATABASE_URL n'est pas une URL PostgreSQL valide. Forme attendue : postgres://utilisateur:motdepasse@hôte:5432/base.`,
      );
    }
    return { dialect: "postgresql", url };
  }
  throw new DatabaseUrlError(
    `DATABASE_URL : le schéma « ${scheme}: » n'est pas pris en charge. Formes acceptées : ${ACCEPTED_DATABASE_URLS}. ` +
      "Pour un fichier dont le nom contient « : », écrivez-le ./nom ou file:nom.",
  );
}

/** `file:///abs/shop.db` (percent-decoded) or `file:relative/shop.db`. */
function filePath(url: string): string {
  if (/^file:\/\//i.test(url)) {
    try {
      return fileURLToPath(url);
    } catch {
      throw new DatabaseUrlError(
        `DATABASE_URL n'est pas une URL file: valide : écrivez file:///chemin/absolu/shop.db ou file:./chemin/relatif.db.`,
      );
    }
  }
  const path = url.slice("file:".length);
  if (path === "")
    throw new DatabaseUrlError(
      `DATABASE_URL : l'URL file: ne nomme aucun fichier. Formes acceptées : ${ACCEPTED_DATABASE_URLS}.`,
    );
  return path;
}

/** The URL without its password, to name a PostgreSQL database in messages. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^@/]*@/, "//***@");
  }
}
