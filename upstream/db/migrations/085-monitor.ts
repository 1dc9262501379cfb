import { sql, type Kysely } from "kysely";

// The live monitor: each tenant's thresholds (a warning and a critical number of seconds per state
// and for the wait in queue); every agent's state periods (for today's handle times: talk, hold
// and after-call work); and how long each call waited in its queue before an agent answered (the
// service level).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("monitor_rules")
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("rule_key", "text", (col) => col.notNull())
    .addColumn("warning_seconds", "integer", (col) => col.notNull())
    .addColumn("critical_seconds", "integer", (col) => col.notNull())
    .addColumn("updated_by", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("monitor_rules_pkey", ["tenant_id", "rule_key"])
    .addCheckConstraint("monitor_rules_order_check", sql`warning_seconds > 0 AND warning_seconds < critical_seconds`)
    .execute();

  await db.schema
    .createTable("agent_state_log")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("state", "text", (col) => col.notNull())
    .addColumn("reason", "text")
    .addColumn("cti_call_id", "text")
    .addColumn("started_at", "timestamptz", (col) => col.notNull())
    .addColumn("ended_at", "timestamptz")
    .execute();
  await db.schema.createIndex("agent_state_log_user_idx").on("agent_state_log").columns(["tenant_id", "user_id", "started_at"]).execute();

  await db.schema.alterTable("call_records").addColumn("queue_wait_ms", "integer").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("call_records").dropColumn("queue_wait_ms").execute();
  await db.schema.dropTable("agent_state_log").execute();
  await db.schema.dropTable("monitor_rules").execute();
}
