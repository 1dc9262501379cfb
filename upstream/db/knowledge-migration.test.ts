import { Migrator, sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { TEST_DB, describeDb, freshDatabase } from "#upstream/test-db";
import type { OpenedDatabase } from "./";
import { migrations } from "./migrate";

// Migration 110 (decision 017) moves existing knowledge into groups and the chat quick replies
// into the knowledge nodes; its `down` gives them back.
describeDb(`migration 110 (knowledge) on ${TEST_DB}`, () => {
  let database: OpenedDatabase;
  const migrator = () => new Migrator({ db: database.db, provider: { getMigrations: async () => migrations } });
  beforeAll(async () => {
    database = await freshDatabase();
  });
  afterAll(async () => database?.close());

  it("keeps every node and quick reply, grouped, and gives them back on the way down", async () => {
    expect((await migrator().migrateTo("090-sign-in-failures")).error).toBeUndefined();
    const db = database.db;
    await sql`INSERT INTO tenants (code, name, customer_id) VALUES ('k', '知识租户', 'CK')`.execute(db);
    await sql`INSERT INTO knowledge_nodes (tenant_id, group_name, title, content, usage_count)
              SELECT id, '分期业务', '手续费', '0.8%', 3 FROM tenants WHERE code = 'k'`.execute(db);
    await sql`INSERT INTO chat_knowledge_nodes (tenant_id, title, content, state)
              SELECT id, '问候', '您好', 0 FROM tenants WHERE code = 'k'`.execute(db);

    expect((await migrator().migrateTo("110-knowledge")).error).toBeUndefined();
    const rows = await sql<{ group: string; title: string; state: number; usage: number }>`
      SELECT g.name AS "group", n.title, n.state, n.usage_count AS usage
      FROM knowledge_nodes n JOIN knowledge_groups g ON g.id = n.group_id ORDER BY n.id`.execute(db);
    expect(rows.rows).toEqual([
      { group: "分期业务", title: "手续费", state: 1, usage: 3 },
      { group: "快捷回复", title: "问候", state: 0, usage: 0 },
    ]);

    expect((await migrator().migrateTo("090-sign-in-failures")).error).toBeUndefined();
    const nodes = await sql<{ title: string; group_name: string }>`SELECT title, group_name FROM knowledge_nodes`.execute(db);
    expect(nodes.rows).toEqual([{ title: "手续费", group_name: "分期业务" }]);
    const quick = await sql<{ title: string; state: number }>`SELECT title, state FROM chat_knowledge_nodes`.execute(db);
    expect(quick.rows).toEqual([{ title: "问候", state: 0 }]);
  });
});
