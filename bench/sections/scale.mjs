// Scale at 1,000,000 call records (full mode only): the call-record generator fills a database of
// its own, a second bench platform serves it, and the platform alone is timed — a page at depth 0
// and at depth 950,000 by keyset cursor and by OFFSET, then CSV and XLSX exports with the
// platform's peak resident memory. The endpoints are the call lists' (contracts/contact.ts).
// It runs on the embedded PGlite and, when BENCH_DATABASE_URL names an empty PostgreSQL database
// the bench may fill, again on PostgreSQL (the production store): PGlite runs the database inside
// the platform's own process and thread, so its figures include the database's work and memory.
// The platform runs from a bundle as `npm start` runs it (`node build/upstream/server.mjs`), not
// through tsx, whose compiler would count in its memory.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { promisify } from "node:util";
import { PORTS, SCALE, TARGETS } from "../config.mjs";
import { platformToken, postAndCount } from "../lib/http.mjs";
import { cpuMs, rssMb, startBundledPlatform, stop } from "../lib/processes.mjs";
import { ROOT } from "../lib/weight.mjs";

const PAGE_SIZE = 20;

export async function scale({ quick, tmp, log }) {
  const generatorCommand = `DATA_DIR=<tmp> node --import tsx ${SCALE.generator} --count ${SCALE.records}`;
  if (!existsSync(join(ROOT, SCALE.generator))) {
    return [
      {
        figure: `${SCALE.records.toLocaleString("en")} call records: keyset / OFFSET pages, CSV / XLSX export`,
        value: "not measured",
        target: `keyset ≤ ${TARGETS.keysetMs} ms; CSV ≥ ${TARGETS.csvRowsPerSec / 1000}k rows/s, XLSX ≥ ${TARGETS.xlsxRowsPerSec / 1000}k rows/s, < ${TARGETS.exportRssMb} MB`,
        command: generatorCommand,
        note: `needs ${SCALE.generator}`,
      },
    ];
  }
  if (quick)
    return [
      {
        figure: "1M call records",
        value: "skipped in --quick",
        target: "",
        command: "npm run bench",
        note: "generating a million records takes minutes: full mode only",
      },
    ];

  const rows = await measureStore("PGlite", { DATA_DIR: mkdtempSync(join(tmp, "scale-")) }, generatorCommand, log);
  if (!process.env.BENCH_DATABASE_URL) return rows;
  const onPostgres = await measureStore(
    "PostgreSQL",
    { DATA_DIR: mkdtempSync(join(tmp, "scale-pg-")), DATABASE_URL: process.env.BENCH_DATABASE_URL },
    generatorCommand.replace("DATA_DIR=<tmp>", "DATABASE_URL=<BENCH_DATABASE_URL>"),
    log,
  );
  return [...rows, ...onPostgres];
}

