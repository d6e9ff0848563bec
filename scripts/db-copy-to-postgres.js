// @ts-check
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { drizzle } from "drizzle-orm/node-postgres";
import { migrate } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";

/**
 * Copies the shop's SQLite database into an empty PostgreSQL database:
 *
 *   npm run db:copy-to-postgres -- <fichier SQLite> <URL PostgreSQL>
 *
 * 1. applies PostgreSQL's migrations (drizzle-pg/, from app/db/schema.pg.ts) to the target;
 * 2. refuses (exit code 1) if any shop table there already holds rows, or if the SQLite file
 *    does not have the same tables and columns (a file from an older version: start the shop
 *    on it once, it applies its migrations);
 * 3. in one transaction, copies every table in foreign-key order, keeping the ids, reading
 *    one consistent snapshot of the SQLite file (the shop may keep running on it);
 *    booleans (0/1) become true/false, ISO timestamps become timestamps with time zone, JSON
 *    text becomes jsonb, bytes (an email's gzipped content) stay bytes; a foreign key in a cycle (orders ↔ subscriptions, an invoice's credit
 *    note) is filled in once both rows exist;
 * 4. sets every identity sequence past the largest id copied, so the next row gets the next id;
 *    the totals the database keeps itself (revenue_hours, pack_revenue_hours) are recomputed by its triggers, not copied;
 *    the emails' counts per status (email_status_counts), which its triggers also keep, are replaced by the file's once the emails are in.
 * It prints one line per table with its row count.
 */

const MIGRATIONS = fileURLToPath(new URL("../drizzle-pg", import.meta.url));
/** node-postgres sends at most 65535 parameters per query. */
const MAX_PARAMETERS = 30_000;
const MAX_BATCH_ROWS = 500;
/**
 * Totals the database keeps itself (triggers, as each invoice is copied and each order linked to
 * its subscription): they are not copied, which would count everything twice.
 */
const FILLED_BY_TRIGGERS = new Set(["revenue_hours", "pack_revenue_hours"]);
/**
 * Counts the triggers also keep (as each email is copied), but which hold the same sums as the
 * file's rows: those are copied in their place once the emails are in, so the two databases
 * read the same rows.
 */
const REPLACED_AFTER_TRIGGERS = new Set(["email_status_counts"]);

/** A refusal or an error meant for the person running the command: printed alone, exit code 1. */
export class CopyError extends Error {
  name = "CopyError";
}

/** @param {string} name */
const quote = (name) => `"${name.replaceAll('"', '""')}"`;

