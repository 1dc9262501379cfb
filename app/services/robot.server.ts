import { FlowParamListResponseSchema, RobotInstancePageResponseSchema } from "../../contracts/robot";
import { call, requireData, type Caller } from "./upstream.server";

/** Flow parameters (type 'input') of a robot flow: spec §7, code 1 with data.list. */
export async function listFlowInputParams(caller: Caller, flowId: number) {
  const answer = await call({ path: "/robot/api/flow/param", query: { id: flowId, type: "input" }, schema: FlowParamListResponseSchema, what: "获取流程入参", caller });
  return requireData(answer, "获取流程入参").list;
}

/** Output state of a robot flow: spec §7, the param is the flow id; code 1 with data.list. */
export async function listFlowOutputStates(caller: Caller, flowId: number) {
  const answer = await call({ path: "/robot/api/flow/state", query: { flowId }, schema: FlowParamListResponseSchema, what: "获取输出状态", caller });
  return requireData(answer, "获取输出状态").list;
}

/** POST /robot/api/robot/instance/list: the tenant's robot instances (the campaign form's first 100). */
export async function listRobotInstances(caller: Caller) {
  const answer = await call({ method: "POST", path: "/robot/api/robot/instance/list", json: { pageNo: 1, pageSize: 100 }, schema: RobotInstancePageResponseSchema, what: "获取机器人列表", caller });
  return requireData(answer, "获取机器人列表").list;
}
