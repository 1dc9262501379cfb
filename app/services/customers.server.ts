import { z } from "zod";
import { CallRecordPageResponseSchema } from "#contracts/contact";
import {
  ContactDeleteResponseSchema,
  ContactGroupListResponseSchema,
  ContactGroupResponseSchema,
  ContactImportResponseSchema,
  ContactImportUploadResponseSchema,
  ContactOutboundResponseSchema,
  CustomerContactPageResponseSchema,
  CustomerContactResponseSchema,
  CustomerPropertyListResponseSchema,
  CustomerPropertyResponseSchema,
  SmsOutboxResponseSchema,
  SmsSendResponseSchema,
  SmsTemplatePageResponseSchema,
  SmsTemplateResponseSchema,
  type ContactListQuery,
  type CustomerPropertyInput,
  type PropertyValue,
  type SmsTemplateInput,
} from "#contracts/customers";
import { envelope } from "#contracts/envelope";
import { call, requireData, send, type Caller, type UploadFile } from "./upstream.server";

/** Customers and SMS (decision 020): properties, contacts, groups, templates, sending, the outbox. */

const Done = envelope(z.unknown());

export async function listProperties(caller: Caller, filter: "all" | "valid" = "all") {
  const answer = await call({
    path: `/crm_v2/customer/property/list/${encodeURIComponent(caller.customerId)}/${filter}`,
    schema: CustomerPropertyListResponseSchema,
    what: "获取客户属性",
    caller,
  });
  return requireData(answer, "获取客户属性").list;
}

export async function saveProperty(caller: Caller, id: number | null, input: CustomerPropertyInput) {
  const answer = await call({
    method: id === null ? "POST" : "PUT",
    path: id === null ? "/crm_v2/customer/property" : `/crm_v2/customer/property/${id}`,
    json: input,
    schema: CustomerPropertyResponseSchema,
    what: "保存客户属性",
    caller,
  });
  return requireData(answer, "保存客户属性");
}

export async function reorderProperty(caller: Caller, id: number, action: "up" | "down") {
  await call({ method: "PUT", path: `/crm_v2/customer/property/reorder/${id}/${action}`, schema: Done, what: "调整顺序", caller });
}

export async function setPropertyValid(caller: Caller, id: number, valid: boolean) {
  const answer = await call({
    method: "PUT",
    path: `/crm_v2/customer/property/valid/${id}/${valid ? 1 : 0}`,
    schema: CustomerPropertyResponseSchema,
    what: "设置属性有效",
    caller,
  });
  return requireData(answer, "设置属性有效");
}

export async function deleteProperty(caller: Caller, id: number) {
  await call({ method: "DELETE", path: `/crm_v2/customer/property/${id}`, schema: Done, what: "删除客户属性", caller });
}

export function exportProperties(caller: Caller) {
  return send({ path: "/crm_v2/customer/property/export/csv", what: "导出客户属性", caller });
}

export async function listContacts(caller: Caller, query: ContactListQuery) {
  const answer = await call({
    method: "POST",
    path: "/crm_v2/contacts/v1/list",
    json: query,
    schema: CustomerContactPageResponseSchema,
    what: "获取联系人",
    caller,
  });
  return requireData(answer, "获取联系人");
}

export async function saveContact(
  caller: Caller,
  id: number | null,
  input: { name: string; phone: string; values: Record<string, PropertyValue> },
) {
  const answer = await call({
    method: id === null ? "POST" : "PUT",
    path: id === null ? "/crm_v2/contacts/v1" : `/crm_v2/contacts/v1/${id}`,
    json: input,
    schema: CustomerContactResponseSchema,
    what: "保存联系人",
    caller,
  });
  return requireData(answer, "保存联系人");
}

export async function deleteContacts(caller: Caller, ids: number[]) {
  const answer = await call({
    method: "POST",
    path: "/crm_v2/contacts/v1/delete",
    json: { ids },
    schema: ContactDeleteResponseSchema,
    what: "删除联系人",
    caller,
  });
  return requireData(answer, "删除联系人");
}

/** The import's first step: the platform keeps the file and answers its columns with suggested targets. */
export async function stageImport(caller: Caller, file: UploadFile) {
  const answer = await call({
    method: "POST",
    path: "/crm_v2/contacts/v1/import/upload",
    upload: { fields: {}, file },
    schema: ContactImportUploadResponseSchema,
    what: "上传联系人文件",
    caller,
    timeoutMs: 120_000,
  });
  return requireData(answer, "上传联系人文件");
}

export async function describeImport(caller: Caller, uploadId: number) {
  const answer = await call({
    path: `/crm_v2/contacts/v1/import/upload/${uploadId}`,
    schema: ContactImportUploadResponseSchema,
    what: "读取上传的文件",
    caller,
  });
  return requireData(answer, "读取上传的文件");
}

/** The import's second step: the kept file with a target per column ("" for a column not imported). */
export async function importMapped(caller: Caller, uploadId: number, mapping: string[]) {
  const answer = await call({
    method: "POST",
    path: "/crm_v2/contacts/v1/import/mapped",
    json: { uploadId, mapping },
    schema: ContactImportResponseSchema,
    what: "导入联系人",
    caller,
    timeoutMs: 120_000,
  });
  return requireData(answer, "导入联系人");
}

