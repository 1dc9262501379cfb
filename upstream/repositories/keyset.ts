import { sql, type SelectQueryBuilder } from "kysely";
import type { Db } from "#upstream/db";
import { countCapped } from "./counting";

/** A page of a list that is read newest first, as the console's paginator asks for it. */
export type KeysetRequest = { pageNo: number; pageSize: number; after?: number; before?: number };

/**
 * One page of a filtered list, newest first by `idColumn`, and its total. A cursor from the page
 * shown (`after`: its last id, `before`: its first) makes the page a seek on the id index, as fast
 * at page 50,000 as at page 1; a page number alone is an offset (the jumper). Large totals are the
 * planner's estimate, flagged (counting.ts).
 */
export async function keysetPage<DB, TB extends keyof DB, O extends { id: number | string }, CB extends keyof DB = TB>(
  db: Db,
  base: SelectQueryBuilder<DB, TB, {}>,
  columns: (query: SelectQueryBuilder<DB, TB, {}>) => SelectQueryBuilder<DB, TB, O>,
  idColumn: string,
  page: KeysetRequest,
  /** What to count when the same rows are cheaper to count another way (a group's members). */
  countBase?: SelectQueryBuilder<DB, CB, {}>,
): Promise<{ list: O[]; total: number; estimated?: true }> {
  const id = sql.ref(idColumn);
  const rows = async () => {
    if (page.after !== undefined) {
      return columns(base.where(sql<boolean>`${id} < ${page.after}`))
        .orderBy(id, "desc")
        .limit(page.pageSize)
        .execute();
    }
    if (page.before !== undefined) {
      const older = await columns(base.where(sql<boolean>`${id} > ${page.before}`))
        .orderBy(id, "asc")
        .limit(page.pageSize)
        .execute();
      return older.reverse();
    }
    return columns(base)
      .orderBy(id, "desc")
      .limit(page.pageSize)
      .offset((page.pageNo - 1) * page.pageSize)
      .execute();
  };
  const [list, total] = await Promise.all([rows(), countBase ? countCapped(db, countBase) : countCapped(db, base)]);
  return { list: list as O[], ...total };
}

/** A page of a list read newest first by time and id: `after`/`before` are `<timeMs>_<id>` cursors. */
export type TimeKeysetRequest = { pageNo: number; pageSize: number; after?: string; before?: string };

/** The time and id a `<timeMs>_<id>` cursor names. */
function parseTimeCursor(cursor: string): { time: Date; id: number } {
  const [time, id] = cursor.split("_").map(Number);
  return { time: new Date(time), id };
}

/**
 * One page's rows of a list read newest first by (`timeColumn`, `idColumn`), like the call lists:
 * a cursor from the page shown (`after`: its last row, `before`: its first) makes the page a seek
 * on that pair, as fast at page 50,000 as at page 1; a page number alone is an offset (the jumper).
 */
export async function timeKeysetRows<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  timeColumn: string,
  idColumn: string,
  page: TimeKeysetRequest,
): Promise<O[]> {
  const time = sql.ref(timeColumn);
  const id = sql.ref(idColumn);
  const seek = (cursor: string, direction: "<" | ">") => {
    const at = parseTimeCursor(cursor);
    return query.where(sql<boolean>`(${time}, ${id}) ${sql.raw(direction)} (${at.time}, ${at.id})`);
  };
  if (page.after) return seek(page.after, "<").orderBy(time, "desc").orderBy(id, "desc").limit(page.pageSize).execute();
  if (page.before) return (await seek(page.before, ">").orderBy(time, "asc").orderBy(id, "asc").limit(page.pageSize).execute()).reverse();
  return query
    .orderBy(time, "desc")
    .orderBy(id, "desc")
    .limit(page.pageSize)
    .offset((page.pageNo - 1) * page.pageSize)
    .execute();
}
