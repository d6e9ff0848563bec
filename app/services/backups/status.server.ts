import { getConfig } from "~/config.server";
import { listBackups, type BackupFile } from "./files.server";

/**
 * What the shop knows of its snapshots, for the pages and metrics that show them: the last one
 * and how often the scheduler takes one. Reads BACKUP_DIR only: no database access.
 */

export type LastBackup = BackupFile;

/** The newest finished snapshot in BACKUP_DIR (date, size in bytes, SHA-256, absolute path), or null. */
export async function lastBackup(): Promise<LastBackup | null> {
  const [newest] = await listBackups(getConfig().backups.dir);
  return newest ?? null;
}

/** BACKUP_EVERY: hours between two snapshots of the scheduler; 0 when it takes none. */
export function backupEveryHours(): number {
  return getConfig().backups.everyHours;
}

/**
 * True when the last snapshot is older than twice BACKUP_EVERY, or missing, while the
 * scheduler should take them; false when BACKUP_EVERY is 0 (no periodic snapshot expected).
 */
export function backupIsLate(last: LastBackup | null, now = new Date(), everyHours = backupEveryHours()): boolean {
  if (everyHours <= 0) return false;
  if (!last) return true;
  return now.getTime() - last.at.getTime() > 2 * everyHours * 3_600_000;
}
