import { FlowParamListResponseSchema, RobotInstancePageResponseSchema } from "#contracts/robot";
import { call, requireData, type Caller } from "./upstream.server";

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
