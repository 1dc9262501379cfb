// `npm test`: lint (ESLint, Prettier, the layers of .dependency-cruiser.cjs), type check, unit + platform (PGlite and PostgreSQL) + integration tests, then the
// production build and end-to-end tests in Chromium. Ends with one 'N passed, N failed' line.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ensureChromium } from "./ensure-chromium.mjs";

const root = new URL("..", import.meta.url).pathname;
const cache = join(root, ".cache");
mkdirSync(cache, { recursive: true });
const bin = (name) => join(root, "node_modules", ".bin", name);

function step(title, command, args, env = {}) {
  console.log(`\n[test] ${title}`);
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return result.status === 0;
}

function counts(file, read) {
  if (!existsSync(file)) return { passed: 0, failed: 0 };
  try {
    return read(JSON.parse(readFileSync(file, "utf8")));
  } catch {
    return { passed: 0, failed: 0 };
  }
}

ensureChromium();
for (const file of ["vitest.json", "playwright.json", "playwright-cluster.json"]) rmSync(join(cache, file), { force: true });

let ok = step("lint: ESLint", bin("eslint"), ["."]);
ok = step("lint: Prettier", bin("prettier"), ["--check", "--log-level=warn", "."]) && ok;
ok =
  step("lint: layers (dependency-cruiser)", bin("depcruise"), [
    "app",
    "upstream",
    "contracts",
    "common",
    "tests",
    "bench",
    "--config",
    ".dependency-cruiser.cjs",
  ]) && ok;
ok = step("lint: dead exports (knip)", bin("knip"), ["--no-progress"]) && ok;
ok = step("type check", bin("tsc"), ["--noEmit", "-p", "."]) && ok;
ok =
  step("unit, platform and integration tests (vitest)", bin("vitest"), [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile=${join(cache, "vitest.json")}`,
  ]) && ok;
ok = step("production build", process.execPath, [join(root, "scripts/build.mjs"), "--if-needed"]) && ok;
ok = step("end-to-end tests (Playwright, Chromium)", bin("playwright"), ["test"]) && ok;
// The @cluster flows again through `npm run cluster`: two consoles, two platforms, HAProxy, PostgreSQL.
ok =
  step("end-to-end tests through the cluster (Playwright, npm run cluster)", bin("playwright"), [
    "test",
    "-c",
    "playwright.cluster.config.ts",
  ]) && ok;

const unit = counts(join(cache, "vitest.json"), (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests }));
const playwrightCounts = (r) => ({ passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected });
const single = counts(join(cache, "playwright.json"), playwrightCounts);
const cluster = counts(join(cache, "playwright-cluster.json"), playwrightCounts);
const e2e = { passed: single.passed + cluster.passed, failed: single.failed + cluster.failed };
const passed = unit.passed + e2e.passed;
let failed = unit.failed + e2e.failed;
// A step that failed without a failing test (type errors, a broken build) still counts as one.
if (!ok && failed === 0) failed = 1;
console.log(`\n[test] vitest ${unit.passed} passed, ${unit.failed} failed; playwright ${e2e.passed} passed, ${e2e.failed} failed`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
