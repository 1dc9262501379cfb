import { randomUUID } from "node:crypto";
import type { AgentCommand, AgentStateCode } from "#contracts/agent-state";
import { HANGUP_BY_PLATFORM } from "#contracts/codes";
import { CTI_EVENTS, MEDIA_LOST_MESSAGE, type AsrEntry, type CallAction, type ConsultStep, type PhoneSnapshot } from "#contracts/cti";
import { callLine, MONITOR_NOTIFICATIONS } from "#contracts/monitor";
import type { Db } from "#upstream/db";
import { HttpError } from "#upstream/http";
import type { NotificationBus } from "#upstream/notifications/bus";
import { ringSecondsOf } from "#upstream/repositories/monitor";
import { simulatedDialOutcome, writeRecord } from "./call-record";
import { createSwitch } from "./switch";
import {
  DEFAULT_CTI_OPTIONS,
  type Agent,
  type Call,
  type Caller,
  type TaskDial,
  type CtiOptions,
  type DialOutcome,
  type NewCall,
} from "./types";

export { DEFAULT_CTI_OPTIONS, simulatedDialOutcome, type CtiOptions, type DialOutcome };

/**
 * The CTI service of the reference platform: per tenant, the agents' phone states (the pure
 * machine of contracts/agent-state.ts), queues named by each agent's defaultQueueName, calls
 * offered to ready agents, manual dialling on a simulated network, and the call record with its
 * recording and transcript written when a call ends. Every change is published to the agent as a
 * `cti.state` event carrying the whole phone state, through the notification bus (numbered, replayable).
 *
 * State lives in memory (one platform process): a restart signs every agent out, as a real
 * switch does when it loses its registrations. So that agents see it, the restarted platform
 * tells each agent it had signed in that they are signed out (`signOutAfterRestart`), and a
 * stopping platform records the calls it cuts (`close`).
 *
 * Seam for the dialer: a collaborative campaign hands a call over with
 * `offerRobotHandoff(tenantId, { phone, queueName, flowId, campaignId, transcript })`, then feeds
 * the robot's / ASR's further lines with `addAsr(ctiCallId, entry)`; see decision 007.
 */
/** A call cut by a stop of the platform is recorded as ended by the network (spec §4: 4). */
const CUT_CALL_HANGUP_PARTY = 4;

