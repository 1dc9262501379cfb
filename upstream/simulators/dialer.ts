/**
 * The dialer simulator: what a real platform's dialer does on its own, driven by a clock.
 *
 * Each `tick(now)` finishes the calls that were dialling (a robot conversation written as a call
 * record with its recording and dialog lines, through insertCallRecord), expires hand-offs nobody took, then moves every batch of every
 * running campaign one step (dialer-states.ts decides; every move is recorded in
 * task_transitions) and starts as many new calls as the campaign's ratio allows. Manual campaigns
 * (preview, direct dial, call-back, inbound) are dialled by agents, so the dialer only schedules
 * their batches and never dials them itself.
 *
 * Time: `SimClock` is the simulator's own clock. In production and demos `startDialer` advances it
 * with real time times DIALER_SPEED (0 turns the dialer off); tests call `tick` themselves, and the
 * e2e platform, started with SIMULATOR_CONTROL=1, exposes `POST /outbound/simulator/tick`.
 *
 * THE HAND-OFF SEAM (for the voice workbench, issue 5): in collaborative campaigns (type 2) a
 * customer whose intent is interested becomes a row in `handoffs` with state `waiting`, and every
 * listener registered with `dialer.onHandoff(fn)` is called with it (in process, after the tick's
 * transaction commits). The workbench offers it to an available agent and calls
 * `dialer.acceptHandoff(tenantId, handoffId, agentUserId)` when one takes it (state `handed`, the
 * call record's outcome becomes EndOfTheCall and the agent is set on the call). A hand-off still
 * waiting after HANDOFF_TIMEOUT_MS of simulated time is `lost` (outcome ToHumanNoAnswer, and its
 * recording the robot's part alone: no agent came on).
 */
import { sql, type Transaction } from "kysely";
import type { Db } from "../db";
import type { Campaign, Database, TaskBatch, TaskCall } from "../db/schema";
import {
  ACTIVE_BATCH,
  BatchStatus,
  CallStatus,
  CampaignState,
  batchMove,
  callMove,
  cstDate,
  decideBatch,
  dialCapacity,
  inWindow,
  laterWindowToday,
  nextWindowStart,
} from "./dialer-states";
import { resultName, simulateCall, type CallOutcome } from "./robot-conversation";
import { conclusionFor, isHandedToAgent, recordingDialogs, robotAloneRecording } from "../domain/recordings";
import { insertCallRecord, replaceRecording } from "../repositories/call-records";

type Trx = Transaction<Database> | Db;

/** Campaign types the robot dials; the others are dialled by agents. */
export const ROBOT_DIALLED_TYPES = [1, 2];
export const HANDOFF_TIMEOUT_MS = 2 * 60_000;

export type Handoff = { id: number; tenantId: number; campaignId: number; batchId: number; taskCallId: number; phone: string; intent: string | null };
export type HandoffListener = (handoff: Handoff) => void;

