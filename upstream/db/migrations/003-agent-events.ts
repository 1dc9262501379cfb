import { sql, type Kysely } from "kysely";

// Real-time events per user (phone bar, chat), kept for an hour so a client that reconnects can
// replay what it missed by id.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("agent_events")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("payload", "jsonb", (col) => col.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  // Replay reads one user's events after an id; pruning deletes by age.
  await db.schema.createIndex("agent_events_user_id_idx").on("agent_events").columns(["user_id", "id"]).execute();
  await db.schema.createIndex("agent_events_created_at_idx").on("agent_events").column("created_at").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("agent_events").execute();
}
