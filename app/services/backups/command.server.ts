import { ConfigError, getConfig } from "~/config.server";
import { createBackup } from "./create.server";
import { BackupError } from "./errors.server";
import { restoreBackup } from "./restore.server";

/**
 * `npm run db:backup` and `npm run db:restore -- FICHIER` (server/database-backup.js): runs the
 * command on the database of DATABASE_URL, prints what was done, and returns the exit code. A
 * refusal or a bad configuration is one French message and code 1.
 */
export async function runDatabaseCommand(command: string, args: string[]): Promise<number> {
  try {
    if (command === "backup" && args.length === 0) {
      const backup = await createBackup();
      console.log(
        `Sauvegarde écrite : ${backup.file} (${formatBytes(backup.sizeBytes)}, ${(backup.durationMs / 1000).toLocaleString("fr-FR", { maximumFractionDigits: 2 })} s)`,
      );
      console.log(`SHA-256 : ${backup.sha256}`);
      if (backup.deleted.length > 0) {
        console.log(`Sauvegardes supprimées (au-delà de ${getConfig().backups.keep}) : ${backup.deleted.length}`);
      }
      return 0;
    }
    if (command === "restore" && args.length === 1) {
      const restored = await restoreBackup(args[0]);
      console.log(`Sauvegarde vérifiée (SHA-256 ${restored.sha256}) et restaurée.`);
      if (restored.keptAside) console.log(`La base précédente est gardée : ${restored.keptAside}`);
      return 0;
    }
    console.error(
      command === "restore"
        ? "Usage : npm run db:restore -- <fichier de sauvegarde>"
        : command === "backup"
          ? "Usage : npm run db:backup (sans argument ; le dossier est BACKUP_DIR)"
          : `Commande inconnue « ${command} » : attendu backup ou restore.`,
    );
    return 1;
  } catch (error) {
    if (error instanceof BackupError || error instanceof ConfigError) console.error(error.message);
    else console.error(error);
    return 1;
  }
}

function formatBytes(bytes: number) {
  if (bytes < 1024) return `${bytes} o`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toLocaleString("fr-FR", { maximumFractionDigits: 1 })} Kio`;
  return `${(bytes / 1024 / 1024).toLocaleString("fr-FR", { maximumFractionDigits: 1 })} Mio`;
}