export class SimClock {
  #now: number;
  constructor(start: Date = new Date()) {
    this.#now = start.getTime();
  }
  now(): Date {
    return new Date(this.#now);
  }
  advance(ms: number): Date {
    this.#now += ms;
    return this.now();
  }
  set(at: Date): void {
    this.#now = at.getTime();
  }
}

/** Records one transition of a batch (taskCallId null) or of one of its calls. */
export async function recordTransition(
  db: Trx,
  t: { tenantId: number; batchId: number; taskCallId?: number | null; from: number | null; to: number; reason: string; at: Date },
): Promise<void> {
  await db
    .insertInto("task_transitions")
    .values({ tenant_id: t.tenantId, batch_id: t.batchId, task_call_id: t.taskCallId ?? null, from_status: t.from, to_status: t.to, reason: t.reason, at: t.at })
    .execute();
}

/** Moves a batch, checked against the table, and records it. */
export async function moveBatch(db: Trx, batch: Pick<TaskBatch, "id" | "tenant_id" | "status">, to: number, reason: string, at: Date): Promise<void> {
  batchMove(batch.status, to);
  const finished = to === BatchStatus.complete || to === BatchStatus.timedOut || to === BatchStatus.cancelled;
  await db
    .updateTable("task_batches")
    .set({
      status: to,
      updated_at: at,
      ...(to === BatchStatus.scheduling ? { started_at: sql<Date>`coalesce(started_at, ${at})` } : {}),
      ...(finished ? { finished_at: at } : {}),
    })
    .where("id", "=", batch.id)
    .where("status", "=", batch.status)
    .execute();
  await recordTransition(db, { tenantId: batch.tenant_id, batchId: batch.id, from: batch.status, to, reason, at });
}

/** Moves one call, checked against the table, and records it. */
export async function moveCall(
  db: Trx,
  call: Pick<TaskCall, "id" | "tenant_id" | "batch_id" | "status">,
  to: number,
  reason: string,
  at: Date,
  extra: { hangup_party?: number | null; attempts?: number; agent_user_id?: number | null; skip_reason?: string | null } = {},
): Promise<void> {
  callMove(call.status, to);
  await db.updateTable("task_calls").set({ status: to, updated_at: at, ...extra }).where("id", "=", call.id).execute();
  await recordTransition(db, { tenantId: call.tenant_id, batchId: call.batch_id, taskCallId: call.id, from: call.status, to, reason, at });
}

/**
 * Moves every call of the given batches in `from` to `to` with one statement, recording each
 * (cancelling a batch of thousands must not take thousands of round trips).
 */
export async function moveCallsInBulk(db: Trx, batchIds: number[], from: readonly number[], to: number, reason: string, at: Date): Promise<void> {
  if (batchIds.length === 0) return;
  for (const status of from) callMove(status, to);
  // Record first (the rows still hold their old status), then move; the caller's transaction holds both.
  await db
    .insertInto("task_transitions")
    .columns(["tenant_id", "batch_id", "task_call_id", "from_status", "to_status", "reason", "at"])
    .expression(
      db
        .selectFrom("task_calls")
        .select(["tenant_id", "batch_id", "id", "status", sql<number>`${to}::int`.as("to_status"), sql<string>`${reason}::text`.as("reason"), sql<Date>`${at}::timestamptz`.as("at")])
        .where("batch_id", "in", batchIds)
        .where("status", "in", [...from]),
    )
    .execute();
  await db.updateTable("task_calls").set({ status: to, updated_at: at }).where("batch_id", "in", batchIds).where("status", "in", [...from]).execute();
}

/** What every call record of a task call (the robot's or an agent's) takes from it. */
export function taskCallRecord(
  call: Pick<TaskCall, "id" | "tenant_id" | "campaign_id" | "batch_id" | "phone" | "user_data"> & { campaign_type: number; queue_name: string | null },
  ctiCallId: string,
) {
  return {
    tenant_id: call.tenant_id,
    cti_call_id: ctiCallId,
    direction: "outbound" as const,
    campaign_id: call.campaign_id,
    batch_id: call.batch_id,
    task_call_id: call.id,
    campaign_type: call.campaign_type,
    phone: call.phone,
    queue_name: call.queue_name,
    // Spec §3: userData carries the contact's data as a JSON string.
    user_data: JSON.stringify({ data: JSON.stringify(call.user_data) }),
  };
}

/** A finished robot call as a call record with its recording's dialog lines (also used by the demo seed). */
export async function insertRobotCallRecord(
  db: Trx,
  call: Pick<TaskCall, "id" | "tenant_id" | "campaign_id" | "batch_id" | "phone" | "attempts" | "user_data"> &
    Pick<Campaign, "instance_name" | "flow_id" | "flow_version_name" | "queue_name"> & { campaign_type: number },
  outcome: CallOutcome,
  handOff: boolean,
  endedAt: Date,
): Promise<number> {
  return insertCallRecord(
    db,
    {
      ...taskCallRecord(call, `sim-${call.id}-${call.attempts}`),
      is_answer: outcome.isAnswer,
      outbound_result: handOff ? "ToHumanNoAnswer" : outcome.outcome,
      call_result: outcome.callResult,
      call_result_name: resultName(outcome.callResult),
      intent: outcome.intent,
      hangup_party: outcome.hangupParty,
      call_time: new Date(endedAt.getTime() - outcome.durationMs),
      call_duration_ms: outcome.durationMs,
      instance_name: call.instance_name,
      flow_id: call.flow_id,
      flow_version_name: call.flow_version_name,
      gender: outcome.gender,
      attach_data: JSON.stringify({ conclusion: conclusionFor(outcome.intent) }),
      recording: outcome.recording,
    },
    outcome.recording ? recordingDialogs(outcome.recording) : [],
  );
}

/** An agent takes a waiting hand-off (the dialer's and the demo seed's); false when it is not (or no longer) waiting. */
export async function takeHandoff(trx: Trx, tenantId: number, handoffId: number, agentUserId: number, at: Date): Promise<boolean> {
  const row = await trx
    .updateTable("handoffs")
    .set({ state: "handed", agent_user_id: agentUserId, updated_at: at })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", handoffId)
    .where("state", "=", "waiting")
    .returning(["call_record_id", "task_call_id"])
    .executeTakeFirst();
  if (!row) return false;
  await trx.updateTable("task_calls").set({ agent_user_id: agentUserId }).where("id", "=", row.task_call_id).execute();
  if (row.call_record_id !== null) {
    await trx.updateTable("call_records").set({ outbound_result: "EndOfTheCall", agent_user_id: agentUserId, hangup_party: 3 }).where("id", "=", row.call_record_id).execute();
  }
  return true;
}

/**
 * The record of a hand-off that was lost (the dialer's and the demo seed's): it already reads
 * ToHumanNoAnswer, as every waiting hand-off's does; its recording becomes the robot's part alone.
 */
export async function recordLostHandoff(trx: Trx, handoff: { tenant_id: number; call_record_id: number | null; intent: string | null }): Promise<void> {
  if (handoff.call_record_id === null) return;
  await replaceRecording(trx, handoff.tenant_id, handoff.call_record_id, robotAloneRecording(handoff.intent));
}

export class Dialer {
  readonly #db: Db;
  readonly #listeners = new Set<HandoffListener>();
  #timer: NodeJS.Timeout | null = null;
  #ticking: Promise<void> | null = null;
  readonly clock: SimClock;

