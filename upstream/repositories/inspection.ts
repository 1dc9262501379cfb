import { sql, type ExpressionBuilder } from "kysely";
import {
  QC_CHECKING,
  QC_INFLUENCE_NEGATIVE,
  QC_RESULTS,
  QC_UNCHECKED,
  codesOf,
  labelOf,
  QUALITY_CHECK_STATUSES,
  QC_INFLUENCES,
} from "#contracts/codes";
import {
  QC_LOCK_MINUTES,
  QC_REFUSALS,
  qcMoveAllowed,
  type InspectionListQuery,
  type InspectionLiveCall,
  type InspectionPage,
  type InspectionRow,
  type InspectionScore,
  type PerformanceQuery,
  type PerformanceRow,
  type QcAccess,
  type QcAppeal,
  type QcAppealDecision,
  type QcItemResult,
} from "#contracts/inspection";
import type { Db } from "#upstream/db";
import type { Database } from "#upstream/db/schema";
import { writeAudit, type Actor } from "./audit-log";
import { CALL_ROW_COLUMNS } from "./call-records";
import { countCapped } from "./counting";
import type { Trx } from "#upstream/db";
import { Refused } from "#upstream/domain/refused";

/**
 * Quality inspection (decision 018): the queue over the tenant's calls (status, lock, result on
 * call_records, migration 120), appeals and the inspectors' access. Every status move goes
 * through `qcMoveAllowed` (contracts/inspection.ts) and writes its audit row here, in the
 * caller's transaction. Refusals are `InspectionRefused` with a Chinese message.
 */

export class InspectionRefused extends Refused {}

const RESULTS = codesOf(QC_RESULTS);
const statusLabel = (code: number) => labelOf(QUALITY_CHECK_STATUSES, code);
const lockCutoff = () => sql<Date>`now() - ${sql.lit(`${QC_LOCK_MINUTES} minutes`)}::interval`;

/** Who looks at the queue: an agent sees only their own inspected calls. */
export type Viewer = { id: number; role: "admin" | "supervisor" | "agent" };

/** What an inspector may inspect: everything (administrators) or the granted queues and campaigns. */
export type InspectScope = "all" | { queues: string[]; campaignIds: number[] };

export async function scopeOf(db: Trx, tenantId: number, user: Viewer): Promise<InspectScope> {
  if (user.role === "admin") return "all";
  const grants = await db
    .selectFrom("inspection_access")
    .select(["scope", "value"])
    .where("tenant_id", "=", tenantId)
    .where("user_id", "=", user.id)
    .execute();
  return {
    queues: grants.filter((g) => g.scope === "queue").map((g) => g.value),
    campaignIds: grants.filter((g) => g.scope === "campaign").map((g) => Number(g.value)),
  };
}

function inScope(scope: InspectScope) {
  return (eb: ExpressionBuilder<Database, "call_records">) => {
    if (scope === "all") return eb.val(true);
    const parts = [];
    if (scope.queues.length > 0) parts.push(eb("call_records.queue_name", "in", scope.queues));
    if (scope.campaignIds.length > 0) parts.push(eb("call_records.campaign_id", "in", scope.campaignIds));
    return parts.length > 0 ? eb.or(parts) : eb.val(false);
  };
}

/** A call may be claimed when it waits, or its lock has expired. */
const claimable = (eb: ExpressionBuilder<Database, "call_records">) =>
  eb.or([
    eb("call_records.qc_status", "=", QC_UNCHECKED),
    eb.and([eb("call_records.qc_status", "=", QC_CHECKING), eb("call_records.qc_locked_at", "<", lockCutoff())]),
  ]);

/**
 * Locks held past QC_LOCK_MINUTES go back to the pool (status 2 → -1), each with its audit row by
 * the platform. Run before every queue operation and list, so what they see is true.
 */
export async function releaseExpiredLocks(db: Trx, tenantId: number): Promise<number[]> {
  const released = await db
    .updateTable("call_records")
    .set({ qc_status: QC_UNCHECKED, qc_inspector_id: null, qc_locked_at: null })
    .where("tenant_id", "=", tenantId)
    .where("qc_status", "=", QC_CHECKING)
    .where("qc_locked_at", "<", lockCutoff())
    .returning(["id", "qc_inspector_id"])
    .execute();
  const system: Actor = { id: null, name: "系统", tenantId };
  for (const row of released) {
    await writeAudit(db, system, {
      action: "inspection.expire",
      target: { type: "call", id: row.id },
      summary: `通话 ${row.id} 质检锁定超过${QC_LOCK_MINUTES}分钟，退回待质检`,
      detail: { from: QC_CHECKING, to: QC_UNCHECKED },
    });
  }
  return released.map((row) => Number(row.id));
}

