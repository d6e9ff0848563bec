// @ts-check
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

/**
 * `npm run db:backup` and `npm run db:restore -- FICHIER`: the backup commands of the shop
 * (app/services/backups), run from its build, as the server is: `node server/database-backup.js
 * backup|restore [FICHIER]`. The build is build/ (or SHOP_BUILD_NAME's folder, as for vite.config.ts);
 * the database is DATABASE_URL's, as for the server.
 */
const [command = "", ...args] = process.argv.slice(2);
const buildPath = path.resolve(process.env.SHOP_BUILD_NAME || "build", "server", "index.js");
if (!existsSync(buildPath)) {
  console.error(`Build de la boutique introuvable (${buildPath}) : lancez d'abord npm run build.`);
  process.exit(1);
}
const build = await import(pathToFileURL(buildPath).href);
/** @type {{ runDatabaseCommand(command: string, args: string[]): Promise<number> }} */
const shop = build.entry.module;
process.exit(await shop.runDatabaseCommand(command, args));
