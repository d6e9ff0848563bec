import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { mkdir, rename, rm } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip } from "node:zlib";
import Database from "better-sqlite3";
import pg from "pg";
import { getConfig } from "~/config.server";
import { redactDatabaseUrl, type DatabaseTarget } from "~/db/database-url";
import { BackupError } from "./errors.server";
import { backupFileName, readChecksum, sha256Of } from "./files.server";
import { connection, runPostgresProgram } from "./programs.server";

/**
 * Puts a snapshot of createBackup() back in place of the shop's database, after checking it:
 *
 * 1. its SHA-256 must match the one written beside it;
 * 2. SQLite: once uncompressed, `PRAGMA integrity_check` must answer ok and the file must hold
 *    the shop's tables; PostgreSQL: `pg_restore --list` must read the archive;
 * 3. no shop process may be using the database (see inUse below): it is refused otherwise;
 * 4. the current database is kept aside first, so that the restore can be undone: SQLite, the
 *    file renamed `shop.db.before-restore-<date>` beside it; PostgreSQL, a pg_dump of it in
 *    BACKUP_DIR, `before-restore-<date>.pgdump`;
 * 5. SQLite: the checked copy is renamed onto the database's path (one atomic step);
 *    PostgreSQL: `pg_restore --clean --single-transaction` replaces the tables' contents in one
 *    transaction.
 */

export type RestoreOptions = { database?: DatabaseTarget; dir?: string; now?: Date };

export type RestoreResult = {
  /** Where the database was before (null: there was none). */
  keptAside: string | null;
  sha256: string;
};

export async function restoreBackup(file: string, options: RestoreOptions = {}): Promise<RestoreResult> {
  const config = getConfig();
  const database = options.database ?? config.database;
  const now = options.now ?? new Date();
  const source = path.resolve(file);
  if (!existsSync(source)) throw new BackupError(`Fichier introuvable : ${source}`);
  const expected = await readChecksum(source);
  if (!expected) {
    throw new BackupError(
      `Somme de contrôle absente ou illisible : ${source}.sha256 doit accompagner la sauvegarde. Rien n'a été restauré.`,
    );
  }
  const actual = await sha256Of(source);
  if (actual !== expected) {
    throw new BackupError(
      `La somme de contrôle SHA-256 ne correspond pas (attendue ${expected}, calculée ${actual}) : le fichier est abîmé ou incomplet. Rien n'a été restauré.`,
    );
  }
  if (database.dialect === "sqlite") {
    if (database.path === ":memory:")
      throw new BackupError("DATABASE_URL désigne une base en mémoire (:memory:) : rien à restaurer.");
    return { keptAside: await restoreSqlite(source, path.resolve(database.path), now), sha256: actual };
  }
  return { keptAside: await restorePostgres(source, database.url, options.dir ?? config.backups.dir, now), sha256: actual };
}

const stamp = (now: Date) => now.toISOString().replace(/:/g, "-").replace(".", "-");

async function restoreSqlite(source: string, target: string, now: Date): Promise<string | null> {
  if (!source.endsWith(".db.gz")) {
    throw new BackupError("La base est SQLite : attendu une sauvegarde SQLite compressée (shop-….db.gz). Rien n'a été restauré.");
  }
  await mkdir(path.dirname(target), { recursive: true });
  // Uncompressed beside the database, so that putting it in place is one rename.
  const checked = path.join(path.dirname(target), `.restore-${stamp(now)}.db`);
  try {
    try {
      await pipeline(createReadStream(source), createGunzip(), createWriteStream(checked));
    } catch (error) {
      throw new BackupError(`La sauvegarde ne se décompresse pas (${(error as Error).message}). Rien n'a été restauré.`);
    }
    checkSqlite(checked);
    let keptAside: string | null = null;
    if (existsSync(target)) {
      // Refused while a shop process has the file open; otherwise its WAL is folded into it, and it is kept aside.
      const lock = lockUnused(target);
      try {
        lock.pragma("wal_checkpoint(TRUNCATE)");
        keptAside = `${target}.before-restore-${stamp(now)}`;
        await rename(target, keptAside);
      } finally {
        lock.close();
      }
    }
    // A WAL left by the old file must never be applied to the restored one.
    await rm(`${target}-wal`, { force: true });
    await rm(`${target}-shm`, { force: true });
    await rename(checked, target);
    return keptAside;
  } finally {
    await rm(checked, { force: true });
  }
}

