import { randomUUID } from "node:crypto";
import { sql } from "kysely";
import { pickAgent, signedOut, transition, type AgentCommand } from "#contracts/agent-state";
import { CTI_EVENTS, type PhoneCall, type PhoneSnapshot } from "#contracts/cti";
import { MONITOR_NOTIFICATIONS, type MonitorAgentState, type MonitorQueueState, type SupervisorNotice } from "#contracts/monitor";
import { sipUserOf } from "#contracts/voice";
import type { Db } from "#upstream/db";
import { HttpError } from "#upstream/http";
import type { NotificationBus } from "#upstream/notifications/bus";
import { acwAutoReadyOf, hasCallResult, ringSecondsOf } from "#upstream/repositories/monitor";
import { writeRecord } from "./call-record";
import { createLiveCalls } from "./live-calls";
import type { Agent, Call, Caller, CtiOptions, DialOutcome, NewCall, Tenant } from "./types";

/**
 * The switch: per tenant, the agents' phone states (the pure machine of contracts/agent-state.ts),
 * queues named by each agent's defaultQueueName, and calls offered to ready agents. Every change
 * of an agent is published to them as a `cti.state` notification carrying the whole phone state.
 * cti/service.ts is what the platform's routes ask of it.
 */
export function createSwitch(db: Db, notifications: NotificationBus, options: CtiOptions) {
  const tenants = new Map<number, Tenant>();
  const calls = new Map<string, Call>();
  /** Told when a call is answered for the first time (the hand-off bridge marks hand-offs handed). */
  const answeredListeners = new Set<(answered: { tenantId: number; ctiCallId: string; agentUserId: number }) => void>();
  /** Told of every agent's new phone state, at once (the media layer puts the SIP calls where the agents are). */
  const stateListeners = new Set<(agent: Agent, call: Call | undefined) => void>();
  /** The calls held here, kept in the database as they change (a process that dies leaves them to be recorded). */
  const live = createLiveCalls(db);
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
      signOutPending: null,
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
      call: call ? publicCall(call, agent) : null,
    };
  }

  /** The call as `viewer` sees it (the consultation from their side); without one, as anyone. */
  function publicCall(call: Call, viewer?: Agent): PhoneCall {
    const { tenantId: _t, agentUserId: _a, ended: _e, robotCall: _r, consult: _c, missedBy: _m, task: _k, forUserId: _f, ...rest } = call;
    return {
      ...rest,
      startedAt: new Date(call.startedAt).toISOString(),
      answeredAt: call.answeredAt === null ? null : new Date(call.answeredAt).toISOString(),
      transcript: [...call.transcript],
      consult: viewer ? consultSeenBy(call, viewer) : null,
    };
  }

  function consultSeenBy(call: Call, viewer: Agent): PhoneCall["consult"] {
    if (!call.consult) return null;
    const asking = viewer.userId !== call.consult.agentUserId;
    const otherId = asking ? call.consult.agentUserId : (call.agentUserId ?? -1);
    const other = tenantOf(call.tenantId).agents.get(otherId);
    return { colleague: other?.name ?? "", sipUser: sipUserOf(call.tenantId, otherId), state: call.consult.state, asking };
  }

  /** Runs `step` after the agent's earlier ones, so what is stored about an agent keeps its order. */
  function inOrder(agent: Agent, step: () => Promise<unknown>): Promise<unknown> {
    const previous = chains.get(agent.userId) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(step);
    chains.set(agent.userId, next);
    return next;
  }

  function publish(agent: Agent, type: string, payload: unknown): Promise<unknown> {
    return inOrder(agent, () => notifications.publish({ tenantId: agent.tenantId, userId: agent.userId }, type, payload));
  }

  /** What supervisors see of an agent now (contracts/monitor.ts). */
  function monitorState(agent: Agent): MonitorAgentState {
    const { status } = agent;
    const call = status.callId ? calls.get(status.callId) : undefined;
    return {
      userId: agent.userId,
      state: status.state,
      reason: status.reason,
      since: new Date(status.since).toISOString(),
      queueName: agent.queueName,
      work: call
        ? {
            kind: "call",
            id: call.ctiCallId,
            party: call.phone,
            direction: call.origin === "inbound" ? "inbound" : "outbound",
            campaignId: call.campaignId,
            campaignName: null,
            startedAt: new Date(call.startedAt).toISOString(),
          }
        : null,
      chats: 0,
      signOutPending: agent.signOutPending !== null,
    };
  }

  /** Tells the tenant's supervisors an agent changed (the live monitor). */
  function publishToSupervisors(agent: Agent): Promise<unknown> {
    return inOrder(agent, () =>
      notifications.publish(
        { tenantId: agent.tenantId, supervisors: true, queueName: agent.queueName },
        MONITOR_NOTIFICATIONS.agent,
        monitorState(agent),
      ),
    );
  }

  /**
   * Tells an agent its new phone state and the tenant's supervisors what they see of it, in one
   * statement (what supervisors see is taken when its turn comes, as publishToSupervisors does).
   */
  function publishChange(agent: Agent): Promise<unknown> {
    const phone = snapshot(agent);
    return inOrder(agent, () =>
      notifications.publishAll([
        { audience: { tenantId: agent.tenantId, userId: agent.userId }, type: CTI_EVENTS.state, payload: phone },
        {
          audience: { tenantId: agent.tenantId, supervisors: true, queueName: agent.queueName },
          type: MONITOR_NOTIFICATIONS.agent,
          payload: monitorState(agent),
        },
      ]),
    );
  }

  /** Tells an agent what a supervisor did (their workbench shows it). */
  function notifyFromSupervisor(agent: Agent, notice: Omit<SupervisorNotice, "at">): Promise<unknown> {
    return publish(agent, CTI_EVENTS.supervisor, { ...notice, at: new Date().toISOString() });
  }

  /** The calls waiting in a queue, for supervisors. */
  function queueState(tenantId: number, queueName: string): MonitorQueueState {
    const waiting = tenantOf(tenantId)
      .waiting.map((id) => calls.get(id))
      .filter((call): call is Call => !!call && !call.ended && call.queueName === queueName);
    const oldest = Math.min(...waiting.map((call) => call.queuedAt ?? call.startedAt));
    return { queueName, waiting: waiting.length, oldestWaitingSince: waiting.length ? new Date(oldest).toISOString() : null };
  }

  function publishQueue(tenantId: number, queueName: string | null): Promise<unknown> {
    if (queueName === null) return Promise.resolve();
    return notifications.publish({ tenantId, supervisors: true, queueName }, MONITOR_NOTIFICATIONS.queue, queueState(tenantId, queueName));
  }

  /**
   * Stores an agent's new state in one statement (on PGlite every statement waits its turn, and
   * the monitor's snapshot waits behind them): the previous state period closed and the new one
   * opened (today's handle times read them; none while signed out), and the state on the account
   * (what sign-in answers, and what a restart signs out).
   */
  async function storeState(agent: Agent, at: Date): Promise<void> {
    const { state, reason, callId } = agent.status;
    await sql`
      WITH closed AS (
        UPDATE agent_state_log SET ended_at = ${at}
        WHERE tenant_id = ${agent.tenantId} AND user_id = ${agent.userId} AND ended_at IS NULL),
      shown AS (UPDATE users SET agent_state = ${state} WHERE id = ${agent.userId})
      INSERT INTO agent_state_log (tenant_id, user_id, state, reason, cti_call_id, started_at)
      SELECT ${agent.tenantId}::int, ${agent.userId}::int, ${state}::text, ${reason}::text, ${callId}::text, ${at}::timestamptz
      WHERE ${state}::text <> 'SIGNED_OUT'`.execute(db);
  }

  /** Tells the state listeners where an agent is now (also when a call changed hands but their state did not). */
  function announce(agent: Agent): void {
    const call = agent.status.callId ? calls.get(agent.status.callId) : undefined;
    for (const listener of stateListeners) listener(agent, call);
  }

  /** Applies a command or fails with its Chinese reason; persists and publishes the new state. */
  async function apply(agent: Agent, command: AgentCommand): Promise<void> {
    // Each state starts strictly after the last, so the phone bar can tell a stale snapshot by its `since`.
    // A queue may leave the end of after-call work to the agent (read before the clock is taken).
    const acwMs = command.type !== "end" || (await acwAutoReadyOf(db, agent.tenantId, agent.queueName)) ? options.acwMs : null;
    const now = Math.max(Date.now(), agent.status.since + 1);
    const next = transition(agent.status, command, now, acwMs);
    if (!next.ok) throw new HttpError(400, next.error);
    const changed = next.status.state !== agent.status.state || next.status.reason !== agent.status.reason;
    agent.status = next.status;
    const state = next.status.state;
    const call = next.status.callId ? calls.get(next.status.callId) : undefined;
    if (call && !call.ended) void live.keep(call);
    announce(agent);
    if (state === "SIGNED_OUT") agent.signOutPending = null;
    await Promise.all([
      publishChange(agent),
      // The same state again (a new call's details) changes nothing stored.
      changed ? inOrder(agent, () => storeState(agent, new Date(now))) : undefined,
    ]);
    // A supervisor's sign-out waited for the call to end: it ends now, before any after-call work.
    if (state === "ACW" && agent.signOutPending) {
      const { by, reason } = agent.signOutPending;
      await apply(agent, { type: "signOut" });
      await notifyFromSupervisor(agent, { kind: "signOut", from: by, message: `通话已结束，主管${by}已将您签出。原因：${reason}` });
      return;
    }
    if (state === "ACW" && next.status.acwEndsAt !== null) {
      const { callId } = next.status;
      // The period is over. The agent who still holds the call (not one who handed it on) records
      // its result, and becomes ready only once it is saved (then resultSaved ends the work), so
      // the next call never rings over an unfinished result.
      later(acwMs ?? 0, async () => {
        const ownsResult = callId !== null && calls.get(callId)?.agentUserId === agent.userId;
        if (ownsResult && !(await hasCallResult(db, agent.tenantId, callId))) return;
        if (agent.status.state === "ACW" && agent.status.callId === callId) await apply(agent, { type: "acwDone" });
      });
    }
    if (state === "READY") await dispatch(agent.tenantId);
  }

  /** The call's result was saved: after-call work whose period is already over ends now. */
  async function resultSaved(tenantId: number, userId: number, ctiCallId: string): Promise<void> {
    const agent = tenantOf(tenantId).agents.get(userId);
    const status = agent?.status;
    if (!agent || status?.state !== "ACW" || status.callId !== ctiCallId || status.acwEndsAt === null) return;
    if (Date.now() >= status.acwEndsAt) await apply(agent, { type: "acwDone" });
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
      const ready = [...tenant.agents.values()].filter(
        (a) => a.status.state === "READY" && (call.forUserId === null ? a.queueName === call.queueName : a.userId === call.forUserId),
      );
      const chosen = pickAgent(
        ready.map((a) => ({ userId: a.userId, idleSince: a.status.idleSince })),
        options.routing,
        tenant.lastOffered,
      );
      if (chosen === null) continue;
      tenant.waiting = tenant.waiting.filter((id) => id !== callId);
      tenant.lastOffered = chosen;
      await Promise.all([offerTo(tenant.agents.get(chosen)!, call), publishQueue(tenantId, call.queueName)]);
    }
  }

  async function offerTo(agent: Agent, call: Call): Promise<void> {
    call.agentUserId = agent.userId;
    await apply(agent, { type: "offer", callId: call.ctiCallId });
    if (agent.autoAnswer) return answerCall(agent, call);
    const ringSeconds = await ringSecondsOf(db, call.tenantId, call.queueName);
    later(ringSeconds === undefined ? options.ringMs : ringSeconds * 1_000, () => ringOut(agent, call));
  }

  /**
   * The offered call rang out: the agent is not there, so they become not ready (未接来电) and
   * no more calls ring at them; the call goes back to the head of its queue for the next agent,
   * its wait still counted from when it first queued.
   */
  async function ringOut(agent: Agent, call: Call): Promise<void> {
    if (call.ended || agent.status.state !== "RINGING" || agent.status.callId !== call.ctiCallId) return;
    call.missedBy.push(agent.userId);
    call.agentUserId = null;
    // Back in the queue before the agent's screen says so: whoever reads one sees the other.
    call.queuedAt ??= call.startedAt;
    tenantOf(call.tenantId).waiting.unshift(call.ctiCallId);
    await apply(agent, { type: "missed" });
    await publishQueue(call.tenantId, call.queueName);
    await dispatch(call.tenantId);
  }

  async function answerCall(agent: Agent, call: Call): Promise<void> {
    // The customer was connected at the first answer; a transferred call keeps that time.
    const first = call.answeredAt === null;
    call.answeredAt ??= Date.now();
    if (call.queueWaitMs === null && call.queuedAt !== null) call.queueWaitMs = Date.now() - call.queuedAt;
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
      consult: null,
      agentUserId: null,
      ended: false,
      queuedAt: null,
      queueWaitMs: null,
      missedBy: [],
      forUserId: input.forUserId ?? null,
      robotCall: input.robotCall,
    };
    calls.set(call.ctiCallId, call);
    await joinQueue(call, input.queueName);
    return call;
  }

  /** Puts a call in a queue (new, or transferred there) and offers it to whoever is ready. */
  async function joinQueue(call: Call, queueName: string | null): Promise<void> {
    call.agentUserId = null;
    call.queueName = queueName;
    call.queuedAt = Date.now();
    tenantOf(call.tenantId).waiting.push(call.ctiCallId);
    await publishQueue(call.tenantId, queueName);
    await dispatch(call.tenantId);
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
    if (tenant.waiting.includes(call.ctiCallId)) {
      tenant.waiting = tenant.waiting.filter((id) => id !== call.ctiCallId);
      await publishQueue(call.tenantId, call.queueName);
    }
    // The record first: the agent's screen reloads its call history as soon as the state changes.
    await writeRecord(db, call, { endedAt, hangupParty, outcome });
    await live.forget(call.ctiCallId);
    const agent = call.agentUserId === null ? undefined : tenant.agents.get(call.agentUserId);
    if (agent && agent.status.callId === call.ctiCallId) {
      await apply(agent, { type: agent.status.state === "RINGING" ? "drop" : "end" });
    }
    await releaseColleague(call, true);
  }

  /**
   * The consulted colleague leaves the call: a ring stops, a consultation ends with the colleague
   * ready again, a conference the customer ended leaves them after-call work.
   */
  async function releaseColleague(call: Call, afterCall: boolean): Promise<void> {
    const consult = call.consult;
    if (!consult) return;
    call.consult = null;
    const colleague = tenantOf(call.tenantId).agents.get(consult.agentUserId);
    if (!colleague || colleague.status.callId !== call.ctiCallId) return;
    if (colleague.status.state === "RINGING") await apply(colleague, { type: "drop" });
    else await apply(colleague, { type: afterCall && consult.state === "conference" ? "end" : "release" });
  }

  return {
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
  };
}
