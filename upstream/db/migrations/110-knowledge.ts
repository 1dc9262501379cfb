import { sql, type Kysely } from "kysely";

// The knowledge base (decision 017): groups of nodes (a question, its answer, labels, a
// state), the tenant's labels, and the searches agents made that found nothing (the gaps to write
// next). The voice workbench's lookup and the text workbench's quick replies read the same nodes,
// so the quick replies of chat_knowledge_nodes move into knowledge_nodes (group 快捷回复).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("knowledge_groups")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("knowledge_groups_name_key", ["tenant_id", "name"])
    .execute();

  await db.schema
    .createTable("knowledge_labels")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addUniqueConstraint("knowledge_labels_name_key", ["tenant_id", "name"])
    .execute();

  await db.schema
    .createTable("knowledge_gaps")
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("keyword", "text", (col) => col.notNull())
    .addColumn("times", "integer", (col) => col.notNull().defaultTo(1))
    .addColumn("first_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("last_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("knowledge_gaps_pkey", ["tenant_id", "keyword"])
    .execute();

  await db.schema
    .alterTable("knowledge_nodes")
    .addColumn("group_id", "integer", (col) => col.references("knowledge_groups.id").onDelete("restrict"))
    .execute();
  await db.schema
    .alterTable("knowledge_nodes")
    .addColumn("labels", sql`text[]`, (col) => col.notNull().defaultTo(sql`'{}'::text[]`))
    .execute();
  await db.schema
    .alterTable("knowledge_nodes")
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  // Existing data: one group per group name, and the chat quick replies in a group of their own.
  await sql`INSERT INTO knowledge_groups (tenant_id, name)
            SELECT DISTINCT tenant_id, group_name FROM knowledge_nodes
            UNION SELECT DISTINCT tenant_id, '快捷回复' FROM chat_knowledge_nodes`.execute(db);
  await sql`UPDATE knowledge_nodes n SET group_id = g.id FROM knowledge_groups g
            WHERE g.tenant_id = n.tenant_id AND g.name = n.group_name`.execute(db);
  await sql`INSERT INTO knowledge_nodes (tenant_id, group_name, group_id, title, content, state, usage_count)
            SELECT c.tenant_id, '快捷回复', g.id, c.title, c.content, c.state, c.usage_count
            FROM chat_knowledge_nodes c JOIN knowledge_groups g ON g.tenant_id = c.tenant_id AND g.name = '快捷回复'
            ORDER BY c.id`.execute(db);
  await db.schema
    .alterTable("knowledge_nodes")
    .alterColumn("group_id", (col) => col.setNotNull())
    .execute();
  await db.schema.alterTable("knowledge_nodes").dropColumn("group_name").execute();
  await db.schema.dropTable("chat_knowledge_nodes").execute();
  await db.schema.createIndex("knowledge_nodes_group_idx").on("knowledge_nodes").columns(["tenant_id", "group_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("chat_knowledge_nodes")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("title", "text", (col) => col.notNull())
    .addColumn("content", "text", (col) => col.notNull())
    .addColumn("state", "smallint", (col) => col.notNull().defaultTo(1))
    .addColumn("usage_count", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("chat_knowledge_nodes_tenant_idx").on("chat_knowledge_nodes").columns(["tenant_id", "state"]).execute();
  await db.schema.dropIndex("knowledge_nodes_group_idx").execute();
  await db.schema.alterTable("knowledge_nodes").addColumn("group_name", "text").execute();
  await sql`UPDATE knowledge_nodes n SET group_name = g.name FROM knowledge_groups g WHERE g.id = n.group_id`.execute(db);
  await sql`INSERT INTO chat_knowledge_nodes (tenant_id, title, content, state, usage_count)
            SELECT tenant_id, title, content, state, usage_count FROM knowledge_nodes WHERE group_name = '快捷回复' ORDER BY id`.execute(
    db,
  );
  await sql`DELETE FROM knowledge_nodes WHERE group_name = '快捷回复'`.execute(db);
  await db.schema
    .alterTable("knowledge_nodes")
    .alterColumn("group_name", (col) => col.setNotNull())
    .execute();
  await db.schema.alterTable("knowledge_nodes").dropColumn("group_id").execute();
  await db.schema.alterTable("knowledge_nodes").dropColumn("labels").execute();
  await db.schema.alterTable("knowledge_nodes").dropColumn("updated_at").execute();
  await db.schema.dropTable("knowledge_gaps").execute();
  await db.schema.dropTable("knowledge_labels").execute();
  await db.schema.dropTable("knowledge_groups").execute();
}
