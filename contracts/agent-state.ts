/**
 * The agent state machine of the phone bar, as a pure module: the reference platform's CTI
 * service drives it (upstream/cti/service.ts) and the console reads `canDo` to enable the
 * phone-bar buttons and shortcuts. States and reasons are the code tables AGENT_STATES and
 * NOT_READY_REASONS of contracts/codes.ts.
 *
 *   SIGNED_OUT ─signIn→ NOT_READY ⇄ READY ─offer→ RINGING ─answer→ TALKING ⇄ HOLD
 *   RINGING ─drop→ back to where the agent was (READY, or NOT_READY for a manual dial)
 *   RINGING ─missed (an offered call rang out)→ NOT_READY (未接来电), so no more calls ring there
 *   TALKING/HOLD ─release→ READY: a consulted colleague leaves the consultation (no call of their own to wrap up)
 *   TALKING/HOLD ─end→ ACW ─acwDone (timer) or ready→ READY; ACW ─notReady→ NOT_READY
 *   READY/NOT_READY/ACW ─dial→ RINGING (outbound); any idle state ─signOut→ SIGNED_OUT
 */
import { AGENT_STATES, MISSED_CALL_REASON, NOT_READY_REASONS, codesOf, labelOf } from "./codes";

export type AgentStateCode = "SIGNED_OUT" | "READY" | "NOT_READY" | "RINGING" | "TALKING" | "HOLD" | "ACW";

export type AgentStatus = {
  state: AgentStateCode;
  /** NOT_READY_REASONS code while NOT_READY. */
  reason: string | null;
  /** When the current state began (epoch ms). */
  since: number;
  /** The call the agent is ringing with, talking on, holding or wrapping up. */
  callId: string | null;
  muted: boolean;
  /** End of the after-call work period (epoch ms) while in ACW. */
  acwEndsAt: number | null;
  /** When the agent last became free to take a call (for longest-idle routing). */
  idleSince: number | null;
  /** Where a ringing call that drops returns the agent to. */
  before: "READY" | "NOT_READY" | null;
};

export type AgentCommand =
  | { type: "signIn" }
  | { type: "ready" }
  | { type: "notReady"; reason: string }
  | { type: "signOut" }
  | { type: "offer"; callId: string }
  | { type: "dial"; callId: string }
  | { type: "answer" }
  | { type: "drop" }
  | { type: "missed" }
  | { type: "release" }
  | { type: "hold" }
  | { type: "resume" }
  | { type: "mute" }
  | { type: "unmute" }
  | { type: "end" }
  | { type: "acwDone" };

export type CommandType = AgentCommand["type"];

const IDLE: AgentStateCode[] = ["READY", "NOT_READY", "ACW"];

/** Which commands each state accepts. */
const ACCEPTS: Record<AgentStateCode, CommandType[]> = {
  SIGNED_OUT: ["signIn"],
  READY: ["notReady", "signOut", "offer", "dial"],
  NOT_READY: ["ready", "notReady", "signOut", "dial"],
  RINGING: ["answer", "drop", "missed"],
  TALKING: ["hold", "mute", "unmute", "end", "release"],
  HOLD: ["resume", "end", "release"],
  ACW: ["ready", "notReady", "acwDone", "dial", "signOut"],
};

export const AGENT_STATE_CODES = codesOf(AGENT_STATES) as AgentStateCode[];

export function signedOut(now: number): AgentStatus {
  return { state: "SIGNED_OUT", reason: null, since: now, callId: null, muted: false, acwEndsAt: null, idleSince: null, before: null };
}

export function canDo(state: AgentStateCode, command: CommandType): boolean {
  return ACCEPTS[state].includes(command);
}

export type Transition = { ok: true; status: AgentStatus } | { ok: false; error: string };

/**
 * The next status after `command`, or why it is refused (Chinese, shown to the agent).
 * `acwMs` is the after-call work period that an ended call starts (null: it ends only when the
 * agent says they are ready).
 */
export function transition(current: AgentStatus, command: AgentCommand, now: number, acwMs: number | null): Transition {
  if (!canDo(current.state, command.type)) {
    return { ok: false, error: `当前状态（${labelOf(AGENT_STATES, current.state)}）不能执行该操作` };
  }
  const base = { ...current, since: now };
  const free = (state: "READY" | "NOT_READY", reason: string | null): AgentStatus => ({
    ...base,
    state,
    reason,
    callId: null,
    muted: false,
    acwEndsAt: null,
    before: null,
    idleSince: state === "READY" ? now : current.idleSince,
  });
  switch (command.type) {
    case "signIn":
      return { ok: true, status: free("NOT_READY", "BREAK") };
    case "ready":
    case "acwDone":
      return { ok: true, status: free("READY", null) };
    case "notReady":
      if (!codesOf(NOT_READY_REASONS).includes(command.reason)) return { ok: false, error: "请选择未就绪原因" };
      return { ok: true, status: free("NOT_READY", command.reason) };
    case "signOut":
      return { ok: true, status: signedOut(now) };
    case "offer":
    case "dial": {
      const before = current.state === "READY" ? "READY" : "NOT_READY";
      return { ok: true, status: { ...base, state: "RINGING", callId: command.callId, acwEndsAt: null, before } };
    }
    case "answer":
      return { ok: true, status: { ...base, state: "TALKING", reason: null, before: null } };
    case "drop":
      return { ok: true, status: free(current.before ?? "READY", current.before === "NOT_READY" ? (current.reason ?? "BREAK") : null) };
    case "missed":
      return { ok: true, status: free("NOT_READY", MISSED_CALL_REASON) };
    case "release":
      return { ok: true, status: free("READY", null) };
    case "hold":
      return { ok: true, status: { ...base, state: "HOLD" } };
    case "resume":
      return { ok: true, status: { ...base, state: "TALKING" } };
    case "mute":
    case "unmute":
      return { ok: true, status: { ...current, muted: command.type === "mute" } };
    case "end":
      return { ok: true, status: { ...base, state: "ACW", muted: false, acwEndsAt: acwMs === null ? null : now + acwMs } };
  }
}

export const isIdle = (state: AgentStateCode) => IDLE.includes(state);

export type RoutingStrategy = "longestIdle" | "roundRobin";

/**
 * Which ready agent gets the next call of a queue: the one idle longest, or the next after the
 * last one offered (by user id, wrapping round). Null when nobody is ready.
 */
export function pickAgent(
  ready: ReadonlyArray<{ userId: number; idleSince: number | null }>,
  strategy: RoutingStrategy,
  lastOffered: number | null,
): number | null {
  if (ready.length === 0) return null;
  if (strategy === "longestIdle") {
    return [...ready].sort((a, b) => (a.idleSince ?? 0) - (b.idleSince ?? 0) || a.userId - b.userId)[0].userId;
  }
  const ids = ready.map((agent) => agent.userId).sort((a, b) => a - b);
  return ids.find((id) => lastOffered === null || id > lastOffered) ?? ids[0];
}
