import {
  FlowDesignResponseSchema,
  FlowDetailResponseSchema,
  FlowPageResponseSchema,
  FlowParamListResponseSchema,
  FlowResponseSchema,
  NluResultResponseSchema,
  RobotInstancePageResponseSchema,
  RobotDeletedResponseSchema,
  RobotInstanceResponseSchema,
  type FlowListQuery,
  type FlowNode,
  type FlowParamsSave,
  type RobotInstanceInput,
  type RobotInstanceListQuery,
} from "#contracts/robot";
import { call, requireData, send, type Caller } from "./upstream.server";

/** Flow parameters (type 'input') of a robot flow: spec §7, code 1 with data.list. */
export async function listFlowInputParams(caller: Caller, flowId: number) {
  const answer = await call({
    path: "/robot/api/flow/param",
    query: { id: flowId, type: "input" },
    schema: FlowParamListResponseSchema,
    what: "获取流程入参",
    caller,
  });
  return requireData(answer, "获取流程入参").list;
}

/** Output state of a robot flow: spec §7, the param is the flow id; code 1 with data.list. */
export async function listFlowOutputStates(caller: Caller, flowId: number) {
  const answer = await call({
    path: "/robot/api/flow/state",
    query: { flowId },
    schema: FlowParamListResponseSchema,
    what: "获取输出状态",
    caller,
  });
  return requireData(answer, "获取输出状态").list;
}

/** The most robots the campaign form offers: beyond this a select stops being usable. */
const ROBOT_CHOICES_MAX = 2_000;

/**
 * POST /robot/api/robot/instance/list: every robot instance of the tenant (up to
 * ROBOT_CHOICES_MAX), read 100 a page (the largest page size the platform takes).
 */
export async function listRobotInstances(caller: Caller) {
  const pageSize = 100;
  const robots = [];
  for (let pageNo = 1; robots.length < ROBOT_CHOICES_MAX; pageNo++) {
    const answer = await call({
      method: "POST",
      path: "/robot/api/robot/instance/list",
      json: { pageNo, pageSize },
      schema: RobotInstancePageResponseSchema,
      what: "获取机器人列表",
      caller,
    });
    const page = requireData(answer, "获取机器人列表");
    robots.push(...page.list);
    if (page.list.length < pageSize || robots.length >= page.total) break;
  }
  return robots.slice(0, ROBOT_CHOICES_MAX);
}

/* Robot instances (decision 019, 029): administrators' page /robot/instance. */

/** One page of the tenant's robots, with the campaigns each is used by. */
export async function listRobotPage(caller: Caller, query: RobotInstanceListQuery) {
  const answer = await call({
    method: "POST",
    path: "/robot/api/robot/instance/list",
    json: query,
    schema: RobotInstancePageResponseSchema,
    what: "获取机器人列表",
    caller,
  });
  return requireData(answer, "获取机器人列表");
}

/** One robot of the tenant (the list filtered by id), or null when it is not the tenant's. */
export async function findRobot(caller: Caller, id: number) {
  const page = await listRobotPage(caller, { pageNo: 1, pageSize: 10, id });
  return page.list[0] ?? null;
}

async function changeRobot(caller: Caller, what: string, request: { method: "POST" | "PUT"; path: string; json: object }) {
  const answer = await call({ ...request, schema: RobotInstanceResponseSchema, what, caller });
  return requireData(answer, what);
}

export const updateRobot = (caller: Caller, id: number, input: RobotInstanceInput) =>
  changeRobot(caller, "保存机器人", { method: "PUT", path: `/robot/api/robot/instance/${id}`, json: input });

export const allocateRobot = (caller: Caller, id: number, queueName: string | null) =>
  changeRobot(caller, "分配机器人", { method: "POST", path: "/robot/api/robot/instance/allocate", json: { id, queueName } });

export const transferRobot = (caller: Caller, id: number, flowId: number) =>
  changeRobot(caller, "转移机器人", { method: "POST", path: "/robot/api/robot/instance/transfer", json: { id, flowId } });

export const copyRobot = (caller: Caller, id: number, name: string) =>
  changeRobot(caller, "复制机器人", { method: "POST", path: "/robot/api/robot/instance/copy", json: { id, name } });

export async function deleteRobot(caller: Caller, id: number) {
  const answer = await call({
    method: "DELETE",
    path: `/robot/api/robot/instance/${id}`,
    schema: RobotDeletedResponseSchema,
    what: "删除机器人",
    caller,
  });
  return requireData(answer, "删除机器人");
}

