import { sql, type Kysely } from "kysely";

// A batch's own status history, read apart from its calls': a batch of 100,000 calls
// has hundreds of thousands of call changes, and its few own changes must not be searched for
// among them.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("task_transitions_batch_own_idx")
    .on("task_transitions")
    .columns(["tenant_id", "batch_id", "id"])
    .where(sql.ref("task_call_id"), "is", null)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("task_transitions_batch_own_idx").execute();
}
