// Code tables of agents' states (phone, chat, the live monitor) and what a supervisor may force.
import type { CodeTable } from "./table";

/**
 * Agent states of the phone bar (spec §4: "not shown"; ours). Codes are what the platform stores
 * in users.agent_state and sends in cti.* events.
 */
export const AGENT_STATES: CodeTable<string> = [
  { code: "SIGNED_OUT", label: "已签出", tone: "none" },
  { code: "READY", label: "就绪", tone: "success" },
  { code: "NOT_READY", label: "未就绪", tone: "warning" },
  { code: "RINGING", label: "振铃中", tone: "info" },
  { code: "TALKING", label: "通话中", tone: "violet" },
  { code: "HOLD", label: "保持中", tone: "brown" },
  { code: "ACW", label: "话后整理", tone: "teal" },
];

/** Reasons an agent gives for not being ready (the issue names these four). */
export const NOT_READY_REASONS: CodeTable<string> = [
  { code: "BREAK", label: "小休" },
  { code: "TRAINING", label: "培训" },
  { code: "MEETING", label: "会议" },
  { code: "MEAL", label: "用餐" },
];
/**
 * Why an agent is not ready, as shown: the reasons an agent chooses, and the one the phone sets
 * when an offered call rang out unanswered (no agent chooses it).
 */
export const MISSED_CALL_REASON = "MISSED";
export const AGENT_REASONS: CodeTable<string> = /* @__PURE__ */ NOT_READY_REASONS.concat({ code: MISSED_CALL_REASON, label: "未接来电" });

/** Chat session states (contracts/chat.ts ChatStateSchema). */
export const CHAT_STATES: CodeTable<"waiting" | "active" | "closed"> = [
  { code: "waiting", label: "排队中", tone: "warning" },
  { code: "active", label: "服务中", tone: "success" },
  { code: "closed", label: "已结束", tone: "none" },
];

/** Business categories of a chat's business record (spec: not shown; ours). */
export const CHAT_BUSINESS_CATEGORIES: CodeTable<string> = [
  { code: "consult", label: "业务咨询" },
  { code: "complaint", label: "投诉建议" },
  { code: "after_sales", label: "售后服务" },
  { code: "other", label: "其他" },
];

/**
 * What the live monitor shows of an agent: the phone states of AGENT_STATES, and two of its own: a
 * text agent serving chats, and an agent whose client stopped reporting (no heartbeat).
 */
export const MONITOR_STATES: CodeTable<string> = /* @__PURE__ */ AGENT_STATES.filter((s) => s.code !== "SIGNED_OUT").concat(
  { code: "ON_CHAT", label: "会话中", tone: "indigo" },
  { code: "LOST", label: "失联", tone: "danger" },
  { code: "SIGNED_OUT", label: "已签出", tone: "none" },
);

/** The monitor's thresholds: per state, and for the wait of a call in queue (warning, critical seconds). */
export const MONITOR_RULE_KEYS: CodeTable<string> = [
  { code: "NOT_READY", label: "未就绪" },
  { code: "ACW", label: "话后整理" },
  { code: "TALKING", label: "通话中" },
  { code: "RINGING", label: "振铃中" },
  { code: "QUEUE_WAIT", label: "排队等待" },
];

/** What a supervisor may set an agent to. */
export const FORCED_STATES: CodeTable<string> = [
  { code: "ready", label: "就绪" },
  { code: "notReady", label: "未就绪" },
  { code: "finishAcw", label: "结束话后整理" },
];
