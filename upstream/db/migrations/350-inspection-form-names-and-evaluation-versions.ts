import { sql, type Kysely } from "kysely";

// Decision 033. A scoring form's name is unique in its tenant (decision 028), now held by the
// database: the repository's check answers first, and two administrators saving the same name at
// once are kept apart by this index, its violation answered with the same Chinese 400. Names
// already repeated (possible only through such a race before this index) keep the oldest form's
// name; the others get their id appended, so that the index can be built.
//
// A call's evaluation gets versions: an accepted appeal stores the decider's re-scored items as
// the next version (who, why, which appeal), the original kept; the newest is the call's score.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    UPDATE inspection_forms f SET name = f.name || '（' || f.id || '）'
    WHERE EXISTS (
      SELECT 1 FROM inspection_forms o WHERE o.tenant_id = f.tenant_id AND o.name = f.name AND o.id < f.id
    )`.execute(db);
  await db.schema.createIndex("inspection_forms_tenant_name_idx").on("inspection_forms").columns(["tenant_id", "name"]).unique().execute();

  await db.schema
    .alterTable("inspection_evaluations")
    .addColumn("version", "integer", (col) => col.notNull().defaultTo(1))
    .execute();
  await db.schema.alterTable("inspection_evaluations").addColumn("reason", "text").execute();
  await db.schema
    .alterTable("inspection_evaluations")
    .addColumn("appeal_id", "integer", (col) => col.references("inspection_appeals.id").onDelete("set null"))
    .execute();
  await db.schema.alterTable("inspection_evaluations").dropConstraint("inspection_evaluations_call_record_id_key").execute();
  await db.schema
    .createIndex("inspection_evaluations_call_version_idx")
    .on("inspection_evaluations")
    .columns(["call_record_id", "version"])
    .unique()
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom("inspection_evaluations").where("version", ">", 1).execute();
  await db.schema.dropIndex("inspection_evaluations_call_version_idx").execute();
  await db.schema
    .alterTable("inspection_evaluations")
    .addUniqueConstraint("inspection_evaluations_call_record_id_key", ["call_record_id"])
    .execute();
  for (const column of ["appeal_id", "reason", "version"])
    await db.schema.alterTable("inspection_evaluations").dropColumn(column).execute();
  await db.schema.dropIndex("inspection_forms_tenant_name_idx").execute();
}
