// Lighthouse 12 (mobile, default simulated throttling) in Debian's Chromium, one process per run;
// the median run by score is reported.
import { execFile } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { LIGHTHOUSE_PAGES, LIGHTHOUSE_SWEEP, TARGETS } from "../config.mjs";
import { getPage } from "../lib/http.mjs";
import { firstEntitled, loadServerBuild, ROOT, screenRoutes } from "../lib/weight.mjs";

const CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --disable-background-networking";

async function run(url, cookie, out, categories = "performance") {
  const args = [
    join(ROOT, "node_modules/lighthouse/cli/index.js"),
    url,
    "--quiet",
    `--only-categories=${categories}`,
    "--output=json",
    `--output-path=${out}`,
    `--chrome-flags=${CHROME_FLAGS}`,
  ];
  if (cookie) {
    writeFileSync(`${out}.headers.json`, JSON.stringify({ Cookie: cookie }));
    args.push(`--extra-headers=${out}.headers.json`);
  }
  await promisify(execFile)(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? "/usr/bin/chromium" },
    maxBuffer: 64 << 20,
  });
  const report = JSON.parse(readFileSync(out, "utf8"));
  const audit = (id) => report.audits[id].numericValue;
  return {
    benchmarkIndex: report.environment.benchmarkIndex,
    score: report.categories.performance.score,
    accessibility: report.categories.accessibility?.score,
    bestPractices: report.categories["best-practices"]?.score,
    mainThreadMs: audit("mainthread-work-breakdown"),
    lcp: audit("largest-contentful-paint"),
    tbt: audit("total-blocking-time"),
    cls: audit("cumulative-layout-shift"),
  };
}

/**
 * The call-detail dialogs to measure: the first calls of /callHistory with a recording (a player)
 * and without one (no player).
 */
async function callDetails(consoleUrl, cookie) {
  const list = await getPage(consoleUrl, "/callHistory", cookie);
  const found = {};
  for (const [, href] of list.html.matchAll(/href="(\/callHistory\/\d+)[?"]/g)) {
    const detail = await getPage(consoleUrl, href, cookie);
    const kind = detail.html.includes("<audio") ? "with a recording" : "without a recording";
    found[kind] ??= href;
    if (Object.keys(found).length === 2) break;
  }
  return Object.entries(found).map(([kind, path]) => ({ name: `call detail ${kind}`, path }));
}

