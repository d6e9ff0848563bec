import { readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { getDb } from "~/db/client.server";
import { dialect } from "~/db/schema";

/**
 * Whether this process can take traffic (GET /readyz, server/operations.js): its database
 * answers within a second and holds every migration of this build. The reasons are short and
 * name nothing of the set-up (no path, no version, no address).
 */

const DATABASE_WAIT_MS = 1_000;

export type Readiness = { ready: true } | { ready: false; reason: string };

let expected: number | undefined;

/** The number of migrations this build ships (drizzle's journal). */
function expectedMigrations(): number {
  if (expected === undefined) {
    const folder = dialect === "postgresql" ? "drizzle-pg" : "drizzle";
    const journal = JSON.parse(readFileSync(path.resolve(process.cwd(), folder, "meta", "_journal.json"), "utf8")) as {
      entries: unknown[];
    };
    expected = journal.entries.length;
  }
  return expected;
}

async function appliedMigrations(): Promise<number> {
  const table = dialect === "postgresql" ? sql`drizzle.__drizzle_migrations` : sql`__drizzle_migrations`;
  const [row] = await getDb()
    .select({ n: sql<number | string>`count(*)` })
    .from(table);
  return Number(row?.n ?? 0);
}

export async function readiness(): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), DATABASE_WAIT_MS);
  });
  try {
    const applied = await Promise.race([appliedMigrations(), timeout]);
    if (applied === "timeout") return { ready: false, reason: "La base de données ne répond pas à temps." };
    if (applied < expectedMigrations())
      return { ready: false, reason: "Les migrations de la base de données ne sont pas appliquées." };
    return { ready: true };
  } catch {
    return { ready: false, reason: "La base de données ne répond pas." };
  } finally {
    clearTimeout(timer);
  }
}
