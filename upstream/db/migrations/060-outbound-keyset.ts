import type { Kysely } from "kysely";

// Outbound lists page by keyset: a batch's calls and a campaign's data, filtered by
// tenant and optionally by call status, in id order. Each index leads with the tenant so that the
// seek, the capped count and the tenant check are one index range.

const INDEXES = [
  { name: "task_calls_tenant_batch_idx", columns: ["tenant_id", "batch_id", "id"] },
  { name: "task_calls_tenant_batch_status_idx", columns: ["tenant_id", "batch_id", "status", "id"] },
  { name: "task_calls_tenant_campaign_status_idx", columns: ["tenant_id", "campaign_id", "status", "id"] },
  { name: "task_calls_tenant_agent_status_idx", columns: ["tenant_id", "agent_user_id", "status", "id"] },
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const index of INDEXES) await db.schema.createIndex(index.name).on("task_calls").columns(index.columns).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const index of INDEXES) await db.schema.dropIndex(index.name).execute();
}