export function createCti(db: Db, notifications: NotificationBus, options: CtiOptions = DEFAULT_CTI_OPTIONS) {
  const {
    live,
    tenants,
    calls,
    answeredListeners,
    stateListeners,
    timers,
    chains,
    tenantOf,
    later,
    agentOf,
    snapshot,
    publicCall,
    publish,
    announce,
    apply,
    dispatch,
    resultSaved,
    offerTo,
    answerCall,
    enqueue,
    joinQueue,
    callOf,
    finish,
    releaseColleague,
    monitorState,
    queueState,
    publishToSupervisors,
    publishChange,
    notifyFromSupervisor,
  } = createSwitch(db, notifications, options);

  /** An agent of the tenant, for a supervisor's action (loaded if the phone has not seen them yet). */
  function phoneState(tenantId: number, userId: number): AgentStateCode {
    return tenantOf(tenantId).agents.get(userId)?.status.state ?? "SIGNED_OUT";
  }

  async function agentForSupervisor(tenantId: number, userId: number) {
    try {
      return await agentOf({ id: userId, tenantId });
    } catch (error) {
      if (error instanceof HttpError) throw new HttpError(404, "坐席不存在");
      throw error;
    }
  }

  /** The asking agent leaves; the consulted colleague keeps the customer (a transfer after consulting). */
  async function handOver(agent: Agent, call: Call): Promise<void> {
    const colleague = call.consult ? tenantOf(call.tenantId).agents.get(call.consult.agentUserId) : undefined;
    if (!colleague) throw new HttpError(400, "当前没有进行中的咨询");
    call.consult = null;
    call.agentUserId = colleague.userId;
    await apply(agent, { type: "end" });
    // The colleague's state is the same, but the customer is theirs now (the media puts them through).
    announce(colleague);
    await publish(colleague, CTI_EVENTS.state, snapshot(colleague));
  }

  /** What the consulted colleague does: answer the consultation, or leave it (the customer stays with the asking agent). */
  async function colleagueAction(colleague: Agent, call: Call, action: CallAction) {
    if (action === "answer") {
      if (call.consult?.state !== "ringing") throw new HttpError(400, "咨询已接通");
      call.consult.state = "talking";
      await apply(colleague, { type: "answer" });
    } else if (action === "hangup") await releaseColleague(call, false);
    else await apply(colleague, { type: action });
    const asking = call.agentUserId === null ? undefined : tenantOf(call.tenantId).agents.get(call.agentUserId);
    if (asking) await publish(asking, CTI_EVENTS.state, snapshot(asking));
    return snapshot(colleague);
  }

  return {
    options,

    /** Calls `listener` when a call is first answered; returns the way to stop listening. */
    onAnswered(listener: (answered: { tenantId: number; ctiCallId: string; agentUserId: number }) => void): () => void {
      answeredListeners.add(listener);
      return () => answeredListeners.delete(listener);
    },

    /** Calls `listener` with every agent's new phone state and the call it names; returns the way to stop. */
    onAgentState(listener: (agent: Agent, call: Call | undefined) => void): () => void {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
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
      if (call.consult?.agentUserId === agent.userId) return colleagueAction(agent, call, action);
      // The asking agent leaves a conference: the colleague keeps the customer.
      if (action === "hangup" && call.consult?.state === "conference") {
        await handOver(agent, call);
        return snapshot(agent);
      }
      if (action === "answer") {
        if (call.origin === "manual") throw new HttpError(400, "外呼等待对方接听");
        await answerCall(agent, call);
      } else if (action === "hangup") await finish(call, 3, call.answeredAt ? null : "ABANDONED");
      else await apply(agent, { type: action });
      return snapshot(agent);
    },

    /** The agent dials a number, or a campaign's contact (`task`: preview dialling), on the simulated network. */
    async dial(caller: Caller, phone: string, task?: TaskDial & { campaignId: number }) {
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
        campaignId: task?.campaignId ?? null,
        task,
        prevCtiCallId: null,
        workOrderId: null,
        transcript: [],
        dtmf: "",
        consult: null,
        agentUserId: agent.userId,
        ended: false,
        queuedAt: null,
        queueWaitMs: null,
        missedBy: [],
        forUserId: null,
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
      if (call.consult) throw new HttpError(400, "正在咨询中，请先完成转接或结束咨询");
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
        // Transferred to a queue, a direct line's call is for anyone there.
        call.forUserId = null;
        await joinQueue(call, target.to);
      }
      return snapshot(agent);
    },

    /**
     * Consults a ready colleague: the customer is held and the call rings at the colleague, who
     * sees the customer's screen. Then `consultStep` hands over, confers or ends it.
     */
    async consult(caller: Caller, agentId: string) {
      const agent = await agentOf(caller);
      const call = callOf(agent);
      if (agent.status.state !== "TALKING" && agent.status.state !== "HOLD") throw new HttpError(400, "通话接通后才能咨询");
      if (call.consult) throw new HttpError(400, "正在咨询中，请先结束当前咨询");
      const colleague = [...tenantOf(agent.tenantId).agents.values()].find((a) => a.agentId === agentId);
      if (!colleague || colleague.userId === agent.userId || colleague.status.state !== "READY") {
        throw new HttpError(400, "咨询的坐席不在就绪状态");
      }
      if (agent.status.state === "TALKING") await apply(agent, { type: "hold" });
      call.consult = { agentUserId: colleague.userId, state: "ringing" };
      await apply(colleague, { type: "offer", callId: call.ctiCallId });
      await publish(agent, CTI_EVENTS.state, snapshot(agent));
      // Not answered in time: the colleague is not there (未接来电) and the agent is told.
      const ringSeconds = await ringSecondsOf(db, call.tenantId, call.queueName);
      later(ringSeconds === undefined ? options.ringMs : ringSeconds * 1_000, async () => {
        if (call.consult?.agentUserId !== colleague.userId || call.consult.state !== "ringing") return;
        call.consult = null;
        await apply(colleague, { type: "missed" });
        await publish(agent, CTI_EVENTS.state, snapshot(agent));
      });
      return snapshot(agent);
    },

    /** After consulting: the colleague takes the customer, all three talk, or the consultation ends. */
    async consultStep(caller: Caller, step: ConsultStep) {
      const agent = await agentOf(caller);
      const call = callOf(agent);
      const consult = call.consult;
      if (!consult || consult.agentUserId === agent.userId) throw new HttpError(400, "当前没有进行中的咨询");
      if (step === "cancel") {
        await releaseColleague(call, false);
        if (agent.status.state === "HOLD") await apply(agent, { type: "resume" });
        else await publish(agent, CTI_EVENTS.state, snapshot(agent));
        return snapshot(agent);
      }
      if (consult.state === "ringing") throw new HttpError(400, "被咨询坐席尚未接听");
      if (step === "transfer") await handOver(agent, call);
      else if (consult.state !== "conference") {
        consult.state = "conference";
        await apply(agent, { type: "resume" });
        const colleague = tenantOf(agent.tenantId).agents.get(consult.agentUserId);
        if (colleague) await publish(colleague, CTI_EVENTS.state, snapshot(colleague));
      }
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
      // Supervisors listening to the call read it too.
      await notifications.publish(
        { tenantId, supervisors: true, queueName: call.queueName },
        MONITOR_NOTIFICATIONS.line,
        callLine(ctiCallId, entry),
      );
    },

    /** The customer hangs up (or gives up while it rings). */
    async customerHangup(tenantId: number, ctiCallId: string): Promise<void> {
      const call = calls.get(ctiCallId);
      if (!call || call.tenantId !== tenantId) throw new HttpError(404, "通话不存在或已结束");
      await finish(call, 2, call.answeredAt ? null : "ABANDONED");
    },

    /**
     * The call's media server failed: the call can carry no more audio, so it ends now, its record
     * written and its result form shown as after any call, and the agent is told why.
     */
    async mediaLost(tenantId: number, ctiCallId: string): Promise<void> {
      const call = calls.get(ctiCallId);
      if (!call || call.tenantId !== tenantId || call.ended) return;
      const agent = call.agentUserId === null ? undefined : tenantOf(tenantId).agents.get(call.agentUserId);
      if (agent) await notifyFromSupervisor(agent, { kind: "mediaLost", from: "", message: MEDIA_LOST_MESSAGE });
      await finish(call, HANGUP_BY_PLATFORM, null);
    },

    setNextDialOutcome(tenantId: number, outcome: DialOutcome) {
      tenantOf(tenantId).nextDialOutcome = outcome;
    },

    // ---- what supervisors see and do (the live monitor) ----

    /** The phone state of every agent of a tenant the phone knows (the others are signed out). */
    liveAgents(tenantId: number) {
      return new Map([...tenantOf(tenantId).agents.values()].map((agent) => [agent.userId, monitorState(agent)]));
    },

    /** The calls waiting in each queue of a tenant that has any. */
    queues(tenantId: number) {
      const names = new Set(
        tenantOf(tenantId)
          .waiting.map((id) => calls.get(id)?.queueName)
          .filter((name): name is string => !!name),
      );
      return [...names].map((name) => queueState(tenantId, name));
    },

    /**
     * A supervisor signs an agent out. On a call, the agent is signed out when the call ends (never
     * cut off); the agent's screen says so either way.
     */
    async forceSignOut(tenantId: number, userId: number, by: string, reason: string): Promise<"now" | "afterCall"> {
      const agent = await agentForSupervisor(tenantId, userId);
      if (agent.status.state === "SIGNED_OUT") throw new HttpError(400, "该坐席已签出");
      if (["RINGING", "TALKING", "HOLD"].includes(agent.status.state)) {
        agent.signOutPending = { by, reason };
        await Promise.all([
          publishToSupervisors(agent),
          notifyFromSupervisor(agent, {
            kind: "signOutPending",
            from: by,
            message: `主管${by}将在本次通话结束后将您签出。原因：${reason}`,
          }),
        ]);
        return "afterCall";
      }
      await apply(agent, { type: "signOut" });
      await notifyFromSupervisor(agent, { kind: "signOut", from: by, message: `主管${by}已将您签出。原因：${reason}` });
      return "now";
    },

    /** A supervisor sets an idle agent ready or not ready, or ends their after-call work. */
    async forceState(tenantId: number, userId: number, command: AgentCommand, by: string, reason: string): Promise<void> {
      const agent = await agentForSupervisor(tenantId, userId);
      if (command.type === "acwDone" && agent.status.state !== "ACW") throw new HttpError(400, "该坐席不在话后整理中");
      await apply(agent, command);
      const label = command.type === "notReady" ? "未就绪" : "就绪";
      await notifyFromSupervisor(agent, { kind: "state", from: by, message: `主管${by}已将您的状态改为${label}。原因：${reason}` });
    },

    /** The call's result was saved (its after-call work may end now). */
    resultSaved,

    /** The number of a call of the tenant that the switch still holds (its record is not written yet). */
    phoneOfCall(tenantId: number, ctiCallId: string): string | null {
      const call = calls.get(ctiCallId);
      return call && call.tenantId === tenantId ? call.phone : null;
    },

    /** A supervisor moves an agent to another queue: calls of the new queue are offered from now. */
    async moveAgent(tenantId: number, userId: number, queueName: string, by: string, reason: string): Promise<void> {
      const agent = await agentForSupervisor(tenantId, userId);
      agent.queueName = queueName;
      await publishChange(agent);
      await notifyFromSupervisor(agent, { kind: "move", from: by, message: `主管${by}已将您调整到队列 ${queueName}。原因：${reason}` });
      if (agent.status.state === "READY") await dispatch(tenantId);
    },

    /** The agent's phone state; SIGNED_OUT for a phone not seen since the platform started. */
    phoneState,

    /** Whether the agent's phone is signed in (an administrator may not change a signed-in agent's type). */
    phoneSignedIn(tenantId: number, userId: number): boolean {
      return phoneState(tenantId, userId) !== "SIGNED_OUT";
    },

    /**
     * An administrator changed an agent's 工号 or default queue (坐席配置): a phone that has seen the
     * agent keeps them in memory, so it takes them now, and offers the new queue's calls if ready.
     */
    async reconfigureAgent(tenantId: number, userId: number, change: { agentId: string; queueName: string }): Promise<void> {
      const known = tenantOf(tenantId).agents.get(userId);
      if (!known) return;
      known.agentId = change.agentId;
      known.queueName = change.queueName;
      await publishChange(known);
      if (known.status.state === "READY") await dispatch(tenantId);
    },

    /** A note only the agent sees, on their workbench. */
    async whisper(tenantId: number, userId: number, by: string, content: string): Promise<void> {
      const agent = await agentForSupervisor(tenantId, userId);
      await notifyFromSupervisor(agent, { kind: "whisper", from: by, message: content });
    },

    /** The call an agent is on, with its transcript so far (what a supervisor listens to). */
    callOfAgent(tenantId: number, userId: number) {
      const agent = tenantOf(tenantId).agents.get(userId);
      const call = agent?.status.callId ? calls.get(agent.status.callId) : undefined;
      return call && !call.ended ? { state: monitorState(agent!), call: publicCall(call) } : null;
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
        // The agent's workbench and the supervisors' monitor both learn it (the monitor, once
        // its stream reconnects after the restart, would otherwise show the state before it).
        await Promise.all([
          publishChange(agent),
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
        await writeRecord(db, call, {
          endedAt: Date.now(),
          hangupParty: CUT_CALL_HANGUP_PARTY,
          outcome: call.answeredAt ? null : "ABANDONED",
        })
          .then(() => live.forget(call.ctiCallId))
          .catch((error) => console.error("[cti] recording a cut call failed", error));
      }
    },

    /**
     * Records the calls a process that died was holding (decision 051), as a graceful stop
     * records its own: each ended at the last moment it was known live, once (a call whose record
     * exists is only forgotten). Answers how many were recorded.
     */
    async recordCutCalls(): Promise<number> {
      let recorded = 0;
      for (const { call, lastLiveAt } of await live.orphans()) {
        if (calls.has(call.ctiCallId)) continue;
        const known = await db
          .selectFrom("call_records")
          .select("id")
          .where("tenant_id", "=", call.tenantId)
          .where("cti_call_id", "=", call.ctiCallId)
          .executeTakeFirst();
        if (!known) {
          const end = { endedAt: lastLiveAt, hangupParty: CUT_CALL_HANGUP_PARTY, outcome: call.answeredAt ? null : ("ABANDONED" as const) };
          await writeRecord(db, { ...call, ended: true }, end);
          recorded++;
        }
        await live.forget(call.ctiCallId);
      }
      return recorded;
    },

    /** Says the calls held here are still live (called every few seconds by the owner). */
    stillLive: () => live.stillLive([...calls.values()].filter((call) => !call.ended).map((call) => call.ctiCallId)),
  };
}

export type Cti = ReturnType<typeof createCti>;