function rows(db: Trx, tenantId: number) {
  return db
    .selectFrom("call_records")
    .leftJoin("campaigns as c", (join) =>
      join.onRef("c.id", "=", "call_records.campaign_id").onRef("c.tenant_id", "=", "call_records.tenant_id"),
    )
    .leftJoin("users as u", (join) =>
      join.onRef("u.id", "=", "call_records.agent_user_id").onRef("u.tenant_id", "=", "call_records.tenant_id"),
    )
    .leftJoin("users as i", (join) =>
      join.onRef("i.id", "=", "call_records.qc_inspector_id").onRef("i.tenant_id", "=", "call_records.tenant_id"),
    )
    .leftJoin("inspection_appeals as a", "a.call_record_id", "call_records.id")
    .where("call_records.tenant_id", "=", tenantId)
    .select([
      ...CALL_ROW_COLUMNS,
      "call_records.queue_name",
      "call_records.qc_inspector_id",
      "i.real_name as inspector_name",
      "call_records.qc_locked_at",
      "call_records.qc_influence",
      "call_records.qc_remark",
      "call_records.qc_checked_at",
      "a.id as appeal_id",
      "a.state as appeal_state",
      "call_records.qc_score",
    ]);
}
type RawRow = Awaited<ReturnType<ReturnType<typeof rows>["execute"]>>[number];

function toRow(row: RawRow): InspectionRow {
  return {
    callId: Number(row.id),
    ctiCallId: row.cti_call_id,
    prevCtiCallId: row.prev_cti_call_id,
    direction: row.direction,
    phone: row.phone,
    campaignId: row.campaign_id,
    campaignName: row.campaign_name,
    campaignType: row.campaign_type,
    callKind: row.call_kind,
    isAnswer: row.is_answer,
    outboundResult: row.outbound_result,
    callResult: row.call_result,
    callResultName: row.call_result_name,
    intent: row.intent,
    qcStatus: row.qc_status,
    conclusion: row.conclusion,
    hangupParty: row.hangup_party,
    agentId: row.agent_user_id,
    agentName: row.agent_name,
    callTime: row.call_time.getTime(),
    callDuration: row.call_duration_ms,
    poorQuality: row.poor_quality,
    queueName: row.queue_name,
    inspectorId: row.qc_inspector_id,
    inspectorName: row.inspector_name,
    lockedAt: row.qc_locked_at?.getTime() ?? null,
    influence: row.qc_influence,
    remark: row.qc_remark,
    checkedAt: row.qc_checked_at?.getTime() ?? null,
    appealId: row.appeal_id,
    appealState: row.appeal_state,
    score: row.qc_score,
  };
}

type Filtered = ReturnType<typeof rows>;
type Filters = Omit<InspectionListQuery, "pageNo" | "pageSize"> & { campaignType?: number };
function filtered(db: Trx, tenantId: number, viewer: Viewer, query: Filters): Filtered {
  let q = rows(db, tenantId);
  if (viewer.role === "agent") {
    // An agent reads only their own calls' results.
    q = q.where("call_records.agent_user_id", "=", viewer.id).where("call_records.qc_status", "in", RESULTS);
  }
  if (query.startTime !== undefined) q = q.where("call_records.call_time", ">=", new Date(query.startTime));
  if (query.endTime !== undefined) q = q.where("call_records.call_time", "<=", new Date(query.endTime));
  if (query.phone) q = q.where("call_records.phone", "like", `%${query.phone}%`);
  if (query.callResult !== undefined) q = q.where("call_records.call_result", "=", query.callResult);
  if (query.outboundResult) q = q.where("call_records.outbound_result", "=", query.outboundResult);
  if (query.isAnswer !== undefined) q = q.where("call_records.is_answer", "=", query.isAnswer);
  if (query.callKind !== undefined) q = q.where("call_records.call_kind", "=", query.callKind);
  if (query.campaignId !== undefined) q = q.where("call_records.campaign_id", "=", query.campaignId);
  if (query.campaignType !== undefined) q = q.where("call_records.campaign_type", "=", query.campaignType);
  if (query.agentId !== undefined) q = q.where("call_records.agent_user_id", "=", query.agentId);
  if (query.qcStatus !== undefined) q = q.where("call_records.qc_status", "=", query.qcStatus);
  if (query.intent) q = q.where("call_records.intent", "=", query.intent);
  if (query.minDuration !== undefined) q = q.where("call_records.call_duration_ms", ">=", query.minDuration * 1000);
  if (query.maxDuration !== undefined) q = q.where("call_records.call_duration_ms", "<=", query.maxDuration * 1000);
  if (query.inspectorId !== undefined) q = q.where("call_records.qc_inspector_id", "=", query.inspectorId);
  if (query.mine) q = q.where("call_records.qc_inspector_id", "=", viewer.id).where("call_records.qc_status", "=", QC_CHECKING);
  if (query.appealState) q = q.where("a.state", "=", query.appealState);
  return q;
}

function parseCursor(cursor: string): [Date, number] {
  const [time, id] = cursor.split("_").map(Number);
  return [new Date(time), id];
}

