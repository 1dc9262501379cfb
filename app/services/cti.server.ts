import {
  CallQualityReportResponseSchema,
  PhoneAgentsResponseSchema,
  PhoneSnapshotResponseSchema,
  TodayCallsResponseSchema,
  type CallAction,
  type CallQualityReport,
  type ConsultStep,
} from "#contracts/cti";
import { PrecallResultResponseSchema, PrecallStartResponseSchema, SipAccessResponseSchema } from "#contracts/voice";
import { call, requireData, type Caller } from "./upstream.server";

/** The platform's CTI service (`/cti/api`, decision 007): the agent's phone state and call control. */

const WHAT = "坐席电话";

export async function getPhone(caller: Caller) {
  return requireData(await call({ path: "/cti/api/agent", schema: PhoneSnapshotResponseSchema, what: "获取坐席状态", caller }), WHAT);
}

async function postPhone(caller: Caller, path: string, json: unknown, what: string) {
  return requireData(await call({ method: "POST", path, json, schema: PhoneSnapshotResponseSchema, what, caller }), what);
}

export type StateCommand = { command: "signIn" | "ready" | "signOut" } | { command: "notReady"; reason: string };

export const changeAgentState = (caller: Caller, command: StateCommand) =>
  postPhone(caller, "/cti/api/agent/state", command, "切换坐席状态");
export const controlCall = (caller: Caller, action: CallAction) => postPhone(caller, `/cti/api/call/${action}`, {}, "通话操作");
export const dial = (caller: Caller, phone: string) => postPhone(caller, "/cti/api/call/dial", { phone }, "外呼");
export const transferCall = (caller: Caller, target: "agent" | "queue", to: string) =>
  postPhone(caller, "/cti/api/call/transfer", { target, to }, "转接");
export const consult = (caller: Caller, agentId: string) => postPhone(caller, "/cti/api/call/consult", { agentId }, "咨询");
const CONSULT_STEP_WHAT = { transfer: "完成转接", conference: "三方通话", cancel: "结束咨询" } as const;
export const consultStep = (caller: Caller, step: ConsultStep) =>
  postPhone(caller, `/cti/api/call/consult/${step}`, {}, CONSULT_STEP_WHAT[step]);
/** A finished call's poor audio, marked on its record for supervisors. */
export async function reportCallQuality(caller: Caller, report: CallQualityReport) {
  const what = "报告通话质量";
  return requireData(
    await call({ method: "POST", path: "/cti/api/call/quality", json: report, schema: CallQualityReportResponseSchema, what, caller }),
    what,
  );
}

export const sendDtmf = (caller: Caller, digits: string) => postPhone(caller, "/cti/api/call/dtmf", { digits }, "发送按键");

export async function listColleagues(caller: Caller) {
  return requireData(
    await call({ path: "/cti/api/agents", schema: PhoneAgentsResponseSchema, what: "获取坐席列表", caller }),
    "获取坐席列表",
  );
}

export async function listTodayCalls(caller: Caller) {
  return requireData(
    await call({ path: "/cti/api/agent/calls/today", schema: TodayCallsResponseSchema, what: "获取今日通话", caller }),
    "获取今日通话",
  );
}

/** The agent's softphone credentials (short-lived), or that the media is simulated (decision 036). */
export async function getSipAccess(caller: Caller) {
  return requireData(
    await call({ path: "/cti/api/agent/sip", schema: SipAccessResponseSchema, what: "获取软电话凭证", caller }),
    "获取软电话凭证",
  );
}

/** The pre-call test (decision 053): the platform calls the agent's softphone with a test call. */
export async function startPrecallTest(caller: Caller) {
  const what = "开始通话测试";
  return requireData(
    await call({ method: "POST", path: "/cti/api/agent/sip/test", json: {}, schema: PrecallStartResponseSchema, what, caller }),
    what,
  );
}

/** What the media server recorded of the agent on a test call, once it has ended. */
export async function getPrecallResult(caller: Caller, testId: string) {
  const what = "获取通话测试结果";
  return requireData(
    await call({ path: `/cti/api/agent/sip/test/${encodeURIComponent(testId)}`, schema: PrecallResultResponseSchema, what, caller }),
    what,
  );
}
