import { sql, type Kysely } from "kysely";

// Every batch page shows how many of the batch's calls are still waiting or being dialled
// (statuses 0 and 1). Counting them on each view cost ~50 ms at 100,000 calls on PGlite, twice a
// page; the count is now kept on the batch by the database itself, whatever writes the calls (an
// import, the dialer, a cancel in bulk, a seed): statement-level triggers adjust it once per
// statement from the rows it changed, so an import of 100,000 calls updates the batch once.

const OPEN = "(0, 1)";

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("task_batches")
    .addColumn("open_calls", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE task_batches b SET open_calls = (SELECT count(*) FROM task_calls t WHERE t.batch_id = b.id AND t.status IN ${sql.raw(OPEN)})`.execute(
    db,
  );
  // Adds, per batch, the open rows of `added` and removes those of `removed` (either may be empty).
  await sql
    .raw(
      `CREATE FUNCTION task_batches_count_open() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP IN ('UPDATE', 'DELETE') THEN
          UPDATE task_batches b SET open_calls = b.open_calls - o.n
            FROM (SELECT batch_id, count(*) AS n FROM removed WHERE status IN ${OPEN} GROUP BY batch_id) o WHERE b.id = o.batch_id;
        END IF;
        IF TG_OP IN ('UPDATE', 'INSERT') THEN
          UPDATE task_batches b SET open_calls = b.open_calls + a.n
            FROM (SELECT batch_id, count(*) AS n FROM added WHERE status IN ${OPEN} GROUP BY batch_id) a WHERE b.id = a.batch_id;
        END IF;
        RETURN NULL;
      END $$`,
    )
    .execute(db);
  await sql
    .raw(
      "CREATE TRIGGER task_calls_open_insert AFTER INSERT ON task_calls REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION task_batches_count_open()",
    )
    .execute(db);
  await sql
    .raw(
      "CREATE TRIGGER task_calls_open_update AFTER UPDATE ON task_calls REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION task_batches_count_open()",
    )
    .execute(db);
  await sql
    .raw(
      "CREATE TRIGGER task_calls_open_delete AFTER DELETE ON task_calls REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION task_batches_count_open()",
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ["insert", "update", "delete"]) await sql.raw(`DROP TRIGGER task_calls_open_${name} ON task_calls`).execute(db);
  await sql.raw("DROP FUNCTION task_batches_count_open()").execute(db);
  await db.schema.alterTable("task_batches").dropColumn("open_calls").execute();
}
