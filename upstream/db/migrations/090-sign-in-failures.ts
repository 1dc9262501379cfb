import { type Kysely } from "kysely";

// Failed sign-ins, per account name and client address: the throttle lives in the platform's
// database, so every console instance in front of it counts the same failures.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("sign_in_failures")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("user_name", "text", (col) => col.notNull())
    .addColumn("client_address", "text", (col) => col.notNull())
    .addColumn("failed_at", "timestamptz", (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex("sign_in_failures_pair_idx")
    .on("sign_in_failures")
    .columns(["user_name", "client_address", "failed_at"])
    .execute();
  await db.schema.createIndex("sign_in_failures_address_idx").on("sign_in_failures").columns(["client_address", "failed_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("sign_in_failures").execute();
}