/* Flows and their versions (decision 019): administrators' endpoints of /robot/api/flow. */

export async function listFlows(caller: Caller, query: FlowListQuery) {
  const answer = await call({
    method: "POST",
    path: "/robot/api/flow/list",
    json: query,
    schema: FlowPageResponseSchema,
    what: "获取流程列表",
    caller,
  });
  return requireData(answer, "获取流程列表");
}

/** The flows a robot may run (the first 100 by the platform's order: a select beyond that is unusable). */
export async function listFlowChoices(caller: Caller) {
  const page = await listFlows(caller, { pageNo: 1, pageSize: 100 });
  return page.list.map((flow) => ({ id: flow.id, name: flow.name, serviceVersion: flow.serviceVersion }));
}

export async function createFlow(caller: Caller, input: { name: string; description: string }) {
  const answer = await call({
    method: "POST",
    path: "/robot/api/flow/new",
    json: input,
    schema: FlowResponseSchema,
    what: "新建流程",
    caller,
  });
  return requireData(answer, "新建流程");
}

export async function getFlow(caller: Caller, id: number) {
  const answer = await call({ path: `/robot/api/flow/${id}`, schema: FlowDetailResponseSchema, what: "获取流程", caller });
  return requireData(answer, "获取流程");
}

export async function getFlowDesign(caller: Caller, id: number, versionId?: number) {
  const answer = await call({
    path: `/robot/api/flow/${id}/design`,
    query: versionId ? { versionId } : undefined,
    schema: FlowDesignResponseSchema,
    what: "获取流程设计",
    caller,
  });
  return requireData(answer, "获取流程设计");
}

/** The draft's nodes, with the version they were read from (a draft since replaced or changed is refused, 409). */
export async function saveFlowDesign(caller: Caller, id: number, nodes: FlowNode[], edited: { versionId: number; updatedAt: string }) {
  const answer = await call({
    method: "PUT",
    path: `/robot/api/flow/${id}/design`,
    json: { nodes, ...edited },
    schema: FlowDesignResponseSchema,
    what: "保存流程设计",
    caller,
  });
  return requireData(answer, "保存流程设计");
}

/** A draft's input parameters and output states, the whole lists (decision 029), with the version they were edited on (a stale edit is refused, 409). */
export async function saveFlowParams(caller: Caller, id: number, params: FlowParamsSave) {
  const answer = await call({
    method: "PUT",
    path: `/robot/api/flow/${id}/params`,
    json: params,
    schema: FlowDesignResponseSchema,
    what: "保存流程参数",
    caller,
  });
  return requireData(answer, "保存流程参数");
}

const TRANSITION_PATHS = {
  submit: ["audit/submit", "提交审核"],
  return: ["audit/return", "退回"],
  publish: ["publish", "发布"],
  market: ["market", "上架"],
  cover: ["cover", "复制为新草稿"],
} as const;
export type FlowTransition = keyof typeof TRANSITION_PATHS;

/** One lifecycle step (rollback is publish of a published version). */
export async function moveFlowVersion(caller: Caller, id: number, step: FlowTransition, body: { versionId?: number; reason?: string }) {
  const [path, what] = TRANSITION_PATHS[step];
  const answer = await call({
    method: "POST",
    path: `/robot/api/flow/${id}/${path}`,
    json: body,
    schema: FlowDetailResponseSchema,
    what,
    caller,
  });
  return requireData(answer, what);
}

export async function testNlu(caller: Caller, input: { flowId: number; versionId?: number; nodeKey?: string; sentence: string }) {
  const answer = await call({
    method: "POST",
    path: "/robot/api/flow/nlu/test",
    json: input,
    schema: NluResultResponseSchema,
    what: "意图测试",
    caller,
  });
  return requireData(answer, "意图测试");
}

/** GET /robot/api/flow/{id}/definition/excel: a version's nodes as a spreadsheet, streamed. */
export async function downloadFlowDefinition(caller: Caller, id: number, versionId: number) {
  return send({ path: `/robot/api/flow/${id}/definition/excel`, query: { versionId }, what: "导出流程定义", caller, timeoutMs: 60_000 });
}

/** GET /robot/api/flow/nlu/template: every intent and its default keywords as a spreadsheet. */
export async function downloadNluTemplate(caller: Caller) {
  return send({ path: "/robot/api/flow/nlu/template", what: "下载意图模板", caller, timeoutMs: 60_000 });
}
