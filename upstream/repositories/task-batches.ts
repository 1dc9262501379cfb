import { sql } from "kysely";
import { AGENT_DIALLED_CAMPAIGN_TYPES } from "#contracts/codes";
import type { Batch, TaskCall, Transition } from "#contracts/outbound";
import type { Db } from "#upstream/db";

import { countCapped } from "./counting";
import { BatchStatus, CallStatus } from "#upstream/domain/dialer-states";
import type { Trx } from "#upstream/db";
import { moveBatch, moveCall, taskCallRecord } from "./dialing";

const iso = (value: Date | null) => (value === null ? null : value.toISOString());
type Page = { pageNo: number; pageSize: number };
const offset = ({ pageNo, pageSize }: Page) => (pageNo - 1) * pageSize;

function batchesQuery(db: Db, tenantId: number) {
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

function toBatch(row: BatchRow): Batch {
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

function toTransition(row: {
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

// ---- calls ----

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

// ---- hand-offs ----

export async function listHandoffs(db: Db, tenantId: number, query: Page & { state?: string }) {
  let base = db.selectFrom("handoffs as h").where("h.tenant_id", "=", tenantId);
  if (query.state) base = base.where("h.state", "=", query.state as "waiting");
  const [rows, count] = await Promise.all([
    base
      .innerJoin("campaigns as c", "c.id", "h.campaign_id")
      .leftJoin("users as u", "u.id", "h.agent_user_id")
      .select([
        "h.id",
        "h.campaign_id",
        "c.name as campaign_name",
        "h.batch_id",
        "h.task_call_id",
        "h.phone",
        "h.intent",
        "h.state",
        "u.real_name as agent_name",
        "h.created_at",
      ])
      .orderBy("h.id", "desc")
      .limit(query.pageSize)
      .offset(offset(query))
      .execute(),
    base.select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map((r) => ({
      id: r.id,
      campaignId: r.campaign_id,
      campaignName: r.campaign_name,
      batchId: r.batch_id,
      taskCallId: r.task_call_id,
      phone: r.phone,
      intent: r.intent,
      state: r.state,
      agentName: r.agent_name,
      createdAt: r.created_at.toISOString(),
    })),
    total: count.n,
  };
}

// ---- agents' preview lists ----

/**
 * The agent's current preview contact: the one already taken, or the next waiting contact of a
 * scheduling batch of a running manual campaign, assigned to them (to nobody else: row lock).
 */
export async function takeNextPreview(
  db: Db,
  tenantId: number,
  agentUserId: number,
  campaignId: number | undefined,
  at: Date,
): Promise<TaskCall | null> {
  const callId = await db.transaction().execute(async (trx) => {
    let candidates = trx
      .selectFrom("task_calls as t")
      .innerJoin("task_batches as b", "b.id", "t.batch_id")
      .innerJoin("campaigns as c", "c.id", "t.campaign_id")
      .select(["t.id", "t.agent_user_id"])
      .where("t.tenant_id", "=", tenantId)
      .where("t.status", "=", CallStatus.waiting)
      .where("b.status", "=", BatchStatus.scheduling)
      .where("c.state", "=", 1)
      .where("c.type", "in", AGENT_DIALLED_CAMPAIGN_TYPES)
      .where((eb) => eb.or([eb("t.agent_user_id", "=", agentUserId), eb("t.agent_user_id", "is", null)]));
    if (campaignId !== undefined) candidates = candidates.where("t.campaign_id", "=", campaignId);
    // Own contacts first (already taken or distributed to me), then the shared pool.
    const next = await candidates
      .orderBy(sql`t.agent_user_id is null`)
      .orderBy("t.id")
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!next) return null;
    if (next.agent_user_id === null)
      await trx.updateTable("task_calls").set({ agent_user_id: agentUserId, updated_at: at }).where("id", "=", next.id).execute();
    return next.id;
  });
  return callId === null ? null : ((await findCall(db, tenantId, callId)) ?? null);
}

/** An agent's preview contact still waiting to be called, or undefined when it is not theirs. */
export async function ownWaitingCall(db: Db, tenantId: number, agentUserId: number, taskCallId: number) {
  return db
    .selectFrom("task_calls as t")
    .innerJoin("campaigns as c", "c.id", "t.campaign_id")
    .select([
      "t.id",
      "t.tenant_id",
      "t.batch_id",
      "t.campaign_id",
      "t.status",
      "t.attempts",
      "t.phone",
      "t.user_data",
      "c.type as campaign_type",
      "c.queue_name",
    ])
    .where("t.tenant_id", "=", tenantId)
    .where("t.id", "=", taskCallId)
    .where("t.agent_user_id", "=", agentUserId)
    .where("t.status", "=", CallStatus.waiting)
    .executeTakeFirst();
}

/** The agent dials their preview contact: the call is made and recorded (the customer answers). */
/**
 * The agent dials their preview contact through the phone: the contact is being called
 * (呼叫中) until the call ends (`endTaskDial`). The contact, or undefined when it is not theirs.
 */
export async function startPreviewDial(db: Db, tenantId: number, agentUserId: number, taskCallId: number, at: Date) {
  const call = await ownWaitingCall(db, tenantId, agentUserId, taskCallId);
  if (!call) return undefined;
  await db.transaction().execute((trx) => moveCall(trx, call, CallStatus.dialling, "坐席拨打", at, { attempts: call.attempts + 1 }));
  return { ...call, record: taskCallRecord(call, "") };
}

/** A dialled contact's call ended: answered is 呼叫完成, otherwise 未接通, with who hung up. */
export async function endTaskDial(trx: Trx, tenantId: number, taskCallId: number, answered: boolean, hangupParty: number, at: Date) {
  const call = await trx
    .selectFrom("task_calls")
    .select(["id", "tenant_id", "batch_id", "status"])
    .where("tenant_id", "=", tenantId)
    .where("id", "=", taskCallId)
    .where("status", "=", CallStatus.dialling)
    .forUpdate()
    .executeTakeFirst();
  if (!call) return;
  await moveCall(trx, call, answered ? CallStatus.complete : CallStatus.notConnected, answered ? "通话结束" : "未接通", at, {
    hangup_party: hangupParty,
  });
}

/** The agent skips their preview contact with a reason: it counts as not connected (hung up by the agent). */
export async function skipPreview(
  db: Db,
  tenantId: number,
  agentUserId: number,
  taskCallId: number,
  reason: string,
  at: Date,
): Promise<boolean> {
  const call = await ownWaitingCall(db, tenantId, agentUserId, taskCallId);
  if (!call) return false;
  await db
    .transaction()
    .execute((trx) => moveCall(trx, call, CallStatus.notConnected, `坐席跳过：${reason}`, at, { hangup_party: 3, skip_reason: reason }));
  return true;
}

export async function unassignedCount(db: Db, tenantId: number, campaignId: number): Promise<number> {
  const row = await db
    .selectFrom("task_calls")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("tenant_id", "=", tenantId)
    .where("campaign_id", "=", campaignId)
    .where("status", "=", CallStatus.waiting)
    .where("agent_user_id", "is", null)
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * Distributes a campaign's unassigned waiting contacts among agents: evenly (the remainder to
 * the first agents) or a given count each (in order, as far as contacts last).
 */
export async function distributeContacts(
  db: Db,
  tenantId: number,
  campaignId: number,
  mode: "even" | "count",
  agents: Array<{ userId: number; count?: number }>,
  at: Date,
): Promise<Array<{ userId: number; count: number }>> {
  return db.transaction().execute(async (trx) => {
    const pool = await trx
      .selectFrom("task_calls")
      .select("id")
      .where("tenant_id", "=", tenantId)
      .where("campaign_id", "=", campaignId)
      .where("status", "=", CallStatus.waiting)
      .where("agent_user_id", "is", null)
      .orderBy("id")
      .forUpdate()
      .execute();
    const shares =
      mode === "even"
        ? agents.map((_, i) => Math.floor(pool.length / agents.length) + (i < pool.length % agents.length ? 1 : 0))
        : agents.map((a) => a.count ?? 0);
    const assigned: Array<{ userId: number; count: number }> = [];
    let next = 0;
    for (const [i, agent] of agents.entries()) {
      const ids = pool.slice(next, next + shares[i]).map((r) => r.id);
      next += ids.length;
      for (let j = 0; j < ids.length; j += 5000) {
        await trx
          .updateTable("task_calls")
          .set({ agent_user_id: agent.userId, updated_at: at })
          .where("id", "in", ids.slice(j, j + 5000))
          .execute();
      }
      assigned.push({ userId: agent.userId, count: ids.length });
    }
    return assigned;
  });
}

export async function listTransTemplates(db: Db, tenantId: number, agentUserId: number, type?: number) {
  let query = db
    .selectFrom("trans_templates")
    .select(["id", "name", "type", "target"])
    .where("tenant_id", "=", tenantId)
    .where((eb) => eb.or([eb("agent_user_id", "is", null), eb("agent_user_id", "=", agentUserId)]));
  if (type !== undefined) query = query.where("type", "=", type);
  return query.orderBy("id").execute();
}

export async function findTransTemplate(db: Db, tenantId: number, id: number) {
  return db
    .selectFrom("trans_templates")
    .select(["id", "name", "type", "target"])
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .executeTakeFirst();
}
