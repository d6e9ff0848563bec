import { spawn } from "node:child_process";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { getConfig } from "~/config.server";
import type { DatabaseTarget } from "~/db/database-url";
import { BackupError } from "./errors.server";
import { backupFileName, pruneBackups, sha256Of, type BackupFile } from "./files.server";
import { connection, runPostgresProgram } from "./programs.server";

/**
 * A consistent snapshot of the shop's database, taken while the shop runs and takes orders:
 *
 * - SQLite: `VACUUM INTO` on a connection of its own, in a `node` process of its own (the shop's
 *   requests go on meanwhile). It reads one transaction's view of the file, whatever the other processes
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
    let sha256: string;
    if (database.dialect === "sqlite") sha256 = await snapshotSqlite(path.resolve(database.path), partial);
    else {
      await dumpPostgres(database.url, partial);
      sha256 = await sha256Of(partial);
    }
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

/**
 * VACUUM INTO a temporary file beside `target`, then gzip it into `target`, in a `node` process
 * of its own: the shop's requests go on meanwhile, and what the copy needed (SQLite's pages, the
 * compressor's buffers, a whole database read twice) goes back to the system when that process
 * ends. In a thread of the shop's process it stayed there: 30 to 60 MB more for the process's
 * whole life after the first snapshot of a 350 MB database, which the scheduler takes at start.
 * Gives the SHA-256 of the compressed file.
 */
async function snapshotSqlite(source: string, target: string): Promise<string> {
  const copy = `${target}.db`;
  await rm(copy, { force: true });
  try {
    const driver = createRequire(import.meta.url).resolve("better-sqlite3");
    const output = await runSnapshotProgram(source, { driver, source, copy, target });
    const sha256 = /^([0-9a-f]{64})$/m.exec(output)?.[1];
    if (!sha256) throw new BackupError(`La copie de la base SQLite (${source}) n'a pas donné sa somme de contrôle.`);
    return sha256;
  } finally {
    await rm(copy, { force: true });
  }
}

/**
 * The snapshot process's program: its own connection, read-only, waiting up to 5 s for a
 * writer's lock; the copy compressed and hashed in one pass; the SHA-256 on its output.
 */
const SNAPSHOT_PROGRAM = `
const { createHash } = require("node:crypto");
const { createReadStream, createWriteStream } = require("node:fs");
const { Transform } = require("node:stream");
const { pipeline } = require("node:stream/promises");
const { createGzip } = require("node:zlib");
const job = JSON.parse(process.argv[1]);
const Database = require(job.driver);
const db = new Database(job.source, { readonly: true, fileMustExist: true });
try {
  db.pragma("busy_timeout = 5000");
  db.prepare("VACUUM INTO ?").run(job.copy);
} finally {
  db.close();
}
const hash = createHash("sha256");
const hashing = new Transform({
  transform(chunk, _encoding, done) {
    hash.update(chunk);
    done(null, chunk);
  },
});
pipeline(createReadStream(job.copy), createGzip({ level: 6 }), hashing, createWriteStream(job.target)).then(
  () => process.stdout.write(hash.digest("hex") + "\\n"),
  (error) => {
    process.stderr.write(String(error && error.message ? error.message : error) + "\\n");
    process.exitCode = 1;
  },
);
`;

function runSnapshotProgram(source: string, job: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-e", SNAPSHOT_PROGRAM, JSON.stringify(job)], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    // The shop ending first (its shutdown's deadline passed) ends the copy too.
    const stop = () => child.kill("SIGKILL");
    process.once("exit", stop);
    let output = "";
    let errors = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    child.on("error", (error) => reject(new BackupError(`La copie de la base SQLite (${source}) a échoué : ${error.message}`)));
    child.on("close", (code, signal) => {
      process.off("exit", stop);
      if (code === 0) return resolve(output);
      const reason = errorLine(errors) ?? (signal ? `signal ${signal}` : `code ${code}`);
      reject(new BackupError(`La copie de la base SQLite (${source}) a échoué : ${reason}`));
    });
  });
}

/** The message of an error the snapshot process printed (its last line naming an error), without its stack. */
function errorLine(stderr: string): string | undefined {
  const lines = stderr
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.find((line) => /^\w*Error\b/.test(line)) ?? lines.at(-1);
}

async function dumpPostgres(url: string, target: string) {
  const { dbname, env } = connection(url);
  await runPostgresProgram(
    "pg_dump",
    ["--format=custom", "--no-owner", "--no-privileges", `--file=${target}`, `--dbname=${dbname}`],
    env,
  );
}
