import { z } from "zod";
import { FORCED_STATES, MONITOR_RULE_KEYS, MONITOR_STATES, NOT_READY_REASONS, codesOf } from "./codes";
import { envelope } from "./envelope";

export { MONITOR_NOTIFICATIONS, levelOf, liveCounts, ruleKeyOf } from "./monitor-live";

/**
 * The live monitor of supervisors (decision 014): every agent and queue of the tenant as they are
 * now, the thresholds that colour them, and what a supervisor may do to an agent. Snapshots come
 * from the analysis service; changes arrive as `monitor.*` notifications on the tenant's stream.
 */

/** How long a client may stay silent (its stream's heartbeats stop) before it shows as 失联. */
export const PRESENCE_TIMEOUT_MS = 60_000;

/** A call or chat an agent is on, as the monitor shows it (the console masks the party). */
export const MonitorWorkSchema = z.object({
  kind: z.enum(["call", "chat"]),
  /** The call's cti id or the chat's session key: what a supervisor listens to. */
  id: z.string(),
  party: z.string(),
  direction: z.enum(["inbound", "outbound"]).nullable(),
  campaignId: z.number().int().nullable(),
  campaignName: z.string().nullable(),
  startedAt: z.string(),
});
export type MonitorWork = z.infer<typeof MonitorWorkSchema>;

/** The live part of an agent: what `monitor.agent` notifications carry. */
export const MonitorAgentStateSchema = z.object({
  userId: z.number().int(),
  /** MONITOR_STATES */
  state: z.string(),
  /** NOT_READY_REASONS while not ready. */
  reason: z.string().nullable(),
  since: z.string(),
  queueName: z.string(),
  work: MonitorWorkSchema.nullable(),
  /** The number of chats a text agent is serving. */
  chats: z.number().int().nonnegative(),
  /** A supervisor signed the agent out while on a call: it happens when the call ends. */
  signOutPending: z.boolean(),
});
export type MonitorAgentState = z.infer<typeof MonitorAgentStateSchema>;

/** One row of the agents table: who, the live state, and today's figures. */
export const MonitorAgentSchema = MonitorAgentStateSchema.extend({
  name: z.string(),
  agentId: z.string(),
  workType: z.number().int(),
  /** When the agent's client last reported (null: never since the platform started). */
  lastSeenAt: z.string().nullable(),
  today: z.object({
    calls: z.number().int().nonnegative(),
    chats: z.number().int().nonnegative(),
    /** Talk, hold and after-call work per handled call, in ms (null: nothing handled today). */
    averageHandleMs: z.number().nonnegative().nullable(),
    /** Share of rated calls rated 4 or 5 (null: none rated). */
    satisfaction: z.number().min(0).max(1).nullable(),
  }),
});
export type MonitorAgent = z.infer<typeof MonitorAgentSchema>;

const STATE_CODES = codesOf(MONITOR_STATES) as [string, ...string[]];

export const MonitorAgentQuerySchema = z.object({
  queueName: z.string().trim().max(64).optional(),
  state: z.enum(STATE_CODES).optional(),
  name: z.string().trim().max(32).optional(),
  /** One agent (a supervisor's page of that agent). */
  userId: z.number().int().positive().optional(),
  /**
   * One page of the filtered agents, longest in their state first with sort "since", with the
   * filtered total and every agent's live state in brief (the queues' counts); without it, all.
   */
  page: z
    .object({ pageNo: z.number().int().min(1), pageSize: z.number().int().min(1).max(100), sort: z.enum(["since"]).optional() })
    .optional(),
});
/** An agent's live state in brief: what the queues' counts are made of. */
export const MonitorLiveStateSchema = MonitorAgentStateSchema.pick({
  userId: true,
  state: true,
  reason: true,
  since: true,
  queueName: true,
});
export type MonitorLiveState = z.infer<typeof MonitorLiveStateSchema>;

/** A queue's figures (and the tenant's in total, queueName null). */
export const MonitorGroupSchema = z.object({
  queueName: z.string().nullable(),
  signedIn: z.number().int().nonnegative(),
  ready: z.number().int().nonnegative(),
  onCall: z.number().int().nonnegative(),
  onChat: z.number().int().nonnegative(),
  afterCallWork: z.number().int().nonnegative(),
  /** Not ready agents by NOT_READY_REASONS code. */
  notReady: z.record(z.number().int().nonnegative()),
  lost: z.number().int().nonnegative(),
  waiting: z.number().int().nonnegative(),
  /** When the call waiting longest began waiting (null: none waits). */
  oldestWaitingSince: z.string().nullable(),
  answeredToday: z.number().int().nonnegative(),
  abandonedToday: z.number().int().nonnegative(),
  /** Share of today's offered calls answered within SERVICE_LEVEL_SECONDS (null: none offered). */
  serviceLevel: z.number().min(0).max(1).nullable(),
});
export type MonitorGroup = z.infer<typeof MonitorGroupSchema>;

