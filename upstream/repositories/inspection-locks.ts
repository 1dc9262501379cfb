import { sql } from "kysely";
import { QC_CHECKING, QC_UNCHECKED } from "#contracts/codes";
import { QC_LOCK_MINUTES, QC_REFUSALS, qcMoveAllowed, type QcItemResult } from "#contracts/inspection";
import type { Trx } from "#upstream/db";
import { writeAudit, type Actor } from "./audit-log";
import { claimable, inScope, scopeOf, statusLabel, type InspectScope, type Viewer } from "./inspection";

/**
 * Quality inspection's locks: an inspector claims calls of their scope (apply), a supervisor hands
 * calls to an inspector (lock) or takes them back (release); every move is checked by
 * `qcMoveAllowed` and audited in the caller's transaction.
 */

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

export type CallState = {
  id: number;
  qc_status: number;
  qc_inspector_id: number | null;
  qc_locked_at: Date | null;
  qc_influence: number | null;
  is_answer: number;
  queue_name: string | null;
  campaign_id: number | null;
};
export async function callStates(trx: Trx, tenantId: number, ids: number[]): Promise<Map<number, CallState>> {
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