/** A page of the inspection list, newest call first, keyset on (call_time, id) like the call lists. */
export async function listInspections(
  db: Db,
  tenantId: number,
  viewer: Viewer,
  query: InspectionListQuery & { campaignType?: number },
): Promise<InspectionPage> {
  const base = filtered(db, tenantId, viewer, query);
  const tuple = sql`(call_records.call_time, call_records.id)`;
  let list: RawRow[];
  if (query.after) {
    const [time, id] = parseCursor(query.after);
    list = await base
      .where(sql<boolean>`${tuple} < (${time}, ${id})`)
      .orderBy("call_records.call_time", "desc")
      .orderBy("call_records.id", "desc")
      .limit(query.pageSize)
      .execute();
  } else if (query.before) {
    const [time, id] = parseCursor(query.before);
    list = (
      await base
        .where(sql<boolean>`${tuple} > (${time}, ${id})`)
        .orderBy("call_records.call_time", "asc")
        .orderBy("call_records.id", "asc")
        .limit(query.pageSize)
        .execute()
    ).reverse();
  } else {
    list = await base
      .orderBy("call_records.call_time", "desc")
      .orderBy("call_records.id", "desc")
      .limit(query.pageSize)
      .offset((query.pageNo - 1) * query.pageSize)
      .execute();
  }
  const total = await countCapped(db, base.clearSelect());
  return { list: list.map(toRow), ...total };
}

/**
 * Every row of a filtered list, newest first, in keyset batches (the export): one batch in memory
 * at a time, each batch a seek on (call_time, id).
 */
export async function* inspectionBatches(db: Db, tenantId: number, viewer: Viewer, query: Filters, batchRows = 5_000, limit = 1_000_000) {
  let after: [Date, number] | null = null;
  let done = 0;
  while (done < limit) {
    let q = filtered(db, tenantId, viewer, query);
    if (after) q = q.where(sql<boolean>`(call_records.call_time, call_records.id) < (${after[0]}, ${after[1]})`);
    const batch = await q
      .orderBy("call_records.call_time", "desc")
      .orderBy("call_records.id", "desc")
      .limit(Math.min(batchRows, limit - done))
      .execute();
    if (batch.length === 0) return;
    done += batch.length;
    const last = batch[batch.length - 1];
    after = [last.call_time, Number(last.id)];
    yield batch.map(toRow);
    if (batch.length < batchRows) return;
  }
}

/** One call's inspection row, as the viewer may see it, or undefined. */
export async function findInspection(db: Trx, tenantId: number, viewer: Viewer, callId: number): Promise<InspectionRow | undefined> {
  const row = await filtered(db, tenantId, viewer, {}).where("call_records.id", "=", callId).executeTakeFirst();
  return row ? toRow(row) : undefined;
}

/** The caller's next locked call after `afterId` in list order, or the newest they hold. */
export async function nextLocked(db: Trx, tenantId: number, inspector: Viewer, afterId: number): Promise<InspectionRow | undefined> {
  const current = await db
    .selectFrom("call_records")
    .select("call_time")
    .where("tenant_id", "=", tenantId)
    .where("id", "=", afterId)
    .executeTakeFirst();
  const mine = filtered(db, tenantId, inspector, { mine: true });
  if (current) {
    const after = await mine
      .where(sql<boolean>`(call_records.call_time, call_records.id) < (${current.call_time}, ${afterId})`)
      .orderBy("call_records.call_time", "desc")
      .orderBy("call_records.id", "desc")
      .limit(1)
      .executeTakeFirst();
    if (after) return toRow(after);
  }
  const first = await mine
    .where("call_records.id", "!=", afterId)
    .orderBy("call_records.call_time", "desc")
    .orderBy("call_records.id", "desc")
    .limit(1)
    .executeTakeFirst();
  return first ? toRow(first) : undefined;
}

/** The inspection state of these calls as the queue shows it (the live queue's notification, decision 033). */
export async function liveStates(db: Trx, tenantId: number, ids: number[]): Promise<InspectionLiveCall[]> {
  if (ids.length === 0) return [];
  const found = await db
    .selectFrom("call_records")
    .leftJoin("users as i", (join) =>
      join.onRef("i.id", "=", "call_records.qc_inspector_id").onRef("i.tenant_id", "=", "call_records.tenant_id"),
    )
    .leftJoin("inspection_appeals as a", "a.call_record_id", "call_records.id")
    .select([
      "call_records.id",
      "call_records.qc_status",
      "call_records.qc_inspector_id",
      "i.real_name as inspector_name",
      "call_records.qc_influence",
      "call_records.qc_score",
      "a.state as appeal_state",
    ])
    .where("call_records.tenant_id", "=", tenantId)
    .where("call_records.id", "in", ids)
    .execute();
  return found.map((row) => ({
    callId: Number(row.id),
    qcStatus: row.qc_status,
    inspectorId: row.qc_inspector_id,
    inspectorName: row.inspector_name,
    influence: row.qc_influence,
    score: row.qc_score,
    appealState: row.appeal_state,
  }));
}

