// @ts-check
// The measured shop's database, read by the bench after a measure (SQLite file or PostgreSQL URL).
import Database from "better-sqlite3";
import pg from "pg";

/** @param {string} databaseUrl */
export const isPostgres = (databaseUrl) => /^postgres(ql)?:\/\//i.test(databaseUrl);

/**
 * Opens the database for a few plain queries (no parameters: the bench only puts numbers in them).
 * @param {string} databaseUrl a SQLite file or a PostgreSQL URL
 * @returns {Promise<{ all(sql: string): Promise<Record<string, any>[]>, close(): Promise<void> }>}
 */
export async function openDatabase(databaseUrl) {
  if (isPostgres(databaseUrl)) {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    return {
      all: async (sql) => (await client.query(sql)).rows,
      close: async () => {
        await client.end();
      },
    };
  }
  const db = new Database(databaseUrl, { fileMustExist: true });
  db.pragma("busy_timeout = 5000");
  return {
    all: async (sql) => {
      const statement = db.prepare(sql);
      if (statement.reader) return /** @type {Record<string, any>[]} */ (statement.all());
      statement.run();
      return [];
    },
    close: async () => {
      db.close();
    },
  };
}
