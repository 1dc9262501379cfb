import { sql, type Kysely } from "kysely";

// Work orders (decision 021): templates (fields, an SLA in hours, enabled or not), the
// records' template, values, owner and due time, their follow history (every state change with
// its note), and a per-tenant, per-day counter the record numbers come from.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("work_order_templates")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("fields", "jsonb", (col) => col.notNull().defaultTo(sql`'[]'::jsonb`)) // WorkOrderField[]
    .addColumn("sla_hours", "integer", (col) => col.notNull().defaultTo(24))
    .addColumn("status", "integer", (col) => col.notNull().defaultTo(1)) // WORK_ORDER_TEMPLATE_STATUSES
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("work_order_templates_name_key", ["tenant_id", "name"])
    .execute();

  await db.schema
    .alterTable("work_order_records")
    .addColumn("template_id", "integer", (col) => col.references("work_order_templates.id").onDelete("restrict"))
    .addColumn("values", "jsonb", (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("owner_user_id", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("due_at", "timestamptz")
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  // Existing records had no state machine: 1 meant "being followed", which is 处理中 now; their
  // creator owns them, and they are due a day after they were made.
  await sql`UPDATE work_order_records SET owner_user_id = created_by, due_at = created_at + interval '24 hours', updated_at = created_at`.execute(
    db,
  );

  // The list's filters: newest first within the tenant, by state (and due time for overdue), owner, template.
  await db.schema.createIndex("work_order_records_tenant_id_idx").on("work_order_records").columns(["tenant_id", "id"]).execute();
  await db.schema
    .createIndex("work_order_records_state_idx")
    .on("work_order_records")
    .columns(["tenant_id", "follow_state", "due_at"])
    .execute();
  await db.schema
    .createIndex("work_order_records_owner_idx")
    .on("work_order_records")
    .columns(["tenant_id", "owner_user_id", "id"])
    .execute();
  await db.schema
    .createIndex("work_order_records_creator_idx")
    .on("work_order_records")
    .columns(["tenant_id", "created_by", "id"])
    .execute();
  await db.schema
    .createIndex("work_order_records_template_idx")
    .on("work_order_records")
    .columns(["tenant_id", "template_id", "id"])
    .execute();
  await db.schema.createIndex("work_order_records_created_idx").on("work_order_records").columns(["tenant_id", "created_at"]).execute();

  await db.schema
    .createTable("work_order_follows")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("record_id", "integer", (col) => col.notNull().references("work_order_records.id").onDelete("cascade"))
    .addColumn("kind", "text", (col) => col.notNull()) // create | receive | reassign | follow
    .addColumn("from_state", "integer")
    .addColumn("to_state", "integer", (col) => col.notNull())
    .addColumn("note", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("actor_user_id", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("actor_name", "text", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("work_order_follows_record_idx").on("work_order_follows").columns(["record_id", "id"]).execute();

  await db.schema
    .createTable("work_order_numbers")
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("day", "text", (col) => col.notNull()) // yyyymmdd, China Standard Time
    .addColumn("last", "integer", (col) => col.notNull())
    .addPrimaryKeyConstraint("work_order_numbers_pkey", ["tenant_id", "day"])
    .execute();
  // Days that already have numbers go on from the highest one.
  await sql`INSERT INTO work_order_numbers (tenant_id, day, last)
    SELECT tenant_id, substr(number, 3, 8), max(substr(number, 11)::int)
    FROM work_order_records WHERE number ~ '^GD[0-9]{12}$' GROUP BY tenant_id, substr(number, 3, 8)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("work_order_numbers").execute();
  await db.schema.dropTable("work_order_follows").execute();
  for (const index of ["tenant_id", "state", "owner", "creator", "template", "created"]) {
    await db.schema.dropIndex(`work_order_records_${index}_idx`).execute();
  }
  await db.schema
    .alterTable("work_order_records")
    .dropColumn("template_id")
    .dropColumn("values")
    .dropColumn("owner_user_id")
    .dropColumn("due_at")
    .dropColumn("updated_at")
    .execute();
  await db.schema.dropTable("work_order_templates").execute();
}
