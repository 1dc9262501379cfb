import type { z } from "zod";
import {
  BatchPageResponseSchema,
  BeforeCallResponseSchema,
  CampaignInitResponseSchema,
  CampaignPageResponseSchema,
  CampaignResponseSchema,
  CampaignSelectResponseSchema,
  DistributeResponseSchema,
  HandoffPageResponseSchema,
  ImportResultResponseSchema,
  ImportListResponseSchema,
  NameCountResponseSchema,
  PreviewCallResponseSchema,
  SavedResponseSchema,
  SchedulerCheckResponseSchema,
  TaskCallPageResponseSchema,
  TaskDetailResponseSchema,
  TransTemplateResponseSchema,
  TransTemplatesResponseSchema,
  UnassignedCountResponseSchema,
  type CampaignListQuery,
  type CampaignSave,
  type DistributeSchema,
} from "#contracts/outbound";
import { envelope } from "#contracts/envelope";
import { z as zod } from "zod";
import { call, requireData, send, type Caller, type UploadFile } from "./upstream.server";

/** The outbound service (contracts/outbound.ts): one verb per upstream call. */

type Page = { pageNo: number; pageSize: number };
/** Lists of calls page by keyset: `after`/`before` the last/first call id of the page shown. */
type CallPage = Page & { after?: string; before?: string };

export async function listManagedCampaigns(caller: Caller, query: CampaignListQuery) {
  return requireData(
    await call({
      method: "POST",
      path: "/outbound/campaign/manage/list",
      json: query,
      schema: CampaignPageResponseSchema,
      what: "获取活动列表",
      caller,
    }),
    "获取活动列表",
  );
}

export async function getCampaign(caller: Caller, id: number) {
  return requireData(
    await call({ path: `/outbound/campaign/${id}`, schema: CampaignResponseSchema, what: "获取活动", caller }),
    "获取活动",
  );
}

export async function getCampaignInit(caller: Caller) {
  return requireData(
    await call({ path: "/outbound/campaign/init", schema: CampaignInitResponseSchema, what: "获取活动配置项", caller }),
    "获取活动配置项",
  );
}

export async function countCampaignsNamed(caller: Caller, name: string, exceptId?: number) {
  const data = requireData(
    await call({
      path: "/outbound/campaign/name/count",
      query: { name, id: exceptId },
      schema: NameCountResponseSchema,
      what: "检查活动名称",
      caller,
    }),
    "检查活动名称",
  );
  return data.count;
}

export async function saveCampaign(caller: Caller, campaign: CampaignSave) {
  return requireData(
    await call({ method: "POST", path: "/outbound/campaign/save", json: campaign, schema: SavedResponseSchema, what: "保存活动", caller }),
    "保存活动",
  ).id;
}

export async function checkScheduler(caller: Caller, campaignId: number, state: number) {
  return requireData(
    await call({
      path: "/outbound/campaign/scheduler/check",
      query: { campaignId, state },
      schema: SchedulerCheckResponseSchema,
      what: "调度检查",
      caller,
    }),
    "调度检查",
  );
}

export async function changeCampaignState(caller: Caller, campaignId: number, state: number) {
  await call({
    method: "PUT",
    path: "/outbound/campaign/change/state",
    json: { campaignId, state },
    schema: SavedResponseSchema,
    what: "变更活动状态",
    caller,
  });
}

export async function setCampaignRatio(caller: Caller, campaignId: number, ratio: number) {
  await call({
    method: "PUT",
    path: "/outbound/campaign/ratio",
    json: { campaignId, ratio },
    schema: envelope(zod.unknown()),
    what: "设置外呼比例",
    caller,
  });
}

export async function selectCampaigns(caller: Caller, types?: readonly number[]) {
  return requireData(
    await call({
      method: "POST",
      path: "/outbound/campaign/select",
      json: { types },
      schema: CampaignSelectResponseSchema,
      what: "获取活动",
      caller,
    }),
    "获取活动",
  );
}

export async function listCampaignImports(caller: Caller, campaignId: number) {
  return requireData(
    await call({
      path: "/outbound/campaign/imports",
      query: { campaignId },
      schema: ImportListResponseSchema,
      what: "获取导入记录",
      caller,
    }),
    "获取导入记录",
  );
}

export async function listCampaignData(
  caller: Caller,
  query: CallPage & { campaignId?: number; batchId?: number; status?: number; mine?: boolean },
) {
  return requireData(
    await call({
      method: "POST",
      path: "/outbound/campaign/data/list",
      json: query,
      schema: TaskCallPageResponseSchema,
      what: "获取名单数据",
      caller,
    }),
    "获取名单数据",
  );
}

/** The raw CSV stream of a campaign's data. */
export async function exportCampaignData(caller: Caller, query: { campaignId?: number; mine?: boolean }) {
  return send({ method: "POST", path: "/outbound/campaign/data/export", json: query, what: "导出名单数据", caller, timeoutMs: 60_000 });
}

