import type { TestProject } from "vitest/node";
import { startPostgres } from "./postgres";

declare module "vitest" {
  export interface ProvidedContext {
    /** The throwaway PostgreSQL server of the unit suite's PostgreSQL run (a database `shop`). */
    postgresUrl: string;
  }
}

/**
 * The unit suite's run on PostgreSQL: one throwaway server for the run (Debian's postgresql,
 * tests/helpers/postgres.ts); each test file makes its own database on it (unit-setup.ts).
 */
export default async function setup(project: TestProject) {
  const server = await startPostgres();
  project.provide("postgresUrl", server.url);
  return () => server.stop();
}