  constructor(db: Db, clock: SimClock = new SimClock()) {
    this.#db = db;
    this.clock = clock;
  }

  /** Registers a hand-off listener; returns the function that removes it. */
  onHandoff(listener: HandoffListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** An agent took a waiting hand-off; false when it is not (or no longer) waiting. */
  async acceptHandoff(tenantId: number, handoffId: number, agentUserId: number): Promise<boolean> {
    const at = this.clock.now();
    return this.#db.transaction().execute((trx) => takeHandoff(trx, tenantId, handoffId, agentUserId, at));
  }

  /** One step of the simulation at `now` (the clock is set to it). Ticks never overlap. */
  async tick(now: Date = this.clock.now()): Promise<void> {
    while (this.#ticking) await this.#ticking;
    this.clock.set(now);
    const run = this.#tick(now);
    this.#ticking = run.finally(() => {
      this.#ticking = null;
    });
    return this.#ticking;
  }

  async #tick(now: Date): Promise<void> {
    const handoffs: Handoff[] = [];
    await this.#finishDialling(now, handoffs);
    await this.#expireHandoffs(now);
    const campaigns = await this.#db.selectFrom("campaigns").selectAll().where("state", "=", CampaignState.running).execute();
    for (const campaign of campaigns) {
      await this.#db.transaction().execute(async (trx) => {
        const batches = await trx
          .selectFrom("task_batches")
          .selectAll()
          .where("campaign_id", "=", campaign.id)
          .where("status", "in", [...ACTIVE_BATCH])
          .orderBy("id")
          .forUpdate()
          .execute();
        for (const batch of batches) await this.#stepBatch(trx, campaign, batch, now);
        await this.#completeCampaignIfDone(trx, campaign, now);
      });
    }
    for (const handoff of handoffs) for (const listener of this.#listeners) listener(handoff);
  }

  /** Every dialling call ends now, whatever its batch has become meanwhile: a live call finishes. */
  async #finishDialling(now: Date, handoffs: Handoff[]): Promise<void> {
    const dialling = await this.#db
      .selectFrom("task_calls as c")
      .innerJoin("campaigns as k", "k.id", "c.campaign_id")
      .selectAll("c")
      .select(["k.type as campaign_type", "k.instance_name", "k.flow_id", "k.flow_version_name", "k.queue_name", "k.max_attempts"])
      .where("c.status", "=", CallStatus.dialling)
      .where("k.type", "in", ROBOT_DIALLED_TYPES)
      .orderBy("c.id")
      .execute();
    for (const call of dialling) {
      await this.#db.transaction().execute(async (trx) => {
        const outcome = simulateCall(call.id, call.attempts, call.campaign_type);
        const handOff = isHandedToAgent(call.campaign_type, outcome.intent);
        const recordId = await insertRobotCallRecord(trx, call, outcome, handOff, now);
        await moveCall(trx, call, outcome.status, `机器人外呼：${resultName(outcome.callResult)}`, now, { hangup_party: outcome.hangupParty });
        if (handOff) {
          const row = await trx
            .insertInto("handoffs")
            .values({ tenant_id: call.tenant_id, campaign_id: call.campaign_id, batch_id: call.batch_id, task_call_id: call.id, call_record_id: recordId, phone: call.phone, intent: outcome.intent, state: "waiting", created_at: now, updated_at: now })
            .returning("id")
            .executeTakeFirstOrThrow();
          handoffs.push({ id: row.id, tenantId: call.tenant_id, campaignId: call.campaign_id, batchId: call.batch_id, taskCallId: call.id, phone: call.phone, intent: outcome.intent });
        }
      });
    }
  }

  async #expireHandoffs(now: Date): Promise<void> {
    await this.#db.transaction().execute(async (trx) => {
      const lost = await trx
        .updateTable("handoffs")
        .set({ state: "lost", updated_at: now })
        .where("state", "=", "waiting")
        .where("created_at", "<=", new Date(now.getTime() - HANDOFF_TIMEOUT_MS))
        .returning(["tenant_id", "call_record_id", "intent"])
        .execute();
      for (const handoff of lost) await recordLostHandoff(trx, handoff);
    });
  }

  async #stepBatch(trx: Transaction<Database>, campaign: Campaign, batch: TaskBatch, now: Date): Promise<void> {
    const windows = campaign.windows;
    const counts = await trx
      .selectFrom("task_calls")
      .select([
        sql<number>`count(*) filter (where status in (0, 1))::int`.as("open"),
        sql<number>`count(*) filter (where status = 1)::int`.as("dialling"),
        sql<number>`count(*) filter (where status in (2, 5) and attempts < ${campaign.max_attempts})::int`.as("retryable"),
      ])
      .where("batch_id", "=", batch.id)
      .executeTakeFirstOrThrow();
    const today = cstDate(now);
    const expired =
      (campaign.end_date !== null && today > String(campaign.end_date)) ||
      (campaign.cycle === 1 && batch.started_at !== null && cstDate(batch.started_at) < today);
    const decision = decideBatch({
      status: batch.status,
      cycle: campaign.cycle,
      inWindow: inWindow(windows, now),
      laterWindowToday: laterWindowToday(windows, now),
      expired,
      due: batch.next_run_at === null || batch.next_run_at <= now,
      total: batch.total,
      open: counts.open,
      retryable: counts.retryable,
    });
    let status = batch.status;
    if (decision) {
      await moveBatch(trx, batch, decision.to, decision.reason, now);
      status = decision.to;
      if (decision.to === BatchStatus.restingCycle) {
        await trx.updateTable("task_batches").set({ next_run_at: nextWindowStart(windows, new Date(now.getTime() + 12 * 3600_000)) }).where("id", "=", batch.id).execute();
      }
      if (decision.to === BatchStatus.timedOut) await moveCallsInBulk(trx, [batch.id], [CallStatus.waiting], CallStatus.cancelledSchedule, "超出调度时间", now);
      if (decision.to === BatchStatus.scheduling && batch.status === BatchStatus.preparing) await this.#screenBlacklist(trx, batch, now);
    }
    if (status !== BatchStatus.scheduling || !ROBOT_DIALLED_TYPES.includes(campaign.type)) return;
    if (counts.open - counts.dialling === 0 && counts.retryable > 0) {
      // Everything was dialled once: the ones not reached go back into the queue.
      const retry = await trx
        .selectFrom("task_calls")
        .select(["id", "tenant_id", "batch_id", "status"])
        .where("batch_id", "=", batch.id)
        .where("status", "in", [CallStatus.notConnected, CallStatus.abnormal])
        .where("attempts", "<", campaign.max_attempts)
        .execute();
      for (const call of retry) await moveCall(trx, call, CallStatus.waiting, "重新呼叫", now);
    }
    const starting = await trx
      .selectFrom("task_calls")
      .select(["id", "tenant_id", "batch_id", "status", "attempts"])
      .where("batch_id", "=", batch.id)
      .where("status", "=", CallStatus.waiting)
      .orderBy("id")
      .limit(dialCapacity(campaign.ratio, counts.dialling))
      .execute();
    for (const call of starting) await moveCall(trx, call, CallStatus.dialling, "开始呼叫", now, { attempts: call.attempts + 1 });
  }

  /** Contacts blacklisted after their import are never called. */
  async #screenBlacklist(trx: Transaction<Database>, batch: TaskBatch, now: Date): Promise<void> {
    const listed = await trx
      .selectFrom("task_calls as c")
      .innerJoin("blacklist as b", (join) => join.onRef("b.tenant_id", "=", "c.tenant_id").onRef("b.phone", "=", "c.phone"))
      .select(["c.id", "c.tenant_id", "c.batch_id", "c.status"])
      .where("c.batch_id", "=", batch.id)
      .where("c.status", "=", CallStatus.waiting)
      .execute();
    for (const call of listed) await moveCall(trx, call, CallStatus.blacklisted, "号码在黑名单中", now);
  }

  async #completeCampaignIfDone(trx: Transaction<Database>, campaign: Campaign, now: Date): Promise<void> {
    const left = await trx
      .selectFrom("task_batches")
      .select(sql<number>`count(*) filter (where status not in (4, 5, 6))::int`.as("open"))
      .select(sql<number>`count(*)::int`.as("all"))
      .where("campaign_id", "=", campaign.id)
      .executeTakeFirstOrThrow();
    if (left.all > 0 && left.open === 0) {
      await trx.updateTable("campaigns").set({ state: CampaignState.complete, updated_at: now }).where("id", "=", campaign.id).where("state", "=", CampaignState.running).execute();
    }
  }

  /** Advances the clock by real time × speed every `intervalMs` and ticks. */
  start({ speed, intervalMs = 1_000 }: { speed: number; intervalMs?: number }): void {
    if (this.#timer || speed <= 0) return;
    this.#timer = setInterval(() => {
      if (this.#ticking) return;
      this.tick(this.clock.advance(intervalMs * speed)).catch((error) => console.error("dialer: tick failed", error));
    }, intervalMs);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    while (this.#ticking) await this.#ticking;
  }
}
