import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    environment: "node",
    pool: "forks",
    testTimeout: 20_000,
    projects: [
      // Services, schemas and routes in process, a fresh SQLite database per file.
      {
        extends: true,
        test: { name: "unit", include: ["tests/unit/**/*.test.ts"], setupFiles: ["tests/helpers/unit-setup.ts"] },
      },
      // The same files on PostgreSQL: a throwaway server for the run, a fresh database per file.
      {
        extends: true,
        test: {
          name: "unit-pg",
          include: ["tests/unit/**/*.test.ts"],
          setupFiles: ["tests/helpers/unit-setup.ts"],
          globalSetup: ["tests/helpers/postgres-global-setup.ts"],
        },
      },
      // The production server entry run as a child process, against a build made once by the global setup.
      {
        extends: true,
        test: {
          name: "server",
          include: ["tests/server/**/*.test.ts"],
          globalSetup: ["tests/server/global-setup.ts"],
          testTimeout: 60_000,
        },
      },
    ],
  },
});
