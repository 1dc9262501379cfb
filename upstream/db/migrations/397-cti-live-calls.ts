import { sql, type Kysely } from "kysely";

// The calls the CTI's owner holds in memory, kept as they change (decision 051): a process that
// owns next records the calls of one that died. `updated_at` is refreshed while its owner lives.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("cti_live_calls")
    .addColumn("cti_call_id", "text", (c) => c.primaryKey())
    .addColumn("tenant_id", "integer", (c) => c.notNull())
    .addColumn("call", "jsonb", (c) => c.notNull())
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("cti_live_calls").execute();
}
