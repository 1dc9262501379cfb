import { sql } from "kysely";
import type { Batch, Transition } from "#contracts/outbound";
import type { Db } from "#upstream/db";
import { BatchStatus } from "#upstream/domain/dialer-states";
import { moveBatch } from "./dialing";

/**
 * Outbound batches: pages of them, one batch, saving, creating and recovering one, its moves. Their
 * calls are in task-calls.ts, hand-offs in handoffs.ts, the agents' preview lists in
 * preview-lists.ts; this module has the paging helpers they share.
 */

export const iso = (value: Date | null) => (value === null ? null : value.toISOString());
export type Page = { pageNo: number; pageSize: number };
export const offset = ({ pageNo, pageSize }: Page) => (pageNo - 1) * pageSize;

export function batchesQuery(db: Db, tenantId: number) {
  return db
    .selectFrom("task_batches as b")
    .innerJoin("campaigns as c", "c.id", "b.campaign_id")
    .select([
      "b.id",
      "b.campaign_id",
      "c.name as campaign_name",
      "c.type as campaign_type",
      "b.name",
      "b.status",
      "b.total",
      "b.next_run_at",
      "b.started_at",
      "b.finished_at",
      "b.created_at",
      "b.open_calls as open",
    ])
    .where("b.tenant_id", "=", tenantId);
}
type BatchRow = Awaited<ReturnType<ReturnType<typeof batchesQuery>["executeTakeFirstOrThrow"]>>;

export function toBatch(row: BatchRow): Batch {
  return {
    id: row.id,
    campaignId: row.campaign_id,
    campaignName: row.campaign_name,
    campaignType: row.campaign_type,
    name: row.name,
    status: row.status,
    total: row.total,
    open: row.open,
    nextRunAt: iso(row.next_run_at),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    createdAt: row.created_at.toISOString(),
  };
}

export async function listBatches(
  db: Db,
  tenantId: number,
  query: Page & { campaignId?: number; status?: number; agentUserId?: number; campaignTypes?: number[] },
) {
  let ids = db.selectFrom("task_batches as b").where("b.tenant_id", "=", tenantId);
  if (query.campaignTypes) {
    const types = query.campaignTypes;
    ids = ids.where("b.campaign_id", "in", (eb) =>
      eb.selectFrom("campaigns").select("id").where("tenant_id", "=", tenantId).where("type", "in", types),
    );
  }
  if (query.campaignId !== undefined) ids = ids.where("b.campaign_id", "=", query.campaignId);
  if (query.status !== undefined) ids = ids.where("b.status", "=", query.status);
  if (query.agentUserId !== undefined) {
    const agent = query.agentUserId;
    ids = ids.where(({ exists, selectFrom }) =>
      exists(selectFrom("task_calls as t").select("t.id").whereRef("t.batch_id", "=", "b.id").where("t.agent_user_id", "=", agent)),
    );
  }
  const [page, count] = await Promise.all([
    ids.select("b.id").orderBy("b.id", "desc").limit(query.pageSize).offset(offset(query)).execute(),
    ids.select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow(),
  ]);
  if (page.length === 0) return { list: [], total: count.n };
  const rows = await batchesQuery(db, tenantId)
    .where(
      "b.id",
      "in",
      page.map((r) => r.id),
    )
    .orderBy("b.id", "desc")
    .execute();
  return { list: rows.map(toBatch), total: count.n };
}

export async function findBatch(db: Db, tenantId: number, id: number): Promise<Batch | undefined> {
  const row = await batchesQuery(db, tenantId).where("b.id", "=", id).executeTakeFirst();
  return row && toBatch(row);
}

export async function saveBatch(
  db: Db,
  tenantId: number,
  input: { id?: number; campaignId: number; name: string },
  at: Date,
): Promise<number | undefined> {
  const campaign = await db
    .selectFrom("campaigns")
    .select("id")
    .where("tenant_id", "=", tenantId)
    .where("id", "=", input.campaignId)
    .executeTakeFirst();
  if (!campaign) return undefined;
  if (input.id !== undefined) {
    const row = await db
      .updateTable("task_batches")
      .set({ name: input.name, updated_at: at })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", input.id)
      .where("campaign_id", "=", input.campaignId)
      .returning("id")
      .executeTakeFirst();
    return row?.id;
  }
  return createBatch(db, tenantId, input.campaignId, input.name, 0, at);
}

export async function createBatch(db: Db, tenantId: number, campaignId: number, name: string, total: number, at: Date): Promise<number> {
  const row = await db
    .insertInto("task_batches")
    .values({ tenant_id: tenantId, campaign_id: campaignId, name, total, status: BatchStatus.preparing, created_at: at, updated_at: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  await db
    .insertInto("task_transitions")
    .values({ tenant_id: tenantId, batch_id: row.id, from_status: null, to_status: BatchStatus.preparing, reason: "批次创建", at })
    .execute();
  return row.id;
}

/** Recovers a paused or failed batch: paused → scheduling, preparation failed → preparing. */
export async function recoverBatch(db: Db, tenantId: number, id: number, at: Date): Promise<"recovered" | "not-found" | "refused"> {
  return db.transaction().execute(async (trx) => {
    const batch = await trx
      .selectFrom("task_batches")
      .select(["id", "tenant_id", "status"])
      .where("tenant_id", "=", tenantId)
      .where("id", "=", id)
      .forUpdate()
      .executeTakeFirst();
    if (!batch) return "not-found";
    const to =
      batch.status === BatchStatus.paused
        ? BatchStatus.scheduling
        : batch.status === BatchStatus.prepareFailed
          ? BatchStatus.preparing
          : null;
    if (to === null) return "refused";
    await moveBatch(trx, batch, to, "人工恢复", at);
    return "recovered";
  });
}

/**
 * A batch's history, newest first: every change of the batch's own status, and the latest
 * `callMoves` changes of its calls. Read apart (in one statement), so that the thousands of call
 * changes of a big batch can never push its own history out, nor have to be read to show it.
 */
export async function batchTransitions(db: Db, tenantId: number, batchId: number, callMoves = 50): Promise<Transition[]> {
  const history = db.selectFrom("task_transitions as h").where("h.tenant_id", "=", tenantId).where("h.batch_id", "=", batchId);
  const own = history
    .where("h.task_call_id", "is", null)
    .select(["h.id", "h.task_call_id", sql<string | null>`null::text`.as("phone"), "h.from_status", "h.to_status", "h.reason", "h.at"]);
  const recentCalls = history
    .where("h.task_call_id", "is not", null)
    .leftJoin("task_calls as t", "t.id", "h.task_call_id")
    .select(["h.id", "h.task_call_id", "t.phone", "h.from_status", "h.to_status", "h.reason", "h.at"])
    .orderBy("h.id", "desc")
    .limit(callMoves);
  const rows = await own.unionAll(db.selectFrom(recentCalls.as("recent")).selectAll()).execute();
  return rows.sort((a, b) => b.id - a.id).map(toTransition);
}

export function toTransition(row: {
  id: number;
  task_call_id: number | null;
  phone: string | null;
  from_status: number | null;
  to_status: number;
  reason: string;
  at: Date;
}): Transition {
  return {
    id: row.id,
    taskCallId: row.task_call_id,
    phone: row.phone,
    fromStatus: row.from_status,
    toStatus: row.to_status,
    reason: row.reason,
    at: row.at.toISOString(),
  };
}
