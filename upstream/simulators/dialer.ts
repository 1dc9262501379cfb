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
 * THE HAND-OFF SEAM (for the voice workbench): in collaborative campaigns (type 2) a
 * customer whose intent is interested becomes a row in `handoffs` with state `waiting`, and every
 * listener registered with `dialer.onHandoff(fn)` is called with it (in process, after the tick's
 * transaction commits). The workbench offers it to an available agent and calls
 * `dialer.acceptHandoff(tenantId, handoffId, agentUserId)` when one takes it (state `handed`, the
 * call record's outcome becomes EndOfTheCall and the agent is set on the call). A hand-off still
 * waiting after HANDOFF_TIMEOUT_MS of simulated time is `lost` (outcome ToHumanNoAnswer, and its
 * recording the robot's part alone: no agent came on), and `onHandoffLost` listeners hear of it.
 */
import { sql, type Transaction } from "kysely";
import type { Db } from "#upstream/db";
import type { Campaign, Database, TaskBatch } from "#upstream/db/schema";
import {
  ACTIVE_BATCH,
  BatchStatus,
  CallStatus,
  CampaignState,
  cstDate,
  decideBatch,
  dialCapacity,
  inWindow,
  laterWindowToday,
  nextWindowStart,
} from "#upstream/domain/dialer-states";
import { resultName, simulateCall, speakFlow } from "./robot-conversation";
import { serviceVersion } from "#upstream/repositories/robot-flows";
import { calendarDayOf, lineRoom, robotRoom } from "#upstream/repositories/robot-resources";
import { handsOffToAgents, isHandedToAgent } from "#upstream/domain/recordings";
import {
  insertRobotCallRecord,
  moveBatch,
  moveCall,
  moveCallsInBulk,
  recordLostHandoff,
  ROBOT_DIALLED_TYPES,
  takeHandoff,
} from "#upstream/repositories/dialing";

export const HANDOFF_TIMEOUT_MS = 2 * 60_000;

export type Handoff = {
  id: number;
  tenantId: number;
  campaignId: number;
  batchId: number;
  taskCallId: number;
  phone: string;
  intent: string | null;
};
export type HandoffListener = (handoff: Handoff) => void;
export type LostHandoffListener = (handoff: { id: number; tenantId: number }) => void;

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

export class Dialer {
  readonly #db: Db;
  readonly #listeners = new Set<HandoffListener>();
  readonly #lostListeners = new Set<LostHandoffListener>();
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

  /** Registers a listener for hand-offs that waited too long (lost); returns the function that removes it. */
  onHandoffLost(listener: LostHandoffListener): () => void {
    this.#lostListeners.add(listener);
    return () => this.#lostListeners.delete(listener);
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
          // A batch whose list is still being imported is not worked until the import is done.
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom("contact_imports")
                  .select("contact_imports.id")
                  .whereRef("contact_imports.batch_id", "=", "task_batches.id")
                  .where("contact_imports.status", "=", "running"),
              ),
            ),
          )
          .orderBy("id")
          .forUpdate()
          .execute();
        // The robot's working day is the campaign's, the same for each of its batches.
        const calendar = batches.length > 0 ? await calendarDayOf(trx, campaign, cstDate(now)) : null;
        for (const batch of batches) await this.#stepBatch(trx, campaign, batch, now, calendar);
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
      .leftJoin("robot_instances as r", (join) => join.onRef("r.id", "=", "k.robot_instance_id").onRef("r.tenant_id", "=", "k.tenant_id"))
      .selectAll("c")
      .select([
        "k.type as campaign_type",
        "k.instance_name",
        "k.flow_id",
        "k.flow_version_name",
        "k.queue_name",
        "k.max_attempts",
        "r.queue_name as robot_queue_name",
      ])
      .where("c.status", "=", CallStatus.dialling)
      .where("k.type", "in", ROBOT_DIALLED_TYPES)
      .orderBy("c.id")
      .execute();
    for (const call of dialling) {
      await this.#db.transaction().execute(async (trx) => {
        // The robot speaks its flow's version in service now: a version published since the
        // campaign started is heard on the next call (decision 019).
        const version = call.flow_id === null ? null : await serviceVersion(trx, call.tenant_id, call.flow_id);
        const spoken = version
          ? speakFlow(simulateCall(call.id, call.attempts, call.campaign_type), version.nodes, {
              customerName: call.customer_name,
              客户姓名: call.customer_name,
              ...call.user_data,
            })
          : null;
        const outcome = spoken?.outcome ?? simulateCall(call.id, call.attempts, call.campaign_type);
        // A designed flow hands off where it reaches a 转人工 node; a recorded one, on the intent.
        const handOff = spoken
          ? spoken.transfer !== null && handsOffToAgents(call.campaign_type)
          : isHandedToAgent(call.campaign_type, outcome.intent);
        // The queue: the one the node names, else the robot's (allocated), else the campaign's.
        const queueName = spoken?.transfer?.queueName ?? call.robot_queue_name ?? call.queue_name;
        const recordId = await insertRobotCallRecord(
          trx,
          { ...call, flow_version_name: version?.name ?? call.flow_version_name },
          outcome,
          handOff,
          now,
          spoken?.dialogs,
        );
        await moveCall(trx, call, outcome.status, `机器人外呼：${resultName(outcome.callResult)}`, now, {
          hangup_party: outcome.hangupParty,
        });
        if (handOff) {
          const row = await trx
            .insertInto("handoffs")
            .values({
              tenant_id: call.tenant_id,
              campaign_id: call.campaign_id,
              batch_id: call.batch_id,
              task_call_id: call.id,
              call_record_id: recordId,
              phone: call.phone,
              intent: outcome.intent,
              queue_name: queueName,
              state: "waiting",
              created_at: now,
              updated_at: now,
            })
            .returning("id")
            .executeTakeFirstOrThrow();
          handoffs.push({
            id: row.id,
            tenantId: call.tenant_id,
            campaignId: call.campaign_id,
            batchId: call.batch_id,
            taskCallId: call.id,
            phone: call.phone,
            intent: outcome.intent,
          });
        }
      });
    }
  }

  async #expireHandoffs(now: Date): Promise<void> {
    const lost = await this.#db.transaction().execute(async (trx) => {
      const rows = await trx
        .updateTable("handoffs")
        .set({ state: "lost", updated_at: now })
        .where("state", "=", "waiting")
        .where("created_at", "<=", new Date(now.getTime() - HANDOFF_TIMEOUT_MS))
        .returning(["id", "tenant_id", "call_record_id", "intent"])
        .execute();
      for (const handoff of rows) await recordLostHandoff(trx, handoff);
      return rows;
    });
    // After the commit: the customer still waiting (or ringing at an agent) hangs up.
    for (const handoff of lost) for (const listener of this.#lostListeners) listener({ id: handoff.id, tenantId: handoff.tenant_id });
  }

  async #stepBatch(
    trx: Transaction<Database>,
    campaign: Campaign,
    batch: TaskBatch,
    now: Date,
    calendar: Awaited<ReturnType<typeof calendarDayOf>>,
  ): Promise<void> {
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
    // A robot that follows the working calendar calls only in its hours, never on a rest day or a
    // festival: the batch then rests as between windows, saying why (decision 030).
    const callable = calendar ? calendar.windows : windows;
    const restDay = calendar && calendar.windows.length === 0 ? `${calendar.reason}，不外呼` : null;
    const expired =
      (campaign.end_date !== null && today > String(campaign.end_date)) ||
      (campaign.cycle === 1 && batch.started_at !== null && cstDate(batch.started_at) < today);
    const decision = decideBatch({
      status: batch.status,
      cycle: campaign.cycle,
      inWindow: inWindow(callable, now),
      // A rest day is not the end of a same-day batch's day: it rests (and times out tomorrow).
      laterWindowToday: restDay !== null || laterWindowToday(callable, now),
      expired,
      due: batch.next_run_at === null || batch.next_run_at <= now,
      total: batch.total,
      open: counts.open,
      retryable: counts.retryable,
    });
    let status = batch.status;
    if (decision) {
      const resting = decision.to === BatchStatus.restingWindow || decision.to === BatchStatus.restingCycle;
      await moveBatch(trx, batch, decision.to, restDay && resting ? restDay : decision.reason, now);
      status = decision.to;
      if (decision.to === BatchStatus.restingCycle) {
        await trx
          .updateTable("task_batches")
          .set({ next_run_at: nextWindowStart(windows, new Date(now.getTime() + 12 * 3600_000)) })
          .where("id", "=", batch.id)
          .execute();
      }
      if (decision.to === BatchStatus.timedOut)
        await moveCallsInBulk(trx, [batch.id], [CallStatus.waiting], CallStatus.cancelledSchedule, "超出调度时间", now);
      if (decision.to === BatchStatus.scheduling && batch.status === BatchStatus.preparing) await this.#screenBlacklist(trx, batch, now);
    }
    if (status !== BatchStatus.scheduling || !ROBOT_DIALLED_TYPES.includes(campaign.type)) return;
    if (calendar && !inWindow(callable, now)) return;
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
    // The ratio gives the batch its lines; the robot's concurrency and its gateway line, each
    // shared with every campaign that uses them, may allow fewer (decision 031). Robot first,
    // then line: every batch locks them in that order.
    const robot = await robotRoom(trx, campaign);
    const line = await lineRoom(trx, campaign);
    const capacity = Math.min(dialCapacity(campaign.ratio, counts.dialling), robot ?? Infinity, line ?? Infinity);
    if (capacity === 0) return;
    const starting = await trx
      .selectFrom("task_calls")
      .select(["id", "tenant_id", "batch_id", "status", "attempts"])
      .where("batch_id", "=", batch.id)
      .where("status", "=", CallStatus.waiting)
      .orderBy("id")
      .limit(capacity)
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
      await trx
        .updateTable("campaigns")
        .set({ state: CampaignState.complete, updated_at: now })
        .where("id", "=", campaign.id)
        .where("state", "=", CampaignState.running)
        .execute();
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
