// Code tables of calls: results, intents, outcomes, hang-up parties, dialog roles, transfers, quality.
import { labelOf } from "./table";
import type { CodeTable, Tone } from "./table";

/** Spec §3 call result options (the agent's conclusion). */
export const CALL_RESULTS: CodeTable<number> = [
  { code: 0, label: "未处理" },
  { code: 1, label: "处理成功", tone: "success" },
  { code: 2, label: "处理失败", tone: "danger" },
];

/** Spec §3 intent labels (the code is the stored value). */
export const INTENT_LABELS: CodeTable<string> = [
  { code: "CONFIRM", label: "确认办理", tone: "success" },
  { code: "NO_INTENTION", label: "无意向", tone: "danger" },
  { code: "HAS_INTENTION", label: "有意向", tone: "teal" },
  { code: "ASK_HOW", label: "询问如何办理", tone: "info" },
  { code: "ASK_FEE", label: "询问费用", tone: "indigo" },
  { code: "CHANGE_INSTALMENTS", label: "更改分期数", tone: "violet" },
  { code: "AGREED_NO_KEY", label: "同意未按键", tone: "warning" },
  { code: "HUNG_UP_SECOND_CONFIRM", label: "二次确认挂机", tone: "brown" },
];

/** Spec §3 call kind. */
export const CALL_KINDS: CodeTable<number> = [
  { code: 0, label: "上传呼叫" },
  { code: 1, label: "回拨呼叫" },
];
/** A call of a manual call-back campaign (campaign type 5) is a call-back call; any other, an uploaded one. */
export const callKindOf = (campaignType: number | null): number => (campaignType === 5 ? 1 : 0);

/** Spec §3 connected flag (isAnswer). */
export const CONNECTED_FLAGS: CodeTable<number> = [
  { code: 0, label: "未接通", tone: "danger" },
  { code: 1, label: "已接通", tone: "success" },
];

/** Spec §3 call outcome codes with their display colour (the pairing is ours: spec leaves it open). */
export const OUTCOME_CODES: CodeTable<string> = [
  { code: "EndOfTheCall", label: "人工接通", tone: "success" },
  { code: "NoAnswer", label: "未接听", tone: "warning" },
  { code: "ToHumanNoAnswer", label: "转人工流失", tone: "danger" },
  { code: "ToHumanGiveUp", label: "转人工放弃", tone: "pink" },
  { code: "RobotNoAnswer", label: "呼损（机器人溢出）", tone: "brown" },
  { code: "NoIntention", label: "无意向（已接通）", tone: "none" },
  { code: "GiveUp", label: "坐席放弃（直呼人工）", tone: "violet" },
  { code: "CustomerGiveUp", label: "客户放弃", tone: "olive" },
  { code: "ToSurveyRobotNoAnswer", label: "转满意度机器人未接", tone: "indigo" },
  { code: "ToSurveyRobotGiveUp", label: "转满意度机器人放弃", tone: "info" },
  { code: "EndOfTheSurveyCall", label: "满意度调查完成", tone: "teal" },
];

/** Result codes (callResult, SIP-style) with names; the tone follows spec §4 (resultCodeTone). */
export const RESULT_CODES: CodeTable<number> = [
  { code: 200, label: "已接通" },
  { code: 404, label: "空号" },
  { code: 408, label: "无人接听" },
  { code: 480, label: "暂时无法接通" },
  { code: 486, label: "用户忙" },
  { code: 487, label: "呼叫取消" },
  { code: 500, label: "系统错误" },
  { code: 502, label: "线路异常" },
  { code: 503, label: "服务不可用" },
  { code: 504, label: "呼叫超时" },
  { code: 603, label: "用户拒接" },
];
/** Spec §4: 500 to 504 and 404 show as danger, 200 as success, anything else as info. */
export function resultCodeTone(code: number | null | undefined): Tone {
  if (code === 200) return "success";
  if (code === 404 || (code !== null && code !== undefined && code >= 500 && code <= 504)) return "danger";
  return "info";
}

