import type { AgentStatus, RoutingStrategy } from "#contracts/agent-state";
import type { AsrEntry, PhoneCall } from "#contracts/cti";
import type { RecordingName } from "#upstream/domain/recordings";

/** The shapes the CTI service keeps in memory (cti/switch.ts holds them, cti/service.ts acts on them). */

export type CtiOptions = {
  /** After-call work period. */
  acwMs: number;
  routing: RoutingStrategy;
  /** How long the simulated network takes to answer (or fail) a manual dial. */
  dialMs: number;
  /** How long an offered call rings at an agent before it goes to the next (a queue's setting overrides it). */
  ringMs: number;
};

export const DEFAULT_CTI_OPTIONS: CtiOptions = { acwMs: 30_000, routing: "longestIdle", dialMs: 1_500, ringMs: 20_000 };

export type DialOutcome = "ANSWER" | "NO_ANSWER" | "BUSY";

export type Agent = {
  userId: number;
  tenantId: number;
  name: string;
  agentId: string;
  queueName: string;
  autoAnswer: boolean;
  status: AgentStatus;
  /** A supervisor signed the agent out during a call: done when the call ends (never mid-call). */
  signOutPending: { by: string; reason: string } | null;
};

/** A colleague consulted on a call: ringing, talking with the asking agent (customer on hold), or all three. */
export type Consult = { agentUserId: number; state: "ringing" | "talking" | "conference" };

export type Call = Omit<PhoneCall, "startedAt" | "answeredAt" | "consult"> & {
  consult: Consult | null;
  tenantId: number;
  startedAt: number;
  answeredAt: number | null;
  agentUserId: number | null;
  ended: boolean;
  /** When the call started waiting in its current queue (null: not waiting). */
  queuedAt: number | null;
  /** How long the customer waited in queue until an agent answered. */
  queueWaitMs: number | null;
  /** Agents at whom the call rang out unanswered (a hand-off nobody took is ToHumanNoAnswer). */
  missedBy: number[];
  /** A direct line's agent: offered to this user only (null: anyone ready in the queue). */
  forUserId: number | null;
  /** A hand-off's robot call: its recording (the robot's part, then the agent's) and the intent heard. */
  robotCall?: RobotCall;
  /** A campaign contact the agent dials (preview): its task call moves with the call, its record names it. */
  task?: TaskDial;
};

export type TaskDial = { taskCallId: number; batchId: number; campaignType: number; userData: string };

export type RobotCall = { recording: RecordingName; intent: string | null };

export type Tenant = {
  agents: Map<number, Agent>;
  /** Calls waiting in a queue for a ready agent, oldest first. */
  waiting: string[];
  lastOffered: number | null;
  nextDialOutcome: DialOutcome | null;
};

/** Who asks: a signed-in user of a tenant. */
export type Caller = { id: number; tenantId: number };

export type NewCall = {
  origin: PhoneCall["origin"];
  phone: string;
  queueName: string | null;
  /** A direct line's agent: the call is offered to this user only. */
  forUserId?: number;
  flowId?: number | null;
  campaignId?: number | null;
  prevCtiCallId?: string | null;
  workOrderId?: number | null;
  transcript?: AsrEntry[];
  robotCall?: RobotCall;
};
