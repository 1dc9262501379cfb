import { sql, type Kysely } from "kysely";

// The chat service: sessions per tenant and queue, assigned to a text agent, their messages, one
// business record per session, and the knowledge nodes the agents' quick replies come from.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("chat_sessions")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("session_key", "text", (col) => col.notNull().unique())
    .addColumn("queue_name", "text", (col) => col.notNull())
    .addColumn("state", "text", (col) =>
      col
        .notNull()
        .defaultTo("waiting")
        .check(sql`state in ('waiting', 'active', 'closed')`),
    )
    .addColumn("agent_user_id", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("customer_name", "text", (col) => col.notNull())
    .addColumn("customer_phone", "text", (col) => col.notNull())
    .addColumn("customer_channel", "text", (col) => col.notNull())
    .addColumn("customer_region", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("closed_at", "timestamptz")
    .execute();
  // The agent's open sessions; the tenant's records, newest first.
  await db.schema.createIndex("chat_sessions_agent_state_idx").on("chat_sessions").columns(["agent_user_id", "state"]).execute();
  await db.schema.createIndex("chat_sessions_tenant_created_idx").on("chat_sessions").columns(["tenant_id", "created_at"]).execute();

  await db.schema
    .createTable("chat_messages")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("session_id", "bigint", (col) => col.notNull().references("chat_sessions.id").onDelete("cascade"))
    .addColumn("role", "text", (col) => col.notNull().check(sql`role in ('user', 'agent', 'system')`))
    .addColumn("content", "text", (col) => col.notNull())
    .addColumn("client_id", "text")
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("chat_messages_client_id_key", ["session_id", "client_id"])
    .execute();
  await db.schema.createIndex("chat_messages_session_idx").on("chat_messages").columns(["session_id", "id"]).execute();

  await db.schema
    .createTable("chat_business_records")
    .addColumn("session_id", "bigint", (col) => col.primaryKey().references("chat_sessions.id").onDelete("cascade"))
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("agent_user_id", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("category", "text", (col) => col.notNull())
    .addColumn("result", "smallint", (col) => col.notNull())
    .addColumn("remark", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("chat_business_records_tenant_idx")
    .on("chat_business_records")
    .columns(["tenant_id", "updated_at"])
    .execute();

  await db.schema
    .createTable("chat_knowledge_nodes")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("title", "text", (col) => col.notNull())
    .addColumn("content", "text", (col) => col.notNull())
    // 1 enabled, 0 disabled: only enabled nodes are offered as quick replies.
    .addColumn("state", "smallint", (col) => col.notNull().defaultTo(1))
    .addColumn("usage_count", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex("chat_knowledge_nodes_tenant_idx").on("chat_knowledge_nodes").columns(["tenant_id", "state"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("chat_knowledge_nodes").execute();
  await db.schema.dropTable("chat_business_records").execute();
  await db.schema.dropTable("chat_messages").execute();
  await db.schema.dropTable("chat_sessions").execute();
}
