/** A backup or a restore that cannot be done; its French message is meant for the person running it. */
export class BackupError extends Error {
  override name = "BackupError";
}
