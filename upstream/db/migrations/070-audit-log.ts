import { sql, type Kysely } from "kysely";

// The audit log: every administrative and supervisor change, one row each, written by one writer
// (repositories/audit-log.ts) in the transaction of the change. A large tenant reaches a million
// rows, so the list pages by keyset on the indexes below (newest first, per filter).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("audit_log")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("actor_user_id", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("actor_name", "text", (col) => col.notNull())
    .addColumn("action", "text", (col) => col.notNull())
    .addColumn("target_type", "text", (col) => col.notNull())
    .addColumn("target_id", "text")
    .addColumn("summary", "text", (col) => col.notNull())
    .addColumn("reason", "text")
    .addColumn("detail", "jsonb")
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("audit_log_tenant_idx").on("audit_log").columns(["tenant_id", "id"]).execute();
  await db.schema.createIndex("audit_log_tenant_action_idx").on("audit_log").columns(["tenant_id", "action", "id"]).execute();
  await db.schema.createIndex("audit_log_tenant_actor_idx").on("audit_log").columns(["tenant_id", "actor_user_id", "id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("audit_log").execute();
}
