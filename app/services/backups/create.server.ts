import { createReadStream, createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { Worker } from "node:worker_threads";
import { createGzip } from "node:zlib";
import { getConfig } from "~/config.server";
import type { DatabaseTarget } from "~/db/database-url";
import { BackupError } from "./errors.server";
import { backupFileName, pruneBackups, sha256Of, type BackupFile } from "./files.server";
import { connection, runPostgresProgram } from "./programs.server";

/**
 * A consistent snapshot of the shop's database, taken while the shop runs and takes orders:
 *
 * - SQLite: `VACUUM INTO` on a connection of its own, in a worker thread (the shop's requests
 *   go on meanwhile). It reads one transaction's view of the file, whatever the other processes
 *   write during the copy, and writes a compact copy; never a copy of the file itself, which
 *   could catch a page half written or miss what the WAL still holds. The copy is then
 *   gzip-compressed.
 * - PostgreSQL: `pg_dump --format=custom` (compressed, one transaction's view).
 *
 * The snapshot holds every transaction committed before `at` (the time in its name). Its SHA-256
 * is written beside it, last; then the snapshots past BACKUP_KEEP are deleted.
 */

export type BackupOptions = {
  /** The database: DATABASE_URL by default. */
  database?: DatabaseTarget;
  /** BACKUP_DIR by default. */
  dir?: string;
  /** BACKUP_KEEP by default. */
  keep?: number;
};

export type BackupResult = BackupFile & { durationMs: number; deleted: string[] };

export async function createBackup(options: BackupOptions = {}): Promise<BackupResult> {
  const config = getConfig();
  const database = options.database ?? config.database;
  const dir = options.dir ?? config.backups.dir;
  const keep = options.keep ?? config.backups.keep;
  if (database.dialect === "sqlite" && database.path === ":memory:") {
    throw new BackupError("DATABASE_URL désigne une base en mémoire (:memory:) : il n'y a aucun fichier à sauvegarder.");
  }
  await mkdir(dir, { recursive: true });
  const started = performance.now();
  const at = new Date();
  const file = path.join(dir, backupFileName(at, database.dialect));
  const partial = `${file}.partial`;
  try {
    if (database.dialect === "sqlite") await snapshotSqlite(path.resolve(database.path), partial);
    else await dumpPostgres(database.url, partial);
    const sha256 = await sha256Of(partial);
    await rename(partial, file);
    const { size } = await stat(file);
    await writeFile(`${file}.sha256`, `${sha256}  ${path.basename(file)}\n`);
    const deleted = await pruneBackups(dir, keep);
    return { at, file, sha256, sizeBytes: size, durationMs: performance.now() - started, deleted };
  } catch (error) {
    await rm(partial, { force: true });
    await rm(file, { force: true });
    throw error;
  }
}

/** VACUUM INTO a temporary file beside `target`, in a worker thread, then gzip it into `target`. */
async function snapshotSqlite(source: string, target: string) {
  const copy = `${target}.db`;
  await rm(copy, { force: true });
  try {
    await vacuumInto(source, copy);
    await pipeline(createReadStream(copy), createGzip({ level: 6 }), createWriteStream(target));
  } finally {
    await rm(copy, { force: true });
  }
}

/** The worker's code: its own connection, read-only, waiting up to 5 s for a writer's lock. */
const VACUUM_WORKER = `
const { workerData } = require("node:worker_threads");
const Database = require(workerData.driver);
const db = new Database(workerData.source, { readonly: true, fileMustExist: true });
try {
  db.pragma("busy_timeout = 5000");
  db.prepare("VACUUM INTO ?").run(workerData.target);
} finally {
  db.close();
}
`;

function vacuumInto(source: string, target: string): Promise<void> {
  const driver = createRequire(import.meta.url).resolve("better-sqlite3");
  return new Promise((resolve, reject) => {
    const worker = new Worker(VACUUM_WORKER, { eval: true, workerData: { driver, source, target } });
    let failed: unknown;
    worker.on("error", (error) => (failed = error));
    worker.on("exit", (code) => {
      if (failed || code !== 0) {
        const reason = failed instanceof Error ? failed.message : `code ${code}`;
        reject(new BackupError(`La copie de la base SQLite (${source}) a échoué : ${reason}`));
      } else resolve();
    });
  });
}

async function dumpPostgres(url: string, target: string) {
  const { dbname, env } = connection(url);
  await runPostgresProgram(
    "pg_dump",
    ["--format=custom", "--no-owner", "--no-privileges", `--file=${target}`, `--dbname=${dbname}`],
    env,
  );
}
