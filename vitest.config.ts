import { defineConfig } from "vitest/config";
import { allAliases } from "./aliases.mjs";

// Four projects: pure units, the reference platform on PGlite and on a throwaway PostgreSQL 15
// cluster (skipped with a message only when no PostgreSQL binaries exist), and the console's
// server code against a real in-process platform.
export default defineConfig({
  resolve: { alias: allAliases },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "common/**/*.test.ts", "contracts/**/*.test.ts", "bench/**/*.test.mjs"],
          environment: "node",
        },
      },
      {
        extends: true,
        test: {
          name: "platform-pglite",
          include: ["upstream/**/*.test.ts"],
          env: { TEST_DB: "pglite" },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "platform-postgres",
          include: ["upstream/**/*.test.ts"],
          env: { TEST_DB: "postgres" },
          globalSetup: ["tests/support/postgres-global.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
