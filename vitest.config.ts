import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "~": path.resolve(import.meta.dirname, "app") } },
  test: {
    include: ["tests/unit/**/*.test.ts"],
    setupFiles: ["tests/helpers/unit-setup.ts"],
    environment: "node",
    pool: "forks",
    testTimeout: 20_000,
  },
});
