/**
 * Generates any number of call records for a tenant, for benchmarks (a million in about a minute):
 *   node --import tsx upstream/seed/generate-calls.ts --count 1000000 [--tenant demo] [--days 90]
 * against the database of DATA_DIR (PGlite) or DATABASE_URL (PostgreSQL), migrated and demo-seeded
 * first if needed. Rows are made by the database itself (INSERT ... SELECT generate_series) in
 * batches, cycling through every campaign type, outcome and result code like the demo seed.
 */
import path from "node:path";
import { parseArgs } from "node:util";
import { sql, type RawBuilder } from "kysely";
import { INTENT_LABELS, OUTCOME_CODES, RESULT_CODES, codesOf, labelOf } from "../../contracts/codes";
import { openDatabase, type Db } from "../db";
import { migrateToLatest } from "../db/migrate";
import { readSettings } from "../settings";
import { seedDemo } from "./demo";

const BATCH = 100_000;

/** A SQL array literal of constants (codes and ids we own, not user input). */
const array = (values: ReadonlyArray<string | number | null>): RawBuilder<unknown> => sql`ARRAY[${sql.join(values.map((v) => sql.lit(v)))}]`;
/** The element of `values` picked by the SQL integer expression `index` (cycled). */
const pick = (values: ReadonlyArray<string | number | null>, index: RawBuilder<unknown>) => sql`(${array(values)})[(${index}) % ${sql.lit(values.length)} + 1]`;

export async function generateCalls(db: Db, options: { count: number; tenantCode: string; days: number; now?: number }): Promise<number> {
  const tenant = await db.selectFrom("tenants").select("id").where("code", "=", options.tenantCode).executeTakeFirst();
  if (!tenant) throw new Error(`no tenant '${options.tenantCode}'`);
  const agents = (await db.selectFrom("users").select("id").where("tenant_id", "=", tenant.id).where("work_type", "=", 1).orderBy("id").execute()).map((u) => u.id);
  const campaigns = await db.selectFrom("campaigns").select(["id", "type"]).where("tenant_id", "=", tenant.id).orderBy("id").execute();
  if (campaigns.length === 0 || agents.length === 0) throw new Error("the tenant needs campaigns and voice agents (run the demo seed)");
  const failures = codesOf(RESULT_CODES).filter((code) => code !== 200);
  const now = options.now ?? Date.now();
  const stepMs = Math.max(1, Math.floor((options.days * 86_400_000) / options.count));
  const run = now.toString(36);

  for (let from = 1; from <= options.count; from += BATCH) {
    const to = Math.min(options.count, from + BATCH - 1);
    const g = sql`g`;
    const answered = sql`g % 2 = 0`;
    const campaign = sql`(g % ${sql.lit(campaigns.length)})`;
    await sql`
      INSERT INTO call_records (tenant_id, cti_call_id, direction, campaign_id, campaign_type, call_kind, phone, agent_user_id,
        queue_name, is_answer, outbound_result, call_result, call_result_name, intent, qc_status, conclusion, hangup_party,
        call_time, call_duration_ms, gender)
      SELECT ${tenant.id}, ${`gen-${run}-`} || g,
        CASE WHEN ${pick(campaigns.map((c) => c.type), campaign)} = 20 THEN 'inbound' ELSE 'outbound' END,
        ${pick(campaigns.map((c) => c.id), campaign)},
        ${pick(campaigns.map((c) => c.type), campaign)},
        CASE WHEN ${pick(campaigns.map((c) => c.type), campaign)} = 5 THEN 1 ELSE 0 END,
        '1' || (3 + g % 7) || lpad(((g::bigint * 2654435761) % 1000000000)::text, 9, '0'),
        ${pick(agents, g)},
        'demo-voice',
        CASE WHEN ${answered} THEN 1 ELSE 0 END,
        CASE WHEN ${pick(campaigns.map((c) => c.type), campaign)} = 20 THEN NULL ELSE ${pick(codesOf(OUTCOME_CODES), g)} END,
        CASE WHEN ${answered} THEN 200 ELSE ${pick(failures, sql`g / 2`)} END,
        CASE WHEN ${answered} THEN ${labelOf(RESULT_CODES, 200)} ELSE ${pick(failures.map((code) => labelOf(RESULT_CODES, code)), sql`g / 2`)} END,
        CASE WHEN ${answered} THEN ${pick(codesOf(INTENT_LABELS), g)} ELSE NULL END,
        (g % 5) - 1,
        CASE WHEN ${answered} THEN g % 3 ELSE NULL END,
        CASE WHEN ${answered} THEN 1 + g % 4 ELSE 5 END,
        timestamptz 'epoch' + (${now} - ${g} * ${stepMs}::bigint) * interval '1 millisecond',
        CASE WHEN ${answered} THEN 20000 + (g * 37) % 300000 ELSE 0 END,
        (g % 3) - 1
      FROM generate_series(${from}::bigint, ${to}::bigint) AS g
    `.execute(db);
    process.stdout.write(`\r${to} / ${options.count}`);
  }
  process.stdout.write("\n");
  // Fresh statistics for the planner and a visibility map for index-only scans.
  await sql`VACUUM ANALYZE call_records`.execute(db);
  return options.count;
}

async function main() {
  const { values } = parseArgs({ options: { count: { type: "string" }, tenant: { type: "string", default: "demo" }, days: { type: "string", default: "90" } } });
  const count = Number(values.count);
  if (!Number.isInteger(count) || count < 1) throw new Error("usage: generate-calls.ts --count N [--tenant demo] [--days 90]");
  const settings = readSettings(process.env);
  const database = await openDatabase(settings.databaseUrl ? { databaseUrl: settings.databaseUrl } : { dataDir: path.join(settings.dataDir, "pglite") });
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