/** Locks waiting calls of the inspector's scope to them, newest first (apply). Connected calls only: an unanswered call has nothing to inspect. */
export async function applyForCalls(trx: Trx, tenantId: number, inspector: Viewer, actor: Actor, count: number): Promise<number[]> {
  const scope = await scopeOf(trx, tenantId, inspector);
  // Pick first (rows another inspector's transaction holds are skipped), then lock each only if
  // it is still claimable, so two inspectors applying at once never share a call.
  const picked = await trx
    .selectFrom("call_records")
    .select("id")
    .where("tenant_id", "=", tenantId)
    .where("is_answer", "=", 1)
    .where(claimable)
    .where(inScope(scope))
    .orderBy("call_time", "desc")
    .orderBy("id", "desc")
    .limit(count)
    .forUpdate()
    .skipLocked()
    .execute();
  if (picked.length === 0) return [];
  const claimed = await trx
    .updateTable("call_records")
    .set({ qc_status: QC_CHECKING, qc_inspector_id: inspector.id, qc_locked_at: sql`now()` })
    .where("tenant_id", "=", tenantId)
    .where(
      "id",
      "in",
      picked.map((row) => row.id),
    )
    .where(claimable)
    .returning(["id", "qc_status"])
    .execute();
  for (const row of claimed) await auditClaim(trx, actor, Number(row.id), inspector.id, actor.name, "领取");
  return claimed.map((row) => Number(row.id));
}

async function auditClaim(
  trx: Trx,
  actor: Actor,
  callId: number,
  inspectorId: number,
  inspectorName: string,
  how: string,
  reason?: string,
) {
  await writeAudit(trx, actor, {
    action: how === "改派" ? "inspection.reallot" : "inspection.claim",
    target: { type: "call", id: callId },
    summary: `通话 ${callId} ${how}给 ${inspectorName}（${statusLabel(QC_CHECKING)}）`,
    reason,
    detail: { to: QC_CHECKING, inspectorId },
  });
}

type CallState = {
  id: number;
  qc_status: number;
  qc_inspector_id: number | null;
  qc_locked_at: Date | null;
  qc_influence: number | null;
  is_answer: number;
  queue_name: string | null;
  campaign_id: number | null;
};
async function callStates(trx: Trx, tenantId: number, ids: number[]): Promise<Map<number, CallState>> {
  if (ids.length === 0) return new Map();
  const found = await trx
    .selectFrom("call_records")
    .select(["id", "qc_status", "qc_inspector_id", "qc_locked_at", "qc_influence", "is_answer", "queue_name", "campaign_id"])
    .where("tenant_id", "=", tenantId)
    .where("id", "in", ids)
    .forUpdate()
    .execute();
  return new Map(found.map((row) => [Number(row.id), { ...row, id: Number(row.id) }]));
}

const covers = (scope: InspectScope, call: CallState) =>
  scope === "all" ||
  (call.queue_name !== null && scope.queues.includes(call.queue_name)) ||
  (call.campaign_id !== null && scope.campaignIds.includes(call.campaign_id));

/**
 * Locks each call to an inspector (order: the caller; reallot: the chosen ones, split evenly ±1
 * among those who may inspect it). One result per call; a refused call changes nothing. The
 * lock is taken with a conditional update, so of two inspectors racing for a call exactly one wins.
 */
export async function lockCalls(
  trx: Trx,
  tenantId: number,
  actor: Actor,
  ids: number[],
  inspectors: Array<{ id: number; name: string; scope: InspectScope }>,
  mode: "order" | "reallot",
  reason?: string,
): Promise<QcItemResult[]> {
  const states = await callStates(trx, tenantId, ids);
  const load = new Map(inspectors.map((i) => [i.id, 0]));
  const results: QcItemResult[] = [];
  for (const callId of ids) {
    const call = states.get(callId);
    const refuse = (message: string) => results.push({ callId, ok: false, message, inspectorId: null });
    if (!call) {
      refuse("通话不存在");
      continue;
    }
    if (call.is_answer !== 1) {
      refuse("未接通的通话无需质检");
      continue;
    }
    if (!qcMoveAllowed("claim", call.qc_status, QC_CHECKING)) {
      refuse(QC_REFUSALS.claim);
      continue;
    }
    const eligible = inspectors.filter((i) => covers(i.scope, call));
    if (eligible.length === 0) {
      refuse(mode === "order" ? "您没有该通话所属坐席组或活动的质检权限" : "所选质检员都没有该通话的质检权限");
      continue;
    }
    const to = eligible.reduce((least, i) => (load.get(i.id)! < load.get(least.id)! ? i : least));
    const expired =
      call.qc_status === QC_CHECKING && call.qc_locked_at !== null && call.qc_locked_at.getTime() < Date.now() - QC_LOCK_MINUTES * 60_000;
    if (mode === "order" && call.qc_status === QC_CHECKING && !expired) {
      refuse(call.qc_inspector_id === to.id ? "该通话已在您的质检队列中" : "该通话已被其他质检员领取");
      continue;
    }
    let update = trx
      .updateTable("call_records")
      .set({ qc_status: QC_CHECKING, qc_inspector_id: to.id, qc_locked_at: sql`now()` })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", callId);
    update = mode === "order" ? update.where(claimable) : update.where("qc_status", "in", [QC_UNCHECKED, QC_CHECKING]);
    const done = await update.returning("id").executeTakeFirst();
    if (!done) {
      refuse("该通话已被其他质检员领取");
      continue;
    }
    load.set(to.id, load.get(to.id)! + 1);
    await auditClaim(trx, actor, callId, to.id, to.name, mode === "order" ? "领取" : "改派", reason);
    results.push({ callId, ok: true, message: mode === "order" ? "已领取" : `已改派给 ${to.name}`, inspectorId: to.id });
  }
  return results;
}

