import { sql, type Kysely } from "kysely";

// Robots and flows administration (decision 019): a flow's versions, each with its state
// (contracts/codes.ts FLOW_VERSION_STATES) and its design (nodes as JSON, validated by
// domain/flow-design.ts); the version in service is the flow's pointer. Robot instances gain what
// an administrator edits. Flows that predate the designer become a published v1.0 with no nodes:
// their calls keep the recorded conversations (decision 019).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("robot_flow_versions")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("flow_id", "integer", (col) => col.notNull().references("robot_flows.id").onDelete("cascade"))
    .addColumn("no", "integer", (col) => col.notNull())
    .addColumn("state", "smallint", (col) => col.notNull().defaultTo(0))
    .addColumn("nodes", "jsonb", (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("return_reason", "text")
    .addColumn("based_on_no", "integer")
    .addColumn("created_by", "text")
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("published_at", "timestamptz")
    .addUniqueConstraint("robot_flow_versions_no_key", ["flow_id", "no"])
    .execute();
  await db.schema
    .createIndex("robot_flow_versions_tenant_idx")
    .on("robot_flow_versions")
    .columns(["tenant_id", "flow_id", "state"])
    .execute();

  await db.schema
    .alterTable("robot_flows")
    .addColumn("description", "text", (col) => col.notNull().defaultTo(""))
    .execute();
  await db.schema
    .alterTable("robot_flows")
    .addColumn("service_version_id", "integer", (col) => col.references("robot_flow_versions.id").onDelete("set null"))
    .execute();
  await db.schema
    .alterTable("robot_flows")
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("robot_flows_tenant_name_key").on("robot_flows").columns(["tenant_id", "name"]).unique().execute();

  await db.schema
    .alterTable("robot_instances")
    .addColumn("concurrency", "integer", (col) => col.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable("robot_instances").addColumn("queue_name", "text").execute();
  await db.schema.alterTable("robot_instances").addColumn("caller_number", "text").execute();
  await db.schema.createIndex("robot_instances_flow_idx").on("robot_instances").columns(["tenant_id", "flow_id"]).execute();

  // Existing data: a robot's flow that has no row becomes one (same id, same tenant), and every flow
  // gets its recorded v1.0 in service.
  await sql`INSERT INTO robot_flows (id, tenant_id, name)
            SELECT DISTINCT ON (r.flow_id) r.flow_id, r.tenant_id, '流程' || r.flow_id
            FROM robot_instances r
            WHERE r.flow_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM robot_flows f WHERE f.id = r.flow_id)
            ORDER BY r.flow_id, r.id`.execute(db);
  await sql`SELECT setval(pg_get_serial_sequence('robot_flows', 'id'), GREATEST((SELECT max(id) FROM robot_flows), 1))`.execute(db);
  await sql`INSERT INTO robot_flow_versions (tenant_id, flow_id, no, state, published_at, created_by)
            SELECT tenant_id, id, 1, 2, created_at, '系统' FROM robot_flows`.execute(db);
  await sql`UPDATE robot_flows f SET service_version_id = v.id FROM robot_flow_versions v WHERE v.flow_id = f.id`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("robot_instances_flow_idx").execute();
  await db.schema.alterTable("robot_instances").dropColumn("caller_number").execute();
  await db.schema.alterTable("robot_instances").dropColumn("queue_name").execute();
  await db.schema.alterTable("robot_instances").dropColumn("concurrency").execute();
  await db.schema.dropIndex("robot_flows_tenant_name_key").execute();
  await db.schema.alterTable("robot_flows").dropColumn("updated_at").execute();
  await db.schema.alterTable("robot_flows").dropColumn("service_version_id").execute();
  await db.schema.alterTable("robot_flows").dropColumn("description").execute();
  await db.schema.dropTable("robot_flow_versions").execute();
}
