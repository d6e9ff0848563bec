import { defineConfig } from "drizzle-kit";

/** PostgreSQL's migrations (app/db/schema.pg.ts), applied by `npm run db:copy-to-postgres`. */
export default defineConfig({
  dialect: "postgresql",
  schema: "./app/db/schema.pg.ts",
  out: "./drizzle-pg",
});
