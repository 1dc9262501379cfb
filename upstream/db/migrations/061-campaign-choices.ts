import { sql, type Kysely } from "kysely";

// What the campaign form offers: each tenant's robot instances (with the flow they run)
// and caller-id numbers, and the robot and transfer template a campaign chose, by id, so that a
// campaign can only name its own tenant's.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("robot_instances")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("flow_id", "integer")
    .addColumn("flow_version_name", "text")
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("robot_instances_tenant_name_key").on("robot_instances").columns(["tenant_id", "name"]).unique().execute();

  await db.schema
    .createTable("caller_id_numbers")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("number", "text", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("caller_id_numbers_tenant_number_key")
    .on("caller_id_numbers")
    .columns(["tenant_id", "number"])
    .unique()
    .execute();

  await db.schema
    .alterTable("campaigns")
    .addColumn("robot_instance_id", "integer", (col) => col.references("robot_instances.id").onDelete("set null"))
    .execute();
  await db.schema
    .alterTable("campaigns")
    .addColumn("trans_template_id", "integer", (col) => col.references("trans_templates.id").onDelete("set null"))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("campaigns").dropColumn("trans_template_id").execute();
  await db.schema.alterTable("campaigns").dropColumn("robot_instance_id").execute();
  await db.schema.dropTable("caller_id_numbers").execute();
  await db.schema.dropTable("robot_instances").execute();
}
