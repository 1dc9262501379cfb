import { sql, type Kysely } from "kysely";

// Migrations take Kysely<any> (Kysely's own advice): they are frozen in time and must not follow
// the table types in schema.ts as those change. Every statement here must run on PostgreSQL 15
// as well as PGlite (PostgreSQL 18).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("tenants")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("code", "text", (col) => col.notNull().unique())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("customer_id", "text", (col) => col.notNull().unique())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("users")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    // Globally unique: the login form has no tenant field, the user name finds the tenant.
    .addColumn("user_name", "text", (col) => col.notNull().unique())
    .addColumn("real_name", "text", (col) => col.notNull())
    .addColumn("password_hash", "text", (col) => col.notNull())
    .addColumn("role", "text", (col) => col.notNull().check(sql`role in ('admin', 'supervisor', 'agent')`))
    .addColumn("work_type", "integer", (col) => col.notNull().defaultTo(1))
    .addColumn("agent_id", "text")
    .addColumn("default_queue_name", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("auto_answer", "boolean", (col) => col.notNull().defaultTo(false))
    .addColumn("agent_state", "text", (col) => col.notNull().defaultTo("SIGNED_OUT"))
    .addColumn("last_login_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  // Every tenant-scoped read is "this tenant's users, by id" (lists are ordered by id).
  await db.schema.createIndex("users_tenant_id_idx").on("users").columns(["tenant_id", "id"]).execute();
  // Agent ids are the softphone's identity: unique within a tenant, looked up by later services.
  await db.schema.createIndex("users_tenant_agent_id_key").on("users").columns(["tenant_id", "agent_id"]).unique().execute();

  await db.schema
    .createTable("access_tokens")
    .addColumn("token_hash", "text", (col) => col.primaryKey())
    .addColumn("user_id", "integer", (col) => col.notNull().references("users.id").onDelete("cascade"))
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("expires_at", "timestamptz", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  // A login purges that user's expired tokens; revoking a user's sessions is by user too.
  await db.schema.createIndex("access_tokens_user_id_expires_at_idx").on("access_tokens").columns(["user_id", "expires_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("access_tokens").execute();
  await db.schema.dropTable("users").execute();
  await db.schema.dropTable("tenants").execute();
}