/** Returns locked calls to the pool (recovery); one result per call. */
export async function releaseCalls(trx: Trx, tenantId: number, actor: Actor, ids: number[], reason?: string): Promise<QcItemResult[]> {
  const states = await callStates(trx, tenantId, ids);
  const results: QcItemResult[] = [];
  for (const callId of ids) {
    const call = states.get(callId);
    if (!call) {
      results.push({ callId, ok: false, message: "通话不存在", inspectorId: null });
      continue;
    }
    if (!qcMoveAllowed("release", call.qc_status, QC_UNCHECKED)) {
      results.push({ callId, ok: false, message: QC_REFUSALS.release, inspectorId: null });
      continue;
    }
    await trx
      .updateTable("call_records")
      .set({ qc_status: QC_UNCHECKED, qc_inspector_id: null, qc_locked_at: null })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", callId)
      .execute();
    await writeAudit(trx, actor, {
      action: "inspection.release",
      target: { type: "call", id: callId },
      summary: `通话 ${callId} 收回，${statusLabel(QC_CHECKING)} → ${statusLabel(QC_UNCHECKED)}`,
      reason,
      detail: { from: QC_CHECKING, to: QC_UNCHECKED, inspectorId: call.qc_inspector_id },
    });
    results.push({ callId, ok: true, message: "已收回", inspectorId: null });
  }
  return results;
}

/** The lock holder's result: status 2 → checkResult, with influence and remark. */
export async function scoreCall(
  trx: Trx,
  tenantId: number,
  inspector: Viewer,
  actor: Actor,
  callId: number,
  input: InspectionScore,
  scored: { formName: string; score: number; vetoed: boolean } | null = null,
): Promise<void> {
  const call = (await callStates(trx, tenantId, [callId])).get(callId);
  if (!call) throw new InspectionRefused(404, "通话不存在");
  if (!qcMoveAllowed("score", call.qc_status, input.checkResult)) throw new InspectionRefused(400, QC_REFUSALS.score);
  if (call.qc_inspector_id !== inspector.id) throw new InspectionRefused(403, "该通话由其他质检员质检中，只有领取人可以提交结果");
  // A failed veto item (一票否决) fails the call whatever influence was chosen (decision 028).
  const influence = scored?.vetoed ? QC_INFLUENCE_NEGATIVE : input.influence;
  await trx
    .updateTable("call_records")
    .set({
      qc_status: input.checkResult,
      qc_influence: influence,
      qc_remark: input.remark || null,
      qc_checked_at: sql`now()`,
      qc_locked_at: null,
      qc_score: scored?.score ?? null,
    })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", callId)
    .execute();
  const score = scored ? `，评分表「${scored.formName}」${scored.score} 分${scored.vetoed ? "（一票否决）" : ""}` : "";
  await writeAudit(trx, actor, {
    action: "inspection.score",
    target: { type: "call", id: callId },
    summary: `通话 ${callId} 质检：${statusLabel(call.qc_status)} → ${statusLabel(input.checkResult)}，${labelOf(QC_INFLUENCES, influence)}${score}`,
    reason: input.remark || null,
    detail: { from: call.qc_status, to: input.checkResult, influence, ...(scored ? { score: scored.score, vetoed: scored.vetoed } : {}) },
  });
}

function toAppeal(row: {
  id: number;
  call_record_id: number | string;
  agent_user_id: number;
  agent_name: string | null;
  reason: string;
  state: string;
  decider_name: string | null;
  decision_reason: string | null;
  created_at: Date;
  decided_at: Date | null;
}): QcAppeal {
  return {
    id: row.id,
    callId: Number(row.call_record_id),
    agentId: row.agent_user_id,
    agentName: row.agent_name,
    reason: row.reason,
    state: row.state,
    decidedBy: row.decider_name,
    decisionReason: row.decision_reason,
    createdAt: row.created_at.getTime(),
    decidedAt: row.decided_at?.getTime() ?? null,
  };
}

export async function findAppeal(db: Trx, tenantId: number, where: { id?: number; callId?: number }): Promise<QcAppeal | undefined> {
  let q = db
    .selectFrom("inspection_appeals as a")
    .leftJoin("users as u", "u.id", "a.agent_user_id")
    .leftJoin("users as d", "d.id", "a.decided_by")
    .selectAll("a")
    .select(["u.real_name as agent_name", "d.real_name as decider_name"])
    .where("a.tenant_id", "=", tenantId);
  if (where.id !== undefined) q = q.where("a.id", "=", where.id);
  if (where.callId !== undefined) q = q.where("a.call_record_id", "=", where.callId);
  const row = await q.executeTakeFirst();
  return row ? toAppeal(row) : undefined;
}

