import { CompiledQuery, sql, type SelectQueryBuilder } from "kysely";
import type { Db } from "../db";

/** Up to this many matching rows are counted exactly; beyond it the planner's estimate is used. */
export const EXACT_COUNT_LIMIT = 10_000;

/**
 * The number of rows a filtered query matches. Counting a million rows takes seconds, so a count
 * stops after EXACT_COUNT_LIMIT rows and larger results report the query planner's estimate,
 * flagged (the paginator shows "共约 N 条").
 */
export async function countCapped<DB, TB extends keyof DB>(db: Db, base: SelectQueryBuilder<DB, TB, {}>): Promise<{ total: number; estimated?: true }> {
  const matching = base.select(sql<number>`1`.as("one"));
  const { n } = await db
    .selectFrom(matching.limit(EXACT_COUNT_LIMIT + 1).as("capped"))
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .executeTakeFirstOrThrow();
  if (Number(n) <= EXACT_COUNT_LIMIT) return { total: Number(n) };
  const compiled = matching.compile();
  const plan = await db.executeQuery<{ "QUERY PLAN": unknown }>(CompiledQuery.raw(`EXPLAIN (FORMAT JSON) ${compiled.sql}`, [...compiled.parameters]));
  const raw = plan.rows[0]?.["QUERY PLAN"];
  const parsed = (typeof raw === "string" ? JSON.parse(raw) : raw) as Array<{ Plan: { "Plan Rows": number } }>;
  return { total: Math.max(EXACT_COUNT_LIMIT + 1, Math.round(parsed[0].Plan["Plan Rows"])), estimated: true };
}

/**
 * The total of an OFFSET-paged list: a page that comes back short is the last one, so its rows
 * already say how many match (the common case of a day's or an agent's calls on one page);
 * otherwise `count()`. Saves a query on every such page, which on PGlite is most of its cost.
 */
export async function pageTotal(
  rowCount: number,
  page: { pageNo: number; pageSize: number },
  count: () => Promise<{ total: number; estimated?: true }>,
): Promise<{ total: number; estimated?: true }> {
  const before = (page.pageNo - 1) * page.pageSize;
  return rowCount > 0 && rowCount < page.pageSize ? { total: before + rowCount } : count();
}
