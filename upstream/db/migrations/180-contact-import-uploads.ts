import { sql, type Kysely } from "kysely";

// Contact imports with a column-mapping step (decision 020, amended): the uploaded file waits
// here between the upload, which answers its columns, and the import with the mapping chosen.
// A file left unmapped is removed a day later.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("crm_import_uploads")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("file_name", "text", (col) => col.notNull())
    .addColumn("content", "bytea", (col) => col.notNull())
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("crm_import_uploads_tenant_idx").on("crm_import_uploads").columns(["tenant_id", "created_at"]).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("crm_import_uploads").execute();
}
