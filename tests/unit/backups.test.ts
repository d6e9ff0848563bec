import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, afterEach, describe, expect, inject, it, vi } from "vitest";
import { ConfigError, readConfig } from "~/config.server";
import { getDb } from "~/db/client.server";
import { parseDatabaseUrl } from "~/db/database-url";
import { log } from "~/log.server";
import { siteSettings as settings } from "~/db/schema";
import { createBackup } from "~/services/backups/create.server";
import { restoreBackup } from "~/services/backups/restore.server";
import { backupIsLate, lastBackup } from "~/services/backups/status.server";
import { createSubscriptionScheduler } from "~/services/subscriptions/scheduler.server";

/**
 * The database's snapshots (npm run db:backup) and their restore (npm run db:restore), on the
 * engine of the run: SQLite (VACUUM INTO, gzip) or PostgreSQL (pg_dump, pg_restore).
 */

const postgresUrl = inject("postgresUrl");
const engine = parseDatabaseUrl(process.env.DATABASE_URL!).dialect;
const dirs: string[] = [];
const tempDir = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "shop-backups-"));
  dirs.push(dir);
  return dir;
};
const databases: string[] = [];

afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  if (databases.length === 0) return;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
});

/** A new empty database of the run's engine, to restore into. */
async function emptyTarget() {
  if (engine === "sqlite") return { dialect: "sqlite" as const, path: path.join(tempDir(), "restored", "shop.db") };
  const name = `restored_${Math.random().toString(16).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  databases.push(name);
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return { dialect: "postgresql" as const, url: url.toString() };
}

/** The site's name as a restored database holds it. */
async function siteNameIn(target: Awaited<ReturnType<typeof emptyTarget>>) {
  if (target.dialect === "sqlite") {
    const db = new Database(target.path, { readonly: true });
    try {
      return (db.prepare("SELECT site_name FROM site_settings").get() as { site_name: string }).site_name;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    return (await client.query("SELECT site_name FROM site_settings")).rows[0].site_name as string;
  } finally {
    await client.end();
  }
}

describe("a snapshot", () => {
  it("is named with its date and time, compressed, with its SHA-256 beside it in sha256sum's format", async () => {
    const dir = tempDir();
    const before = Date.now();
    const backup = await createBackup({ dir });
    const name = path.basename(backup.file);
    expect(name).toMatch(engine === "sqlite" ? /^shop-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\d{3}Z\.db\.gz$/ : /^shop-.*Z\.pgdump$/);
    expect(backup.at.getTime()).toBeGreaterThanOrEqual(before);
    expect(readdirSync(dir).sort()).toEqual([name, `${name}.sha256`]);
    expect(readFileSync(`${backup.file}.sha256`, "utf8")).toBe(`${backup.sha256}  ${name}\n`);
    // The system's own tool agrees.
    expect(execFileSync("sha256sum", ["-c", `${name}.sha256`], { cwd: dir, encoding: "utf8" })).toContain(": OK");
    if (engine === "sqlite") {
      // A gzip of a SQLite database, not a copy of the live file.
      expect(gunzipSync(readFileSync(backup.file)).subarray(0, 15).toString()).toBe("SQLite format 3");
    } else {
      expect(readFileSync(backup.file).subarray(0, 5).toString()).toBe("PGDMP");
    }
  });

  it("keeps BACKUP_KEEP snapshots, the newest, and deletes the older ones", async () => {
    const dir = tempDir();
    const made = [];
    for (let i = 0; i < 4; i++) made.push(await createBackup({ dir, keep: 2 }));
    expect(made[3].deleted.map((f) => path.basename(f))).toEqual([path.basename(made[1].file)]);
    const left = readdirSync(dir).sort();
    expect(left).toEqual([made[2].file, made[3].file].flatMap((f) => [path.basename(f), `${path.basename(f)}.sha256`]).sort());
  });

  it("the last one is told with its date, size and checksum; late past twice BACKUP_EVERY", async () => {
    // lastBackup() reads BACKUP_DIR (this file's temp folder, tests/helpers/unit-setup.ts).
    const backup = await createBackup();
    const last = await lastBackup();
    expect(last).toEqual({ at: backup.at, sizeBytes: backup.sizeBytes, sha256: backup.sha256, file: backup.file });
    expect(last!.sizeBytes).toBeGreaterThan(1000);
    const hours = (n: number) => new Date(backup.at.getTime() + n * 3_600_000);
    expect(backupIsLate(last, hours(47), 24)).toBe(false);
    expect(backupIsLate(last, hours(49), 24)).toBe(true);
    expect(backupIsLate(null, hours(0), 24)).toBe(true);
    expect(backupIsLate(null, hours(0), 0)).toBe(false);
  });
});

describe("the scheduler", () => {
  it("takes one snapshot every BACKUP_EVERY hours, under its lease", async () => {
    const info = vi.spyOn(log, "info");
    // BACKUP_DIR (this file's temp folder, tests/helpers/unit-setup.ts) empty: a snapshot is due.
    const dir = process.env.BACKUP_DIR!;
    rmSync(dir, { recursive: true, force: true });
    const count = async () => (await import("~/services/backups/files.server")).listBackups(dir);
    const before = 0;
    const scheduler = createSubscriptionScheduler({ holder: `backup-${Math.random()}`, backupEveryHours: 24 });
    // A second scheduler, another process, does nothing while the first holds the lease.
    const other = createSubscriptionScheduler({ holder: `other-${Math.random()}`, backupEveryHours: 24 });
    try {
      await scheduler.tick();
      expect((await count()).length).toBe(before + 1);
      expect(info.mock.calls.flat().join("\n")).toMatch(/Sauvegarde de la base : .*shop-/);
      // Not again before 24 hours, nor by the other process.
      await scheduler.tick();
      expect(await other.tick()).toEqual({ holding: false });
      expect((await count()).length).toBe(before + 1);
    } finally {
      info.mockRestore();
      await scheduler.stop();
      await other.stop();
    }
  });
});

describe("a restore", () => {
  it("puts the snapshot in place in an empty database, after checking its checksum", async () => {
    await getDb().update(settings).set({ siteName: "Boutique sauvegardée" });
    const backup = await createBackup({ dir: tempDir() });
    await getDb().update(settings).set({ siteName: "Boutique modifiée après" });
    const target = await emptyTarget();
    const restored = await restoreBackup(backup.file, { database: target, dir: tempDir() });
    expect(restored.sha256).toBe(backup.sha256);
    expect(await siteNameIn(target)).toBe("Boutique sauvegardée");
  });

  it("keeps the database it replaces aside, so that the restore can be undone", async () => {
    await getDb().update(settings).set({ siteName: "Première" });
    const first = await createBackup({ dir: tempDir() });
    await getDb().update(settings).set({ siteName: "Seconde" });
    const second = await createBackup({ dir: tempDir() });
    const target = await emptyTarget();
    await restoreBackup(first.file, { database: target });
    const asideDir = tempDir();
    const { keptAside } = await restoreBackup(second.file, {
      database: target,
      dir: asideDir,
      now: new Date("2026-05-01T03:00:00Z"),
    });
    expect(await siteNameIn(target)).toBe("Seconde");
    if (target.dialect === "sqlite") {
      expect(keptAside).toBe(`${target.path}.before-restore-2026-05-01T03-00-00-000Z`);
      expect(await siteNameIn({ dialect: "sqlite", path: keptAside! })).toBe("Première");
    } else {
      expect(keptAside).toBe(path.join(asideDir, "before-restore-2026-05-01T03-00-00-000Z.pgdump"));
      expect(readFileSync(keptAside!).subarray(0, 5).toString()).toBe("PGDMP");
    }
  });

  it("refuses a file whose checksum does not match, and changes nothing", async () => {
    await getDb().update(settings).set({ siteName: "Intacte" });
    const backup = await createBackup({ dir: tempDir() });
    const target = await emptyTarget();
    await restoreBackup(backup.file, { database: target });
    const bytes = readFileSync(backup.file);
    bytes[bytes.length - 20] ^= 0xff;
    writeFileSync(backup.file, bytes);
    await expect(restoreBackup(backup.file, { database: target })).rejects.toThrow(
      /La somme de contrôle SHA-256 ne correspond pas .* Rien n'a été restauré\./,
    );
    rmSync(`${backup.file}.sha256`);
    await expect(restoreBackup(backup.file, { database: target })).rejects.toThrow(/Somme de contrôle absente/);
    expect(await siteNameIn(target)).toBe("Intacte");
  });

  it("refuses while a shop process uses the database", async () => {
    const backup = await createBackup({ dir: tempDir() });
    // This test file's own connection is open on DATABASE_URL, as a running shop's is.
    const current = parseDatabaseUrl(process.env.DATABASE_URL!);
    await expect(restoreBackup(backup.file, { database: current, dir: tempDir() })).rejects.toThrow(
      /arrêtez la boutique \(tous ses processus\) avant de restaurer\. Rien n'a été restauré\./,
    );
    expect((await getDb().select().from(settings)).length).toBe(1);
  });

  it.runIf(engine === "sqlite")("refuses a SQLite file that fails integrity_check", async () => {
    const dir = tempDir();
    const broken = path.join(dir, "broken.db");
    const db = new Database(broken);
    db.exec("CREATE TABLE orders (id INTEGER PRIMARY KEY, note TEXT); CREATE INDEX orders_note ON orders(note);");
    const insert = db.prepare("INSERT INTO orders (note) VALUES (?)");
    db.transaction(() => {
      for (let i = 0; i < 2000; i++) insert.run(`commande ${i}`);
    })();
    db.close();
    // A few bytes of a page in the middle overwritten, as a disk that failed would leave them.
    const bytes = readFileSync(broken);
    bytes.fill(0x5a, 4096 * 5 + 8, 4096 * 5 + 400);
    writeFileSync(broken, bytes);
    const { gzipSync } = await import("node:zlib");
    const { createHash } = await import("node:crypto");
    const file = path.join(dir, "shop-2026-05-01T03-00-00-000Z.db.gz");
    const gz = gzipSync(readFileSync(broken));
    writeFileSync(file, gz);
    writeFileSync(`${file}.sha256`, `${createHash("sha256").update(gz).digest("hex")}  ${path.basename(file)}\n`);
    const target = await emptyTarget();
    await expect(restoreBackup(file, { database: target })).rejects.toThrow(
      /(PRAGMA integrity_check a trouvé des erreurs|n'est pas une base SQLite lisible)[\s\S]* Rien n'a été restauré\./,
    );
    expect(target.dialect === "sqlite" && existsSync(target.path)).toBe(false);
  });
});

describe("the settings", () => {
  const db = () => path.join(tempDir(), "shop.db");
  it("default to DATA_DIR/backups, 14 snapshots, one every 24 hours", () => {
    const file = db();
    const config = readConfig({ DATABASE_URL: file });
    expect(config.backups).toEqual({ dir: path.join(path.dirname(file), "backups"), keep: 14, everyHours: 24 });
    expect(
      readConfig({ DATABASE_URL: file, BACKUP_DIR: "/var/backups/boutique", BACKUP_KEEP: "30", BACKUP_EVERY: "0" }).backups,
    ).toEqual({
      dir: "/var/backups/boutique",
      keep: 30,
      everyHours: 0,
    });
  });

  it("refuse bad values with a French message", () => {
    expect(() => readConfig({ DATABASE_URL: db(), BACKUP_KEEP: "0" })).toThrow(
      new ConfigError("Configuration invalide :\n  - BACKUP_KEEP: attendu un nombre de sauvegardes à garder, de 1 à 1000"),
    );
    expect(() => readConfig({ DATABASE_URL: db(), BACKUP_EVERY: "tous les jours" })).toThrow(
      new ConfigError(
        "Configuration invalide :\n  - BACKUP_EVERY: attendu un nombre d'heures entre deux sauvegardes, de 0 (aucune) à 8760 (un an)",
      ),
    );
    expect(() => readConfig({ DATABASE_URL: db(), BACKUP_EVERY: "-1" })).toThrow(/BACKUP_EVERY: attendu un nombre d'heures/);
  });
});
