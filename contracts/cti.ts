import { z } from "zod";
import { AGENT_STATE_CODES, type AgentStateCode } from "./agent-state";
import { CALL_QUALITY_ISSUE_CODES, codesOf, DIAL_OUTCOMES } from "./codes";
import { envelope, page } from "./envelope";
import { CTI_EVENTS, DIALABLE_PHONE } from "./workbench-live";

/**
 * The CTI service of the platform (`/cti/api/...`, decision 007): the agent's phone state and
 * call control. endpoints.md does not list CTI; the softphone of a production platform speaks its
 * own protocol, and our console relays to this one so no upstream token reaches the browser.
 */

/** Spec §3 "ASR dialog entry": one line of the robot's (or live) transcript. */
export const AsrEntrySchema = z.object({
  segmentId: z.number().int().nonnegative(),
  thisRole: z.number().int(),
  nluResult: z.string().nullable(),
  dialogContent: z.string(),
  gender: z.number().int(),
});
export type AsrEntry = z.infer<typeof AsrEntrySchema>;

export const CALL_ORIGINS = ["inbound", "manual", "handoff"] as const;

export const PhoneCallSchema = z.object({
  ctiCallId: z.string(),
  origin: z.enum(CALL_ORIGINS),
  phone: z.string(),
  queueName: z.string().nullable(),
  startedAt: z.string(),
  answeredAt: z.string().nullable(),
  flowId: z.number().int().nullable(),
  campaignId: z.number().int().nullable(),
  prevCtiCallId: z.string().nullable(),
  workOrderId: z.number().int().nullable(),
  /** The robot's dialogue so far (hand-offs) and live ASR lines after it. */
  transcript: z.array(AsrEntrySchema),
  dtmf: z.string(),
  /**
   * A consultation on this call, as the viewing agent sees it: `asking` for the agent who holds
   * the customer and called the colleague, not for the colleague; `colleague` is the other one,
   * `sipUser` the other one's softphone (real voice: the asking agent's softphone calls it, the
   * colleague's takes that call only from it; decision 052).
   */
  consult: z
    .object({ colleague: z.string(), sipUser: z.string(), state: z.enum(["ringing", "talking", "conference"]), asking: z.boolean() })
    .nullable(),
});
export type PhoneCall = z.infer<typeof PhoneCallSchema>;

export const PhoneSnapshotSchema = z.object({
  agent: z.object({
    agentId: z.string(),
    queueName: z.string(),
    autoAnswer: z.boolean(),
    state: z.enum(AGENT_STATE_CODES as [AgentStateCode, ...AgentStateCode[]]),
    reason: z.string().nullable(),
    since: z.string(),
    muted: z.boolean(),
    acwEndsAt: z.string().nullable(),
  }),
  call: PhoneCallSchema.nullable(),
});
export type PhoneSnapshot = z.infer<typeof PhoneSnapshotSchema>;
export const PhoneSnapshotResponseSchema = envelope(PhoneSnapshotSchema);

/** Said to an agent whose call the platform ended because the media server failed. */
export const MEDIA_LOST_MESSAGE = "语音服务器故障，本次通话已中断。请填写通话结果，稍后可回拨客户。";

/** The bus's event types (CTI_EVENTS) and their payloads, checked by the console before it relays them. */
export { CTI_EVENTS };
export const AsrEventSchema = z.object({ ctiCallId: z.string(), entry: AsrEntrySchema });
export type AsrEvent = z.infer<typeof AsrEventSchema>;

/** POST /cti/api/agent/state */
export const StateCommandSchema = z.discriminatedUnion("command", [
  z.object({ command: z.literal("signIn") }),
  z.object({ command: z.literal("ready") }),
  z.object({ command: z.literal("notReady"), reason: z.string() }),
  z.object({ command: z.literal("signOut") }),
]);

/** POST /cti/api/call/{action}: the call-control verbs that take no argument. */
export const CALL_ACTIONS = ["answer", "hangup", "hold", "resume", "mute", "unmute"] as const;
export type CallAction = (typeof CALL_ACTIONS)[number];

export const DialRequestSchema = z.object({ phone: z.string().trim().regex(DIALABLE_PHONE, "请输入正确的电话号码") });
export const TransferRequestSchema = z.object({ target: z.enum(["agent", "queue"]), to: z.string().trim().min(1, "请选择转接目标") });
export const ConsultRequestSchema = z.object({ agentId: z.string().trim().min(1, "请选择咨询坐席") });
/**
 * POST /cti/api/call/consult/{step}: after consulting, hand the customer to the colleague
 * (transfer), bring all three together (conference), or end the consultation (cancel).
 */
export const CONSULT_STEPS = ["transfer", "conference", "cancel"] as const;
export type ConsultStep = (typeof CONSULT_STEPS)[number];
/**
 * POST /cti/api/call/quality — the agent's softphone reports, once the call has ended, that its
 * audio was poor (decision 046); the call's record carries it for supervisors.
 */
export const CallQualityReportSchema = z.object({
  ctiCallId: z.string().min(1).max(100),
  poorSeconds: z.number({ message: "请提供较差通话质量的持续秒数" }).int().min(1).max(86_400),
  issues: z
    .array(z.enum(CALL_QUALITY_ISSUE_CODES, { message: "通话质量问题只能是延迟、抖动、丢包或音质评分" }))
    .min(1)
    .max(4),
});
export type CallQualityReport = z.infer<typeof CallQualityReportSchema>;
export const CallQualityReportResponseSchema = envelope(CallQualityReportSchema);

export const DtmfRequestSchema = z.object({ digits: z.string().regex(/^[0-9*#]{1,32}$/, "按键只能是 0-9、* 和 #") });

/** GET /cti/api/agents — colleagues of the tenant, for transfer and consult. */
export const PhoneAgentSchema = z.object({ agentId: z.string(), name: z.string(), queueName: z.string(), state: z.string() });
export const PhoneAgentsResponseSchema = envelope(z.array(PhoneAgentSchema));

/** GET /cti/api/agent/calls/today — the agent's calls today, newest first, with their conclusion. */
export const TodayCallSchema = z.object({
  ctiCallId: z.string(),
  phone: z.string(),
  origin: z.enum(CALL_ORIGINS),
  callTime: z.string(),
  callDuration: z.number().int().nonnegative(),
  isAnswer: z.number().int(),
  conclusion: z.number().int().nullable(),
});
export type TodayCall = z.infer<typeof TodayCallSchema>;
export const TodayCallsResponseSchema = envelope(page(TodayCallSchema));

/** Simulator control (only with SIMULATOR_CONTROL=1): drive calls step by step in tests and demos. */
export const SimulatedOfferSchema = z.object({
  phone: z.string(),
  queueName: z.string().optional(),
  /** A direct line: the call rings only at this agent (their login name), in their queue, whenever they are ready. */
  agentUserName: z.string().optional(),
  flowId: z.number().int().optional(),
  campaignId: z.number().int().optional(),
  prevCtiCallId: z.string().optional(),
  workOrderId: z.number().int().optional(),
  transcript: z.array(AsrEntrySchema).optional(),
});
export const DIAL_OUTCOME_CODES = codesOf(DIAL_OUTCOMES) as ["ANSWER", "NO_ANSWER", "BUSY"];
