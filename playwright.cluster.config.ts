import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

// The @cluster flows through `npm run cluster` (two consoles, two platform processes, HAProxy in
// front, PostgreSQL), with the simulators still as the tests drive them (decision 037).
const FAILOVER = /cluster-failover\.spec\.ts/;

export default defineConfig({
  ...base,
  // Five servers, PostgreSQL and HAProxy share the machine with the browsers: a flow takes longer
  // than on the single console (a test's own setTimeout still wins).
  timeout: 60_000,
  reporter: [["list"], ["json", { outputFile: ".cache/playwright-cluster.json" }]],
  projects: [
    { name: "cluster", grep: /@cluster/, testIgnore: FAILOVER, use: { javaScriptEnabled: true } },
    // Killing the process that holds every call disturbs the others' calls: it runs once they are done.
    { name: "cluster-failover", testMatch: FAILOVER, dependencies: ["cluster"], use: { javaScriptEnabled: true } },
  ],
  webServer: { ...base.webServer, command: "node scripts/cluster.mjs", timeout: 180_000 },
});
