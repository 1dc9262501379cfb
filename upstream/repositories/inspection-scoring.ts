import { sql } from "kysely";
import { QC_INFLUENCE_NEGATIVE, labelOf, QC_INFLUENCES } from "#contracts/codes";
import { QC_REFUSALS, qcMoveAllowed, type InspectionScore, type QcAppeal, type QcAppealDecision } from "#contracts/inspection";
import type { Trx } from "#upstream/db";
import { writeAudit, type Actor } from "./audit-log";
import { InspectionRefused, RESULTS, statusLabel, type Viewer } from "./inspection";
import { callStates } from "./inspection-locks";

/**
 * Quality inspection's results: the lock holder scores a call, the agent appeals the result, the
 * inspector or a supervisor decides the appeal; a call's inspection steps are read back from the
 * audit log.
 */

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
