import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { TEST_DB, describeDb, freshDatabase } from "#upstream/test-db";
import type { OpenedDatabase } from "./";
import { migrateToLatest, migrateToNone, migrations } from "./migrate";

describeDb(`migrations on ${TEST_DB}`, () => {
  let database: OpenedDatabase;
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => {
    await database?.close();
  });

  const tableNames = async () => (await database.db.introspection.getTables()).map((table) => table.name).sort();

  // Tables every later migration builds on; each later piece of work tests its own.
  const CORE_TABLES = ["access_tokens", "call_dialogs", "call_records", "campaigns", "task_batches", "task_calls", "tenants", "users"];

  it("runs every migration, in order, and creates the core tables", async () => {
    const { results } = await migrateToLatest(database.db);
    expect(results?.map((r) => [r.migrationName, r.status])).toEqual(
      Object.keys(migrations)
        .sort()
        .map((name) => [name, "Success"]),
    );
    expect(await tableNames()).toEqual(expect.arrayContaining(CORE_TABLES));
  });

  it("runs a migration that sorts before one already run (numbers reserved by parallel work)", async () => {
    const earlier = await freshDatabase();
    try {
      const { "200-inspection-forms": late, ...rest } = migrations;
      expect(late).toBeDefined();
      await new Migrator({ db: earlier.db, provider: { getMigrations: async () => rest } }).migrateToLatest();
      const { results } = await migrateToLatest(earlier.db);
      expect(results?.map((r) => [r.migrationName, r.status])).toEqual([["200-inspection-forms", "Success"]]);
    } finally {
      await earlier.close();
    }
  });

  it("does nothing the second time", async () => {
    const { results } = await migrateToLatest(database.db);
    expect(results).toEqual([]);
  });

  it("enforces the role check and unique user names", async () => {
    const { id: tenantId } = await database.db
      .insertInto("tenants")
      .values({ code: "t", name: "测试", customer_id: "C1" })
      .returning("id")
      .executeTakeFirstOrThrow();
    const user = { tenant_id: tenantId, user_name: "u", real_name: "测试", password_hash: "x", role: "agent" as const };
    await database.db.insertInto("users").values(user).execute();
    await expect(database.db.insertInto("users").values(user).execute()).rejects.toThrow(/unique/i);
    await expect(
      sql`insert into users (tenant_id, user_name, real_name, password_hash, role) values (${tenantId}, 'v', 'v', 'x', 'root')`.execute(
        database.db,
      ),
    ).rejects.toThrow(/check constraint/i);
  });

  it("reads int8 as a number on both backends", async () => {
    const { rows } = await sql<{ n: unknown }>`select count(*) as n from users`.execute(database.db);
    expect(rows[0].n).toBe(1);
  });

  it("reverts and re-applies cleanly", async () => {
    await database.db.deleteFrom("tenants").execute();
    await migrateToNone(database.db);
    expect(await tableNames()).toEqual([]);
    await migrateToLatest(database.db);
    expect(await tableNames()).toEqual(expect.arrayContaining(CORE_TABLES));
  });
});
