import { sql, type Kysely } from "kysely";

// Reading call records: inbound lists page by direction with the same (call_time, id)
// keyset as the others, and robot flows carry their input parameters and output states, which
// the call-detail dialog shows (spec §3 "Flow parameter item").

const kindCheck = sql`kind in ('input', 'state')`;

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("call_records_tenant_direction_idx")
    .on("call_records")
    .columns(["tenant_id", "direction", "call_time desc", "id desc"])
    .execute();

  await db.schema
    .createTable("flow_params")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("flow_id", "integer", (col) => col.notNull())
    .addColumn("kind", "text", (col) => col.notNull().check(kindCheck))
    .addColumn("seq", "integer", (col) => col.notNull())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("variable", "text", (col) => col.notNull())
    .execute();
  await db.schema.createIndex("flow_params_flow_key").on("flow_params").columns(["tenant_id", "flow_id", "kind", "seq"]).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("flow_params").execute();
  await db.schema.dropIndex("call_records_tenant_direction_idx").execute();
}
