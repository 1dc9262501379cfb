import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { TEST_DB, describeDb, freshDatabase } from "#upstream/test-db";
import type { OpenedDatabase } from "./";
import { migrations } from "./migrate";

// Migration 350 (decision 033): scoring form names repeated in a tenant before the unique index
// keep the oldest form's name, the others get their id; evaluations get versions; and it reverts.
describeDb(`migration 350 (inspection form names, evaluation versions) on ${TEST_DB}`, () => {
  let database: OpenedDatabase;
  const migrator = () => new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => database?.close());

  it("renames repeated names but the oldest, then refuses a repeat; versions evaluations; reverts", async () => {
    expect((await migrator().migrateTo("320-robot-instance-voice-line-calendar")).error).toBeUndefined();
    const db = database.db;
    await sql`INSERT INTO tenants (code, name, customer_id) VALUES ('q1', '质检一', 'CQ1'), ('q2', '质检二', 'CQ2')`.execute(db);
    await sql`INSERT INTO inspection_forms (tenant_id, name, items)
              SELECT t.id, n.name, '[]'::jsonb FROM tenants t, (VALUES ('服务表'), ('服务表'), ('合规表')) AS n(name)
              WHERE t.code IN ('q1', 'q2') ORDER BY t.code, n.name DESC`.execute(db);

    expect((await migrator().migrateTo("350-inspection-form-names-and-evaluation-versions")).error).toBeUndefined();
    const forms = await sql<{ code: string; id: number; name: string }>`
      SELECT t.code, f.id, f.name FROM inspection_forms f JOIN tenants t ON t.id = f.tenant_id ORDER BY f.id`.execute(db);
    for (const code of ["q1", "q2"]) {
      const [first, second, third] = forms.rows.filter((f) => f.code === code);
      expect([first.name, second.name, third.name]).toEqual(["服务表", `服务表（${second.id}）`, "合规表"]);
    }
    await expect(
      sql`INSERT INTO inspection_forms (tenant_id, name, items) SELECT id, '合规表', '[]'::jsonb FROM tenants WHERE code = 'q1'`.execute(
        db,
      ),
    ).rejects.toMatchObject({ code: "23505" });
    const columns = await sql<{ column_name: string }>`
      SELECT column_name FROM information_schema.columns WHERE table_name = 'inspection_evaluations' ORDER BY column_name`.execute(db);
    expect(columns.rows.map((c) => c.column_name)).toEqual(expect.arrayContaining(["version", "reason", "appeal_id"]));

    expect((await migrator().migrateTo("340-dialling-calls-by-campaign")).error).toBeUndefined();
    await sql`INSERT INTO inspection_forms (tenant_id, name, items) SELECT id, '合规表', '[]'::jsonb FROM tenants WHERE code = 'q1'`.execute(
      db,
    );
  });
});
