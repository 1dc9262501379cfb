import { sql, type Kysely } from "kysely";

// Scoring forms (decision 028). A tenant's forms keep their items as JSON (a handful,
// always read whole); at most one form per tenant is active, which a partial unique index holds
// even against two administrators activating at once. Each call scored with a form keeps its
// evaluation (the items as they were, each answer, the total) in a row of its own, and the total
// on the call record too, so the inspection list and its export show it without a join.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("inspection_forms")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("state", "text", (col) =>
      col
        .notNull()
        .defaultTo("draft")
        .check(sql`state in ('draft', 'active', 'retired')`),
    ) // QC_FORM_STATES
    .addColumn("items", "jsonb", (col) => col.notNull())
    .addColumn("created_by", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn("activated_at", "timestamptz")
    .execute();
  await db.schema.createIndex("inspection_forms_tenant_idx").on("inspection_forms").columns(["tenant_id", "id"]).execute();
  await db.schema
    .createIndex("inspection_forms_one_active_idx")
    .on("inspection_forms")
    .column("tenant_id")
    .unique()
    .where(sql.ref("state"), "=", "active")
    .execute();

  await db.schema
    .createTable("inspection_evaluations")
    .addColumn("id", "integer", (col) => col.primaryKey().generatedByDefaultAsIdentity())
    .addColumn("tenant_id", "integer", (col) => col.notNull().references("tenants.id").onDelete("cascade"))
    .addColumn("call_record_id", "bigint", (col) => col.notNull().unique().references("call_records.id").onDelete("cascade"))
    .addColumn("form_id", "integer", (col) => col.notNull().references("inspection_forms.id"))
    .addColumn("form_name", "text", (col) => col.notNull())
    .addColumn("score", "double precision", (col) => col.notNull())
    .addColumn("vetoed", "boolean", (col) => col.notNull())
    .addColumn("items", "jsonb", (col) => col.notNull())
    .addColumn("inspector_id", "integer", (col) => col.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("inspection_evaluations_form_idx").on("inspection_evaluations").column("form_id").execute();

  await db.schema.alterTable("call_records").addColumn("qc_score", "double precision").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("call_records").dropColumn("qc_score").execute();
  await db.schema.dropTable("inspection_evaluations").execute();
  await db.schema.dropTable("inspection_forms").execute();
}