export async function lighthouse({ consoleUrl, sessions, lighthouseRuns, tmp }) {
  const screens = screenRoutes(await loadServerBuild());
  const rows = [];
  // BENCH_LIGHTHOUSE_SCREENS=/audit,/workBench measures those screens only (a re-measure).
  const chosen = process.env.BENCH_LIGHTHOUSE_SCREENS?.split(",");
  for (const page of LIGHTHOUSE_PAGES.filter((p) => !chosen || chosen.includes(p.path))) {
    const command = `CHROME_PATH=/usr/bin/chromium lighthouse ${consoleUrl}${page.path} --only-categories=performance --chrome-flags="${CHROME_FLAGS}"${page.account ? ` --extra-headers=<session of ${page.account}>` : ""} (median of ${lighthouseRuns})`;
    if (page.hydrated && !screens.find((screen) => screen.pattern === page.path)?.hydrates) {
      rows.push({
        figure: `${page.name} ${page.path}`,
        value: "not measured",
        target: "",
        command,
        note: "does not hydrate: measured once it does",
      });
      continue;
    }
    const runs = [];
    for (let i = 0; i < lighthouseRuns; i++)
      runs.push(
        await run(
          `${consoleUrl}${page.path}`,
          page.account ? sessions[page.account] : undefined,
          join(tmp, `lh-${page.name.replace(/\W/g, "-")}-${i}.json`),
        ),
      );
    const median = runs.sort((a, b) => a.score - b.score)[Math.floor(runs.length / 2)];
    const met =
      median.score >= TARGETS.lighthouseScore && median.lcp <= TARGETS.lcpMs && median.tbt <= TARGETS.tbtMs && median.cls <= TARGETS.cls;
    rows.push({
      figure: `${page.name} ${page.path}: score, LCP, TBT, CLS`,
      value: `${Math.round(median.score * 100)}, ${(median.lcp / 1000).toFixed(2)} s, ${median.tbt.toFixed(0)} ms, ${median.cls.toFixed(3)}`,
      target: `≥ ${TARGETS.lighthouseScore * 100}, ≤ ${TARGETS.lcpMs / 1000} s, ≤ ${TARGETS.tbtMs} ms, ≤ ${TARGETS.cls}`,
      met,
      command,
      note: `${runs.length > 1 ? `scores ${runs.map((r) => Math.round(r.score * 100)).join(", ")}; ` : ""}CPU benchmarkIndex ${runs.map((r) => Math.round(r.benchmarkIndex)).join(", ")}`,
    });
  }
  // The screens, as the first demo account that may open it, and the call-detail dialogs: one run
  // each, with the accessibility and best-practice categories too. A run sweeps LIGHTHOUSE_SWEEP
  // of them in turn (every screen took 837 s, most of a full run's time); BENCH_LIGHTHOUSE_SWEEP=all
  // sweeps every one.
  const every = [
    ...screens.map((screen) => ({ name: screen.pattern, url: screen.url })),
    ...(await callDetails(consoleUrl, sessions.admin)),
  ];
  const sweep = chosen
    ? every.filter((page) => chosen.includes(page.name))
    : process.env.BENCH_LIGHTHOUSE_SWEEP === "all"
      ? every
      : inTurn(every, LIGHTHOUSE_SWEEP.perRun, new Date());
  if (sweep.length < every.length)
    rows.push({
      figure: `screens swept this run (${sweep.length} of ${every.length}, in turn by the day)`,
      value: sweep.map((page) => page.name).join(", "),
      target: "",
      command: "BENCH_LIGHTHOUSE_SWEEP=all node bench/run.mjs --quick --only=lighthouse (every screen)",
    });
  for (const page of sweep) {
    const entitled = await firstEntitled(consoleUrl, page.url ?? page.path, sessions);
    const path = page.url ?? page.path;
    if (!entitled || entitled.account.includes("403")) continue;
    const command = `CHROME_PATH=/usr/bin/chromium lighthouse ${consoleUrl}${path} --only-categories=performance,accessibility,best-practices --chrome-flags="${CHROME_FLAGS}"`;
    // Lighthouse audits only pages that answer 2xx: the error pages answer their own status.
    if (entitled.status !== 200) {
      rows.push({ figure: `${page.name}`, value: "not measured", target: "", command, note: `answers ${entitled.status} by design` });
      continue;
    }
    const account = entitled.account === "anonymous" ? undefined : entitled.account;
    let result;
    try {
      result = await run(
        `${consoleUrl}${path}`,
        account ? sessions[account] : undefined,
        join(tmp, `lh-all-${path.replace(/\W/g, "-")}.json`),
        "performance,accessibility,best-practices",
      );
    } catch (error) {
      rows.push({
        figure: `${page.name}`,
        value: "run failed",
        target: "",
        met: false,
        command,
        note: String(error?.message ?? error).slice(0, 160),
      });
      continue;
    }
    const scores = [result.score, result.accessibility, result.bestPractices];
    rows.push({
      figure: `${page.name}${path !== page.name ? ` (${path})` : ""} as ${entitled.account}: performance / accessibility / best practices; TBT; main-thread work`,
      value: `${scores.map((s) => Math.round((s ?? 0) * 100)).join(" / ")}; ${result.tbt.toFixed(0)} ms; ${(result.mainThreadMs / 1000).toFixed(1)} s`,
      target: `each ≥ ${TARGETS.lighthouseScore * 100}`,
      met: scores.every((s) => (s ?? 0) >= TARGETS.lighthouseScore),
      command,
      note: `one run; CPU benchmarkIndex ${Math.round(result.benchmarkIndex)}`,
    });
  }
  return rows;
}

/**
 * `count` of the pages, the next ones in turn each day (the day since 1970 picks where to start), so
 * a day's runs measure the same screens and every screen comes round within a few days.
 */
export function inTurn(pages, count, date) {
  if (pages.length <= count) return pages;
  const start = (Math.floor(date.getTime() / 86_400_000) * count) % pages.length;
  return Array.from({ length: count }, (_, i) => pages[(start + i) % pages.length]);
}
