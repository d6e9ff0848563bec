import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "~/db/client.server";
import { dialect } from "~/db/schema";
import { readiness } from "~/services/observability/readiness.server";

/** GET /readyz's verdict (server/operations.js answers 200 or 503 with its reason). */

const migrations = dialect === "postgresql" ? sql`drizzle.__drizzle_migrations` : sql`__drizzle_migrations`;

describe("readiness", () => {
  it("is ready when the database answers and holds every migration of the build, not when one is missing", async () => {
    expect(await readiness()).toEqual({ ready: true });
    const db = getDb() as unknown as {
      execute?: (query: unknown) => Promise<unknown>;
      run?: (query: unknown) => Promise<unknown>;
    };
    // The last migration (by its time: SQLite's table has no usable id) forgotten, as in a database restored from an older build.
    const remove = sql`delete from ${migrations} where created_at = (select max(created_at) from ${migrations})`;
    await (dialect === "postgresql" ? db.execute!(remove) : db.run!(remove));
    expect(await readiness()).toEqual({
      ready: false,
      reason: "Les migrations de la base de données ne sont pas appliquées.",
    });
  });
});
