import { sql, type Kysely } from "kysely";

// Quality inspection (decision 018). Each call's inspection lives on its record: the
// status of spec §3 (qc_status, already there), who holds or gave it, when it was locked, the
// influence and remark of the result. Appeals (one per call) and the inspectors' access grants
// are tables of their own. Indexes match the list's filters and the queue's operations.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("call_records")
    .addColumn("qc_inspector_id", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("qc_locked_at", "timestamptz")
    .addColumn("qc_influence", "integer") // QC_INFLUENCES
    .addColumn("qc_remark", "text")
    .addColumn("qc_checked_at", "timestamptz")
    .execute();
  // Existing data: a "being checked" call without a holder goes back to the pool; a result given
  // before inspectors were recorded counts as given at the call's time, without influence.
  await sql`UPDATE call_records SET qc_status = -1 WHERE qc_status = 2`.execute(db);
  await sql`UPDATE call_records SET qc_checked_at = call_time, qc_influence = 0 WHERE qc_status IN (0, 1, 3)`.execute(db);

  // The list filtered by status (and apply's pick of waiting calls), newest first.
  await db.schema
    .createIndex("call_records_tenant_qc_idx")
    .on("call_records")
    .columns(["tenant_id", "qc_status", "call_time desc", "id desc"])
    .execute();
  // An inspector's own calls (their queue, "next", the inspector filter).
  await db.schema
    .createIndex("call_records_tenant_inspector_idx")
    .on("call_records")
    .columns(["tenant_id", "qc_inspector_id", "call_time desc", "id desc"])
    .where(sql.ref("qc_inspector_id"), "is not", null)
    .execute();
  // The sweep of expired locks.
  await db.schema
    .createIndex("call_records_qc_lock_idx")
    .on("call_records")
    .columns(["tenant_id", "qc_locked_at"])
    .where(sql.ref("qc_status"), "=", 2)
    .execute();

  await db.schema
    .createTable("inspection_appeals")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("call_record_id", "bigint", (col) => col.notNull().unique().references("call_records.id").onDelete("cascade"))
    .addColumn("agent_user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("reason", "text", (col) => col.notNull())
    .addColumn("state", "text", (col) => col.notNull().defaultTo("pending")) // QC_APPEAL_STATES
    .addColumn("decided_by", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("decision_reason", "text")
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("decided_at", "timestamptz")
    .execute();
  await db.schema
    .createIndex("inspection_appeals_tenant_state_idx")
    .on("inspection_appeals")
    .columns(["tenant_id", "state", "id"])
    .execute();

  await db.schema
    .createTable("inspection_access")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("scope", "text", (col) => col.notNull().check(sql`scope in ('queue', 'campaign')`)) // QC_ACCESS_SCOPES
    .addColumn("value", "text", (col) => col.notNull())
    .addColumn("granted_by", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("inspection_access_grant_key", ["tenant_id", "user_id", "scope", "value"])
    .execute();

  // A call's inspection history is read from the audit log by its target.
  await db.schema
    .createIndex("audit_log_tenant_target_idx")
    .on("audit_log")
    .columns(["tenant_id", "target_type", "target_id", "id"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("audit_log_tenant_target_idx").execute();
  await db.schema.dropTable("inspection_access").execute();
  await db.schema.dropTable("inspection_appeals").execute();
  await db.schema.dropIndex("call_records_qc_lock_idx").execute();
  await db.schema.dropIndex("call_records_tenant_inspector_idx").execute();
  await db.schema.dropIndex("call_records_tenant_qc_idx").execute();
  await db.schema
    .alterTable("call_records")
    .dropColumn("qc_inspector_id")
    .dropColumn("qc_locked_at")
    .dropColumn("qc_influence")
    .dropColumn("qc_remark")
    .dropColumn("qc_checked_at")
    .execute();
}
