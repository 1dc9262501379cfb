import type { Kysely } from "kysely";

// A work order made from a chat links its session (decision 026), and the call detail looks a
// call's work order up by its CTI id: both lookups have their index.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("work_order_records")
    .addColumn("chat_session_id", "bigint", (col) => col.references("chat_sessions.id").onDelete("set null"))
    .execute();
  await db.schema.createIndex("work_order_records_call_idx").on("work_order_records").columns(["tenant_id", "cti_call_id"]).execute();
  await db.schema.createIndex("work_order_records_chat_idx").on("work_order_records").columns(["tenant_id", "chat_session_id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("work_order_records_chat_idx").execute();
  await db.schema.dropIndex("work_order_records_call_idx").execute();
  await db.schema.alterTable("work_order_records").dropColumn("chat_session_id").execute();
}