/** The agent's one appeal of their call's result. */
export async function appealResult(
  trx: Trx,
  tenantId: number,
  agent: Viewer,
  actor: Actor,
  callId: number,
  reason: string,
): Promise<QcAppeal> {
  const call = await trx
    .selectFrom("call_records")
    .select(["qc_status", "agent_user_id"])
    .where("tenant_id", "=", tenantId)
    .where("id", "=", callId)
    .executeTakeFirst();
  if (!call || call.agent_user_id !== agent.id) throw new InspectionRefused(404, "通话不存在");
  if (!RESULTS.includes(call.qc_status)) throw new InspectionRefused(400, "该通话尚未质检完成，不能申诉");
  if (await findAppeal(trx, tenantId, { callId })) throw new InspectionRefused(400, "每条通话的质检结果只能申诉一次");
  const { id } = await trx
    .insertInto("inspection_appeals")
    .values({ tenant_id: tenantId, call_record_id: callId, agent_user_id: agent.id, reason })
    .returning("id")
    .executeTakeFirstOrThrow();
  await writeAudit(trx, actor, {
    action: "inspection.appeal",
    target: { type: "call", id: callId },
    summary: `通话 ${callId} 的质检结果（${statusLabel(call.qc_status)}）提出申诉`,
    reason,
    detail: { appealId: id, status: call.qc_status },
  });
  return (await findAppeal(trx, tenantId, { id }))!;
}

/** The inspector who gave the result, or a supervisor or administrator, accepts (revising the result) or rejects an appeal. */
export async function decideAppeal(
  trx: Trx,
  tenantId: number,
  decider: Viewer,
  actor: Actor,
  appealId: number,
  decision: QcAppealDecision,
  revised: {
    current: { score: number; items: ReadonlyArray<{ key: string; value: unknown }> };
    score: number;
    vetoed: boolean;
    items: ReadonlyArray<{ key: string; value: unknown }>;
  } | null = null,
): Promise<QcAppeal> {
  const appeal = await findAppeal(trx, tenantId, { id: appealId });
  if (!appeal) throw new InspectionRefused(404, "申诉不存在");
  if (appeal.state !== "pending") throw new InspectionRefused(400, "该申诉已处理");
  const call = (await callStates(trx, tenantId, [appeal.callId])).get(appeal.callId)!;
  if (decider.role === "agent") throw new InspectionRefused(403, "只有质检员或主管可以处理申诉");
  if (decision.decision === "accepted" && !qcMoveAllowed("revise", call.qc_status, decision.checkResult)) {
    throw new InspectionRefused(400, QC_REFUSALS.revise);
  }
  // A call's result, influence and answers kept as they are is not an appeal accepted: it would
  // read 申诉通过 beside the same result, and the agent could not appeal again.
  // (A re-scored form's failed veto item fails the call, as when it was scored, decision 028.)
  const influence = decision.decision === "accepted" ? (revised?.vetoed ? QC_INFLUENCE_NEGATIVE : decision.influence) : null;
  if (
    decision.decision === "accepted" &&
    decision.checkResult === call.qc_status &&
    influence === call.qc_influence &&
    (!revised || sameAnswers(revised.current.items, revised.items))
  ) {
    throw new InspectionRefused(400, "通过申诉须更正质检结果、影响或评分；维持原结果请选择驳回申诉");
  }
  // Decided once: of two deciders at the same moment, the second waits for the first's row lock,
  // then finds the appeal no longer pending and is refused (no second re-score, no crossed states).
  const claimed = await trx
    .updateTable("inspection_appeals")
    .set({ state: decision.decision, decided_by: decider.id, decision_reason: decision.reason, decided_at: sql`now()` })
    .where("id", "=", appealId)
    .where("state", "=", "pending")
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) throw new InspectionRefused(409, "该申诉已由他人处理，请刷新后查看");
  let summary = `驳回通话 ${appeal.callId} 的质检申诉`;
  if (decision.decision === "accepted") {
    await trx
      .updateTable("call_records")
      .set({
        qc_status: decision.checkResult,
        qc_influence: influence,
        qc_checked_at: sql`now()`,
        ...(revised ? { qc_score: revised.score } : {}),
      })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", appeal.callId)
      .execute();
    const score = revised ? `，评分 ${revised.current.score} → ${revised.score} 分${revised.vetoed ? "（一票否决）" : ""}` : "";
    summary = `通过通话 ${appeal.callId} 的质检申诉：${statusLabel(call.qc_status)} → ${statusLabel(decision.checkResult)}，${labelOf(QC_INFLUENCES, influence)}${score}`;
  }
  await writeAudit(trx, actor, {
    action: "inspection.appealDecision",
    target: { type: "call", id: appeal.callId },
    summary,
    reason: decision.reason,
    detail: {
      appealId,
      decision: decision.decision,
      from: call.qc_status,
      to: decision.decision === "accepted" ? decision.checkResult : call.qc_status,
      ...(influence === null ? {} : { influence }),
      ...(revised ? { score: { from: revised.current.score, to: revised.score }, vetoed: revised.vetoed } : {}),
    },
  });
  return (await findAppeal(trx, tenantId, { id: appealId }))!;
}

