import { setTimeout as sleep } from "node:timers/promises";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { TEST_DB, describeDb, freshDatabase } from "#upstream/test-db";
import type { OpenedDatabase } from "./";
import { migrateToLatest } from "./migrate";

// PGlite has one session; its dialect must keep a transaction's statements apart from everyone
// else's. The same expectations hold on PostgreSQL with its pool.
describeDb(`transactions on ${TEST_DB}`, () => {
  let database: OpenedDatabase;
  beforeAll(async () => {
    database = await freshDatabase();
    await migrateToLatest(database.db);
  });
  afterAll(async () => {
    await database?.close();
  });

  const countTenants = async () =>
    Number(
      (
        await database.db
          .selectFrom("tenants")
          .select((eb) => eb.fn.countAll().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it("keeps concurrent queries out of an open transaction and rolls back on error", async () => {
    const failing = database.db.transaction().execute(async (trx) => {
      await trx.insertInto("tenants").values({ code: "tx", name: "事务", customer_id: "CTX" }).execute();
      await sleep(50);
      throw new Error("roll back");
    });
    const concurrent = countTenants();
    await expect(failing).rejects.toThrow("roll back");
    expect(await concurrent).toBe(0);
    expect(await countTenants()).toBe(0);
  });

  it("commits, and reports affected rows", async () => {
    await database.db.transaction().execute(async (trx) => {
      await trx.insertInto("tenants").values({ code: "a", name: "甲", customer_id: "CA" }).execute();
      await trx.insertInto("tenants").values({ code: "b", name: "乙", customer_id: "CB" }).execute();
    });
    // Tenant names are unique (migration 100): each one changes to a name of its own.
    const result = await database.db
      .updateTable("tenants")
      .set({ name: sql<string>`name || '（改）'` })
      .executeTakeFirst();
    expect(result.numUpdatedRows).toBe(2n);
    expect(await countTenants()).toBe(2);
  });

  it("supports savepoints", async () => {
    const trx = await database.db.startTransaction().execute();
    const sp = await trx.savepoint("before_c").execute();
    await sp.insertInto("tenants").values({ code: "c", name: "丙", customer_id: "CC" }).execute();
    const released = await sp.rollbackToSavepoint("before_c").execute();
    await released.insertInto("tenants").values({ code: "d", name: "丁", customer_id: "CD" }).execute();
    await released.commit().execute();
    const codes = await database.db.selectFrom("tenants").select("code").orderBy("code").execute();
    expect(codes.map((row) => row.code)).toEqual(["a", "b", "d"]);
  });
});
