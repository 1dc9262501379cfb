import { sql } from "kysely";
import type { TaskCall, Transition } from "#contracts/outbound";
import type { Db } from "#upstream/db";
import { countCapped } from "./counting";
import { batchesQuery, offset, toBatch, toTransition, type Page } from "./task-batches";

/** The calls of outbound batches: pages of them, one call, its moves and its call records, every call of a filter for an export. */

function toCall(row: CallRow): TaskCall {
  return {
    id: row.id,
    batchId: row.batch_id,
    campaignId: row.campaign_id,
    phone: row.phone,
    customerName: row.customer_name,
    status: row.status,
    hangupParty: row.hangup_party,
    attempts: row.attempts,
    agentUserId: row.agent_user_id,
    agentName: row.agent_name,
    skipReason: row.skip_reason,
    userData: row.user_data,
    updatedAt: row.updated_at.toISOString(),
  };
}

export type CallFilter = Page & {
  after?: string;
  before?: string;
  campaignId?: number;
  batchId?: number;
  status?: number;
  statuses?: number[];
  agentUserId?: number;
};
type CallFilters = Omit<CallFilter, "pageNo" | "pageSize" | "after" | "before">;

function filteredCalls(db: Db, tenantId: number, filter: CallFilters) {
  let query = db.selectFrom("task_calls as t").where("t.tenant_id", "=", tenantId);
  if (filter.campaignId !== undefined) query = query.where("t.campaign_id", "=", filter.campaignId);
  if (filter.batchId !== undefined) query = query.where("t.batch_id", "=", filter.batchId);
  if (filter.status !== undefined) query = query.where("t.status", "=", filter.status);
  if (filter.statuses) query = query.where("t.status", "in", filter.statuses);
  if (filter.agentUserId !== undefined) query = query.where("t.agent_user_id", "=", filter.agentUserId);
  return query;
}

const withColumns = (query: ReturnType<typeof filteredCalls>) =>
  query
    .leftJoin("users as u", "u.id", "t.agent_user_id")
    .select([
      "t.id",
      "t.batch_id",
      "t.campaign_id",
      "t.phone",
      "t.customer_name",
      "t.status",
      "t.hangup_party",
      "t.attempts",
      "t.agent_user_id",
      "u.real_name as agent_name",
      "t.skip_reason",
      "t.user_data",
      "t.updated_at",
    ]);
type CallRow = Awaited<ReturnType<ReturnType<typeof withColumns>["executeTakeFirstOrThrow"]>>;

/**
 * One page of calls in id order and the total. A cursor from the previous page (`after`: the
 * last id shown; `before`: the first) makes the page a keyset seek on the (tenant, batch or
 * campaign, [status,] id) indexes, as fast at the end of a 100,000-contact batch as at its start;
 * a bare page number (numbered links, the jumper) falls back to an offset.
 */
export async function listCalls(db: Db, tenantId: number, filter: CallFilter) {
  const [list, total] = await Promise.all([callPage(db, tenantId, filter), countCapped(db, filteredCalls(db, tenantId, filter))]);
  return { list, ...total };
}

async function callPage(db: Db, tenantId: number, filter: CallFilter): Promise<TaskCall[]> {
  const base = filteredCalls(db, tenantId, filter);
  let rows: CallRow[];
  if (filter.after) {
    rows = await withColumns(base.where("t.id", ">", Number(filter.after)))
      .orderBy("t.id")
      .limit(filter.pageSize)
      .execute();
  } else if (filter.before) {
    rows = (
      await withColumns(base.where("t.id", "<", Number(filter.before)))
        .orderBy("t.id", "desc")
        .limit(filter.pageSize)
        .execute()
    ).reverse();
  } else {
    rows = await withColumns(base).orderBy("t.id").limit(filter.pageSize).offset(offset(filter)).execute();
  }
  return rows.map(toCall);
}

/**
 * A batch with one page of its calls (GET /outbound/task/get), or undefined when the tenant has
 * no such batch. Unless the calls are one agent's, their total comes with the batch's row, from
 * the counts of its calls per status that the database keeps (migration 064), not by counting.
 */
export async function batchWithCalls(db: Db, tenantId: number, batchId: number, filter: Omit<CallFilter, "batchId" | "campaignId">) {
  const calls = { ...filter, batchId };
  const [row, list] = await Promise.all([
    batchesQuery(db, tenantId)
      .where("b.id", "=", batchId)
      .$if(filter.agentUserId === undefined, (query) =>
        query.select((eb) => {
          // The same status filters as filteredCalls, on the kept counts.
          let kept = eb
            .selectFrom("task_batch_call_counts as k")
            .select(sql<number>`coalesce(sum(k.calls), 0)::int`.as("n"))
            .whereRef("k.batch_id", "=", "b.id");
          if (filter.status !== undefined) kept = kept.where("k.status", "=", filter.status);
          if (filter.statuses) kept = kept.where("k.status", "in", filter.statuses);
          return kept.as("matching_calls");
        }),
      )
      .executeTakeFirst(),
    callPage(db, tenantId, calls),
  ]);
  if (!row) return undefined;
  const total =
    row.matching_calls === undefined ? await countCapped(db, filteredCalls(db, tenantId, calls)) : { total: row.matching_calls ?? 0 };
  return { batch: toBatch(row), calls: { list, ...total } };
}

/** Every call of a filter, in id order, a chunk at a time (exports stream with flat memory). */
export async function* allCalls(db: Db, tenantId: number, filter: CallFilters): AsyncGenerator<TaskCall[]> {
  let after = 0;
  for (;;) {
    const rows = await withColumns(filteredCalls(db, tenantId, filter).where("t.id", ">", after))
      .orderBy("t.id")
      .limit(2000)
      .execute();
    if (rows.length === 0) return;
    yield rows.map(toCall);
    after = rows[rows.length - 1].id;
  }
}

export async function findCall(db: Db, tenantId: number, id: number): Promise<TaskCall | undefined> {
  const row = await withColumns(filteredCalls(db, tenantId, {}))
    .where("t.id", "=", id)
    .executeTakeFirst();
  return row && toCall(row);
}

export async function callTransitions(db: Db, tenantId: number, taskCallId: number): Promise<Transition[]> {
  const rows = await db
    .selectFrom("task_transitions as h")
    .innerJoin("task_calls as t", "t.id", "h.task_call_id")
    .select(["h.id", "h.task_call_id", "t.phone", "h.from_status", "h.to_status", "h.reason", "h.at"])
    .where("h.tenant_id", "=", tenantId)
    .where("h.task_call_id", "=", taskCallId)
    .orderBy("h.id")
    .execute();
  return rows.map(toTransition);
}

export async function callRecordsOf(db: Db, tenantId: number, taskCallId: number) {
  const rows = await db
    .selectFrom("call_records")
    .select([
      "id",
      "cti_call_id",
      "call_time",
      "call_duration_ms",
      "call_result",
      "call_result_name",
      "outbound_result",
      "intent",
      "hangup_party",
    ])
    .where("tenant_id", "=", tenantId)
    .where("task_call_id", "=", taskCallId)
    .orderBy("call_time", "desc")
    .limit(50)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    ctiCallId: r.cti_call_id,
    callTime: r.call_time.toISOString(),
    callDurationMs: r.call_duration_ms,
    callResult: r.call_result,
    callResultName: r.call_result_name,
    outboundResult: r.outbound_result,
    intent: r.intent,
    hangupParty: r.hangup_party,
  }));
}
