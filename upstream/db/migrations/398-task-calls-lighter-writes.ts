import { sql, type Kysely } from "kysely";

// A campaign's import writes a million calls, and every foreign key and index of task_calls is
// paid on every row. Measured on PGlite (100,000 rows, CPU time): the three foreign keys
// (tenant, campaign, batch: three lookups a row) took about a quarter of it.
// - One foreign key now, on (batch_id, campaign_id, tenant_id) to the batch: one lookup a row,
//   and it also holds what the three did not, that a call has its batch's campaign and tenant.
//   Deleting a tenant, a campaign or a batch still removes its calls (through the batch).
// - (tenant_id, batch_id, id) and (tenant_id, batch_id, status, id) go: a batch belongs to one
//   tenant, so (batch_id, id) and (batch_id, status, id) read the same rows in the same order.
// - A call record's link to its call is checked when the transaction ends: deleting a campaign
//   sets its call records' campaign to null, and then, its batches gone, their calls' links; the
//   first update's check would otherwise run while the record still names a call already gone.

const OLD_KEYS = ["task_calls_tenant_id_fkey", "task_calls_campaign_id_fkey", "task_calls_batch_id_fkey"];
const TENANT_BATCH_INDEXES = [
  { name: "task_calls_tenant_batch_idx", columns: ["tenant_id", "batch_id", "id"] },
  { name: "task_calls_tenant_batch_status_idx", columns: ["tenant_id", "batch_id", "status", "id"] },
];

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("task_batches_id_campaign_tenant_key")
    .unique()
    .on("task_batches")
    .columns(["id", "campaign_id", "tenant_id"])
    .execute();
  await sql`ALTER TABLE task_calls ADD CONSTRAINT task_calls_batch_fkey FOREIGN KEY (batch_id, campaign_id, tenant_id)
    REFERENCES task_batches (id, campaign_id, tenant_id) ON DELETE CASCADE`.execute(db);
  for (const name of OLD_KEYS) await sql`ALTER TABLE task_calls DROP CONSTRAINT ${sql.ref(name)}`.execute(db);
  await sql`ALTER TABLE call_records ALTER CONSTRAINT call_records_task_call_id_fkey DEFERRABLE INITIALLY DEFERRED`.execute(db);
  for (const index of TENANT_BATCH_INDEXES) await db.schema.dropIndex(index.name).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE call_records ALTER CONSTRAINT call_records_task_call_id_fkey NOT DEFERRABLE`.execute(db);
  for (const index of TENANT_BATCH_INDEXES) await db.schema.createIndex(index.name).on("task_calls").columns(index.columns).execute();
  await sql`ALTER TABLE task_calls ADD CONSTRAINT task_calls_tenant_id_fkey FOREIGN KEY (tenant_id) REFERENCES tenants (id) ON DELETE CASCADE`.execute(
    db,
  );
  await sql`ALTER TABLE task_calls ADD CONSTRAINT task_calls_campaign_id_fkey FOREIGN KEY (campaign_id) REFERENCES campaigns (id) ON DELETE CASCADE`.execute(
    db,
  );
  await sql`ALTER TABLE task_calls ADD CONSTRAINT task_calls_batch_id_fkey FOREIGN KEY (batch_id) REFERENCES task_batches (id) ON DELETE CASCADE`.execute(
    db,
  );
  await sql`ALTER TABLE task_calls DROP CONSTRAINT task_calls_batch_fkey`.execute(db);
  await db.schema.dropIndex("task_batches_id_campaign_tenant_key").execute();
}
