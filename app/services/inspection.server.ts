import {
  InspectionCallDetailResponseSchema,
  InspectionDetailResponseSchema,
  InspectionNextResponseSchema,
  InspectionPageResponseSchema,
  InspectionRowResponseSchema,
  PerformanceResponseSchema,
  QcAccessListResponseSchema,
  QcAccessResponseSchema,
  QcAppealResponseSchema,
  QcBulkResponseSchema,
  QcCallbackListResponseSchema,
  QcCustomerInfoResponseSchema,
  ActiveScoreFormResponseSchema,
  ScoreFormDeletedResponseSchema,
  ScoreFormListResponseSchema,
  ScoreFormResponseSchema,
  type InspectionListQueryInput,
  type ScoreFormInput,
  type InspectionScore,
  type QcAppealDecision,
} from "#contracts/inspection";
import { z } from "zod";
import { envelope } from "#contracts/envelope";
import { call, requireData, send, type Caller } from "./upstream.server";

/** Quality inspection (`/ccb`, decision 018): the queue, scoring, appeals, access and performance. */

export async function listInspections(caller: Caller, query: InspectionListQueryInput) {
  const answer = await call({
    method: "POST",
    path: "/ccb/callInfo",
    json: query,
    schema: InspectionPageResponseSchema,
    what: "获取质检列表",
    caller,
  });
  return requireData(answer, "获取质检列表");
}

export async function getInspection(caller: Caller, callId: number) {
  const answer = await call({ path: `/ccb/detail/${callId}/2`, schema: InspectionDetailResponseSchema, what: "获取质检详情", caller });
  return requireData(answer, "获取质检详情");
}

export async function scoreInspection(caller: Caller, score: InspectionScore) {
  const answer = await call({
    method: "PUT",
    path: `/ccb/callInfo/${score.callId}`,
    json: score,
    schema: InspectionRowResponseSchema,
    what: "提交质检结果",
    caller,
  });
  return requireData(answer, "提交质检结果");
}

export async function nextInspection(caller: Caller, afterCallId: number) {
  const answer = await call({
    path: `/ccb/callInfo/next/${afterCallId}`,
    schema: InspectionNextResponseSchema,
    what: "获取下一条质检",
    caller,
  });
  return answer.data ?? null;
}

const bulk = (path: string, what: string) => async (caller: Caller, body: Record<string, unknown>) => {
  const answer = await call({ method: "POST", path, json: body, schema: QcBulkResponseSchema, what, caller });
  return requireData(answer, what);
};
export const applyInspections = bulk("/ccb/tasks/apply", "领取质检");
export const orderInspections = bulk("/ccb/tasks/order", "领取质检");
export const reallotInspections = bulk("/ccb/tasks/reallot", "改派质检");
export const recoverInspections = bulk("/ccb/tasks/recovery", "收回质检");

export async function appealInspection(caller: Caller, callId: number, reason: string) {
  const answer = await call({
    method: "POST",
    path: "/ccb/appeal",
    json: { callId, reason },
    schema: QcAppealResponseSchema,
    what: "提交申诉",
    caller,
  });
  return requireData(answer, "提交申诉");
}

export async function decideAppeal(caller: Caller, appealId: number, decision: QcAppealDecision) {
  const answer = await call({
    method: "POST",
    path: `/ccb/appeal/${appealId}/decision`,
    json: decision,
    schema: QcAppealResponseSchema,
    what: "处理申诉",
    caller,
  });
  return requireData(answer, "处理申诉");
}

export async function listInspectionAccess(caller: Caller) {
  const answer = await call({
    method: "POST",
    path: "/ccb/access/list",
    json: {},
    schema: QcAccessListResponseSchema,
    what: "获取质检权限",
    caller,
  });
  return requireData(answer, "获取质检权限");
}

export async function grantInspectionAccess(caller: Caller, grant: { userId: number; scope: string; value: string }) {
  const answer = await call({
    method: "POST",
    path: "/ccb/access/grant",
    json: grant,
    schema: QcAccessResponseSchema,
    what: "授予质检权限",
    caller,
  });
  return requireData(answer, "授予质检权限");
}