/** Spec §4 hang-up party; any other code is unknown. */
export const HANGUP_PARTIES: CodeTable<number> = [
  { code: 1, label: "机器人正常挂机" },
  { code: 2, label: "客户挂机" },
  { code: 3, label: "坐席挂机" },
  { code: 4, label: "机器人挂机（网络异常）" },
  { code: 5, label: "用户未接听" },
];
/** A call the platform ended itself (its media server failed): not in spec §4's table, so shown as 未知. */
export const HANGUP_BY_PLATFORM = 0;
export const hangupPartyLabel = (code: number | null | undefined) => labelOf(HANGUP_PARTIES, code, "未知");

/** Spec §4 call status (4 and 7 are both cancelled, for different reasons). */
export const CALL_STATUSES: CodeTable<number> = [
  { code: 0, label: "等待呼叫", tone: "indigo" },
  { code: 1, label: "呼叫中", tone: "info" },
  { code: 2, label: "未接通", tone: "danger" },
  { code: 3, label: "呼叫完成", tone: "success" },
  { code: 4, label: "已取消（批次取消）", tone: "none" },
  { code: 5, label: "异常终止", tone: "brown" },
  { code: 6, label: "黑名单（未呼叫）", tone: "violet" },
  { code: 7, label: "已取消（超出调度时间）", tone: "teal" },
];

/** Calling result entry dialogType (spec §3): 1 human-machine, otherwise human-human. */
export const DIALOG_TYPES: CodeTable<number> = [
  { code: 1, label: "人机对话" },
  { code: 2, label: "人人对话" },
];

/** Dialog line roles (spec §3): 1 and 2 are shown on the right, 3 is the customer on the left. */
export const CUSTOMER_ROLE = 3;
export const DIALOG_ROLES: CodeTable<number> = [
  { code: 1, label: "机器人" },
  { code: 2, label: "坐席" },
  { code: 3, label: "客户" },
];

/** Hand-off of an interested customer from the robot to an agent (collaborative campaigns; ours). */
export const HANDOFF_STATES: CodeTable<string> = [
  { code: "waiting", label: "等待人工", tone: "warning" },
  { code: "handed", label: "已转人工", tone: "success" },
  { code: "lost", label: "转人工流失", tone: "danger" },
];

/**
 * Transfer template kinds (ours: spec leaves them open): the codes of transfer_templates.type,
 * kept with the other code tables though no screen shows them yet.
 * @public
 */
export const TRANSFER_TYPES: CodeTable<number> = [
  { code: 1, label: "转队列" },
  { code: 2, label: "转坐席" },
  { code: 3, label: "转外线" },
];

/** Outcomes of a manual dial on the simulated network (ours): answered, no answer, busy. */
export const DIAL_OUTCOMES: CodeTable<string> = [
  { code: "ANSWER", label: "已接听", tone: "success" },
  { code: "NO_ANSWER", label: "无人接听", tone: "warning" },
  { code: "BUSY", label: "用户忙", tone: "danger" },
];

/** Where a call on the phone bar came from (ours): inbound, a manual dial, or a robot hand-off. */
export const CALL_ORIGIN_LABELS: CodeTable<string> = [
  { code: "inbound", label: "呼入" },
  { code: "manual", label: "外呼" },
  { code: "handoff", label: "机器人转人工" },
];

/** What made a call's audio poor, as the softphone's quality badge measures it (decision 043): its thresholds crossed. */
export const CALL_QUALITY_ISSUE_CODES = ["rtt", "jitter", "loss", "mos"] as const;
export const CALL_QUALITY_ISSUES: CodeTable<(typeof CALL_QUALITY_ISSUE_CODES)[number]> = [
  { code: "rtt", label: "延迟高" },
  { code: "jitter", label: "抖动大" },
  { code: "loss", label: "丢包" },
  { code: "mos", label: "音质评分低" },
];
