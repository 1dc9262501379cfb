import { sql, type Kysely } from "kysely";

// Sign-up of a new tenant and the account screens: a user's mobile number (the account
// a sign-up creates signs in with it, and a password reset sends its code to it), the company
// details a new tenant fills in, the tenants' billing accounts, and the SMS verification codes
// (stored hashed, with their wrong tries and the lock they cause).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("users").addColumn("mobile", "text").execute();
  await sql`CREATE UNIQUE INDEX users_mobile_key ON users (mobile) WHERE mobile IS NOT NULL`.execute(db);

  await db.schema
    .alterTable("tenants")
    .addColumn("industry", "text")
    .addColumn("contact_name", "text")
    .addColumn("contact_email", "text")
    .addColumn("address", "text")
    .addColumn("profile_completed_at", "timestamptz")
    .execute();
  // A company name is taken once, whatever its letter case (PUT /crm/open/register/name).
  await sql`CREATE UNIQUE INDEX tenants_name_key ON tenants (lower(name))`.execute(db);

  await db.schema
    .createTable("billing_accounts")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().unique().references("tenants.id").onDelete("cascade"))
    .addColumn("balance_cents", "bigint", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("verification_codes")
    .addColumn("id", "bigint", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("phone", "text", (col) => col.notNull())
    .addColumn("purpose", "text", (col) => col.notNull().check(sql`purpose IN ('register', 'reset')`))
    .addColumn("client_address", "text", (col) => col.notNull())
    // sha256 of salt, phone, purpose and code: the code itself is never stored.
    .addColumn("code_hash", "text", (col) => col.notNull())
    .addColumn("salt", "text", (col) => col.notNull())
    .addColumn("failed_tries", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (col) => col.notNull())
    .addColumn("expires_at", "timestamptz", (col) => col.notNull())
    // Used, replaced by a newer code, or spent by too many wrong tries: never valid again.
    .addColumn("closed_at", "timestamptz")
    // Set when the fifth wrong try locks the number.
    .addColumn("locked_until", "timestamptz")
    .execute();
  await db.schema.createIndex("verification_codes_phone_idx").on("verification_codes").columns(["phone", "created_at"]).execute();
  await db.schema
    .createIndex("verification_codes_address_idx")
    .on("verification_codes")
    .columns(["client_address", "created_at"])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("verification_codes").execute();
  await db.schema.dropTable("billing_accounts").execute();
  await sql`DROP INDEX tenants_name_key`.execute(db);
  await db.schema
    .alterTable("tenants")
    .dropColumn("industry")
    .dropColumn("contact_name")
    .dropColumn("contact_email")
    .dropColumn("address")
    .dropColumn("profile_completed_at")
    .execute();
  await sql`DROP INDEX users_mobile_key`.execute(db);
  await db.schema.alterTable("users").dropColumn("mobile").execute();
}
