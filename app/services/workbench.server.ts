import {
  AutoAnswerResponseSchema,
  BusinessRecordPageResponseSchema,
  BusinessRecordResponseSchema,
  CampaignStateResponseSchema,
  ContactsByPhoneResponseSchema,
  FlowServiceResponseSchema,
  KnowledgeNodesResponseSchema,
  NeedCallResponseSchema,
  SatisfactionTodayResponseSchema,
  WorkOrderInfoResponseSchema,
  type BusinessRecordFilter,
  type ConclusionRequest,
} from "#contracts/workbench";
import type { WorkOrderRecordInput } from "#contracts/work-orders";
import { call, requireData, type Caller } from "./upstream.server";

/** The workbench calls of spec §7 (endpoints.md "V") that the voice workbench makes. */

export async function findContactsByPhone(caller: Caller, phone: string) {
  const answer = await call({
    path: `/crm_v2/contactsByPhone/${encodeURIComponent(phone)}`,
    schema: ContactsByPhoneResponseSchema,
    what: "查询客户",
    caller,
  });
  return requireData(answer, "查询客户").list;
}

export async function getFlowService(caller: Caller, flowId: number) {
  const answer = await call({
    path: `/robot/api/flow/${flowId}/service`,
    schema: FlowServiceResponseSchema,
    what: "获取服务话术",
    caller,
    allowNotFound: true,
  });
  return answer?.data ?? null;
}

export async function getBusinessRecord(caller: Caller, ctiCallId: string) {
  const answer = await call({
    path: `/config/business/record/${encodeURIComponent(ctiCallId)}`,
    schema: BusinessRecordResponseSchema,
    what: "获取业务记录",
    caller,
    allowNotFound: true,
  });
  return answer?.data ?? null;
}

export async function getWorkOrder(caller: Caller, id: number) {
  const answer = await call({
    path: `/config/workorder/record/info/${id}`,
    schema: WorkOrderInfoResponseSchema,
    what: "获取工单",
    caller,
    allowNotFound: true,
  });
  return answer?.data ?? null;
}

export async function searchKnowledge(caller: Caller, keyword: string) {
  const answer = await call({
    path: "/config/knowledge/node/platform",
    query: { keyword },
    schema: KnowledgeNodesResponseSchema,
    what: "查询知识库",
    caller,
  });
  return requireData(answer, "查询知识库").list;
}

export async function countNeedCall(caller: Caller) {
  return requireData(
    await call({ path: "/outbound/business/needCall", schema: NeedCallResponseSchema, what: "获取待外呼数", caller }),
    "获取待外呼数",
  ).count;
}

export async function getCampaignState(caller: Caller, id: number) {
  const answer = await call({
    path: `/outbound/business/campaignState/${id}`,
    schema: CampaignStateResponseSchema,
    what: "获取活动状态",
    caller,
    allowNotFound: true,
  });
  return answer?.data ?? null;
}

export async function getSatisfactionToday(caller: Caller) {
  return requireData(
    await call({ path: "/analysis/satisfaction/agent/today", schema: SatisfactionTodayResponseSchema, what: "获取今日满意度", caller }),
    "获取今日满意度",
  );
}

/** POST /contact/call/conclusion with its idempotency key: a retry never saves twice. */
export async function saveConclusion(caller: Caller, conclusion: ConclusionRequest) {
  const answer = await call({
    method: "POST",
    path: "/contact/call/conclusion",
    json: conclusion,
    headers: { "Idempotency-Key": conclusion.idempotencyKey },
    schema: BusinessRecordResponseSchema,
    what: "保存通话结论",
    caller,
  });
  return requireData(answer, "保存通话结论");
}

export async function createWorkOrderForCall(caller: Caller, input: WorkOrderRecordInput & { ctiCallId: string }) {
  const answer = await call({
    method: "PUT",
    path: "/config/workorder/record/call",
    json: input,
    schema: WorkOrderInfoResponseSchema,
    what: "创建工单",
    caller,
  });
  return requireData(answer, "创建工单");
}

export async function setAutoAnswer(caller: Caller, autoAnswer: boolean) {
  const answer = await call({
    method: "PUT",
    path: "/config/agent/auto/answer",
    json: { autoAnswer },
    schema: AutoAnswerResponseSchema,
    what: "设置自动接听",
    caller,
  });
  return requireData(answer, "设置自动接听").autoAnswer;
}

/** GET /config/business/record/list — business records of inbound calls (incoming/businessRecord). */
export async function listInboundBusinessRecords(caller: Caller, filter: BusinessRecordFilter) {
  const answer = await call({
    path: "/config/business/record/list",
    query: filter,
    schema: BusinessRecordPageResponseSchema,
    what: "获取呼入业务记录",
    caller,
  });
  return requireData(answer, "获取呼入业务记录");
}