/** Fills one store with the generator, serves it from a second bench platform and times it. */
async function measureStore(store, storeEnv, generatorCommand, log) {
  const started = performance.now();
  await promisify(execFile)(process.execPath, ["--import", "tsx", SCALE.generator, "--count", String(SCALE.records)], {
    cwd: ROOT,
    env: { ...process.env, ...storeEnv },
    maxBuffer: 64 << 20,
  });
  const generatedIn = (performance.now() - started) / 1000;

  const base = `http://127.0.0.1:${PORTS.scalePlatform}`;
  const platform = await startBundledPlatform("scale-platform", PORTS, storeEnv, log);
  try {
    const token = await platformToken(base, "admin");
    const headers = { Authorization: `Bearer ${token}`, accessToken: token };
    const timed = async (path, init = {}) => {
      const at = performance.now();
      const response = await fetch(`${base}${path}`, { ...init, headers: { ...headers, ...init.headers } });
      const body = await response.arrayBuffer();
      if (!response.ok) throw new Error(`${path} answered ${response.status}`);
      return { ms: performance.now() - at, body };
    };
    const median = async (path) => {
      const times = [];
      for (let i = 0; i < 5; i++) times.push((await timed(path)).ms);
      return times.sort((a, b) => a - b)[2];
    };
    const list = (query) => `/contact/business/callhistory?${new URLSearchParams({ pageSize: String(PAGE_SIZE), ...query })}`;
    const pageNo = (depth) => String(depth / PAGE_SIZE + 1);
    // The keyset cursor of the row just before the deep page: the last row of the page before it.
    const before = JSON.parse(Buffer.from((await timed(list({ pageNo: String(SCALE.deepPage / PAGE_SIZE) }))).body).toString()).data;
    const last = before.list.at(-1);
    const cursor = `${Date.parse(last.callTime) || last.callTime}_${last.callId}`;
    const keyset0 = await median(list({ pageNo: "1" }));
    const offsetDeep = await median(list({ pageNo: pageNo(SCALE.deepPage) }));
    const keysetDeep = await median(list({ pageNo: pageNo(SCALE.deepPage), after: cursor }));

    const idle = rssMb(platform.pid);
    const exported = async (format) => {
      let peak = rssMb(platform.pid);
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(platform.pid))), 100);
      const cpuBefore = cpuMs(platform.pid);
      // The body is counted as it arrives, not held: see postAndCount.
      const at = performance.now();
      const run = await postAndCount(`${base}/contact/campaign/record/export`, headers, { format });
      const ms = performance.now() - at;
      clearInterval(sampler);
      if (run.status !== 200) throw new Error(`the ${format} export answered ${run.status}`);
      return {
        seconds: ms / 1000,
        bytes: run.bytes,
        peak,
        cpuMs: cpuMs(platform.pid) - cpuBefore,
        lines: format === "csv" ? run.lines - 1 : undefined,
      };
    };
    const csv = await exported("csv");
    const xlsx = await exported("xlsx");
    const rows = csv.lines; // the XLSX export carries the same rows (same filter)
    const command = `npm run bench (bench/sections/scale.mjs; generated by ${generatorCommand} in ${generatedIn.toFixed(0)} s)`;
    // CPU time per 1000 rows: the figure other load on the machine disturbs least.
    const note = (run) =>
      `${store}; platform RSS before the exports ${idle.toFixed(0)} MB; platform CPU ${((run.cpuMs / rows) * 1000).toFixed(1)} ms per 1000 rows`;
    return [
      {
        figure: `${store}: page at depth 0 (keyset), median of 5`,
        value: `${keyset0.toFixed(1)} ms`,
        target: `≤ ${TARGETS.keysetMs} ms`,
        met: keyset0 <= TARGETS.keysetMs,
        command,
      },
      {
        figure: `${store}: page at depth ${SCALE.deepPage.toLocaleString("en")}: keyset / OFFSET`,
        value: `${keysetDeep.toFixed(1)} / ${offsetDeep.toFixed(1)} ms (×${(offsetDeep / keysetDeep).toFixed(0)})`,
        target: `keyset ≤ ${TARGETS.keysetMs} ms`,
        met: keysetDeep <= TARGETS.keysetMs,
        command,
      },
      {
        figure: `${store}: CSV export of ${rows.toLocaleString("en")} rows: rows/s, peak RSS`,
        value: `${(rows / csv.seconds).toFixed(0)}, ${csv.peak.toFixed(0)} MB`,
        target: `≥ ${TARGETS.csvRowsPerSec}, < ${TARGETS.exportRssMb} MB`,
        met: rows / csv.seconds >= TARGETS.csvRowsPerSec && csv.peak < TARGETS.exportRssMb,
        command,
        note: note(csv),
      },
      {
        figure: `${store}: XLSX export: rows/s, peak RSS`,
        value: `${(rows / xlsx.seconds).toFixed(0)}, ${xlsx.peak.toFixed(0)} MB`,
        target: `≥ ${TARGETS.xlsxRowsPerSec}, < ${TARGETS.exportRssMb} MB`,
        met: rows / xlsx.seconds >= TARGETS.xlsxRowsPerSec && xlsx.peak < TARGETS.exportRssMb,
        command,
        note: note(xlsx),
      },
    ];
  } finally {
    await stop(platform);
  }
}
