import { sql, type Kysely } from "kysely";

// A batch page shows how many of the batch's calls match its status filter. Counting them on each
// view read up to 10,001 rows and then asked the planner for an estimate (~8 ms of a 100,000-call
// batch's page on PGlite); the count of each batch's calls per status is now kept by the database,
// as migration 063 keeps the open calls: statement-level triggers fold the rows a statement
// changed into one row per (batch, status), so an import of 100,000 calls writes a few rows.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("task_batch_call_counts")
    .addColumn("batch_id", "integer", (col) => col.notNull().references("task_batches.id").onDelete("cascade"))
    .addColumn("status", "integer", (col) => col.notNull())
    .addColumn("calls", "integer", (col) => col.notNull())
    .addPrimaryKeyConstraint("task_batch_call_counts_pkey", ["batch_id", "status"])
    .execute();
  await sql`INSERT INTO task_batch_call_counts (batch_id, status, calls) SELECT batch_id, status, count(*) FROM task_calls GROUP BY batch_id, status`.execute(
    db,
  );
  // Inserted rows add to their (batch, status); deleted rows take away from a count that exists
  // (or went with its batch); an update moves rows between statuses, net of those it left alone.
  await sql
    .raw(
      `CREATE FUNCTION task_batches_count_calls() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO task_batch_call_counts AS k (batch_id, status, calls)
            SELECT batch_id, status, count(*) FROM added GROUP BY batch_id, status
            ON CONFLICT (batch_id, status) DO UPDATE SET calls = k.calls + excluded.calls;
        ELSIF TG_OP = 'DELETE' THEN
          UPDATE task_batch_call_counts k SET calls = k.calls - r.n
            FROM (SELECT batch_id, status, count(*) AS n FROM removed GROUP BY batch_id, status) r
            WHERE k.batch_id = r.batch_id AND k.status = r.status;
        ELSE
          INSERT INTO task_batch_call_counts AS k (batch_id, status, calls)
            SELECT batch_id, status, sum(n) FROM (
              SELECT batch_id, status, 1 AS n FROM added UNION ALL SELECT batch_id, status, -1 FROM removed
            ) moved GROUP BY batch_id, status HAVING sum(n) <> 0
            ON CONFLICT (batch_id, status) DO UPDATE SET calls = k.calls + excluded.calls;
        END IF;
        RETURN NULL;
      END $$`,
    )
    .execute(db);
  await sql
    .raw(
      "CREATE TRIGGER task_calls_count_insert AFTER INSERT ON task_calls REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION task_batches_count_calls()",
    )
    .execute(db);
  await sql
    .raw(
      "CREATE TRIGGER task_calls_count_update AFTER UPDATE ON task_calls REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION task_batches_count_calls()",
    )
    .execute(db);
  await sql
    .raw(
      "CREATE TRIGGER task_calls_count_delete AFTER DELETE ON task_calls REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION task_batches_count_calls()",
    )
    .execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ["insert", "update", "delete"]) await sql.raw(`DROP TRIGGER task_calls_count_${name} ON task_calls`).execute(db);
  await sql.raw("DROP FUNCTION task_batches_count_calls()").execute(db);
  await db.schema.dropTable("task_batch_call_counts").execute();
}