export async function revokeInspectionAccess(caller: Caller, id: number, reason: string) {
  await call({
    method: "POST",
    path: "/ccb/access/revoke",
    json: { id, reason },
    schema: envelope(z.object({ id: z.number() })),
    what: "收回质检权限",
    caller,
  });
}

export async function agentPerformance(caller: Caller, query: Record<string, unknown>) {
  const answer = await call({
    method: "POST",
    path: "/ccb/agent/performance",
    json: query,
    schema: PerformanceResponseSchema,
    what: "获取坐席业绩",
    caller,
  });
  return requireData(answer, "获取坐席业绩");
}

/** The call of an inspection: transcript, recording flag, facts (selectType 1). */
export async function getInspectionCall(caller: Caller, callId: number) {
  const answer = await call({ path: `/ccb/detail/${callId}/1`, schema: InspectionCallDetailResponseSchema, what: "获取通话详情", caller });
  return requireData(answer, "获取通话详情");
}

/** The filtered list as CSV or XLSX, streamed (the first byte's wait is bounded, not the whole). */
export function exportInspections(caller: Caller, filter: Record<string, unknown>) {
  return send({ method: "POST", path: "/ccb/callInfo/export", json: filter, what: "导出质检结果", caller, timeoutMs: 600_000 });
}

/** The call-back calls made after a call, and the call's customer (the scoring view's side panel). */
export async function getCallbacksAndCustomer(caller: Caller, callId: number, ctiCallId: string) {
  const [callbacks, customer] = await Promise.all([
    call({ method: "POST", path: "/ccb/callback", json: { callId }, schema: QcCallbackListResponseSchema, what: "获取回拨记录", caller }),
    call({
      path: `/ccb/callBack/customerInfo/${callId}/${encodeURIComponent(ctiCallId)}`,
      schema: QcCustomerInfoResponseSchema,
      what: "获取客户信息",
      caller,
    }),
  ]);
  return { callbacks: requireData(callbacks, "获取回拨记录").list, customer: requireData(customer, "获取客户信息") };
}

// Scoring forms (decision 028)

export async function listScoreForms(caller: Caller) {
  const answer = await call({
    method: "POST",
    path: "/ccb/form/list",
    json: {},
    schema: ScoreFormListResponseSchema,
    what: "获取评分表",
    caller,
  });
  return requireData(answer, "获取评分表").list;
}

export async function getScoreForm(caller: Caller, id: number) {
  const answer = await call({ path: `/ccb/form/${id}`, schema: ScoreFormResponseSchema, what: "获取评分表", caller });
  return requireData(answer, "获取评分表");
}

/** The form inspectors score with now, or null. */
export async function getActiveScoreForm(caller: Caller) {
  const answer = await call({ path: "/ccb/form/active", schema: ActiveScoreFormResponseSchema, what: "获取评分表", caller });
  return answer.data ?? null;
}

export async function saveScoreForm(caller: Caller, id: number | null, form: ScoreFormInput) {
  const answer = await call({
    method: id === null ? "POST" : "PUT",
    path: id === null ? "/ccb/form" : `/ccb/form/${id}`,
    json: form,
    schema: ScoreFormResponseSchema,
    what: "保存评分表",
    caller,
  });
  return requireData(answer, "保存评分表");
}

export async function changeScoreFormState(caller: Caller, id: number, action: "activate" | "retire", reason: string) {
  const answer = await call({
    method: "PUT",
    path: `/ccb/form/${id}/state`,
    json: { action, reason },
    schema: ScoreFormResponseSchema,
    what: action === "activate" ? "启用评分表" : "停用评分表",
    caller,
  });
  return requireData(answer, "变更评分表状态");
}

export async function deleteScoreForm(caller: Caller, id: number) {
  const answer = await call({
    method: "DELETE",
    path: `/ccb/form/${id}`,
    schema: ScoreFormDeletedResponseSchema,
    what: "删除评分表",
    caller,
  });
  return requireData(answer, "删除评分表");
}
