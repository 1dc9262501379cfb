import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "@playwright/test";

// End-to-end in Debian's Chromium against the built console and a fresh embedded platform.
// The data directory is made once in the main process; workers inherit it through the env.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), "switchboard-e2e-"));
const port = Number(process.env.E2E_PORT ?? 3100);
export const baseURL = `http://localhost:${port}`;
/** Both e2e servers' JSON log lines, checked for secrets after the run (tests/support/e2e-log-check.ts). */
export const E2E_LOG_FILE = join(process.env.E2E_DATA_DIR, "e2e.log");
export const E2E_SESSION_SECRET = "e2e-only-secret-not-used-anywhere-else";

/** Test files that disturb what every other test shares: run alone, after the rest. */
const AFTER_ALL = /media-failure\.spec\.ts/;
/** Test files only `npm run cluster` can run (playwright.cluster.config.ts). */
const CLUSTER_ONLY = /cluster-failover\.spec\.ts/;

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
  ],
};

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 30_000,
  expect: { timeout: 7_000 },
  workers: 2,
  globalTeardown: "./tests/support/e2e-log-check.ts",
  retries: 0,
  reporter: [["list"], ["json", { outputFile: ".cache/playwright.json" }]],
  // No trace by default: recording one for every test cost the suite about 15 % of its time and a
  // third of its CPU, and CI keeps none. To look into a failure: `npx playwright test
  // --trace=retain-on-failure …`, then `npx playwright show-trace test-results/…/trace.zip`.
  use: { baseURL, launchOptions: chromium, trace: "off", locale: "zh-CN", timezoneId: "Asia/Shanghai" },
  projects: [
    // Every flow with JavaScript on; flows tagged @nojs also with it off. A flow tagged @noscript
    // goes only through screens that ship no script (tests/e2e/budgets.spec.ts holds them to
    // that), where JavaScript on or off is the same page: it runs once, with JavaScript off.
    { name: "js", grepInvert: /@noscript/, testIgnore: [AFTER_ALL, CLUSTER_ONLY], use: { javaScriptEnabled: true } },
    { name: "no-js", grep: /@nojs|@noscript/, testIgnore: [AFTER_ALL, CLUSTER_ONLY], use: { javaScriptEnabled: false } },
    // Flows that disturb the whole server (the media server stopped) run once every other is done.
    { name: "after-all", testMatch: AFTER_ALL, dependencies: ["js", "no-js"], use: { javaScriptEnabled: true } },
  ],
  webServer: {
    command: "node scripts/start.mjs",
    url: `${baseURL}/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      UPSTREAM_PORT: String(port + 1),
      DATA_DIR: process.env.E2E_DATA_DIR,
      SESSION_SECRET: E2E_SESSION_SECRET,
      LOG_FILE: E2E_LOG_FILE,
      LOG_LEVEL: "info",
      COOKIE_SECURE: "1",
      // Simulators move only when a test drives them: the dialer's clock, the CTI's calls, the
      // chat customers.
      DIALER_SPEED: "0",
      CHAT_SIMULATOR: "0",
      CTI_SIMULATED_TRAFFIC: "0",
      // Calls ring until answered, as tests expect on a loaded machine; the ring-timeout test sets its own queue's.
      CTI_RING_SECONDS: "300",
      AGENT_SIMULATOR: "0",
      SIMULATOR_CONTROL: "1",
      CTI_ACW_SECONDS: "15",
    },
  },
});
