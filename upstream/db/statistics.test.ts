import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { TEST_DB, describeDb, freshDatabase } from "#upstream/test-db";
import type { OpenedDatabase } from "./";
import { migrateToLatest } from "./migrate";
import { analyzeStaleTables, keepStatistics } from "./statistics";

describeDb(`planner statistics on ${TEST_DB}`, () => {
  let database: OpenedDatabase;
  let added = 0;
  beforeAll(async () => {
    database = await freshDatabase();
    await migrateToLatest(database.db);
  });
  afterAll(async () => {
    await database?.close();
  });

  const addTenants = async (count: number) => {
    const rows = Array.from({ length: count }, (_, i) => ({
      code: `t${added + i}`,
      name: `租户${added + i}`,
      customer_id: `C${added + i}`,
    }));
    added += count;
    await database.db.insertInto("tenants").values(rows).execute();
  };
  /** How many rows the planner believes a scan of tenants returns. */
  const plannedRows = async () => {
    const { rows } = await sql<{ "QUERY PLAN": string }>`EXPLAIN SELECT * FROM tenants`.execute(database.db);
    return Number(/rows=(\d+)/.exec(rows[0]["QUERY PLAN"])?.[1]);
  };

  it("analyses a table once enough of it changed, as autovacuum would, and leaves it alone otherwise", async () => {
    await addTenants(300);
    expect(await analyzeStaleTables(database.db)).toContain("tenants");
    expect(await plannedRows()).toBe(300);

    await addTenants(20); // under 50 + 10 % of 300
    expect(await analyzeStaleTables(database.db)).not.toContain("tenants");
    expect(await plannedRows()).not.toBe(320);

    await addTenants(100);
    expect(await analyzeStaleTables(database.db)).toContain("tenants");
    expect(await plannedRows()).toBe(420);
  });

  it("keeps PGlite's statistics from the moment the platform starts, and leaves PostgreSQL's to autovacuum", async () => {
    await addTenants(200);
    const stop = await keepStatistics(database.db, (error) => {
      throw error;
    });
    stop();
    if (TEST_DB === "pglite") expect(await plannedRows()).toBe(620);
    else expect(await analyzeStaleTables(database.db)).toContain("tenants");
  });
});
