import { sql, type Kysely } from "kysely";

// The SMS outbox: every message the platform sends (verification codes of sign-up and password
// reset, tenants' messages), as the carrier simulator moves it: queued → sent → delivered or
// failed with a reason. Codes of a sign-up have no tenant yet.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("sms_messages")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.references("tenants.id").onDelete("cascade"))
    .addColumn("phone", "text", (col) => col.notNull())
    .addColumn("content", "text", (col) => col.notNull())
    .addColumn("signature", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("kind", "text", (col) => col.notNull())
    .addColumn("segments", "integer", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull().defaultTo("queued"))
    .addColumn("failure_reason", "text")
    .addColumn("created_by", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("sent_at", "timestamptz")
    .addColumn("delivered_at", "timestamptz")
    .addCheckConstraint("sms_messages_status_check", sql`status IN ('queued', 'sent', 'delivered', 'failed')`)
    .execute();
  await db.schema.createIndex("sms_messages_tenant_idx").on("sms_messages").columns(["tenant_id", "id"]).execute();
  await db.schema.createIndex("sms_messages_phone_idx").on("sms_messages").columns(["phone", "id"]).execute();
  // The carrier only looks at what is still on its way.
  await sql`CREATE INDEX sms_messages_pending_idx ON sms_messages (id) WHERE status IN ('queued', 'sent')`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("sms_messages").execute();
}
