import { sql, type Kysely } from "kysely";

// Per queue, how long an offered call rings at an agent before it goes to the next one (the
// CTI's ring timeout); a queue without a row uses the platform's default.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("queue_settings")
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("queue_name", "text", (col) => col.notNull())
    .addColumn("ring_seconds", "integer", (col) => col.notNull())
    .addColumn("updated_by", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("queue_settings_pkey", ["tenant_id", "queue_name"])
    .addCheckConstraint("queue_settings_ring_check", sql`ring_seconds BETWEEN 5 AND 300`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("queue_settings").execute();
}
