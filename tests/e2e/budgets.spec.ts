import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { ACCOUNTS, CONFIRM_STEP_BUDGET, CSS_BUDGET, ENHANCEMENT_BUDGETS, JS_BUDGETS } from "#bench/config.mjs";
import { signIn } from "#bench/lib/http.mjs";
import { CLIENT_DIR, firstEntitled, gzipBytes, loadServerBuild, pageWeight, screenRoutes } from "#bench/lib/weight.mjs";
import { baseURL } from "../../playwright.config";

/**
 * Budgets that cannot flake: every screen of app/routes.ts, rendered by the production
 * build for a demo account that may open it, ships no <script> element unless its route hydrates
 * (or loads the one small script that enhances a file upload, ENHANCEMENT_BUDGETS);
 * a hydrating route's JavaScript stays within its budget (bench/config.mjs); every page's CSS
 * stays within 40 KB gzip. Sizes are bytes, so the same build always gives the same answer.
 */
const screens = screenRoutes(await loadServerBuild());
const jsBudgets: Record<string, number | undefined> = JS_BUDGETS;
const enhancementBudgets: Record<string, number | undefined> = ENHANCEMENT_BUDGETS;
const sessions: Record<string, string> = {};

test.beforeAll(async () => {
  for (const account of ACCOUNTS) sessions[account] = await signIn(baseURL, account);
});

test("the walk covers every screen of the route tree", () => {
  const patterns = screens.map((screen) => screen.pattern);
  for (const pattern of ["/", "/callHistory", "/workBench", "/textWorkBench", "/agentTask/:id?", "/user/login", "/error/404"]) {
    expect(patterns).toContain(pattern);
  }
  expect(screens.length).toBeGreaterThanOrEqual(30);
});

for (const screen of screens) {
  test(`${screen.pattern} stays within its budgets`, async () => {
    const page = await firstEntitled(baseURL, screen.url, sessions);
    expect(page, `no demo account may open ${screen.url}`).toBeDefined();
    const weight = await pageWeight(baseURL, page!.html);
    expect(weight.css, "CSS gzip bytes").toBeLessThanOrEqual(CSS_BUDGET);
    if (screen.hydrates) {
      const budget = jsBudgets[screen.pattern];
      expect(budget, `${screen.pattern} hydrates: give it a JavaScript budget in bench/config.mjs`).toBeDefined();
      expect(weight.js, "JavaScript gzip bytes").toBeGreaterThan(0);
      expect(weight.js, "JavaScript gzip bytes").toBeLessThanOrEqual(budget!);
    } else if (enhancementBudgets[screen.pattern] !== undefined) {
      // One script that enhances a form, never more, and small.
      expect(weight.scriptElements, `${screen.url} as ${page!.account}: one enhancing <script> at most`).toBeLessThanOrEqual(1);
      expect(weight.js, "JavaScript gzip bytes").toBeLessThanOrEqual(enhancementBudgets[screen.pattern]!);
    } else {
      expect(weight.scriptElements, `${screen.url} as ${page!.account} must ship no <script>`).toBe(0);
      expect(weight.js).toBe(0);
    }
  });
}

test("the confirmation step's script stays within its budget", () => {
  const assets = join(CLIENT_DIR, "assets");
  const files = readdirSync(assets).filter((name) => /^confirm-step-[\w-]+\.js$/.test(name));
  expect(files).toHaveLength(1);
  expect(gzipBytes(readFileSync(join(assets, files[0]))), "JavaScript gzip bytes").toBeLessThanOrEqual(CONFIRM_STEP_BUDGET);
});
