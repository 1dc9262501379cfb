import { sql, type RawBuilder } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { TEST_DB, describeDb, freshDatabase } from "../test-db";
import { copyOut } from "./copy-out";
import { poolOf, type OpenedDatabase } from "./index";

describeDb(`COPY out on ${TEST_DB}`, () => {
  let database: OpenedDatabase;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(() => database.close());

  /** `count` rows of the given cells over `g`, 1 to count (values are parameters: COPY inlines them). */
  const series = (count: number, ...cells: RawBuilder<unknown>[]) =>
    database.db.selectFrom(sql`generate_series(1, ${count})`.as("g")).select(cells.map((cell, i) => cell.as(`c${i}`)));

  it("streams rows in batches, in both formats, values as the query made them", async () => {
    const pool = poolOf(database.db);
    // PGlite has no pool and no COPY to a client: its exports read keyset chunks instead.
    if (TEST_DB === "pglite") return expect(pool).toBeUndefined();

    const text = "it's a\\b\tc\nd"; // a quote and every character COPY's text format escapes
    const batches = [];
    for await (const batch of copyOut(pool!, series(2_500, sql`g || ${text}`), { format: "text", batchRows: 1_000, rowEnd: "|" })) {
      batches.push(batch);
    }
    expect(batches.map((b) => b.count)).toEqual([1_000, 1_000, 500]);
    const rows = Buffer.concat(batches.map((b) => b.data)).toString().split("|");
    expect(rows).toHaveLength(2_501);
    expect(rows[0]).toBe(`1${text}`);
    expect(rows[2_499]).toBe(`2500${text}`);

    const csv = [];
    for await (const batch of copyOut(pool!, series(2, sql`g`, sql`${'a,"b"'}::text`), { format: "csv", batchRows: 1_000, rowEnd: "\r\n" })) csv.push(batch.data.toString());
    expect(csv).toEqual(['1,"a,""b"""\r\n2,"a,""b"""\r\n']);
    expect(pool!.idleCount).toBe(pool!.totalCount); // every connection back in the pool
  });

  it("stops the query and drops its connection when the reader stops early", async () => {
    const pool = poolOf(database.db);
    if (TEST_DB === "pglite") return expect(pool).toBeUndefined();

    for await (const batch of copyOut(pool!, series(5_000_000, sql`repeat('x', 100)`), { format: "csv", batchRows: 1_000, rowEnd: "\n" })) {
      expect(batch.count).toBe(1_000);
      break;
    }
    const running = () => sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'COPY (%' AND state = 'active'`.execute(database.db);
    await expect.poll(async () => (await running()).rows[0].n, { timeout: 5_000 }).toBe(0);
  });
});