/** @param {string} url */
function redact(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * @typedef {{ name: string, type: string, nullable: boolean, identity: boolean }} Column
 * @typedef {{ name: string, columns: Column[], primaryKey: string[], references: { columns: string[], table: string, nullable: boolean }[] }} Table
 */

/**
 * The tables of the target's current schema, with their columns, primary keys and foreign keys.
 * @param {pg.ClientBase} client
 * @returns {Promise<Table[]>}
 */
async function targetTables(client) {
  const columns = await client.query(
    `SELECT table_name, column_name, data_type, is_nullable = 'YES' AS nullable,
            is_identity = 'YES' OR coalesce(column_default, '') LIKE 'nextval(%' AS identity
       FROM information_schema.columns c
      WHERE table_schema = current_schema()
        AND EXISTS (SELECT 1 FROM information_schema.tables t
                     WHERE t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE')
      ORDER BY table_name, ordinal_position`,
  );
  const constraints = await client.query(
    `SELECT k.contype AS kind, t.relname AS table_name, r.relname AS referenced,
            array(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY AS u(attnum, i)
                    JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum ORDER BY u.i) AS columns
       FROM pg_constraint k
       JOIN pg_class t ON t.oid = k.conrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
       LEFT JOIN pg_class r ON r.oid = k.confrelid
      WHERE n.nspname = current_schema() AND k.contype IN ('p', 'f')`,
  );
  /** @type {Map<string, Table>} */
  const tables = new Map();
  for (const row of columns.rows) {
    /** @type {Table} */
    const table = tables.get(row.table_name) ?? { name: row.table_name, columns: [], primaryKey: [], references: [] };
    table.columns.push({ name: row.column_name, type: row.data_type, nullable: row.nullable, identity: row.identity });
    tables.set(table.name, table);
  }
  for (const row of constraints.rows) {
    const table = tables.get(row.table_name);
    if (!table) continue;
    if (row.kind === "p") table.primaryKey = row.columns;
    else {
      const nullable = row.columns.every((/** @type {string} */ name) => table.columns.find((c) => c.name === name)?.nullable);
      table.references.push({ columns: row.columns, table: row.referenced, nullable });
    }
  }
  return [...tables.values()];
}

/**
 * The order to copy the tables in, each after the tables it references. A reference that
 * closes a cycle (or points to its own table) must be nullable: its columns are copied as
 * null, then filled in once every row exists ("deferred").
 * @param {Table[]} tables
 * @param {Map<string, number>} rowCounts the rows to copy per table: the cycle is broken where fewer rows wait
 * @returns {{ table: Table, deferred: string[] }[]}
 */
export function copyOrder(tables, rowCounts) {
  /** @type {{ table: Table, deferred: string[] }[]} */
  const order = [];
  const done = new Set();
  let remaining = [...tables].sort((a, b) => a.name.localeCompare(b.name));
  while (remaining.length > 0) {
    const waitingOn = (/** @type {Table} */ table) => table.references.filter((r) => !done.has(r.table));
    let next = remaining.find((table) => waitingOn(table).length === 0);
    /** @type {string[]} */
    let deferred = [];
    if (!next) {
      // A table in a cycle, whose every reference still waiting closes a cycle through it and is nullable.
      const byName = new Map(remaining.map((table) => [table.name, table]));
      const reaches = (/** @type {string} */ from, /** @type {string} */ to) => {
        const seen = new Set();
        const stack = [from];
        while (stack.length > 0) {
          const name = /** @type {string} */ (stack.pop());
          if (name === to) return true;
          if (seen.has(name)) continue;
          seen.add(name);
          for (const r of byName.get(name)?.references ?? []) if (!done.has(r.table)) stack.push(r.table);
        }
        return false;
      };
      const breakable = remaining
        .filter((table) => waitingOn(table).every((r) => r.nullable && reaches(r.table, table.name)))
        .sort((a, b) => (rowCounts.get(a.name) ?? 0) - (rowCounts.get(b.name) ?? 0));
      next = breakable[0];
      if (!next)
        throw new CopyError(
          `Références circulaires sans colonne facultative entre les tables ${remaining.map((t) => t.name).join(", ")}.`,
        );
      deferred = waitingOn(next).flatMap((r) => r.columns);
    }
    // A reference to its own table is filled in afterwards too (an invoice's credit note).
    deferred.push(...next.references.filter((r) => r.table === next.name && r.nullable).flatMap((r) => r.columns));
    order.push({ table: next, deferred: [...new Set(deferred)] });
    done.add(next.name);
    remaining = remaining.filter((table) => table !== next);
  }
  return order;
}

/**
 * A SQLite value as PostgreSQL stores it in a column of this type.
 * @param {unknown} value
 * @param {string} type information_schema's data_type
 */
function toPostgres(value, type) {
  if (value === null || value === undefined) return null;
  if (type === "boolean") return value === 1 || value === 1n || value === true || value === "1" || value === "true";
  // Bytes as they are (an email's gzipped content); a text written before it was compressed, as its UTF-8 bytes.
  if (type === "bytea") return typeof value === "string" ? Buffer.from(value, "utf8") : value;
  // JSON text is sent as is: node-postgres would turn a parsed array into a PostgreSQL array.
  return value;
}

/**
 * @param {pg.ClientBase} client
 * @param {string} sql
 * @param {unknown[]} [params]
 * @param {string} [context] what was being done, named in the error
 */
async function query(client, sql, params = [], context = "") {
  try {
    return await client.query(sql, params);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CopyError(context ? `${context} : ${message}` : message);
  }
}

/**
 * Copies the SQLite file into the PostgreSQL database; returns the rows copied per table.
 * @param {{ sqliteFile: string, postgresUrl: string, log?: (line: string) => void }} options
 */
export async function copyToPostgres({ sqliteFile, postgresUrl, log = console.log }) {
  const file = sqliteFile.replace(/^file:(?!\/\/)/i, "");
  const filePath = /^file:\/\//i.test(file) ? fileURLToPath(file) : path.resolve(file);
  if (!existsSync(filePath)) throw new CopyError(`Fichier SQLite introuvable : ${filePath}`);
  if (!/^postgres(ql)?:\/\//i.test(postgresUrl) || !URL.canParse(postgresUrl)) {
    throw new CopyError(
      `URL PostgreSQL attendue (postgres://utilisateur:motdepasse@hôte:5432/base ou postgresql://…), reçu : ${redact(postgresUrl)}`,
    );
  }

  const sqlite = new Database(filePath, { readonly: true, fileMustExist: true });
  const client = new pg.Client({ connectionString: postgresUrl });
  try {
    try {
      await client.connect();
    } catch (error) {
      throw new CopyError(
        `Connexion à PostgreSQL impossible (${redact(postgresUrl)}) : ${error instanceof Error ? error.message : error}`,
      );
    }
    try {
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS });
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : "";
      throw new CopyError(
        `Les migrations PostgreSQL (drizzle-pg) n'ont pas pu être appliquées : ${error instanceof Error ? error.message : error} ${cause}`.trim(),
      );
    }
    const tables = await targetTables(client);

    // One snapshot of the SQLite file for the whole copy, even if the shop writes meanwhile.
    sqlite.exec("BEGIN");
    checkSameTables(sqlite, tables);
    const rowCounts = new Map(
      tables.map((table) => [
        table.name,
        /** @type {{ n: number }} */ (sqlite.prepare(`SELECT count(*) AS n FROM ${quote(table.name)}`).get()).n,
      ]),
    );
    const order = copyOrder(tables, rowCounts);

    await query(client, "BEGIN");
    try {
      await query(client, "SET LOCAL TIME ZONE 'UTC'");
      // Nobody writes to the shop's tables until the copy is done.
      await query(client, `LOCK TABLE ${tables.map((t) => quote(t.name)).join(", ")} IN SHARE ROW EXCLUSIVE MODE`);
      /** @type {string[]} */
      const filled = [];
      for (const table of tables) {
        const { rows } = await query(client, `SELECT EXISTS (SELECT 1 FROM ${quote(table.name)}) AS filled`);
        if (rows[0].filled) filled.push(table.name);
      }
      if (filled.length > 0) {
        throw new CopyError(
          `La base PostgreSQL ${redact(postgresUrl)} contient déjà des données (tables ${filled.join(", ")}) : ` +
            "la copie se fait dans une base vide. Rien n'a été copié.",
        );
      }

      /** @type {Map<string, number>} */
      const copied = new Map();
      /** @type {{ table: Table, column: string, values: [unknown[], unknown][] }[]} */
      const later = [];
      for (const { table, deferred } of order) {
        if (FILLED_BY_TRIGGERS.has(table.name) || REPLACED_AFTER_TRIGGERS.has(table.name)) continue;
        const count = await copyTable(sqlite, client, table, deferred, later);
        copied.set(table.name, count);
        log(`${table.name} : ${count} ${count > 1 ? "lignes" : "ligne"}`);
      }
      for (const { table } of order.filter(({ table }) => REPLACED_AFTER_TRIGGERS.has(table.name))) {
        await query(client, `DELETE FROM ${quote(table.name)}`);
        const count = await copyTable(sqlite, client, table, [], later);
        copied.set(table.name, count);
        log(`${table.name} : ${count} ${count > 1 ? "lignes" : "ligne"}`);
      }
      for (const { table, column, values } of later) await fillDeferred(client, table, column, values);
      // The totals PostgreSQL's triggers computed from the rows copied, listed like the tables copied.
      for (const name of FILLED_BY_TRIGGERS) {
        const { rows } = await query(client, `SELECT count(*)::int AS n FROM ${quote(name)}`);
        copied.set(name, rows[0].n);
        log(`${name} : ${rows[0].n} ${rows[0].n > 1 ? "lignes" : "ligne"}`);
      }
      for (const table of tables) {
        for (const column of table.columns.filter((c) => c.identity)) {
          await query(
            client,
            `SELECT setval(pg_get_serial_sequence($1, $2), coalesce((SELECT max(${quote(column.name)}) FROM ${quote(table.name)}), 0) + 1, false)`,
            [quote(table.name), column.name],
            `Séquence de ${table.name}.${column.name}`,
          );
        }
      }
      await query(client, "COMMIT");
      // The planner's statistics for the rows just loaded (autovacuum would only get to it later).
      await query(client, "ANALYZE", [], "Statistiques (ANALYZE)");
      return copied;
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    }
  } finally {
    if (sqlite.inTransaction) sqlite.exec("COMMIT");
    sqlite.close();
    await client.end().catch(() => undefined);
  }
}

