/**
 * Generates any number of call records for a tenant, for benchmarks (a million in about a minute):
 *   node --import tsx upstream/seed/generate-calls.ts --count 1000000 [--tenant demo] [--days 90]
 * against the database of DATA_DIR (PGlite) or DATABASE_URL (PostgreSQL), migrated and demo-seeded
 * first if needed. Rows are made by the database itself (INSERT ... SELECT generate_series) in
 * batches; their codes repeat the demo seed's calls in turn (demoCallPattern), so each record's
 * result, intent, outcome and agent agree as a demo call's do. They have no dialogue or recording.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { sql } from "kysely";
import { openDatabase, type Db } from "#upstream/db";
import { migrateToLatest } from "#upstream/db/migrate";
import { readSettings } from "#upstream/settings";
import { demoCallPattern } from "./call-records";
import { seedDemo } from "./demo";

const BATCH = 100_000;
/** The columns a generated record takes from the demo call it repeats. */
const FROM_PATTERN = [
  "direction",
  "campaign_id",
  "campaign_type",
  "call_kind",
  "agent_user_id",
  "queue_name",
  "is_answer",
  "outbound_result",
  "call_result",
  "call_result_name",
  "intent",
  "qc_status",
  "conclusion",
  "hangup_party",
  "call_duration_ms",
  "gender",
] as const;

export async function generateCalls(db: Db, options: { count: number; tenantCode: string; days: number; now?: number }): Promise<number> {
  const tenant = await db.selectFrom("tenants").select("id").where("code", "=", options.tenantCode).executeTakeFirst();
  if (!tenant) throw new Error(`no tenant '${options.tenantCode}'`);
  const pattern = await demoCallPattern(db, tenant.id);
  const patternRows = sql.join(
    pattern.map((record, i) => sql`(${sql.join([sql.lit(i), ...FROM_PATTERN.map((column) => sql.lit(record[column] ?? null))])})`),
  );
  const columns = sql.join(FROM_PATTERN.map((column) => sql.ref(column)));
  const now = options.now ?? Date.now();
  const stepMs = Math.max(1, Math.floor((options.days * 86_400_000) / options.count));
  const run = now.toString(36);

  for (let from = 1; from <= options.count; from += BATCH) {
    const to = Math.min(options.count, from + BATCH - 1);
    await sql`
      INSERT INTO call_records (tenant_id, cti_call_id, phone, call_time, ${columns})
      SELECT ${tenant.id}, ${`gen-${run}-`} || g,
        '1' || (3 + g % 7) || lpad(((g::bigint * 2654435761) % 1000000000)::text, 9, '0'),
        timestamptz 'epoch' + (${now} - g * ${stepMs}::bigint) * interval '1 millisecond',
        ${sql.join(FROM_PATTERN.map((column) => sql.ref(`p.${column}`)))}
      FROM generate_series(${from}::bigint, ${to}::bigint) AS g
      JOIN (VALUES ${patternRows}) AS p(i, ${columns}) ON p.i = g % ${sql.lit(pattern.length)}
    `.execute(db);
    process.stdout.write(`\r${to} / ${options.count}`);
  }
  process.stdout.write("\n");
  // Fresh statistics for the planner and a visibility map for index-only scans.
  await sql`VACUUM ANALYZE call_records`.execute(db);
  return options.count;
}

async function main() {
  const { values } = parseArgs({
    options: { count: { type: "string" }, tenant: { type: "string", default: "demo" }, days: { type: "string", default: "90" } },
  });
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1) throw new Error("usage: generate-calls.ts --count N [--tenant demo] [--days 90]");
  const settings = readSettings(process.env);
  const database = await openDatabase(
    settings.databaseUrl ? { databaseUrl: settings.databaseUrl } : { dataDir: path.join(settings.dataDir, "pglite") },
  );
  try {
    await migrateToLatest(database.db);
    await seedDemo(database.db);
    const started = performance.now();
    await generateCalls(database.db, { count, tenantCode: values.tenant!, days: Number(values.days) });
    console.log(`generated ${count} call records in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) await main();
