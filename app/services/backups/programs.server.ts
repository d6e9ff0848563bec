import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { BackupError } from "./errors.server";

/**
 * PostgreSQL's own programs, `pg_dump` and `pg_restore` (Debian's package `postgresql-client`):
 * PG_BIN, then Debian's /usr/lib/postgresql/<version>/bin newest first (pg_dump must be as new
 * as the server), then the PATH.
 */
export function postgresProgram(name: "pg_dump" | "pg_restore"): string {
  const folders = [process.env.PG_BIN, ...debianFolders(), ...(process.env.PATH ?? "").split(path.delimiter)];
  for (const folder of folders) {
    if (folder && existsSync(path.join(folder, name))) return path.join(folder, name);
  }
  throw new BackupError(
    `${name} est introuvable : installez le paquet Debian postgresql-client (apt-get install postgresql-client), ` +
      "ou indiquez son dossier dans PG_BIN.",
  );
}

function debianFolders() {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((version) => /^\d+$/.test(version))
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => path.join(root, version, "bin"));
}

/**
 * The database's URL without its password, and the environment that gives it (PGPASSWORD): a
 * password on the command line would be readable by every user of the machine (ps).
 */
export function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.toString(), env: password ? { ...process.env, PGPASSWORD: password } : process.env };
}

/** Runs a PostgreSQL program; its standard error becomes a BackupError's message when it fails. */
export function runPostgresProgram(name: "pg_dump" | "pg_restore", args: string[], env = process.env): Promise<string> {
  const program = postgresProgram(name);
  return new Promise((resolve, reject) => {
    execFile(program, args, { env, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" }, (error, stdout, stderr) => {
      if (error) reject(new BackupError(`${name} a échoué : ${(stderr || error.message).trim().slice(0, 2000)}`));
      else resolve(stdout);
    });
  });
}
