import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import { allAliases } from "./aliases.mjs";

// Four projects: pure units, the reference platform on PGlite and on a throwaway PostgreSQL 15
// cluster (skipped with a message only when no PostgreSQL binaries exist), and the console's
// server code against a real in-process platform.
export default defineConfig({
  resolve: { alias: allAliases },
  test: {
    // Two files at a time on a two-core machine: vitest's default (one fewer than the cores) runs
    // them one by one there, and the files mostly wait on their databases.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The console's and the platform's JSON logs stay out of the test output (common/observability/log.ts).
    env: { LOG_LEVEL: "silent" },
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: [
            "app/**/*.test.{ts,tsx}",
            "common/**/*.test.ts",
            "contracts/**/*.test.ts",
            "bench/**/*.test.mjs",
            "tests/repo/*.test.ts",
          ],
          environment: "node",
          isolate: false, // pure functions: nothing to keep apart, and one worker's modules serve every file
        },
      },
      {
        extends: true,
        test: {
          name: "platform-pglite",
          include: ["upstream/**/*.test.ts"],
          env: { TEST_DB: "pglite" },
          globalSetup: ["tests/support/seeded-pglite-global.ts"],
          // Each file builds its own platform on its own database, so the files need no process of
          // their own: sharing a worker's modules (PGlite's WebAssembly compiled once, the platform
          // imported once) halves the project's time (decision 027).
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "platform-postgres",
          include: ["upstream/**/*.test.ts"],
          // PGlite's own layer: nothing of PostgreSQL in it to test twice.
          exclude: ["upstream/db/index.test.ts", "upstream/db/pglite-statements.test.ts"],
          env: { TEST_DB: "postgres" },
          globalSetup: ["tests/support/postgres-global.ts"],
          isolate: false, // as on PGlite: one worker's modules serve every file (118 → 55 s here)
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          globalSetup: ["tests/support/seeded-pglite-global.ts"],
          // Each file starts its own platform and console server code; nothing kept in a module is
          // shared across files that they would trip on (66 → 47 s here).
          isolate: false,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
