import { sql, type RawBuilder } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { TEST_DB, describeDb, freshDatabase } from "#upstream/test-db";
import { copyOut, copyToBlob } from "./copy-out";
import { openDatabase, pgliteOf, poolOf, type OpenedDatabase } from "./";

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
    // PGlite has no pool and no COPY to a client: see the test of copyToBlob below.
    if (TEST_DB === "pglite") return expect(pool).toBeUndefined();

    const text = "it's a\\b\tc\nd"; // a quote and every character COPY's text format escapes
    const batches = [];
    for await (const batch of copyOut(pool!, series(2_500, sql`g || ${text}`), { format: "text", batchRows: 1_000, rowEnd: "|" })) {
      batches.push(batch);
    }
    expect(batches.map((b) => b.count)).toEqual([1_000, 1_000, 500]);
    const rows = Buffer.concat(batches.map((b) => b.data))
      .toString()
      .split("|");
    expect(rows).toHaveLength(2_501);
    expect(rows[0]).toBe(`1${text}`);
    expect(rows[2_499]).toBe(`2500${text}`);

    const csv = [];
    for await (const batch of copyOut(pool!, series(2, sql`g`, sql`${'a,"b"'}::text`), { format: "csv", batchRows: 1_000, rowEnd: "\r\n" }))
      csv.push(batch.data.toString());
    expect(csv).toEqual(['1,"a,""b"""\r\n2,"a,""b"""\r\n']);
    expect(pool!.idleCount).toBe(pool!.totalCount); // every connection back in the pool
  });

  it("copies a bounded query whole on PGlite, rows ended and values as the query made them", async () => {
    const pglite = pgliteOf(database.db);
    if (TEST_DB === "postgres") return expect(pglite).toBeUndefined();
    const copied = (query: ReturnType<typeof series>, options: { format: "csv" | "text"; rowEnd: string }) =>
      database.db.connection().execute(() => copyToBlob(pglite!, query, options));

    const text = "it's a\\b\tc\nd"; // a quote and every character COPY's text format escapes
    const rows = await copied(series(2_500, sql`g || ${text}`), { format: "text", rowEnd: "|" });
    expect(rows.count).toBe(2_500);
    expect(rows.data.toString().split("|")).toEqual([...Array.from({ length: 2_500 }, (_, i) => `${i + 1}${text}`), ""]);

    // A line break inside a quoted value does not end its row.
    const csv = await copied(series(3, sql`g`, sql`${'a,"b"\nc'}::text`, sql`'x'`), { format: "csv", rowEnd: "\r\n" });
    expect(csv.count).toBe(3);
    expect(csv.data.toString()).toBe([1, 2, 3].map((g) => `${g},"a,""b""\nc",x\r\n`).join(""));
    expect((await copied(series(0, sql`g`), { format: "csv", rowEnd: "\r\n" })).count).toBe(0);
  });

  it("stops the query and drops its connection when the reader stops early", async () => {
    const pool = poolOf(database.db);
    if (TEST_DB === "pglite") return expect(pool).toBeUndefined();

    for await (const batch of copyOut(pool!, series(5_000_000, sql`repeat('x', 100)`), { format: "csv", batchRows: 1_000, rowEnd: "\n" })) {
      expect(batch.count).toBe(1_000);
      break;
    }
    const running = () =>
      sql<{ n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity WHERE query LIKE 'COPY (%' AND state = 'active'`.execute(
        database.db,
      );
    await expect.poll(async () => (await running()).rows[0].n, { timeout: 5_000 }).toBe(0);
  });

  it("writes times in ISO form whatever the server's default DateStyle (the exports' times are that text)", async () => {
    const pool = poolOf(database.db);
    if (TEST_DB === "pglite") return expect(pool).toBeUndefined();
    const { rows } = await sql<{ name: string }>`SELECT current_database() AS name`.execute(database.db);
    await sql`ALTER DATABASE ${sql.id(rows[0].name)} SET DateStyle = 'SQL, DMY'`.execute(database.db);
    const time = sql<string>`date_trunc('second', timestamp '2026-11-29 08:05:09.987')::text`;
    // A connection of its own (the setting applies to new ones): the server now writes SQL style…
    const plain = new pg.Client({ connectionString: pool!.options.connectionString });
    await plain.connect();
    try {
      expect((await plain.query(`SELECT ${time.compile(database.db).sql} AS t`)).rows[0].t).toBe("29/11/2026 08:05:09");
    } finally {
      await plain.end();
    }
    // …and the platform's pool, ISO.
    const opened = await openDatabase({ databaseUrl: pool!.options.connectionString! });
    try {
      expect((await sql<{ t: string }>`SELECT ${time} AS t`.execute(opened.db)).rows[0].t).toBe("2026-11-29 08:05:09");
    } finally {
      await opened.close();
    }
  });
});
