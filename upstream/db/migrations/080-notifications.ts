import { sql, type Kysely } from "kysely";

// The real-time events table becomes "notifications" (the name docs/architecture.md gives it) and
// gains an audience: a user's own (the phone bar, chat) or a tenant's supervisors (the monitor),
// optionally about one queue. Tenant notifications have no user (their subject is in the payload).
// Presence: when each user's real-time stream was last seen open, so the monitor can tell an
// agent whose browser stopped reporting (失联) from one who is simply idle.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE agent_events RENAME TO notifications`.execute(db);
  await sql`ALTER INDEX agent_events_user_id_idx RENAME TO notifications_user_id_idx`.execute(db);
  await sql`ALTER INDEX agent_events_created_at_idx RENAME TO notifications_created_at_idx`.execute(db);
  await sql`ALTER TABLE notifications ALTER COLUMN user_id DROP NOT NULL`.execute(db);
  await db.schema
    .alterTable("notifications")
    .addColumn("audience", "text", (col) => col.notNull().defaultTo("user"))
    .addColumn("queue_name", "text")
    .execute();
  await sql`ALTER TABLE notifications ADD CONSTRAINT notifications_audience_check CHECK ((audience = 'user') = (user_id IS NOT NULL))`.execute(
    db,
  );
  await sql`CREATE INDEX notifications_tenant_idx ON notifications (tenant_id, id) WHERE audience = 'tenant'`.execute(db);

  await db.schema
    .createTable("user_presence")
    .addColumn("user_id", "integer", (col) => col.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("last_seen_at", "timestamptz", (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("user_presence").execute();
  await sql`DROP INDEX notifications_tenant_idx`.execute(db);
  await sql`ALTER TABLE notifications DROP CONSTRAINT notifications_audience_check`.execute(db);
  await db.schema.alterTable("notifications").dropColumn("audience").dropColumn("queue_name").execute();
  await sql`DELETE FROM notifications WHERE user_id IS NULL`.execute(db);
  await sql`ALTER TABLE notifications ALTER COLUMN user_id SET NOT NULL`.execute(db);
  await sql`ALTER INDEX notifications_user_id_idx RENAME TO agent_events_user_id_idx`.execute(db);
  await sql`ALTER INDEX notifications_created_at_idx RENAME TO agent_events_created_at_idx`.execute(db);
  await sql`ALTER TABLE notifications RENAME TO agent_events`.execute(db);
}
