import { sql, type Kysely } from "kysely";

// Outbound: the history of every batch and call transition, robot hand-offs to agents
// in collaborative campaigns, contact imports with their rejected rows, the tenant blacklist,
// transfer templates, and what an agent's preview skip leaves on a call.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("task_transitions")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("batch_id", "integer", (col) => col.notNull().references("task_batches.id").onDelete("cascade"))
    .addColumn("task_call_id", "bigint", (col) => col.references("task_calls.id").onDelete("cascade")) // null: the batch itself
    .addColumn("from_status", "integer") // null: created
    .addColumn("to_status", "integer", (col) => col.notNull())
    .addColumn("reason", "text", (col) => col.notNull())
    .addColumn("at", "timestamptz", (col) => col.notNull()) // the simulator's clock
    .execute();
  await db.schema.createIndex("task_transitions_batch_idx").on("task_transitions").columns(["batch_id", "id"]).execute();
  await db.schema.createIndex("task_transitions_call_idx").on("task_transitions").columns(["task_call_id", "id"]).execute();

  await db.schema
    .createTable("handoffs")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("campaign_id", "integer", (col) => col.notNull().references("campaigns.id").onDelete("cascade"))
    .addColumn("batch_id", "integer", (col) => col.notNull().references("task_batches.id").onDelete("cascade"))
    .addColumn("task_call_id", "bigint", (col) => col.notNull().references("task_calls.id").onDelete("cascade"))
    .addColumn("call_record_id", "bigint", (col) => col.references("call_records.id").onDelete("set null"))
    .addColumn("phone", "text", (col) => col.notNull())
    .addColumn("intent", "text") // INTENT_LABELS
    .addColumn("state", "text", (col) => col.notNull().check(sql`state in ('waiting', 'handed', 'lost')`))
    .addColumn("agent_user_id", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (col) => col.notNull())
    .addColumn("updated_at", "timestamptz", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("handoffs_tenant_state_idx").on("handoffs").columns(["tenant_id", "state", "id"]).execute();

  await db.schema
    .createTable("contact_imports")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("campaign_id", "integer", (col) => col.notNull().references("campaigns.id").onDelete("cascade"))
    .addColumn("batch_id", "integer", (col) => col.references("task_batches.id").onDelete("set null"))
    .addColumn("file_name", "text", (col) => col.notNull())
    .addColumn("accepted", "integer", (col) => col.notNull())
    .addColumn("rejected", "integer", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("contact_imports_campaign_idx").on("contact_imports").columns(["tenant_id", "campaign_id", "id"]).execute();

  await db.schema
    .createTable("contact_import_errors")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("import_id", "integer", (col) => col.notNull().references("contact_imports.id").onDelete("cascade"))
    .addColumn("row_no", "integer", (col) => col.notNull())
    .addColumn("phone", "text", (col) => col.notNull())
    .addColumn("customer_name", "text", (col) => col.notNull())
    .addColumn("reason", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("contact_import_errors_import_idx").on("contact_import_errors").columns(["import_id", "row_no"]).execute();

  await db.schema
    .createTable("blacklist")
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("phone", "text", (col) => col.notNull())
    .addColumn("reason", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("blacklist_pkey", ["tenant_id", "phone"])
    .execute();

  await db.schema
    .createTable("trans_templates")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("type", "integer", (col) => col.notNull()) // TRANSFER_TYPES
    .addColumn("target", "text", (col) => col.notNull())
    .addColumn("agent_user_id", "integer", (col) => col.references("users.id").onDelete("cascade")) // null: for everyone
    .execute();

  await db.schema.alterTable("task_calls").addColumn("skip_reason", "text").execute();
  await db.schema.createIndex("task_calls_tenant_campaign_idx").on("task_calls").columns(["tenant_id", "campaign_id", "id"]).execute();
  // A batch's calls page in id order (the status index orders by status first).
  await db.schema.createIndex("task_calls_batch_id_idx").on("task_calls").columns(["batch_id", "id"]).execute();
  await db.schema.createIndex("task_calls_campaign_phone_idx").on("task_calls").columns(["campaign_id", "phone"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("task_calls_campaign_phone_idx").execute();
  await db.schema.dropIndex("task_calls_batch_id_idx").execute();
  await db.schema.dropIndex("task_calls_tenant_campaign_idx").execute();
  await db.schema.alterTable("task_calls").dropColumn("skip_reason").execute();
  for (const table of ["trans_templates", "blacklist", "contact_import_errors", "contact_imports", "handoffs", "task_transitions"]) {
    await db.schema.dropTable(table).execute();
  }
}
