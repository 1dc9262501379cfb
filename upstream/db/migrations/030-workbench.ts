import { sql, type Kysely } from "kysely";

// What the voice workbench reads and writes beside the calls core: contacts found by phone, robot
// flows with their service scripts, knowledge the agent can look up, work orders, and the
// business records (conclusions) agents save, with the idempotency key that makes retries safe.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("crm_contacts")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("phone", "text", (col) => col.notNull())
    .addColumn("gender", "integer", (col) => col.notNull().defaultTo(-1))
    .addColumn("company", "text")
    .addColumn("address", "text")
    .addColumn("remark", "text")
    .addColumn("tags", "jsonb", (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("crm_contacts_tenant_phone_idx").on("crm_contacts").columns(["tenant_id", "phone"]).execute();

  await db.schema
    .createTable("robot_flows")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("service_script", "jsonb", (col) => col.notNull().defaultTo(sql`'[]'::jsonb`)) // [{ title, content }]
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("knowledge_nodes")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("group_name", "text", (col) => col.notNull())
    .addColumn("title", "text", (col) => col.notNull())
    .addColumn("content", "text", (col) => col.notNull())
    .addColumn("state", "integer", (col) => col.notNull().defaultTo(1)) // 1 published
    .addColumn("usage_count", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("knowledge_nodes_tenant_idx").on("knowledge_nodes").columns(["tenant_id", "state", "id"]).execute();

  await db.schema
    .createTable("work_order_records")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("number", "text", (col) => col.notNull())
    .addColumn("title", "text", (col) => col.notNull())
    .addColumn("content", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("follow_state", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("cti_call_id", "text")
    .addColumn("created_by", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("work_order_records_tenant_number_key")
    .on("work_order_records")
    .columns(["tenant_id", "number"])
    .unique()
    .execute();

  await db.schema
    .createTable("business_records")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("cti_call_id", "text", (col) => col.notNull())
    .addColumn("phone", "text", (col) => col.notNull())
    .addColumn("agent_user_id", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("call_result", "integer", (col) => col.notNull()) // CALL_RESULTS
    .addColumn("intent", "text") // INTENT_LABELS
    .addColumn("remark", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("fields", "jsonb", (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("work_order_id", "integer", (col) => col.references("work_order_records.id").onDelete("set null"))
    .addColumn("idempotency_key", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  // One record per call (a later save updates it); a replayed key finds the save it repeats.
  await db.schema
    .createIndex("business_records_tenant_call_key")
    .on("business_records")
    .columns(["tenant_id", "cti_call_id"])
    .unique()
    .execute();
  await db.schema
    .createIndex("business_records_tenant_key_key")
    .on("business_records")
    .columns(["tenant_id", "idempotency_key"])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("business_records").execute();
  await db.schema.dropTable("work_order_records").execute();
  await db.schema.dropTable("knowledge_nodes").execute();
  await db.schema.dropTable("robot_flows").execute();
  await db.schema.dropTable("crm_contacts").execute();
}
