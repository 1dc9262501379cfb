import {
  WorkOrderDeletedResponseSchema,
  WorkOrderDetailResponseSchema,
  WorkOrderNumberResponseSchema,
  WorkOrderRecordPageResponseSchema,
  WorkOrderRecordResponseSchema,
  WorkOrderTemplateListResponseSchema,
  WorkOrderTemplateResponseSchema,
  type WorkOrderRecordInput,
  type WorkOrderRecordQuery,
  type WorkOrderTemplateInput,
} from "#contracts/work-orders";
import type { WorkOrderChatRequest } from "#contracts/workbench";
import { call, requireData, type Caller } from "./upstream.server";

/** Work orders (`/config/workorder`, decision 021): templates and records. */

export async function listWorkOrderTemplates(caller: Caller, status?: number) {
  const answer = await call({
    method: "POST",
    path: "/config/workorder/template/list",
    json: status === undefined ? {} : { status },
    schema: WorkOrderTemplateListResponseSchema,
    what: "获取工单模板",
    caller,
  });
  return requireData(answer, "获取工单模板").list;
}

export async function saveWorkOrderTemplate(caller: Caller, id: number | null, input: WorkOrderTemplateInput) {
  const answer = await call({
    method: id === null ? "POST" : "PUT",
    path: id === null ? "/config/workorder/template" : `/config/workorder/template/${id}`,
    json: input,
    schema: WorkOrderTemplateResponseSchema,
    what: "保存工单模板",
    caller,
  });
  return requireData(answer, "保存工单模板");
}

export async function setWorkOrderTemplateStatus(caller: Caller, id: number, status: number) {
  const answer = await call({
    method: "PUT",
    path: `/config/workorder/template/${id}/${status}`,
    schema: WorkOrderTemplateResponseSchema,
    what: "变更模板状态",
    caller,
  });
  return requireData(answer, "变更模板状态");
}

export async function deleteWorkOrderTemplate(caller: Caller, id: number) {
  await call({
    method: "DELETE",
    path: `/config/workorder/template/${id}`,
    schema: WorkOrderDeletedResponseSchema,
    what: "删除工单模板",
    caller,
  });
}

export async function listWorkOrders(caller: Caller, query: WorkOrderRecordQuery) {
  const answer = await call({
    method: "POST",
    path: "/config/workorder/record/list",
    json: query,
    schema: WorkOrderRecordPageResponseSchema,
    what: "获取工单列表",
    caller,
  });
  return requireData(answer, "获取工单列表");
}

/** One record with its template, history and call; null when it is not found (or not the caller's). */
export async function getWorkOrderDetail(caller: Caller, id: number) {
  const answer = await call({
    path: `/config/workorder/record/${id}`,
    schema: WorkOrderDetailResponseSchema,
    what: "获取工单",
    caller,
    allowNotFound: true,
  });
  return answer?.data ?? null;
}

export async function peekWorkOrderNumber(caller: Caller) {
  const answer = await call({
    path: "/config/workorder/record/number",
    schema: WorkOrderNumberResponseSchema,
    what: "获取工单编号",
    caller,
  });
  return requireData(answer, "获取工单编号").number;
}

export async function createWorkOrder(caller: Caller, input: WorkOrderRecordInput) {
  const answer = await call({
    method: "POST",
    path: "/config/workorder/record",
    json: input,
    schema: WorkOrderRecordResponseSchema,
    what: "新建工单",
    caller,
  });
  return requireData(answer, "新建工单");
}

export async function followWorkOrder(caller: Caller, id: number, state: number, note: string) {
  const answer = await call({
    method: "PUT",
    path: `/config/workorder/record/follow/${id}/${state}`,
    json: { note },
    schema: WorkOrderRecordResponseSchema,
    what: "跟进工单",
    caller,
  });
  return requireData(answer, "跟进工单");
}

/** Take the record into my hands, or (userId) hand it to someone else. */
export async function receiveWorkOrder(caller: Caller, id: number, input: { userId?: number; note?: string }) {
  const answer = await call({
    method: "PUT",
    path: `/config/workorder/record/receive/${id}`,
    json: input,
    schema: WorkOrderRecordResponseSchema,
    what: input.userId ? "转派工单" : "接收工单",
    caller,
  });
  return requireData(answer, input.userId ? "转派工单" : "接收工单");
}

/** PUT /config/workorder/record/chat — a work order made from one of the agent's chats (decision 026). */
export async function createWorkOrderForChat(caller: Caller, input: WorkOrderChatRequest) {
  const answer = await call({
    method: "PUT",
    path: "/config/workorder/record/chat",
    json: input,
    schema: WorkOrderRecordResponseSchema,
    what: "创建工单",
    caller,
  });
  return requireData(answer, "创建工单");
}
