/**
 * A snapshot of every table of the test database, to prove that a refused request changed nothing.
 * The rate-limit counters are left out: counting a refused attempt is their whole point.
 */
const IGNORED_TABLES = new Set(["rate_limits"]);

export function snapshotDatabase(): string {
  const handle = globalThis.__shopDb;
  if (!handle) throw new Error("database not opened yet");
  const tables = handle.sqlite
    .prepare("select name from sqlite_master where type = 'table' order by name")
    .all() as { name: string }[];
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables.filter((t) => !IGNORED_TABLES.has(t.name))) {
    out[name] = handle.sqlite.prepare(`select * from "${name.replace(/"/g, '""')}" order by rowid`).all();
  }
  return JSON.stringify(out);
}
