/**
 * The call export on PostgreSQL alone, in a minute rather than the scale section's many
 * (bench/sections/scale.mjs measures the same export among others). Fills DATABASE_URL once with
 * RECORDS generated call records of tenant demo (default a million; a database that holds them
 * already is reused), serves it from the bench platform bundled as the scale section runs it, and
 * times POST /contact/campaign/record/export RUNS times (default 3), the body counted as it
 * arrives and dropped. Per run: rows/s and the platform's peak RSS, and the CPU per 1,000 rows of
 * each part: the platform, the PostgreSQL backend that ran the COPY (from /proc, so the database
 * must run on this machine) and this reader. Wall time is valid only on an idle machine: the load
 * average is printed beside it. `--explain` adds EXPLAIN (ANALYZE, BUFFERS) of the export's query;
 * `--fetch` reads the body through fetch instead of node:http, to compare the reader's cost.
 *
 *   DATABASE_URL=postgres://… BENCH_PORT_BASE=… node --import tsx bench/call-export.ts [RECORDS] [--runs=3] [--format=xlsx] [--explain] [--fetch]
 */
import { existsSync } from "node:fs";
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { openDatabase } from "#upstream/db";
import { migrateToLatest } from "#upstream/db/migrate";
import { CSV_CELLS, XLSX_ROWS } from "#upstream/domain/call-export";
import { exportQuery } from "#upstream/repositories/call-records";
import { seedDemo } from "#upstream/seed/demo";
import { generateCalls } from "#upstream/seed/generate-calls";
import { PORTS } from "./config.mjs";
import { newlines, platformToken, postAndCount } from "./lib/http.mjs";
import { cpuMs, rssMb, startBundledPlatform, stop } from "./lib/processes.mjs";

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    runs: { type: "string", default: "3" },
    format: { type: "string", default: "csv" },
    explain: { type: "boolean", default: false },
    fetch: { type: "boolean", default: false },
  },
});
const records = Number(positionals[0] ?? 1_000_000);
const format = values.format === "xlsx" ? "xlsx" : "csv";
const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) throw new Error("DATABASE_URL must name a PostgreSQL database the bench may fill");

const database = await openDatabase({ databaseUrl });
const db = database.db;
await migrateToLatest(db);
await seedDemo(db);
const tenant = await db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow();
const generated = async () =>
  Number(
    (
      await db
        .selectFrom("call_records")
        .select((eb) => eb.fn.countAll<string>().as("n"))
        .where("tenant_id", "=", tenant.id)
        .where("cti_call_id", "like", "gen-%")
        .executeTakeFirstOrThrow()
    ).n,
  );
const held = await generated();
if (held < records) {
  const started = performance.now();
  await generateCalls(db, { count: records - held, tenantCode: "demo", days: 90 });
  console.log(`generated ${records - held} call records in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

/** CPU so far of the database's client backends, by pid. */
async function backendCpu(): Promise<Map<number, number>> {
  const { rows } = await sql<{ pid: number }>`SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend'`.execute(db);
  return new Map(rows.filter((row) => existsSync(`/proc/${row.pid}`)).map((row) => [row.pid, cpuMs(row.pid)]));
}
/** The backends whose last statement was an export's COPY. */
async function copyBackends(): Promise<number[]> {
  const { rows } = await sql<{ pid: number }>`
    SELECT pid FROM pg_stat_activity WHERE backend_type = 'client backend' AND query LIKE 'COPY (%'`.execute(db);
  return rows.map((row) => row.pid);
}

const base = `http://127.0.0.1:${PORTS.scalePlatform}`;
const platform = await startBundledPlatform("export-platform", PORTS, { DATABASE_URL: databaseUrl }, process.stderr);
try {
  const token = await platformToken(base, "admin");
  console.log(
    `${format.toUpperCase()} export of tenant demo's outbound calls (${records.toLocaleString("en")} generated); platform RSS ${rssMb(platform.pid!).toFixed(0)} MB`,
  );
  for (let run = 1; run <= Number(values.runs); run++) {
    const load = loadavg()[0];
    const backendsBefore = await backendCpu();
    const platformBefore = cpuMs(platform.pid!);
    const readerBefore = process.cpuUsage();
    let peak = rssMb(platform.pid!);
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(platform.pid!))), 100);
    const started = performance.now();
    const headers = { Authorization: `Bearer ${token}`, accessToken: token };
    const { status, bytes, lines } = values.fetch
      ? await fetchAndCount(`${base}/contact/campaign/record/export`, headers, { format })
      : await postAndCount(`${base}/contact/campaign/record/export`, headers, { format });
    if (status !== 200) throw new Error(`the export answered ${status}`);
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const reader = process.cpuUsage(readerBefore);
    const platformMs = cpuMs(platform.pid!) - platformBefore;
    const backends = await copyBackends();
    const backendMs = backends.reduce((sum, pid) => sum + cpuMs(pid) - (backendsBefore.get(pid) ?? 0), 0);
    // CSV: a line per record after the header. XLSX: the count of the same filter's records.
    const rows = format === "csv" ? lines - 1 : await outboundCount();
    const per1000 = (ms: number) => ((ms / rows) * 1000).toFixed(2);
    console.log(
      `run ${run}: ${rows.toLocaleString("en")} rows, ${(bytes / 1e6).toFixed(0)} MB in ${seconds.toFixed(2)} s = ${(rows / seconds).toFixed(0)} rows/s, ` +
        `platform peak RSS ${peak.toFixed(0)} MB; CPU ms per 1,000 rows: PostgreSQL backend ${backends.length ? per1000(backendMs) : "n/a"}, ` +
        `platform ${per1000(platformMs)}, reader ${per1000((reader.user + reader.system) / 1000)}; load average before ${load.toFixed(2)}`,
    );
  }
  if (values.explain) {
    const query = exportQuery(db, tenant.id, { direction: "outbound" }, {}, format === "csv" ? CSV_CELLS : XLSX_ROWS).compile();
    const { rows } = await db.executeQuery<{ "QUERY PLAN": string }>({
      ...query,
      sql: `EXPLAIN (ANALYZE, BUFFERS, VERBOSE) ${query.sql}`,
    });
    console.log(rows.map((row) => row["QUERY PLAN"]).join("\n"));
  }
} finally {
  await stop(platform);
  await database.close();
}

async function outboundCount(): Promise<number> {
  const row = await db
    .selectFrom("call_records")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("tenant_id", "=", tenant.id)
    .where("direction", "=", "outbound")
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The body read through fetch instead (`--fetch`), to compare what the reader costs. */
async function fetchAndCount(url: string, headers: Record<string, string>, body: object) {
  const response = await fetch(url, {
    method: "POST",
    headers: { ...headers, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  let bytes = 0;
  let lines = 0;
  const reader = response.body!.getReader();
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    const chunk = read.value;
    bytes += chunk.length;
    lines += newlines(chunk);
  }
  return { status: response.status, bytes, lines };
}
