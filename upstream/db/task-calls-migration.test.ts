import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { TEST_DB, describeDb, freshDatabase } from "#upstream/test-db";
import { migrateAndSeed } from "#upstream/testing";
import type { OpenedDatabase } from "./";

// Migration 398: a call's one foreign key is to its batch, with the batch's campaign and tenant.
describeDb(`migration 398 (a call belongs to its batch) on ${TEST_DB}`, () => {
  let database: OpenedDatabase;
  beforeAll(async () => {
    database = await freshDatabase();
    await migrateAndSeed(database.db);
  });
  afterAll(async () => database?.close());

  const someBatch = () =>
    database.db.selectFrom("task_batches").select(["id", "campaign_id", "tenant_id"]).orderBy("id").executeTakeFirstOrThrow();
  const call = (batch: { id: number; campaign_id: number; tenant_id: number }) => ({
    tenant_id: batch.tenant_id,
    campaign_id: batch.campaign_id,
    batch_id: batch.id,
    phone: "13900000001",
  });

  it("refuses a call whose campaign or tenant is not its batch's", async () => {
    const batch = await someBatch();
    const other = await database.db.selectFrom("campaigns").select("id").where("id", "!=", batch.campaign_id).executeTakeFirstOrThrow();
    await expect(
      database.db
        .insertInto("task_calls")
        .values({ ...call(batch), campaign_id: other.id })
        .execute(),
    ).rejects.toThrow(/foreign key/i);
    await expect(
      database.db
        .insertInto("task_calls")
        .values({ ...call(batch), tenant_id: batch.tenant_id + 1000 })
        .execute(),
    ).rejects.toThrow(/foreign key/i);
    await database.db.insertInto("task_calls").values(call(batch)).execute();
  });

  it("removes a campaign's calls with the campaign, through its batches, and a tenant's with the tenant", async () => {
    const batch = await someBatch();
    const calls = () =>
      database.db
        .selectFrom("task_calls")
        .select(sql<number>`count(*)::int`.as("n"))
        .where("campaign_id", "=", batch.campaign_id)
        .executeTakeFirstOrThrow();
    expect((await calls()).n).toBeGreaterThan(0);
    await database.db.deleteFrom("campaigns").where("id", "=", batch.campaign_id).execute();
    expect((await calls()).n).toBe(0);

    const tenant = (await someBatch()).tenant_id;
    await database.db.deleteFrom("tenants").where("id", "=", tenant).execute();
    const left = await database.db.selectFrom("task_calls").select("id").where("tenant_id", "=", tenant).execute();
    expect(left).toEqual([]);
  });
});
