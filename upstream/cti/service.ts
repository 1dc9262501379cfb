import { randomUUID } from "node:crypto";
import { pickAgent, signedOut, transition, type AgentCommand, type AgentStatus, type RoutingStrategy } from "#contracts/agent-state";
import { labelOf, RESULT_CODES } from "#contracts/codes";
import { CTI_EVENTS, type AsrEntry, type PhoneCall, type PhoneSnapshot } from "#contracts/cti";
import type { Db } from "#upstream/db";
import { recordingDialogs, type RecordingName } from "#upstream/domain/recordings";
import type { NotificationBus } from "#upstream/notifications/bus";
import { HttpError } from "#upstream/http";
import type { NewDialogLine } from "#upstream/db/schema";
import { insertCallRecord } from "#upstream/repositories/call-records";

/**
 * The CTI service of the reference platform: per tenant, the agents' phone states (the pure
 * machine of contracts/agent-state.ts), queues named by each agent's defaultQueueName, calls
 * offered to ready agents, manual dialling on a simulated network, and the call record with its
 * recording and transcript written when a call ends. Every change is published to the agent as a
 * `cti.state` event carrying the whole phone state, through the event bus (numbered, replayable).
 *
 * State lives in memory (one platform process): a restart signs every agent out, as a real
 * switch does when it loses its registrations. So that agents see it, the restarted platform
 * tells each agent it had signed in that they are signed out (`signOutAfterRestart`), and a
 * stopping platform records the calls it cuts (`close`).
 *
 * Seam for the dialer (issue 4): a collaborative campaign hands a call over with
 * `offerRobotHandoff(tenantId, { phone, queueName, flowId, campaignId, transcript })`, then feeds
 * the robot's / ASR's further lines with `addAsr(ctiCallId, entry)`; see decision 007.
 */

export type CtiOptions = {
  /** After-call work period. */
  acwMs: number;
  routing: RoutingStrategy;
  /** How long the simulated network takes to answer (or fail) a manual dial. */
  dialMs: number;
};

export const DEFAULT_CTI_OPTIONS: CtiOptions = { acwMs: 30_000, routing: "longestIdle", dialMs: 1_500 };

export type DialOutcome = "ANSWER" | "NO_ANSWER" | "BUSY";

type Agent = {
  userId: number;
  tenantId: number;
  name: string;
  agentId: string;
  queueName: string;
  autoAnswer: boolean;
  status: AgentStatus;
};

type Call = Omit<PhoneCall, "startedAt" | "answeredAt"> & {
  tenantId: number;
  startedAt: number;
  answeredAt: number | null;
  agentUserId: number | null;
  ended: boolean;
  /** A hand-off's robot call: its recording (the robot's part, then the agent's) and the intent heard. */
  robotCall?: RobotCall;
};

type RobotCall = { recording: RecordingName; intent: string | null };

type Tenant = {
  agents: Map<number, Agent>;
  /** Calls waiting in a queue for a ready agent, oldest first. */
  waiting: string[];
  lastOffered: number | null;
  nextDialOutcome: DialOutcome | null;
};

type Caller = { id: number; tenantId: number };

/** The simulated network's answer to a dialled number when a test has not set one: by last digit. */
export function simulatedDialOutcome(phone: string): DialOutcome {
  if (phone.endsWith("4")) return "BUSY";
  if (phone.endsWith("8")) return "NO_ANSWER";
  return "ANSWER";
}

const DIAL_RESULT: Record<DialOutcome, { callResult: number; outcome: string }> = {
  ANSWER: { callResult: 200, outcome: "EndOfTheCall" },
  NO_ANSWER: { callResult: 408, outcome: "NoAnswer" },
  BUSY: { callResult: 486, outcome: "NoAnswer" },
};

const CAMPAIGN_TYPE_OF: Record<PhoneCall["origin"], number> = { inbound: 20, manual: -1, handoff: 2 };

