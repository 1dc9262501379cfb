/**
 * The dialer's data steps, shared by the dialer simulator, the campaign and batch repositories and
 * the demo seed: every batch or call move is checked against the state tables (domain/dialer-states)
 * and recorded in task_transitions; hand-offs are taken or lost; robot calls become call records.
 */
import { sql } from "kysely";
import { RESULT_CODES, callKindOf, labelOf } from "#contracts/codes";
import type { Trx } from "#upstream/db";
import type { Campaign, NewDialogLine, TaskBatch, TaskCall } from "#upstream/db/schema";
import { BatchStatus, batchMove, callMove } from "#upstream/domain/dialer-states";
import type { CallOutcome } from "#upstream/domain/outcomes";
import { conclusionFor, recordingDialogs, robotAloneRecording } from "#upstream/domain/recordings";
import { insertCallRecord, replaceRecording } from "./call-records";

/** Campaign types the robot dials; the others are dialled by agents. */
export const ROBOT_DIALLED_TYPES = [1, 2];
/** Records one transition of a batch (taskCallId null) or of one of its calls. */
export async function recordTransition(
  db: Trx,
  t: { tenantId: number; batchId: number; taskCallId?: number | null; from: number | null; to: number; reason: string; at: Date },
): Promise<void> {
  await db
    .insertInto("task_transitions")
    .values({
      tenant_id: t.tenantId,
      batch_id: t.batchId,
      task_call_id: t.taskCallId ?? null,
      from_status: t.from,
      to_status: t.to,
      reason: t.reason,
      at: t.at,
    })
    .execute();
}

/** Moves a batch, checked against the table, and records it. */
export async function moveBatch(
  db: Trx,
  batch: Pick<TaskBatch, "id" | "tenant_id" | "status">,
  to: number,
  reason: string,
  at: Date,
): Promise<void> {
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
  await db
    .updateTable("task_calls")
    .set({ status: to, updated_at: at, ...extra })
    .where("id", "=", call.id)
    .execute();
  await recordTransition(db, { tenantId: call.tenant_id, batchId: call.batch_id, taskCallId: call.id, from: call.status, to, reason, at });
}

/**
 * Moves every call of the given batches in `from` to `to` with one statement, recording each
 * (cancelling a batch of thousands must not take thousands of round trips).
 */
export async function moveCallsInBulk(
  db: Trx,
  batchIds: number[],
  from: readonly number[],
  to: number,
  reason: string,
  at: Date,
): Promise<void> {
  if (batchIds.length === 0) return;
  for (const status of from) callMove(status, to);
  // Record first (the rows still hold their old status), then move; the caller's transaction holds both.
  await db
    .insertInto("task_transitions")
    .columns(["tenant_id", "batch_id", "task_call_id", "from_status", "to_status", "reason", "at"])
    .expression(
      db
        .selectFrom("task_calls")
        .select([
          "tenant_id",
          "batch_id",
          "id",
          "status",
          sql<number>`${to}::int`.as("to_status"),
          sql<string>`${reason}::text`.as("reason"),
          sql<Date>`${at}::timestamptz`.as("at"),
        ])
        .where("batch_id", "in", batchIds)
        .where("status", "in", [...from]),
    )
    .execute();
  await db
    .updateTable("task_calls")
    .set({ status: to, updated_at: at })
    .where("batch_id", "in", batchIds)
    .where("status", "in", [...from])
    .execute();
}

/** What every call record of a task call (the robot's or an agent's) takes from it. */
export function taskCallRecord(
  call: Pick<TaskCall, "id" | "tenant_id" | "campaign_id" | "batch_id" | "phone" | "user_data"> & {
    campaign_type: number;
    queue_name: string | null;
  },
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
    call_kind: callKindOf(call.campaign_type),
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
  /** The transcript when the call followed a designed flow (no recording); else the recording's. */
  dialogs?: NewDialogLine[],
): Promise<number> {
  return insertCallRecord(
    db,
    {
      ...taskCallRecord(call, `sim-${call.id}-${call.attempts}`),
      is_answer: outcome.isAnswer,
      outbound_result: handOff ? "ToHumanNoAnswer" : outcome.outcome,
      call_result: outcome.callResult,
      call_result_name: labelOf(RESULT_CODES, outcome.callResult),
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
    dialogs ?? (outcome.recording ? recordingDialogs(outcome.recording) : []),
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
    await trx
      .updateTable("call_records")
      .set({ outbound_result: "EndOfTheCall", agent_user_id: agentUserId, hangup_party: 3 })
      .where("id", "=", row.call_record_id)
      .execute();
  }
  return true;
}

/**
 * The record of a hand-off that was lost (the dialer's and the demo seed's): it already reads
 * ToHumanNoAnswer, as every waiting hand-off's does; its recording becomes the robot's part alone.
 */
export async function recordLostHandoff(
  trx: Trx,
  handoff: { tenant_id: number; call_record_id: number | null; intent: string | null },
): Promise<void> {
  if (handoff.call_record_id === null) return;
  await replaceRecording(trx, handoff.tenant_id, handoff.call_record_id, robotAloneRecording(handoff.intent));
}
