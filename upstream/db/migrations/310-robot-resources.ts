import { sql, type Kysely } from "kysely";

// The resources a robot uses (decision 030): the tenant's library of regular expressions
// (unique names), its working calendar (one row per weekday, none = the default week), its
// festivals (inclusive date ranges; the platform refuses overlapping ones) and the gateway lines
// its robots dial out on. Speakers are a code table (contracts/codes.ts ROBOT_SPEAKERS), not data.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("robot_regexes")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("pattern", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("updated_by", "text")
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("robot_regexes_name_key", ["tenant_id", "name"])
    .execute();

  await db.schema
    .createTable("robot_working_days")
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("weekday", "smallint", (col) => col.notNull().check(sql`weekday BETWEEN 1 AND 7`))
    .addColumn("enabled", "boolean", (col) => col.notNull())
    .addColumn("start_time", "text", (col) => col.notNull())
    .addColumn("end_time", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("robot_working_days_pkey", ["tenant_id", "weekday"])
    .execute();

  await db.schema
    .createTable("robot_festivals")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("start_date", "date", (col) => col.notNull())
    .addColumn("end_date", "date", (col) => col.notNull())
    .addCheckConstraint("robot_festivals_range_check", sql`start_date <= end_date`)
    .execute();
  await db.schema.createIndex("robot_festivals_tenant_idx").on("robot_festivals").columns(["tenant_id", "start_date"]).execute();

  await db.schema
    .createTable("robot_gateway_lines")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("carrier", "text", (col) => col.notNull())
    .addColumn("prefix", "text", (col) => col.notNull())
    .addColumn("concurrency", "integer", (col) => col.notNull())
    .addColumn("enabled", "boolean", (col) => col.notNull().defaultTo(true))
    .execute();
  await db.schema.createIndex("robot_gateway_lines_tenant_idx").on("robot_gateway_lines").columns(["tenant_id"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("robot_gateway_lines").execute();
  await db.schema.dropTable("robot_festivals").execute();
  await db.schema.dropTable("robot_working_days").execute();
  await db.schema.dropTable("robot_regexes").execute();
}