/**
 * The SQLite file must have the target's tables and columns, no more, no less.
 * @param {Database.Database} sqlite
 * @param {Table[]} tables
 */
function checkSameTables(sqlite, tables) {
  const sqliteTables = /** @type {{ name: string }[]} */ (
    sqlite
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> '__drizzle_migrations'",
      )
      .all()
  ).map((row) => row.name);
  const problems = [];
  for (const table of tables) {
    if (!sqliteTables.includes(table.name)) {
      problems.push(`table ${table.name} absente du fichier SQLite`);
      continue;
    }
    const columns = /** @type {{ name: string }[]} */ (sqlite.prepare(`PRAGMA table_info(${quote(table.name)})`).all()).map(
      (c) => c.name,
    );
    for (const column of table.columns)
      if (!columns.includes(column.name)) problems.push(`colonne ${table.name}.${column.name} absente du fichier SQLite`);
    for (const column of columns)
      if (!table.columns.some((c) => c.name === column)) problems.push(`colonne ${table.name}.${column} absente de PostgreSQL`);
  }
  for (const name of sqliteTables) if (!tables.some((t) => t.name === name)) problems.push(`table ${name} absente de PostgreSQL`);
  if (problems.length > 0) {
    throw new CopyError(
      `Le fichier SQLite et les migrations PostgreSQL ne décrivent pas les mêmes tables : ${problems.join(" ; ")}. ` +
        "Un fichier d'une version précédente se met à jour en démarrant la boutique dessus une fois (elle applique ses migrations). Rien n'a été copié.",
    );
  }
}

