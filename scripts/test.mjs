// `npm test`: lint (ESLint, Prettier, the layers of .dependency-cruiser.cjs), type check and the production build beside unit + platform (PGlite
// and PostgreSQL) + integration tests, then end-to-end tests in Chromium. Ends with one 'N passed, N failed' line.
import { spawn, spawnSync } from "node:child_process";
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

/** A step whose output goes straight to the terminal, run beside others; answers whether it passed. */
function stepBeside(title, command, args) {
  console.log(`\n[test] ${title}`);
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit", env: process.env });
    child.on("close", (code) => resolve(code === 0));
  });
}

/**
 * Steps that read the code and change nothing in it, run at once and beside vitest: vitest's files
 * mostly wait on their databases, leaving part of the two cores idle, and these steps are mostly
 * one thread each (decision 064). Each one's output is kept, to be printed under its title once
 * vitest has ended, so that it does not interleave with vitest's.
 */
function quietSteps(list) {
  return Promise.all(
    list.map(
      ([title, command, args]) =>
        new Promise((resolve) => {
          const child = spawn(command, args, { cwd: root, env: process.env });
          let output = "";
          child.stdout.on("data", (chunk) => (output += chunk));
          child.stderr.on("data", (chunk) => (output += chunk));
          child.on("close", (code) => resolve({ title, ok: code === 0, output }));
        }),
    ),
  );
}

function counts(file, read) {
  if (!existsSync(file)) return { passed: 0, failed: 0, names: [] };
  try {
    return read(JSON.parse(readFileSync(file, "utf8")));
  } catch {
    return { passed: 0, failed: 0, names: [] };
  }
}

/** Titles of the Playwright tests whose last try failed, walking the report's nested suites. */
function failedSpecs(suite, names = []) {
  for (const spec of suite.specs ?? [])
    for (const test of spec.tests ?? [])
      if (test.status === "unexpected") names.push(`${spec.file}:${spec.line} › ${spec.title} [${test.projectName}]`);
  for (const child of suite.suites ?? []) failedSpecs(child, names);
  return names;
}

ensureChromium();
for (const file of ["vitest.json", "playwright.json", "playwright-cluster.json"]) rmSync(join(cache, file), { force: true });

// The production build writes only build/, which no check and no vitest file reads.
const [quiet, vitestOk] = await Promise.all([
  quietSteps([
    ["lint: ESLint", bin("eslint"), ["."]],
    ["lint: Prettier", bin("prettier"), ["--check", "--log-level=warn", "."]],
    [
      "lint: layers (dependency-cruiser)",
      bin("depcruise"),
      ["app", "upstream", "contracts", "common", "tests", "bench", "--config", ".dependency-cruiser.cjs"],
    ],
    ["lint: dead exports (knip)", bin("knip"), ["--no-progress"]],
    ["type check", bin("tsc"), ["--noEmit", "-p", "."]],
    ["production build", process.execPath, [join(root, "scripts/build.mjs"), "--if-needed"]],
  ]),
  stepBeside("unit, platform and integration tests (vitest), beside the lint, the type check and the production build", bin("vitest"), [
    "run",
    "--reporter=default",
    "--reporter=json",
    `--outputFile=${join(cache, "vitest.json")}`,
  ]),
]);
for (const { title, output } of quiet) console.log(`\n[test] ${title}\n${output.trimEnd()}`);
let ok = vitestOk && quiet.every((result) => result.ok);
ok = step("end-to-end tests (Playwright, Chromium)", bin("playwright"), ["test"]) && ok;
// The @cluster flows again through `npm run cluster`: two consoles, two platforms, HAProxy, PostgreSQL.
ok =
  step("end-to-end tests through the cluster (Playwright, npm run cluster)", bin("playwright"), [
    "test",
    "-c",
    "playwright.cluster.config.ts",
  ]) && ok;

const unit = counts(join(cache, "vitest.json"), (r) => ({
  passed: r.numPassedTests,
  failed: r.numFailedTests,
  names: r.testResults.flatMap((file) =>
    file.assertionResults.filter((test) => test.status === "failed").map((test) => `${file.name.replace(root, "")} › ${test.fullName}`),
  ),
}));
const playwrightCounts = (r) => ({
  passed: r.stats.expected + r.stats.flaky,
  failed: r.stats.unexpected,
  names: failedSpecs(r),
});
const single = counts(join(cache, "playwright.json"), playwrightCounts);
const cluster = counts(join(cache, "playwright-cluster.json"), playwrightCounts);
const e2e = { passed: single.passed + cluster.passed, failed: single.failed + cluster.failed };
const passed = unit.passed + e2e.passed;
let failed = unit.failed + e2e.failed;
// A step that failed without a failing test (type errors, a broken build) still counts as one.
if (!ok && failed === 0) failed = 1;
// Named again last, so that the tail of a long log (all CI keeps) says which tests failed.
const failures = [...unit.names, ...single.names, ...cluster.names];
if (failures.length) console.log(`\n[test] failed:\n${failures.map((name) => `  ${name}`).join("\n")}`);
console.log(`\n[test] vitest ${unit.passed} passed, ${unit.failed} failed; playwright ${e2e.passed} passed, ${e2e.failed} failed`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(ok ? 0 : 1);
