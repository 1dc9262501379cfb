import { sql, type ExpressionBuilder } from "kysely";
import { QC_CHECKING, QC_RESULTS, QC_UNCHECKED, codesOf, labelOf, QUALITY_CHECK_STATUSES } from "#contracts/codes";
import {
  QC_LOCK_MINUTES,
  type InspectionListQuery,
  type InspectionLiveCall,
  type InspectionPage,
  type InspectionRow,
} from "#contracts/inspection";
import type { Db, Trx } from "#upstream/db";
import type { Database } from "#upstream/db/schema";
import { writeAudit, type Actor } from "./audit-log";
import { CALL_ROW_COLUMNS } from "./call-records";
import { countCapped } from "./counting";
import { timeKeysetRows } from "./keyset";
import { Refused } from "#upstream/domain/refused";

/**
 * Quality inspection (decision 018): the queue over the tenant's calls (status, lock, result on
 * call_records, migration 120), what each inspector's scope covers, and what its parts share.
 * The parts: inspection-locks.ts (claiming and handing out calls), inspection-scoring.ts (results
 * and appeals), inspection-access.ts (the inspectors' grants), inspection-performance.ts (the
 * agents' report). Every status move goes through `qcMoveAllowed` (contracts/inspection.ts) and
 * writes its audit row in the caller's transaction. Refusals are `InspectionRefused` with a
 * Chinese message.
 */

export class InspectionRefused extends Refused {}

export const RESULTS = codesOf(QC_RESULTS);
export const statusLabel = (code: number) => labelOf(QUALITY_CHECK_STATUSES, code);
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

export function inScope(scope: InspectScope) {
  return (eb: ExpressionBuilder<Database, "call_records">) => {
    if (scope === "all") return eb.val(true);
    const parts = [];
    if (scope.queues.length > 0) parts.push(eb("call_records.queue_name", "in", scope.queues));
    if (scope.campaignIds.length > 0) parts.push(eb("call_records.campaign_id", "in", scope.campaignIds));
    return parts.length > 0 ? eb.or(parts) : eb.val(false);
  };
}

/** A call may be claimed when it waits, or its lock has expired. */
export const claimable = (eb: ExpressionBuilder<Database, "call_records">) =>
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

/** A page of the inspection list, newest call first, keyset on (call_time, id) like the call lists. */
export async function listInspections(
  db: Db,
  tenantId: number,
  viewer: Viewer,
  query: InspectionListQuery & { campaignType?: number },
): Promise<InspectionPage> {
  const base = filtered(db, tenantId, viewer, query);
  const list = await timeKeysetRows(base, "call_records.call_time", "call_records.id", query);
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
