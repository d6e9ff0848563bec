import { getConfig } from "~/config.server";
import { log } from "~/log.server";
import { createBackup } from "./create.server";
import { lastBackup } from "./status.server";

/**
 * The scheduler's snapshot (subscriptions/scheduler.server.ts calls it at each tick, under its
 * lease, so two processes never back up at once): one when the last one in BACKUP_DIR is
 * BACKUP_EVERY hours old or more, or there is none. Due-ness follows the real clock, read from
 * the files, so a restart neither loses nor repeats one. A failure is told in the logs and
 * tried again at the next tick; it never stops the tick's other work.
 */
export async function backupIfDue(everyHours?: number, now = new Date()): Promise<boolean> {
  const config = getConfig();
  const every = everyHours ?? config.backups.everyHours;
  if (every <= 0) return false;
  // An in-memory database has no file to keep.
  if (config.database.dialect === "sqlite" && config.databasePath === ":memory:") return false;
  try {
    const last = await lastBackup();
    if (last && now.getTime() - last.at.getTime() < every * 3_600_000) return false;
    const backup = await createBackup();
    log.info(`Sauvegarde de la base : ${backup.file} (${backup.sizeBytes} octets, SHA-256 ${backup.sha256}).`);
    return true;
  } catch (error) {
    log.error(`Sauvegarde de la base impossible : ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
}
