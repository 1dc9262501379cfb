import { sql, type Kysely } from "kysely";

// A scoring form's name is unique in its tenant (decision 028), held by the database (decision
// 033): the repository's check answers first, and two administrators saving the same name at once
// are kept apart by this index, its violation answered with the same Chinese 400. Names already
// repeated (possible only through such a race before this index) keep the oldest form's name; the
// others get their id appended, so that the index can be built.

export async function up(db: Kysely<any>): Promise<void> {
  await sql`
    UPDATE inspection_forms f SET name = f.name || '（' || f.id || '）'
    WHERE EXISTS (
      SELECT 1 FROM inspection_forms o WHERE o.tenant_id = f.tenant_id AND o.name = f.name AND o.id < f.id
    )`.execute(db);
  await db.schema.createIndex("inspection_forms_tenant_name_idx").on("inspection_forms").columns(["tenant_id", "name"]).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("inspection_forms_tenant_name_idx").execute();
}
