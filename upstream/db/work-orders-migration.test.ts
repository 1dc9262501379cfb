import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { TEST_DB, describeDb, freshDatabase } from "#upstream/test-db";
import type { OpenedDatabase } from "./";
import { migrations } from "./migrate";

// Migration 150 (decision 021): existing work orders get their creator as owner and a due time a
// day after they were made, and numbering goes on from each day's highest number.
describeDb(`migration 150 (work orders) on ${TEST_DB}`, () => {
  let database: OpenedDatabase;
  const migrator = () => new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => database?.close());

  it("keeps existing orders, owned by their creator, and numbers on; and reverts", async () => {
    expect((await migrator().migrateTo("110-knowledge")).error).toBeUndefined();
    const db = database.db;
    await sql`INSERT INTO tenants (code, name, customer_id) VALUES ('w', '工单租户', 'CW')`.execute(db);
    await sql`INSERT INTO users (tenant_id, user_name, real_name, password_hash, role)
              SELECT id, 'w-agent', '工单坐席', 'x', 'agent' FROM tenants WHERE code = 'w'`.execute(db);
    await sql`INSERT INTO work_order_records (tenant_id, number, title, created_by, created_at)
              SELECT t.id, n.number, '旧工单', u.id, timestamptz '2026-01-15 10:00:00+08'
              FROM tenants t JOIN users u ON u.tenant_id = t.id, (VALUES ('GD202601150003'), ('GD202601150007')) AS n(number)
              WHERE t.code = 'w'`.execute(db);

    expect((await migrator().migrateTo("150-work-orders")).error).toBeUndefined();
    const rows = await sql<{ owned: boolean; due: Date }>`
      SELECT owner_user_id = created_by AS owned, due_at AS due FROM work_order_records ORDER BY id`.execute(db);
    expect(rows.rows.map((r) => [r.owned, new Date(r.due).toISOString()])).toEqual([
      [true, "2026-01-16T02:00:00.000Z"],
      [true, "2026-01-16T02:00:00.000Z"],
    ]);
    const counter = await sql<{ day: string; last: number }>`SELECT day, last FROM work_order_numbers`.execute(db);
    expect(counter.rows).toEqual([{ day: "20260115", last: 7 }]);

    expect((await migrator().migrateTo("110-knowledge")).error).toBeUndefined();
    const kept = await sql<{ number: string }>`SELECT number FROM work_order_records ORDER BY id`.execute(db);
    expect(kept.rows.map((r) => r.number)).toEqual(["GD202601150003", "GD202601150007"]);
  });
});