export function createCti(db: Db, events: NotificationBus, options: CtiOptions = DEFAULT_CTI_OPTIONS) {
  const tenants = new Map<number, Tenant>();
  const calls = new Map<string, Call>();
  /** Told when a call is answered for the first time (the hand-off bridge marks hand-offs handed). */
  const answeredListeners = new Set<(answered: { tenantId: number; ctiCallId: string; agentUserId: number }) => void>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  /** Per-agent publishing chains, so an agent's events are stored in the order they happened. */
  const chains = new Map<number, Promise<unknown>>();

  const tenantOf = (tenantId: number): Tenant => {
    let tenant = tenants.get(tenantId);
    if (!tenant) {
      tenant = { agents: new Map(), waiting: [], lastOffered: null, nextDialOutcome: null };
      tenants.set(tenantId, tenant);
    }
    return tenant;
  };

  const later = (ms: number, run: () => Promise<void>) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      run().catch((error) => console.error("[cti] timer failed", error));
    }, ms);
    timers.add(timer);
  };

  async function agentOf(caller: Caller): Promise<Agent> {
    const tenant = tenantOf(caller.tenantId);
    const known = tenant.agents.get(caller.id);
    if (known) return known;
    const row = await db
      .selectFrom("users")
      .select(["id", "real_name", "agent_id", "default_queue_name", "auto_answer", "work_type"])
      .where("tenant_id", "=", caller.tenantId)
      .where("id", "=", caller.id)
      .executeTakeFirst();
    if (!row || row.agent_id === null) throw new HttpError(403, "当前账号不是坐席");
    const agent: Agent = {
      userId: row.id,
      tenantId: caller.tenantId,
      name: row.real_name,
      agentId: row.agent_id,
      queueName: row.default_queue_name,
      autoAnswer: row.auto_answer,
      status: signedOut(Date.now()),
    };
    // Another request may have loaded it meanwhile: keep the first.
    if (!tenant.agents.has(caller.id)) tenant.agents.set(caller.id, agent);
    return tenant.agents.get(caller.id)!;
  }

  function snapshot(agent: Agent): PhoneSnapshot {
    const { status } = agent;
    const call = status.callId ? calls.get(status.callId) : undefined;
    return {
      agent: {
        agentId: agent.agentId,
        queueName: agent.queueName,
        autoAnswer: agent.autoAnswer,
        state: status.state,
        reason: status.reason,
        since: new Date(status.since).toISOString(),
        muted: status.muted,
        acwEndsAt: status.acwEndsAt === null ? null : new Date(status.acwEndsAt).toISOString(),
      },
      call: call ? publicCall(call) : null,
    };
  }

  function publicCall(call: Call): PhoneCall {
    const { tenantId: _t, agentUserId: _a, ended: _e, robotCall: _r, ...rest } = call;
    return {
      ...rest,
      startedAt: new Date(call.startedAt).toISOString(),
      answeredAt: call.answeredAt === null ? null : new Date(call.answeredAt).toISOString(),
      transcript: [...call.transcript],
    };
  }

  function publish(agent: Agent, type: string, payload: unknown): Promise<unknown> {
    const previous = chains.get(agent.userId) ?? Promise.resolve();
    const next = previous
      .catch(() => undefined)
      .then(() => events.publish({ tenantId: agent.tenantId, userId: agent.userId }, type, payload));
    chains.set(agent.userId, next);
    return next;
  }

  /** Applies a command or fails with its Chinese reason; persists and publishes the new state. */
  async function apply(agent: Agent, command: AgentCommand): Promise<void> {
    // Each state starts strictly after the last, so the phone bar can tell a stale snapshot by its `since`.
    const now = Math.max(Date.now(), agent.status.since + 1);
    const next = transition(agent.status, command, now, options.acwMs);
    if (!next.ok) throw new HttpError(400, next.error);
    agent.status = next.status;
    const state = next.status.state;
    await Promise.all([
      publish(agent, CTI_EVENTS.state, snapshot(agent)),
      db.updateTable("users").set({ agent_state: state }).where("id", "=", agent.userId).execute(),
    ]);
    if (state === "ACW") {
      const { callId } = next.status;
      later(options.acwMs, async () => {
        if (agent.status.state === "ACW" && agent.status.callId === callId) await apply(agent, { type: "acwDone" });
      });
    }
    if (state === "READY") await dispatch(agent.tenantId);
  }

  /** Offers waiting calls to ready agents of their queue. */
  async function dispatch(tenantId: number): Promise<void> {
    const tenant = tenantOf(tenantId);
    for (const callId of [...tenant.waiting]) {
      const call = calls.get(callId);
      if (!call || call.ended) {
        tenant.waiting = tenant.waiting.filter((id) => id !== callId);
        continue;
      }
      const ready = [...tenant.agents.values()].filter((a) => a.status.state === "READY" && a.queueName === call.queueName);
      const chosen = pickAgent(
        ready.map((a) => ({ userId: a.userId, idleSince: a.status.idleSince })),
        options.routing,
        tenant.lastOffered,
      );
      if (chosen === null) continue;
      tenant.waiting = tenant.waiting.filter((id) => id !== callId);
      tenant.lastOffered = chosen;
      await offerTo(tenant.agents.get(chosen)!, call);
    }
  }

  async function offerTo(agent: Agent, call: Call): Promise<void> {
    call.agentUserId = agent.userId;
    await apply(agent, { type: "offer", callId: call.ctiCallId });
    if (agent.autoAnswer) await answerCall(agent, call);
  }

  async function answerCall(agent: Agent, call: Call): Promise<void> {
    // The customer was connected at the first answer; a transferred call keeps that time.
    const first = call.answeredAt === null;
    call.answeredAt ??= Date.now();
    await apply(agent, { type: "answer" });
    if (first)
      for (const listener of answeredListeners) listener({ tenantId: call.tenantId, ctiCallId: call.ctiCallId, agentUserId: agent.userId });
  }

  /** A new call into a queue; offered at once if someone is ready, else it waits. */
  async function enqueue(tenantId: number, input: NewCall): Promise<Call> {
    const call: Call = {
      ctiCallId: `cti-${randomUUID()}`,
      tenantId,
      origin: input.origin,
      phone: input.phone,
      queueName: input.queueName,
      startedAt: Date.now(),
      answeredAt: null,
      flowId: input.flowId ?? null,
      campaignId: input.campaignId ?? null,
      prevCtiCallId: input.prevCtiCallId ?? null,
      workOrderId: input.workOrderId ?? null,
      transcript: input.transcript ?? [],
      dtmf: "",
      consultAgent: null,
      agentUserId: null,
      ended: false,
      robotCall: input.robotCall,
    };
    calls.set(call.ctiCallId, call);
    tenantOf(tenantId).waiting.push(call.ctiCallId);
    await dispatch(tenantId);
    return call;
  }

  function callOf(agent: Agent): Call {
    const call = agent.status.callId ? calls.get(agent.status.callId) : undefined;
    if (!call || call.ended) throw new HttpError(400, "当前没有通话");
    return call;
  }

  /** Ends a call: the agent goes to after-call work (or back, if it never connected), the record is written. */
  async function finish(call: Call, hangupParty: number, outcome: DialOutcome | "ABANDONED" | null): Promise<void> {
    if (call.ended) return;
    call.ended = true;
    const endedAt = Date.now();
    const tenant = tenantOf(call.tenantId);
    tenant.waiting = tenant.waiting.filter((id) => id !== call.ctiCallId);
    // The record first: the agent's screen reloads its call history as soon as the state changes.
    await writeRecord(db, call, { endedAt, hangupParty, outcome });
    const agent = call.agentUserId === null ? undefined : tenant.agents.get(call.agentUserId);
    if (agent && agent.status.callId === call.ctiCallId) {
      await apply(agent, { type: agent.status.state === "RINGING" ? "drop" : "end" });
    }
  }

  return {
    options,

    /** Calls `listener` when a call is first answered; returns the way to stop listening. */
    onAnswered(listener: (answered: { tenantId: number; ctiCallId: string; agentUserId: number }) => void): () => void {
      answeredListeners.add(listener);
      return () => answeredListeners.delete(listener);
    },

    async status(caller: Caller): Promise<PhoneSnapshot> {
      return snapshot(await agentOf(caller));
    },

    async command(caller: Caller, command: Extract<AgentCommand, { type: "signIn" | "ready" | "notReady" | "signOut" }>) {
      const agent = await agentOf(caller);
      await apply(agent, command);
      return snapshot(agent);
    },

    async callAction(caller: Caller, action: "answer" | "hangup" | "hold" | "resume" | "mute" | "unmute") {
      const agent = await agentOf(caller);
      const call = callOf(agent);
      if (action === "answer") {
        if (call.origin === "manual") throw new HttpError(400, "外呼等待对方接听");
        await answerCall(agent, call);
      } else if (action === "hangup") await finish(call, 3, call.answeredAt ? null : "ABANDONED");
      else await apply(agent, { type: action });
      return snapshot(agent);
    },

    async dial(caller: Caller, phone: string) {
      const agent = await agentOf(caller);
      const tenant = tenantOf(agent.tenantId);
      const call: Call = {
        ctiCallId: `cti-${randomUUID()}`,
        tenantId: agent.tenantId,
        origin: "manual",
        phone,
        queueName: null,
        startedAt: Date.now(),
        answeredAt: null,
        flowId: null,
        campaignId: null,
        prevCtiCallId: null,
        workOrderId: null,
        transcript: [],
        dtmf: "",
        consultAgent: null,
        agentUserId: agent.userId,
        ended: false,
      };
      await apply(agent, { type: "dial", callId: call.ctiCallId });
      calls.set(call.ctiCallId, call);
      const outcome = tenant.nextDialOutcome ?? simulatedDialOutcome(phone);
      tenant.nextDialOutcome = null;
      later(options.dialMs, async () => {
        if (call.ended || agent.status.callId !== call.ctiCallId) return;
        if (outcome === "ANSWER") await answerCall(agent, call);
        else await finish(call, 5, outcome);
      });
      return snapshot(agent);
    },

    async transfer(caller: Caller, target: { kind: "agent" | "queue"; to: string }) {
      const agent = await agentOf(caller);
      const call = callOf(agent);
      if (!call.answeredAt) throw new HttpError(400, "通话接通后才能转接");
      const tenant = tenantOf(agent.tenantId);
      if (target.kind === "agent") {
        const colleague = [...tenant.agents.values()].find((a) => a.agentId === target.to);
        if (!colleague || colleague.userId === agent.userId || colleague.status.state !== "READY") {
          throw new HttpError(400, "目标坐席不在就绪状态");
        }
        await apply(agent, { type: "end" });
        await offerTo(colleague, call);
      } else {
        await apply(agent, { type: "end" });
        call.agentUserId = null;
        call.queueName = target.to;
        tenant.waiting.push(call.ctiCallId);
        await dispatch(agent.tenantId);
      }
      return snapshot(agent);
    },

    async consult(caller: Caller, agentId: string) {
      const agent = await agentOf(caller);
      const call = callOf(agent);
      if (agent.status.state !== "TALKING" && agent.status.state !== "HOLD") throw new HttpError(400, "通话接通后才能咨询");
      const colleague = [...tenantOf(agent.tenantId).agents.values()].find((a) => a.agentId === agentId);
      if (!colleague || colleague.userId === agent.userId || colleague.status.state === "SIGNED_OUT") {
        throw new HttpError(400, "咨询的坐席未签入");
      }
      call.consultAgent = colleague.name;
      await publish(colleague, CTI_EVENTS.consult, { ctiCallId: call.ctiCallId, fromAgent: agent.name, phone: call.phone });
      await publish(agent, CTI_EVENTS.state, snapshot(agent));
      return snapshot(agent);
    },

    async dtmf(caller: Caller, digits: string) {
      const agent = await agentOf(caller);
      const call = callOf(agent);
      if (agent.status.state !== "TALKING") throw new HttpError(400, "通话中才能发送按键");
      call.dtmf += digits;
      await publish(agent, CTI_EVENTS.state, snapshot(agent));
      return snapshot(agent);
    },

    async setAutoAnswer(caller: Caller, autoAnswer: boolean): Promise<void> {
      await db
        .updateTable("users")
        .set({ auto_answer: autoAnswer })
        .where("tenant_id", "=", caller.tenantId)
        .where("id", "=", caller.id)
        .execute();
      const known = tenantOf(caller.tenantId).agents.get(caller.id);
      if (known) {
        known.autoAnswer = autoAnswer;
        await publish(known, CTI_EVENTS.state, snapshot(known));
      }
    },

    /** Colleagues of the tenant who have used the phone since the platform started. */
    async colleagues(caller: Caller) {
      await agentOf(caller);
      return [...tenantOf(caller.tenantId).agents.values()]
        .filter((a) => a.userId !== caller.id)
        .map((a) => ({ agentId: a.agentId, name: a.name, queueName: a.queueName, state: a.status.state }));
    },

    /** An inbound call to a queue (the tenant's default voice queue when none is named). */
    async offerInbound(tenantId: number, input: Omit<NewCall, "origin">) {
      return publicCall(await enqueue(tenantId, { ...input, origin: "inbound" }));
    },

    /** A robot hand-off from a collaborative campaign: the robot's dialogue so far travels with it. */
    async offerRobotHandoff(tenantId: number, input: Omit<NewCall, "origin">) {
      return publicCall(await enqueue(tenantId, { ...input, origin: "handoff" }));
    },

    /** A live ASR line on a call (robot, agent or customer), pushed to the agent handling it. */
    async addAsr(tenantId: number, ctiCallId: string, entry: AsrEntry): Promise<void> {
      const call = calls.get(ctiCallId);
      if (!call || call.tenantId !== tenantId || call.ended) throw new HttpError(404, "通话不存在或已结束");
      call.transcript.push(entry);
      const agent = call.agentUserId === null ? undefined : tenantOf(tenantId).agents.get(call.agentUserId);
      if (agent && agent.status.callId === ctiCallId) await publish(agent, CTI_EVENTS.asr, { ctiCallId, entry });
    },

    /** The customer hangs up (or gives up while it rings). */
    async customerHangup(tenantId: number, ctiCallId: string): Promise<void> {
      const call = calls.get(ctiCallId);
      if (!call || call.tenantId !== tenantId) throw new HttpError(404, "通话不存在或已结束");
      await finish(call, 2, call.answeredAt ? null : "ABANDONED");
    },

    setNextDialOutcome(tenantId: number, outcome: DialOutcome) {
      tenantOf(tenantId).nextDialOutcome = outcome;
    },

    /** Calls in progress, of every tenant (for the demo traffic). */
    activeCalls() {
      return [...calls.values()].filter((c) => !c.ended).map((c) => ({ tenantId: c.tenantId, ...publicCall(c) }));
    },

    /** Queues with somebody ready and no call waiting (for the demo traffic). */
    idleQueues(): Array<{ tenantId: number; queueName: string }> {
      return [...tenants.entries()].flatMap(([tenantId, tenant]) => {
        const busy = new Set(tenant.waiting.map((id) => calls.get(id)?.queueName));
        const ready = [...tenant.agents.values()].filter((a) => a.status.state === "READY" && !busy.has(a.queueName));
        return [...new Set(ready.map((a) => a.queueName))].map((queueName) => ({ tenantId, queueName }));
      });
    },

    /** Waits for every event already being published (tests). */
    async settled(): Promise<void> {
      await Promise.all([...chains.values()].map((p) => p.catch(() => undefined)));
    },

    /**
     * At start nobody is signed in. Agents the database still has in another state are sent a
     * signed-out phone state, so a phone bar that reconnects shows it (and its agent signs in
     * again) instead of waiting, "ready", for calls that never come.
     */
    async signOutAfterRestart(): Promise<void> {
      const stale = await db
        .selectFrom("users")
        .select(["id", "tenant_id"])
        .where("agent_state", "<>", "SIGNED_OUT")
        .where("agent_id", "is not", null)
        .execute();
      for (const row of stale) {
        const agent = await agentOf({ id: row.id, tenantId: row.tenant_id });
        await Promise.all([
          publish(agent, CTI_EVENTS.state, snapshot(agent)),
          db.updateTable("users").set({ agent_state: agent.status.state }).where("id", "=", agent.userId).execute(),
        ]);
      }
    },

    /**
     * Stops the timers. Calls still on are cut (the platform hangs up, hang-up party 4) and
     * recorded, so a restart loses none from the call lists.
     */
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      for (const call of calls.values()) {
        if (call.ended) continue;
        call.ended = true;
        await writeRecord(db, call, { endedAt: Date.now(), hangupParty: 4, outcome: call.answeredAt ? null : "ABANDONED" }).catch((error) =>
          console.error("[cti] recording a cut call failed", error),
        );
      }
    },
  };
}