/**
 * Copies one table's rows in batches; the deferred columns are inserted as null and their
 * values kept in `later` with the row's primary key.
 * @param {Database.Database} sqlite
 * @param {pg.ClientBase} client
 * @param {Table} table
 * @param {string[]} deferred
 * @param {{ table: Table, column: string, values: [unknown[], unknown][] }[]} later
 */
async function copyTable(sqlite, client, table, deferred, later) {
  const columns = table.columns;
  const names = columns.map((c) => quote(c.name)).join(", ");
  const keyIndexes = table.primaryKey.map((name) => columns.findIndex((c) => c.name === name));
  const waiting = deferred.map((name) => ({
    index: columns.findIndex((c) => c.name === name),
    entry: { table, column: name, values: /** @type {[unknown[], unknown][]} */ ([]) },
  }));
  const batchRows = Math.max(1, Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / columns.length)));
  const select = sqlite.prepare(`SELECT ${names} FROM ${quote(table.name)}`).raw(true);
  let count = 0;
  /** @type {unknown[][]} */
  let batch = [];
  const flush = async () => {
    if (batch.length === 0) return;
    const placeholders = batch
      .map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(", ")})`)
      .join(", ");
    // OVERRIDING SYSTEM VALUE: the ids are kept, even in a column generated always.
    await query(
      client,
      `INSERT INTO ${quote(table.name)} (${names}) OVERRIDING SYSTEM VALUE VALUES ${placeholders}`,
      batch.flat(),
      `Table ${table.name}`,
    );
    count += batch.length;
    batch = [];
  };
  for (const raw of /** @type {IterableIterator<unknown[]>} */ (select.iterate())) {
    const row = raw.map((value, i) => toPostgres(value, columns[i].type));
    for (const { index, entry } of waiting) {
      if (row[index] === null) continue;
      entry.values.push([keyIndexes.map((k) => row[k]), row[index]]);
      row[index] = null;
    }
    batch.push(row);
    if (batch.length >= batchRows) await flush();
  }
  await flush();
  for (const { entry } of waiting) if (entry.values.length > 0) later.push(entry);
  return count;
}

/**
 * Fills in a deferred column, in batches: UPDATE … FROM (VALUES …) matched on the primary key.
 * @param {pg.ClientBase} client
 * @param {Table} table
 * @param {string} column
 * @param {[unknown[], unknown][]} values
 */
async function fillDeferred(client, table, column, values) {
  const typeOf = (/** @type {string} */ name) => /** @type {Column} */ (table.columns.find((c) => c.name === name)).type;
  const width = table.primaryKey.length + 1;
  const batchRows = Math.min(MAX_BATCH_ROWS, Math.floor(MAX_PARAMETERS / width));
  for (let start = 0; start < values.length; start += batchRows) {
    const batch = values.slice(start, start + batchRows);
    const rows = batch
      .map((_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`).join(", ")})`)
      .join(", ");
    const keys = table.primaryKey.map((_, i) => `k${i}`);
    const match = table.primaryKey.map((name, i) => `t.${quote(name)} = v.k${i}::${typeOf(name)}`).join(" AND ");
    await query(
      client,
      `UPDATE ${quote(table.name)} AS t SET ${quote(column)} = v.value::${typeOf(column)} FROM (VALUES ${rows}) AS v(${[...keys, "value"].join(", ")}) WHERE ${match}`,
      batch.flatMap(([key, value]) => [...key, value]),
      `Table ${table.name} (${column})`,
    );
  }
}

async function main() {
  const args = process.argv.slice(2);
  if (args.length !== 2) {
    console.error("Usage : npm run db:copy-to-postgres -- <fichier SQLite> <URL PostgreSQL>");
    console.error(
      "Exemple : npm run db:copy-to-postgres -- ./data/shop.db postgres://boutique:motdepasse@localhost:5432/boutique",
    );
    process.exit(1);
  }
  const [sqliteFile, postgresUrl] = args;
  try {
    const copied = await copyToPostgres({ sqliteFile, postgresUrl });
    const rows = [...copied.values()].reduce((sum, n) => sum + n, 0);
    console.log(`Copie terminée : ${rows} lignes dans ${copied.size} tables, vers ${redact(postgresUrl)}.`);
  } catch (error) {
    if (error instanceof CopyError) console.error(error.message);
    else console.error(error);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
