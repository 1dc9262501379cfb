import { sql, type Kysely } from "kysely";

// A batch removed (an import that failed or was cut off, a batch deleted) removes its calls, and
// each call removed asks call_records and handoffs for rows that point to it (their foreign keys
// set null or cascade). Neither column had an index, so each call read the whole table: 100,000
// calls took 6.9 s against a demo's few thousand call records on PGlite, and grow with them.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("call_records_task_call_idx")
    .on("call_records")
    .column("task_call_id")
    .where(sql.ref("task_call_id"), "is not", null)
    .execute();
  await db.schema.createIndex("handoffs_task_call_idx").on("handoffs").column("task_call_id").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("handoffs_task_call_idx").execute();
  await db.schema.dropIndex("call_records_task_call_idx").execute();
}