export type Cti = ReturnType<typeof createCti>;

type NewCall = {
  origin: PhoneCall["origin"];
  phone: string;
  queueName: string | null;
  flowId?: number | null;
  campaignId?: number | null;
  prevCtiCallId?: string | null;
  workOrderId?: number | null;
  transcript?: AsrEntry[];
  robotCall?: RobotCall;
};

/**
 * What the simulated network recorded of a connected call: a robot hand-off's recording holds the
 * robot's part and the agent's (its robot call's own when it has one, so that what the customer
 * says agrees with the intent); an inbound or manual call is agent and customer alone.
 */
const RECORDING_OF: Record<PhoneCall["origin"], RecordingName> = {
  inbound: "inbound-enquiry.mp3",
  manual: "inbound-enquiry.mp3",
  handoff: "transfer-to-agent.mp3",
};

/**
 * The call record, its recording and its transcript, so the call appears in the call lists and
 * its detail plays. A connected call's lines are its recording's, timed to the audio; a call that
 * never connected has no recording and keeps what the robot said, untimed.
 */
async function writeRecord(
  db: Db,
  call: Call,
  end: { endedAt: number; hangupParty: number; outcome: DialOutcome | "ABANDONED" | null },
): Promise<void> {
  const answered = call.answeredAt !== null;
  const dial = end.outcome === "NO_ANSWER" || end.outcome === "BUSY" ? DIAL_RESULT[end.outcome] : null;
  const callResult = dial?.callResult ?? (answered ? 200 : 487);
  const outboundResult = dial?.outcome ?? (answered ? "EndOfTheCall" : "CustomerGiveUp");
  const recording = answered ? (call.robotCall?.recording ?? RECORDING_OF[call.origin]) : null;
  const dialogs: NewDialogLine[] = recording
    ? recordingDialogs(recording)
    : call.transcript.map((line) => ({
        dialog_type: line.thisRole === 1 ? 1 : 2,
        this_role: line.thisRole,
        content: line.dialogContent,
        nlu_result: line.nluResult,
        gender: line.gender,
      }));
  await db.transaction().execute(async (trx) => {
    // A conclusion saved while the call was still on is carried into the record.
    const saved = await trx
      .selectFrom("business_records")
      .select(["call_result", "intent"])
      .where("tenant_id", "=", call.tenantId)
      .where("cti_call_id", "=", call.ctiCallId)
      .executeTakeFirst();
    await insertCallRecord(
      trx,
      {
        tenant_id: call.tenantId,
        cti_call_id: call.ctiCallId,
        prev_cti_call_id: call.prevCtiCallId,
        direction: call.origin === "inbound" ? "inbound" : "outbound",
        campaign_id: call.campaignId,
        campaign_type: CAMPAIGN_TYPE_OF[call.origin],
        phone: call.phone,
        agent_user_id: call.agentUserId,
        queue_name: call.queueName,
        is_answer: answered ? 1 : 0,
        outbound_result: outboundResult,
        call_result: callResult,
        call_result_name: labelOf(RESULT_CODES, callResult),
        intent: saved?.intent ?? call.robotCall?.intent ?? null,
        conclusion: saved?.call_result ?? null,
        hangup_party: end.hangupParty,
        call_time: new Date(call.startedAt),
        call_duration_ms: answered ? end.endedAt - call.answeredAt! : 0,
        flow_id: call.flowId,
        gender: call.transcript.find((line) => line.thisRole === 3)?.gender ?? -1,
        attach_data: JSON.stringify({ dtmf: call.dtmf, workOrderId: call.workOrderId, origin: call.origin }),
        recording,
      },
      dialogs,
    );
  });
}
