/**
 * What inserting a campaign's calls costs the database alone: `rows` calls written into one batch
 * of a seeded platform in the import's own statements (5,000 rows each, one transaction each),
 * nothing read or checked. Prints the wall and CPU time (PGlite runs in this process, so its CPU
 * is the database's). `--schema=before` undoes migration 398 first (three foreign keys, eleven
 * indexes), to compare.
 *
 *   node --import tsx bench/insert-calls.ts [rows] [--schema=before]   (DATABASE_URL=… for PostgreSQL)
 */
import type { Insertable } from "kysely";
import { performance } from "node:perf_hooks";
import type { Database } from "#upstream/db/schema";
import { down as before398 } from "#upstream/db/migrations/398-task-calls-lighter-writes";
import { createBatch } from "#upstream/repositories/task-batches";
import { preparePlatform } from "#upstream/testing";

const CHUNK = 5000;
const rows = Number(process.argv[2] ?? 100_000);
const platform = await preparePlatform(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {});
try {
  const db = platform.db;
  if (process.argv.includes("--schema=before")) await before398(db);
  const campaign = await db.selectFrom("campaigns").select(["id", "tenant_id"]).orderBy("id").executeTakeFirstOrThrow();
  const at = new Date();
  const batchId = await createBatch(db, campaign.tenant_id, campaign.id, "insert-calls", 0, at);
  const started = performance.now();
  const cpu = process.cpuUsage();
  for (let first = 0; first < rows; first += CHUNK) {
    const values: Insertable<Database["task_calls"]>[] = [];
    for (let i = first; i < Math.min(rows, first + CHUNK); i++)
      values.push({
        tenant_id: campaign.tenant_id,
        campaign_id: campaign.id,
        batch_id: batchId,
        phone: `1${3 + (i % 7)}${String(100_000_000 + i).slice(0, 9)}`,
        customer_name: null,
        user_data: "{}",
        created_at: at,
        updated_at: at,
      });
    await db.transaction().execute((trx) => trx.insertInto("task_calls").values(values).execute());
  }
  const used = process.cpuUsage(cpu);
  console.log(
    `${rows} calls inserted: ${((performance.now() - started) / 1000).toFixed(1)} s, CPU ${((used.user + used.system) / 1e6).toFixed(1)} s in this process`,
  );
} finally {
  await platform.close();
}
