import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readdir, readFile, rm, stat } from "node:fs/promises";
import path from "node:path";

/**
 * The snapshots' files in BACKUP_DIR: `shop-<date and time>.db.gz` (SQLite, gzip) or
 * `shop-<date and time>.pgdump` (PostgreSQL, pg_dump's custom format), each with its SHA-256
 * beside it in `<file>.sha256`, in the format of `sha256sum` (so `sha256sum -c` checks it too).
 * The checksum is written last: a snapshot without one is unfinished and never listed.
 */

export type BackupFile = { at: Date; sizeBytes: number; sha256: string; file: string };

const NAME = /^shop-(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\.(db\.gz|pgdump)$/;

/** The file name of a snapshot taken at `at`: `shop-2026-05-01T03-00-00-000Z.db.gz`. */
export function backupFileName(at: Date, dialect: "sqlite" | "postgresql") {
  const stamp = at.toISOString().replace(/:/g, "-").replace(".", "-");
  return `shop-${stamp}.${dialect === "sqlite" ? "db.gz" : "pgdump"}`;
}

/** The time a snapshot's name tells, or null for a file that is no snapshot. */
export function backupTime(name: string): Date | null {
  const match = NAME.exec(name);
  if (!match) return null;
  const [, day, hours, minutes, seconds, ms] = match;
  return new Date(`${day}T${hours}:${minutes}:${seconds}.${ms}Z`);
}

/** The SHA-256 of a file, read as a stream. */
export async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** The checksum written beside `file`, or null when there is none. */
export async function readChecksum(file: string): Promise<string | null> {
  const text = await readFile(`${file}.sha256`, "utf8").catch(() => null);
  const hex = text?.trim().split(/\s+/)[0]?.toLowerCase();
  return hex && /^[0-9a-f]{64}$/.test(hex) ? hex : null;
}

/** The finished snapshots of `dir`, newest first (an absent folder has none). */
export async function listBackups(dir: string): Promise<BackupFile[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return [] as string[];
    throw error;
  });
  const found: BackupFile[] = [];
  for (const name of names) {
    const at = backupTime(name);
    if (!at) continue;
    const file = path.join(dir, name);
    const sha256 = await readChecksum(file);
    if (!sha256) continue;
    const size = await stat(file).then(
      (s) => s.size,
      () => null,
    );
    if (size !== null) found.push({ at, sizeBytes: size, sha256, file });
  }
  return found.sort((a, b) => b.at.getTime() - a.at.getTime());
}

/** Deletes the finished snapshots past the `keep` newest; returns the files deleted. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const old = (await listBackups(dir)).slice(keep);
  for (const backup of old) {
    await rm(backup.file, { force: true });
    await rm(`${backup.file}.sha256`, { force: true });
  }
  return old.map((backup) => backup.file);
}
