import { sql } from "kysely";
import { poolOf, type Db } from ".";

/**
 * Planner statistics for the embedded database. PostgreSQL's autovacuum re-analyses a table once
 * enough of it has changed; PGlite has no background workers, so without this its statistics stay
 * those of an empty database and the planner picks index scans and join orders for one-row tables
 * (a call list then costs half as much again). Same rule as autovacuum's defaults: a table is
 * analysed when more than 50 rows plus 10 % of it changed since the last time, or when it has rows
 * and was never analysed.
 */
const ANALYZE_EVERY_MS = 60_000;

/** Analyses the tables whose statistics are stale; returns their names. */
export async function analyzeStaleTables(db: Db): Promise<string[]> {
  // A session reports its changes to the statistics at most once a second; PGlite's one session
  // is ours, so have it report them now.
  await sql`SELECT pg_stat_force_next_flush()`.execute(db);
  const { rows } = await sql<{ relname: string }>`
    SELECT s.relname FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
    WHERE s.n_mod_since_analyze > 50 + 0.1 * greatest(c.reltuples, 0)
       OR (c.reltuples < 0 AND s.n_mod_since_analyze > 0)`.execute(db);
  for (const { relname } of rows) await sql`ANALYZE ${sql.table(relname)}`.execute(db);
  return rows.map((row) => row.relname);
}

/**
 * On PGlite, analyses stale tables now and then every ANALYZE_EVERY_MS; on PostgreSQL, nothing
 * (autovacuum does it). The timer never keeps the process alive.
 */
export async function keepStatistics(db: Db, onError: (error: unknown) => void): Promise<() => void> {
  if (poolOf(db)) return () => {};
  await analyzeStaleTables(db);
  const timer = setInterval(() => void analyzeStaleTables(db).catch(onError), ANALYZE_EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
