import { sql, type Kysely } from "kysely";

// A campaign's contact import runs in chunks, each its own transaction, so a large file no longer
// holds the database (and, on PGlite, the whole platform) in one transaction (decision 015,
// amended). The import row says how far it has come (updated_at moves with each chunk, so an
// import whose process died is recognised) and how it ended; one import per campaign runs at a time.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("contact_imports")
    .addColumn("status", "text", (col) =>
      col
        .notNull()
        .defaultTo("done")
        .check(sql`status in ('running', 'done', 'failed')`),
    )
    .addColumn("processed", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("message", "text")
    .addColumn("finished_at", "timestamptz")
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`update contact_imports set processed = accepted + rejected, finished_at = created_at`.execute(db);
  await db.schema
    .createIndex("contact_imports_one_running_idx")
    .on("contact_imports")
    .column("campaign_id")
    .unique()
    .where(sql.ref("status"), "=", "running")
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("contact_imports_one_running_idx").execute();
  await db.schema
    .alterTable("contact_imports")
    .dropColumn("status")
    .dropColumn("processed")
    .dropColumn("message")
    .dropColumn("finished_at")
    .dropColumn("updated_at")
    .execute();
}