export async function exportImportErrors(caller: Caller, campaignId: number, importId: number) {
  return send({
    path: "/outbound/campaign/export/error",
    query: { campaignId, importId },
    what: "导出错误数据",
    caller,
    timeoutMs: 60_000,
  });
}

/** POST /api/file/upload: a contact list for a campaign. */
export async function uploadContacts(caller: Caller, campaignId: number, file: UploadFile) {
  return requireData(
    await call({
      method: "POST",
      path: "/api/file/upload",
      upload: { fields: { campaignId: String(campaignId) }, file },
      schema: ImportResultResponseSchema,
      what: "导入名单",
      caller,
      timeoutMs: 60_000,
    }),
    "导入名单",
  );
}

export async function listBatches(caller: Caller, query: Page & { campaignId?: number; status?: number }) {
  return requireData(
    await call({ method: "POST", path: "/outbound/task/list", json: query, schema: BatchPageResponseSchema, what: "获取批次列表", caller }),
    "获取批次列表",
  );
}

export async function listMyTasks(caller: Caller, query: Page) {
  return requireData(
    await call({
      method: "POST",
      path: "/outbound/task/list/agent",
      json: query,
      schema: BatchPageResponseSchema,
      what: "获取我的任务",
      caller,
    }),
    "获取我的任务",
  );
}

/** One batch (or an agent's task) with a page of its calls; `history: true` also brings the batch's history. */
export async function getTask(caller: Caller, id: number, query: CallPage & { isCalling: 0 | 1; callType: number; history?: true }) {
  const { isCalling, callType, history, ...page } = query;
  return requireData(
    await call({
      path: `/outbound/task/get/${id}/${isCalling}/${callType}`,
      query: { ...page, history: history && "1" },
      schema: TaskDetailResponseSchema,
      what: "获取任务",
      caller,
    }),
    "获取任务",
  );
}

export async function recoverTask(caller: Caller, id: number) {
  await call({ method: "POST", path: "/outbound/task/recover", json: { id }, schema: SavedResponseSchema, what: "恢复批次", caller });
}

export async function listHandoffs(caller: Caller, query: Page & { state?: "waiting" | "handed" | "lost" }) {
  return requireData(
    await call({
      method: "POST",
      path: "/contact/trans/call/query",
      json: query,
      schema: HandoffPageResponseSchema,
      what: "获取转人工记录",
      caller,
    }),
    "获取转人工记录",
  );
}

export async function beforeCall(caller: Caller, batchId: number, taskId: number) {
  return requireData(
    await call({
      path: `/outbound/agentend/beforecall/${batchId}/${taskId}`,
      schema: BeforeCallResponseSchema,
      what: "获取呼前信息",
      caller,
    }),
    "获取呼前信息",
  );
}

export async function takeNextPreview(caller: Caller, campaignId?: number) {
  const answer = await call({
    method: "POST",
    path: "/outbound/preview/next",
    json: { campaignId },
    schema: PreviewCallResponseSchema,
    what: "获取下一个联系人",
    caller,
  });
  return answer.data ?? null;
}

export async function dialPreview(caller: Caller, taskCallId: number) {
  await call({ method: "POST", path: "/outbound/preview/dial", json: { taskCallId }, schema: SavedResponseSchema, what: "拨打", caller });
}

export async function skipPreview(caller: Caller, taskCallId: number, reason: string) {
  await call({
    method: "POST",
    path: "/outbound/preview/skip",
    json: { taskCallId, reason },
    schema: SavedResponseSchema,
    what: "跳过联系人",
    caller,
  });
}

export async function unassignedCount(caller: Caller, campaignId: number) {
  return requireData(
    await call({
      path: "/outbound/preview/unassigned",
      query: { campaignId },
      schema: UnassignedCountResponseSchema,
      what: "获取待分配数量",
      caller,
    }),
    "获取待分配数量",
  ).unassigned;
}

export async function distributeContacts(caller: Caller, input: z.infer<typeof DistributeSchema>) {
  return requireData(
    await call({
      method: "POST",
      path: "/outbound/preview/distribute",
      json: input,
      schema: DistributeResponseSchema,
      what: "分配数据",
      caller,
    }),
    "分配数据",
  ).assigned;
}

/** GET /outbound/transTemplates/{agentId}/{type}: the transfer templates a user may use (type 0: every type). */
export async function listTransTemplates(caller: Caller, type = 0) {
  return requireData(
    await call({
      path: `/outbound/transTemplates/${caller.userId}/${type}`,
      schema: TransTemplatesResponseSchema,
      what: "获取转接模板",
      caller,
    }),
    "获取转接模板",
  );
}

/** GET /outbound/trans/template/get/{id}. */
export async function getTransTemplate(caller: Caller, id: number) {
  return requireData(
    await call({ path: `/outbound/trans/template/get/${id}`, schema: TransTemplateResponseSchema, what: "获取转接模板", caller }),
    "获取转接模板",
  );
}
