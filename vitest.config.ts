import { defineConfig } from "vitest/config";

// Four projects: pure units, the reference platform on PGlite and on a throwaway PostgreSQL 15
// cluster (skipped with a message only when no PostgreSQL binaries exist), and the console's
// server code against a real in-process platform.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "unit",
          include: ["app/**/*.test.{ts,tsx}", "common/**/*.test.ts", "contracts/**/*.test.ts", "bench/**/*.test.mjs"],
          environment: "node",
        },
      },
      {
        test: {
          name: "platform-pglite",
          include: ["upstream/**/*.test.ts"],
          env: { TEST_DB: "pglite" },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
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