/** Whether a re-scoring answers every item as the evaluation it revises did. */
function sameAnswers(
  before: ReadonlyArray<{ key: string; value: unknown }>,
  after: ReadonlyArray<{ key: string; value: unknown }>,
): boolean {
  const was = new Map(before.map((item) => [item.key, item.value]));
  return after.length === before.length && after.every((item) => was.has(item.key) && was.get(item.key) === item.value);
}

/** A call's inspection steps, oldest first, from the audit log. */
export async function inspectionHistory(db: Trx, tenantId: number, callId: number) {
  const found = await db
    .selectFrom("audit_log")
    .select(["created_at", "actor_name", "action", "summary", "reason"])
    .where("tenant_id", "=", tenantId)
    .where("target_type", "=", "call")
    .where("target_id", "=", String(callId))
    .orderBy("id")
    .limit(100)
    .execute();
  return found.map((r) => ({
    at: r.created_at.getTime(),
    actorName: r.actor_name,
    action: r.action,
    summary: r.summary,
    reason: r.reason,
  }));
}

// Access

export async function listAccess(db: Trx, tenantId: number, userId?: number): Promise<QcAccess[]> {
  let q = db
    .selectFrom("inspection_access as g")
    .innerJoin("users as u", "u.id", "g.user_id")
    .leftJoin("users as b", "b.id", "g.granted_by")
    .leftJoin("campaigns as c", (join) =>
      join
        .on("g.scope", "=", "campaign")
        .on(sql`c.id::text`, "=", sql.ref("g.value"))
        .onRef("c.tenant_id", "=", "g.tenant_id"),
    )
    .select([
      "g.id",
      "g.user_id",
      "u.real_name",
      "g.scope",
      "g.value",
      "c.name as campaign_name",
      "b.real_name as granted_by_name",
      "g.created_at",
    ])
    .where("g.tenant_id", "=", tenantId)
    .orderBy("u.real_name")
    .orderBy("g.id");
  if (userId !== undefined) q = q.where("g.user_id", "=", userId);
  return (await q.execute()).map((r) => ({
    id: r.id,
    userId: r.user_id,
    userName: r.real_name,
    scope: r.scope,
    value: r.value,
    valueLabel: r.scope === "campaign" ? (r.campaign_name ?? `活动 ${r.value}`) : r.value,
    grantedBy: r.granted_by_name ?? "系统",
    grantedAt: r.created_at.getTime(),
  }));
}

/** Who may be given access or calls: the tenant's supervisors and administrators. */
export async function listInspectors(db: Trx, tenantId: number) {
  return (
    await db
      .selectFrom("users")
      .select(["id", "real_name", "role"])
      .where("tenant_id", "=", tenantId)
      .where("role", "in", ["admin", "supervisor"])
      .orderBy("id")
      .execute()
  ).map((u) => ({ id: u.id, name: u.real_name, role: u.role }));
}

export async function listQueues(db: Trx, tenantId: number): Promise<string[]> {
  const found = await db
    .selectFrom("users")
    .select("default_queue_name")
    .distinct()
    .where("tenant_id", "=", tenantId)
    .where("role", "=", "agent")
    .orderBy("default_queue_name")
    .execute();
  return found.map((r) => r.default_queue_name);
}

export async function listCampaignChoices(db: Trx, tenantId: number) {
  return db.selectFrom("campaigns").select(["id", "name"]).where("tenant_id", "=", tenantId).orderBy("id").execute();
}

export async function grantAccess(
  trx: Trx,
  tenantId: number,
  actor: Actor,
  input: { userId: number; scope: "queue" | "campaign"; value: string },
): Promise<QcAccess> {
  const inspector = (await listInspectors(trx, tenantId)).find((u) => u.id === input.userId);
  if (!inspector) throw new InspectionRefused(404, "质检员不存在，只能授权给主管或管理员");
  let label = input.value;
  if (input.scope === "campaign") {
    const campaign = (await listCampaignChoices(trx, tenantId)).find((c) => String(c.id) === input.value);
    if (!campaign) throw new InspectionRefused(404, "外呼活动不存在");
    label = campaign.name;
  } else if (!(await listQueues(trx, tenantId)).includes(input.value)) {
    throw new InspectionRefused(404, "坐席组不存在");
  }
  const inserted = await trx
    .insertInto("inspection_access")
    .values({ tenant_id: tenantId, user_id: input.userId, scope: input.scope, value: input.value, granted_by: actor.id })
    .onConflict((oc) => oc.constraint("inspection_access_grant_key").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) throw new InspectionRefused(400, `${inspector.name} 已有该权限`);
  await writeAudit(trx, actor, {
    action: "inspection.access.grant",
    target: { type: "inspectionAccess", id: inserted.id },
    summary: `授予 ${inspector.name} 质检「${label}」的权限`,
    detail: { userId: input.userId, scope: input.scope, value: input.value },
  });
  return (await listAccess(trx, tenantId)).find((a) => a.id === inserted.id)!;
}