export const MonitorGroupListSchema = z.object({ list: z.array(MonitorGroupSchema), total: MonitorGroupSchema, at: z.string() });
export const MonitorGroupListResponseSchema = envelope(MonitorGroupListSchema);

export const MonitorAgentListSchema = z.object({
  list: z.array(MonitorAgentSchema),
  at: z.string(),
  /** With `page`: the filtered agents' number and every agent's live state. */
  total: z.number().int().nonnegative().optional(),
  states: z.array(MonitorLiveStateSchema).optional(),
  /** With `page`: the queues as `/analysis/monitor/group` answers them, counted from the same read. */
  groups: MonitorGroupListSchema.optional(),
});
export const MonitorAgentListResponseSchema = envelope(MonitorAgentListSchema);
export const SERVICE_LEVEL_SECONDS = 20;

/** What `monitor.queue` notifications carry. */
export const MonitorQueueStateSchema = z.object({
  queueName: z.string(),
  waiting: z.number().int().nonnegative(),
  oldestWaitingSince: z.string().nullable(),
});
export type MonitorQueueState = z.infer<typeof MonitorQueueStateSchema>;

/** A line said on a call or written in a chat, for supervisors listening (`monitor.line`). */
export const MonitorLineSchema = z.object({
  kind: z.enum(["call", "chat"]),
  id: z.string(),
  role: z.enum(["customer", "agent", "robot", "system"]),
  content: z.string(),
  at: z.string(),
});
export type MonitorLine = z.infer<typeof MonitorLineSchema>;

/** A transcript line of a call as supervisors read it (spec §3: role 3 is the customer, 1 the robot). */
export function callLine(ctiCallId: string, entry: { thisRole: number; dialogContent: string }, at = new Date()): MonitorLine {
  const role = entry.thisRole === 3 ? "customer" : entry.thisRole === 1 ? "robot" : "agent";
  return { kind: "call", id: ctiCallId, role, content: entry.dialogContent, at: at.toISOString() };
}

/** What a supervisor listening to an agent reads first: the lines so far of the call or chat. */
export const MonitorListenSchema = z.object({ work: MonitorWorkSchema.nullable(), lines: z.array(MonitorLineSchema) });
export const MonitorListenResponseSchema = envelope(MonitorListenSchema);

const RULE_KEYS = codesOf(MONITOR_RULE_KEYS) as [string, ...string[]];
const seconds = (label: string) =>
  z.coerce
    .number({ invalid_type_error: `${label}应为整数秒` })
    .int(`${label}应为整数秒`)
    .min(1, `${label}至少 1 秒`)
    .max(86_400, `${label}不能超过 86400 秒`);

export const MonitorRuleSchema = z
  .object({ key: z.enum(RULE_KEYS), warningSeconds: seconds("预警阈值"), criticalSeconds: seconds("严重阈值") })
  .refine((rule) => rule.warningSeconds < rule.criticalSeconds, { message: "预警阈值应小于严重阈值", path: ["criticalSeconds"] });
export type MonitorRule = z.infer<typeof MonitorRuleSchema>;
export const MonitorRulesSchema = z.object({ rules: z.array(MonitorRuleSchema) });
export const MonitorRulesResponseSchema = envelope(MonitorRulesSchema);
/** PUT /analysis/monitor/rules: every rule, with the reason for the change. */
export const MonitorRulesUpdateSchema = MonitorRulesSchema.extend({ reason: z.string().trim().min(1, "请填写修改原因").max(200) });

/** Every supervisor action says why; the reason is in the audit log and on the agent's screen. */
const reason = z.string().trim().min(1, "请填写原因").max(200, "原因不能超过200个字符");
const agentUserId = z.coerce.number().int().positive();

export const ForcedLogoutSchema = z.object({ agentUserId, reason });
export const ForcedStateSchema = z.object({
  agentUserId,
  command: z.enum(codesOf(FORCED_STATES) as [string, ...string[]]),
  notReadyReason: z.enum(codesOf(NOT_READY_REASONS) as [string, ...string[]]).optional(),
  reason,
});
export const AgentChangeSchema = z.object({ agentUserId, queueName: z.string().trim().min(1, "请选择队列").max(64), reason });
export const WhisperSchema = z.object({
  agentUserId,
  content: z.string().trim().min(1, "请填写密语内容").max(500, "密语不能超过500个字符"),
});

/**
 * What an agent's workbench shows of a supervisor's action (`cti.supervisor` / `chat.supervisor`),
 * or of the platform's own: a call it had to end because its media server failed (`mediaLost`).
 */
export const SupervisorNoticeSchema = z.object({
  kind: z.enum(["signOut", "signOutPending", "state", "move", "whisper", "mediaLost"]),
  from: z.string(),
  message: z.string(),
  at: z.string(),
});
export type SupervisorNotice = z.infer<typeof SupervisorNoticeSchema>;
export const ActionDoneResponseSchema = envelope(z.object({ message: z.string() }));
