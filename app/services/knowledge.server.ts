import {
  KnowledgeBatchDeleteResponseSchema,
  KnowledgeGapListResponseSchema,
  KnowledgeGroupDeletedResponseSchema,
  KnowledgeGroupListResponseSchema,
  KnowledgeGroupResponseSchema,
  KnowledgeImportResponseSchema,
  KnowledgeNodePageResponseSchema,
  KnowledgeNodeResponseSchema,
  KnowledgeUsageResponseSchema,
  type KnowledgeNodeInput,
  type KnowledgeNodeQuery,
} from "#contracts/knowledge";
import { KnowledgeNodesResponseSchema } from "#contracts/workbench";
import { call, requireData, type Caller, type UploadFile } from "./upstream.server";

/** The knowledge base (`/config/knowledge`, decision 017): groups, nodes, uses and gaps. */

export async function listKnowledgeGroups(caller: Caller) {
  const answer = await call({
    path: "/config/knowledge/group/agent",
    schema: KnowledgeGroupListResponseSchema,
    what: "获取知识分组",
    caller,
  });
  return requireData(answer, "获取知识分组").list;
}

export async function createKnowledgeGroup(caller: Caller, name: string) {
  const answer = await call({
    method: "POST",
    path: "/config/knowledge/group",
    json: { name },
    schema: KnowledgeGroupResponseSchema,
    what: "新建分组",
    caller,
  });
  return requireData(answer, "新建分组");
}

export async function renameKnowledgeGroup(caller: Caller, id: number, name: string) {
  const answer = await call({
    method: "PUT",
    path: `/config/knowledge/group/${id}`,
    json: { name },
    schema: KnowledgeGroupResponseSchema,
    what: "重命名分组",
    caller,
  });
  return requireData(answer, "重命名分组");
}

export async function deleteKnowledgeGroup(caller: Caller, id: number) {
  await call({
    method: "DELETE",
    path: `/config/knowledge/group/${id}`,
    schema: KnowledgeGroupDeletedResponseSchema,
    what: "删除分组",
    caller,
  });
}

export async function listKnowledgeNodes(caller: Caller, query: KnowledgeNodeQuery) {
  const answer = await call({
    path: "/config/knowledge/node/agent",
    query,
    schema: KnowledgeNodePageResponseSchema,
    what: "获取知识列表",
    caller,
  });
  return requireData(answer, "获取知识列表");
}

export async function saveKnowledgeNode(caller: Caller, id: number | null, node: KnowledgeNodeInput) {
  const answer = await call({
    method: id === null ? "POST" : "PUT",
    path: id === null ? "/config/knowledge/node" : `/config/knowledge/node/${id}`,
    json: node,
    schema: KnowledgeNodeResponseSchema,
    what: "保存知识",
    caller,
  });
  return requireData(answer, "保存知识");
}

export async function setKnowledgeNodeState(caller: Caller, id: number, state: number) {
  const answer = await call({
    method: "PUT",
    path: `/config/knowledge/node/${id}/state/${state}`,
    schema: KnowledgeNodeResponseSchema,
    what: "变更知识状态",
    caller,
  });
  return requireData(answer, "变更知识状态");
}

export async function deleteKnowledgeNodes(caller: Caller, ids: number[]) {
  const answer = await call({
    method: "POST",
    path: "/config/knowledge/node/batch/delete",
    json: { ids },
    schema: KnowledgeBatchDeleteResponseSchema,
    what: "删除知识",
    caller,
  });
  return requireData(answer, "删除知识").deleted;
}

/** POST /config/knowledge/node/createBatch: a CSV or XLSX file of nodes for a group. */
export async function importKnowledgeNodes(caller: Caller, groupId: number, file: UploadFile) {
  const answer = await call({
    method: "POST",
    path: "/config/knowledge/node/createBatch",
    upload: { fields: { groupId: String(groupId) }, file },
    schema: KnowledgeImportResponseSchema,
    what: "导入知识",
    caller,
    timeoutMs: 60_000,
  });
  return requireData(answer, "导入知识");
}

export async function listKnowledgeGaps(caller: Caller, query: { pageNo: number; pageSize: number }) {
  const answer = await call({
    path: "/config/knowledge/gap",
    query,
    schema: KnowledgeGapListResponseSchema,
    what: "获取无结果搜索",
    caller,
  });
  return requireData(answer, "获取无结果搜索");
}

/** An agent inserted the node as a quick reply: one use. */
export async function countKnowledgeUse(caller: Caller, id: number) {
  const answer = await call({
    method: "PUT",
    path: `/config/knowledge/node/${id}/usage`,
    schema: KnowledgeUsageResponseSchema,
    what: "记录知识使用",
    caller,
  });
  return requireData(answer, "记录知识使用");
}

/** An agent's quick-reply search that found nothing: searched on the platform, which records the gap. */
export async function reportKnowledgeSearch(caller: Caller, keyword: string) {
  const answer = await call({
    path: "/config/knowledge/node/platform",
    query: { keyword },
    schema: KnowledgeNodesResponseSchema,
    what: "搜索知识",
    caller,
  });
  return requireData(answer, "搜索知识").total;
}