export async function revokeAccess(trx: Trx, tenantId: number, actor: Actor, id: number, reason?: string): Promise<void> {
  const grant = (await listAccess(trx, tenantId)).find((a) => a.id === id);
  if (!grant) throw new InspectionRefused(404, "授权不存在");
  await trx.deleteFrom("inspection_access").where("tenant_id", "=", tenantId).where("id", "=", id).execute();
  await writeAudit(trx, actor, {
    action: "inspection.access.revoke",
    target: { type: "inspectionAccess", id },
    summary: `收回 ${grant.userName} 质检「${grant.valueLabel}」的权限`,
    reason,
    detail: { userId: grant.userId, scope: grant.scope, value: grant.value },
  });
}

// Performance

/** Each agent's figures for a period (calls they took, their after-call work, inspections, ratings). */
export async function agentPerformance(db: Db, tenantId: number, viewer: Viewer, query: PerformanceQuery): Promise<PerformanceRow[]> {
  const from = query.startTime !== undefined ? new Date(query.startTime) : new Date(0);
  const to = query.endTime !== undefined ? new Date(query.endTime) : new Date("9999-12-31");
  let agents = db
    .selectFrom("users")
    .select(["id", "real_name", "default_queue_name"])
    .where("tenant_id", "=", tenantId)
    .where("role", "=", "agent");
  if (viewer.role === "agent") agents = agents.where("id", "=", viewer.id);
  if (query.queue) agents = agents.where("default_queue_name", "=", query.queue);
  const people = await agents.execute();
  if (people.length === 0) return [];
  const ids = people.map((p) => p.id);
  const calls = await db
    .selectFrom("call_records")
    .select([
      "agent_user_id",
      sql<number>`count(*)`.as("calls"),
      sql<number>`count(*) filter (where is_answer = 1)`.as("connected"),
      sql<number>`coalesce(sum(call_duration_ms) filter (where is_answer = 1), 0)`.as("talk"),
      sql<number>`count(*) filter (where conclusion = 1)`.as("succeeded"),
      sql<number>`count(*) filter (where conclusion = 2)`.as("failed"),
      sql<number>`count(*) filter (where qc_status in (0, 1, 3))`.as("inspected"),
      sql<number>`count(*) filter (where qc_status in (0, 1, 3) and coalesce(qc_influence, 0) >= 0)`.as("passed"),
      sql<number>`count(attach_data->>'satisfaction')`.as("rated"),
      sql<number>`count(*) filter (where (attach_data->>'satisfaction')::int >= 4)`.as("satisfied"),
    ])
    .where("tenant_id", "=", tenantId)
    .where("agent_user_id", "in", ids)
    .where("call_time", ">=", from)
    .where("call_time", "<=", to)
    .groupBy("agent_user_id")
    .execute();
  const acw = await db
    .selectFrom("agent_state_log")
    .select(["user_id", sql<number>`coalesce(sum(extract(epoch from (coalesce(ended_at, now()) - started_at)) * 1000), 0)`.as("ms")])
    .where("tenant_id", "=", tenantId)
    .where("user_id", "in", ids)
    .where("state", "=", "ACW")
    .where("started_at", ">=", from)
    .where("started_at", "<=", to)
    .groupBy("user_id")
    .execute();
  const byAgent = new Map(calls.map((c) => [c.agent_user_id, c]));
  const acwBy = new Map(acw.map((a) => [a.user_id, Math.round(Number(a.ms))]));
  const list = people.map((p): PerformanceRow => {
    const c = byAgent.get(p.id);
    const n = (v: unknown) => Number(v ?? 0);
    const connected = n(c?.connected);
    const talkMs = n(c?.talk);
    const acwMs = acwBy.get(p.id) ?? 0;
    const inspected = n(c?.inspected);
    const rated = n(c?.rated);
    return {
      agentId: p.id,
      agentName: p.real_name,
      queueName: p.default_queue_name,
      calls: n(c?.calls),
      connected,
      talkMs,
      avgHandleMs: connected > 0 ? Math.round((talkMs + acwMs) / connected) : 0,
      acwMs,
      succeeded: n(c?.succeeded),
      failed: n(c?.failed),
      inspected,
      passed: n(c?.passed),
      passRate: inspected > 0 ? Math.round((1000 * n(c?.passed)) / inspected) / 10 : null,
      satisfaction: rated > 0 ? Math.round((1000 * n(c?.satisfied)) / rated) / 10 : null,
    };
  });
  const sign = query.order === "asc" ? 1 : -1;
  return list.sort((a, b) => sign * ((a[query.sort] ?? -1) - (b[query.sort] ?? -1)) || a.agentId - b.agentId);
}