/** integrity_check must answer "ok", and the shop's tables must be there. */
function checkSqlite(file: string) {
  let db: Database.Database;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true });
  } catch (error) {
    throw new BackupError(
      `La sauvegarde n'est pas une base SQLite lisible (${(error as Error).message}). Rien n'a été restauré.`,
    );
  }
  try {
    const rows = db.pragma("integrity_check") as Array<{ integrity_check: string }>;
    if (rows.length !== 1 || rows[0].integrity_check !== "ok") {
      const found = rows
        .slice(0, 5)
        .map((r) => r.integrity_check)
        .join(" ; ");
      throw new BackupError(`PRAGMA integrity_check a trouvé des erreurs : ${found}. Rien n'a été restauré.`);
    }
    const orders = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'orders'").get();
    if (!orders)
      throw new BackupError("Ce fichier n'est pas une base de la boutique (aucune table orders). Rien n'a été restauré.");
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(
      `La sauvegarde n'est pas une base SQLite lisible (${(error as Error).message}). Rien n'a été restauré.`,
    );
  } finally {
    db.close();
  }
}

/**
 * The database file, locked for this process alone, or a refusal when a shop process uses it.
 * Every shop process keeps its connection open as long as it runs (WAL mode), and an open WAL
 * connection holds a shared lock: an EXCLUSIVE locking mode is then refused at once
 * (busy_timeout 0), even while that shop is idle. Once taken, no shop can open the file until
 * this connection closes, after the old file has been moved aside.
 */
export function lockUnused(file: string): Database.Database {
  const db = new Database(file, { fileMustExist: true });
  try {
    db.pragma("busy_timeout = 0");
    db.pragma("locking_mode = EXCLUSIVE");
    db.exec("BEGIN EXCLUSIVE");
    db.exec("COMMIT");
    return db;
  } catch (error) {
    db.close();
    if ((error as { code?: string }).code?.startsWith("SQLITE_BUSY")) {
      throw new BackupError(
        `La base ${file} est utilisée par un processus de la boutique : arrêtez la boutique (tous ses processus) avant de restaurer. Rien n'a été restauré.`,
      );
    }
    throw error;
  }
}

async function restorePostgres(source: string, url: string, dir: string, now: Date): Promise<string> {
  if (!source.endsWith(".pgdump")) {
    throw new BackupError("La base est PostgreSQL : attendu une sauvegarde pg_dump (shop-….pgdump). Rien n'a été restauré.");
  }
  // The archive must be readable before anything is touched.
  await runPostgresProgram("pg_restore", ["--list", source]).catch((error: Error) => {
    throw new BackupError(`${error.message} Rien n'a été restauré.`);
  });
  await refuseWhileConnected(url);
  const { dbname, env } = connection(url);
  await mkdir(dir, { recursive: true });
  const keptAside = path.join(dir, `before-restore-${backupFileName(now, "postgresql").slice("shop-".length)}`);
  await runPostgresProgram(
    "pg_dump",
    ["--format=custom", "--no-owner", "--no-privileges", `--file=${keptAside}`, `--dbname=${dbname}`],
    env,
  );
  await runPostgresProgram(
    "pg_restore",
    [
      "--clean",
      "--if-exists",
      "--no-owner",
      "--no-privileges",
      "--single-transaction",
      "--exit-on-error",
      `--dbname=${dbname}`,
      source,
    ],
    env,
  );
  return keptAside;
}

/**
 * Refused while another session is connected to the shop's database (pg_stat_activity): every
 * shop process keeps a pool of connections open as long as it runs.
 */
async function refuseWhileConnected(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect().catch((error: Error) => {
    throw new BackupError(`Connexion à PostgreSQL impossible (${redactDatabaseUrl(url)}) : ${error.message}`);
  });
  try {
    const { rows } = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    if (rows[0].n > 0) {
      throw new BackupError(
        `La base ${redactDatabaseUrl(url)} a ${rows[0].n} autre(s) connexion(s) : arrêtez la boutique (tous ses processus) avant de restaurer. Rien n'a été restauré.`,
      );
    }
  } finally {
    await client.end();
  }
}
