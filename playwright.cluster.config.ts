import { defineConfig } from "@playwright/test";
import base from "./playwright.config";

// The @cluster flows through `npm run cluster` (two consoles, two platform processes, HAProxy in
// front, PostgreSQL), with the simulators still as the tests drive them (decision 037).
export default defineConfig({
  ...base,
  reporter: [["list"], ["json", { outputFile: ".cache/playwright-cluster.json" }]],
  projects: [{ name: "cluster", grep: /@cluster/, use: { javaScriptEnabled: true } }],
  webServer: { ...base.webServer, command: "node scripts/cluster.mjs", timeout: 180_000 },
});
