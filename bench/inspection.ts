import { performance } from "node:perf_hooks";
import { sql } from "kysely";
import { buildApp } from "#upstream/app";
import { openDatabase } from "#upstream/db";
import { migrateToLatest } from "#upstream/db/migrate";
import { seedDemo } from "#upstream/seed/demo";
import { generateCalls } from "#upstream/seed/generate-calls";
import { DEMO_PASSWORD } from "#upstream/seed/demo";

/**
 * The inspection list and "next" at scale (decision 018): RECORDS generated calls (default a
 * million) in tenant demo, then the median time of the platform answering POST /ccb/callInfo for
 * the first page, a page 95 % deep by its keyset cursor, the same two filtered by status, and
 * GET /ccb/callInfo/next; then POST /ccb/callInfo/export of the EXPORT newest calls (default
 * 100,000; a start time that keeps that many) as CSV and as XLSX, the whole body received.
 * In-process (app.inject): the platform's own time, no network.
 * Run: node --import tsx bench/inspection.ts [RECORDS] [EXPORT]   (DATABASE_URL for PostgreSQL, else PGlite in memory)
 */
const records = Number(process.argv[2] ?? 1_000_000);
const exportRows = Number(process.argv[3] ?? 100_000);
const database = await openDatabase(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : { inMemory: true });
const db = database.db;
await migrateToLatest(db);
await seedDemo(db);
let started = performance.now();
await generateCalls(db, { count: records, tenantCode: "demo", days: 90 });
await sql`ANALYZE call_records`.execute(db);
console.log(`generated ${records} calls in ${((performance.now() - started) / 1000).toFixed(0)} s`);

const app = buildApp({ db, clientId: "web-console", clientSecret: "web-console-secret", logger: { level: "warn" } });
const login = await app.inject({
  method: "POST",
  url: "/uaa/oauth/token",
  headers: { authorization: `Basic ${Buffer.from("web-console:web-console-secret").toString("base64")}` },
  payload: { grant_type: "password", username: "admin", password: DEMO_PASSWORD },
});
const token = (login.json() as { access_token: string }).access_token;
const headers = { authorization: `Bearer ${token}` };

async function median(name: string, run: () => Promise<{ statusCode: number }>, times = 15) {
  const spent: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    const response = await run();
    spent.push(performance.now() - t);
    if (response.statusCode !== 200) throw new Error(`${name}: ${response.statusCode}`);
  }
  spent.sort((a, b) => a - b);
  console.log(`${name}: median ${spent[Math.floor(times / 2)].toFixed(1)} ms, max ${spent[times - 1].toFixed(1)} ms`);
}

const tenant = await db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow();
const cursorAt = async (offset: number, status?: number) => {
  const row = await db
    .selectFrom("call_records")
    .select([sql<string>`(extract(epoch from call_time) * 1000)::bigint`.as("ms"), "id"])
    .where("tenant_id", "=", tenant.id)
    .$if(status !== undefined, (q) => q.where("qc_status", "=", status!))
    .orderBy("call_time", "desc")
    .orderBy("id", "desc")
    .offset(offset)
    .limit(1)
    .executeTakeFirstOrThrow();
  return `${row.ms}_${row.id}`;
};
const list = (body: object) => () => app.inject({ method: "POST", url: "/ccb/callInfo", headers, payload: body });
const deep = await cursorAt(Math.floor(records * 0.95));
const waitingDeep = await cursorAt(Math.floor(records * 0.35), -1);
await median("list, page 1", list({ pageSize: 20 }));
await median("list, 95 % deep by cursor", list({ pageSize: 20, pageNo: 47_500, after: deep }));
await median("list 未质检, page 1", list({ pageSize: 20, qcStatus: -1 }));
await median("list 未质检, 35 % deep by cursor", list({ pageSize: 20, pageNo: 17_500, qcStatus: -1, after: waitingDeep }));
started = performance.now();
await app.inject({ method: "POST", url: "/ccb/tasks/apply", headers, payload: { count: 20 } });
console.log(`apply 20: ${(performance.now() - started).toFixed(1)} ms`);
const mine = await app.inject({ method: "POST", url: "/ccb/callInfo", headers, payload: { mine: true, pageSize: 20 } });
const first = (mine.json() as { data: { list: Array<{ callId: number }> } }).data.list[0].callId;
await median("next", () => app.inject({ method: "GET", url: `/ccb/callInfo/next/${first}`, headers }));

// The export: every call from the one EXPORT deep onwards (newest first), the body read to its end.
const since = Number((await cursorAt(exportRows - 1)).split("_")[0]);
const expected = await db
  .selectFrom("call_records")
  .select((eb) => eb.fn.countAll<string>().as("n"))
  .where("tenant_id", "=", tenant.id)
  .where("call_time", ">=", new Date(since))
  .executeTakeFirstOrThrow();
for (const format of ["csv", "xlsx"] as const) {
  started = performance.now();
  const response = await app.inject({ method: "POST", url: "/ccb/callInfo/export", headers, payload: { format, startTime: since } });
  const seconds = (performance.now() - started) / 1000;
  if (response.statusCode !== 200) throw new Error(`export ${format}: ${response.statusCode} ${response.body.slice(0, 200)}`);
  const rows = format === "csv" ? response.body.split("\r\n").length - 2 : Number(expected.n);
  console.log(`export of ${rows} rows (${format}): ${seconds.toFixed(1)} s, ${(response.rawPayload.length / 1e6).toFixed(1)} MB`);
}
await app.close();
await database.close();