export function exportContacts(caller: Caller, query: Pick<ContactListQuery, "keyword" | "groupId" | "values">) {
  return send({ method: "POST", path: "/crm_v2/contacts/v1/export", json: query, what: "导出联系人", caller, timeoutMs: 120_000 });
}

export function exportImportErrors(caller: Caller, importId: number) {
  return send({ path: "/crm_v2/contacts/v1/errorexport", query: { importId }, what: "导出失败行", caller, timeoutMs: 60_000 });
}

export async function contactsToCampaign(caller: Caller, campaignId: number, target: { ids: number[]; groupId?: number }) {
  const answer = await call({
    method: "POST",
    path: "/crm_v2/contacts/v1/outbound",
    json: { campaignId, ...target },
    schema: ContactOutboundResponseSchema,
    what: "转入外呼活动",
    caller,
    timeoutMs: 60_000,
  });
  return requireData(answer, "转入外呼活动");
}

export async function contactCalls(caller: Caller, id: number) {
  const answer = await call({
    path: "/crm_v2/contacts/v1/callhistroy",
    query: { id, pageNo: 1, pageSize: 20 },
    schema: CallRecordPageResponseSchema,
    what: "获取通话记录",
    caller,
  });
  return requireData(answer, "获取通话记录");
}

export async function listGroups(caller: Caller) {
  const answer = await call({ path: "/crm_v2/groups/v1/list", schema: ContactGroupListResponseSchema, what: "获取分组", caller });
  return requireData(answer, "获取分组").list;
}

export async function createGroup(caller: Caller, name: string, addIds: number[]) {
  const answer = await call({
    method: "POST",
    path: "/crm_v2/groups/v1",
    json: { name, addIds },
    schema: ContactGroupResponseSchema,
    what: "新建分组",
    caller,
  });
  return requireData(answer, "新建分组");
}

export async function updateGroup(caller: Caller, id: number, change: { name?: string; addIds?: number[]; removeIds?: number[] }) {
  const answer = await call({
    method: "PUT",
    path: `/crm_v2/groups/v1/${id}`,
    json: change,
    schema: envelope(z.object({ name: z.string(), added: z.number(), removed: z.number(), memberCount: z.number() })),
    what: "编辑分组",
    caller,
  });
  return requireData(answer, "编辑分组");
}

export async function deleteGroup(caller: Caller, id: number) {
  await call({ method: "DELETE", path: `/crm_v2/groups/v1/${id}`, schema: Done, what: "删除分组", caller });
}

// ---- SMS ----

export async function listTemplates(caller: Caller, query: { state?: string; pageNo: number; pageSize: number }) {
  const answer = await call({
    path: "/sms/api/sms/template/list",
    query,
    schema: SmsTemplatePageResponseSchema,
    what: "获取短信模板",
    caller,
  });
  return requireData(answer, "获取短信模板");
}

export async function sendableTemplates(caller: Caller) {
  const answer = await call({
    path: "/sms/api/sms/customer/template",
    schema: SmsTemplatePageResponseSchema,
    what: "获取短信模板",
    caller,
  });
  return requireData(answer, "获取短信模板").list;
}

export async function saveTemplate(caller: Caller, id: number | null, input: SmsTemplateInput) {
  const answer = await call({
    method: id === null ? "POST" : "PUT",
    path: id === null ? "/sms/api/sms/template" : `/sms/api/sms/template/${id}`,
    json: input,
    schema: SmsTemplateResponseSchema,
    what: "保存短信模板",
    caller,
  });
  return requireData(answer, "保存短信模板");
}

export async function reviewTemplate(caller: Caller, id: number, state: "approved" | "rejected", reason: string) {
  const answer = await call({
    method: "PUT",
    path: `/sms/api/sms/template/${id}/review`,
    json: { state, reason },
    schema: SmsTemplateResponseSchema,
    what: "审核短信模板",
    caller,
  });
  return requireData(answer, "审核短信模板");
}

export async function deleteTemplate(caller: Caller, id: number) {
  await call({ method: "DELETE", path: `/sms/api/sms/template/${id}`, schema: Done, what: "删除短信模板", caller });
}

export async function sendSms(caller: Caller, input: { templateId: number; ids: number[]; groupId?: number; preview: boolean }) {
  const answer = await call({
    method: "POST",
    path: "/msg/api/sms/send",
    json: input,
    schema: SmsSendResponseSchema,
    what: "发送短信",
    caller,
  });
  return requireData(answer, "发送短信");
}

export async function listOutbox(
  caller: Caller,
  query: { status?: string; phone?: string; pageNo: number; pageSize: number; after?: string; before?: string },
) {
  const answer = await call({ path: "/sms/api/sms/outbox", query, schema: SmsOutboxResponseSchema, what: "获取短信发送记录", caller });
  return requireData(answer, "获取短信发送记录");
}
