import { callKindOf, labelOf, RESULT_CODES } from "#contracts/codes";
import type { PhoneCall } from "#contracts/cti";
import type { Db } from "#upstream/db";
import type { NewDialogLine } from "#upstream/db/schema";
import { RECORDING_OF, recordingDialogs } from "#upstream/domain/recordings";
import { insertCallRecord } from "#upstream/repositories/call-records";
import { endTaskDial } from "#upstream/repositories/preview-lists";
import type { Call, DialOutcome } from "./types";

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

/**
 * Spec §3: a robot hand-off that rang at agents and none answered is ToHumanNoAnswer; one whose
 * customer hung up before any agent's phone rang is ToHumanGiveUp; any other call the customer left.
 */
function unansweredOutcome(call: Call): string {
  if (call.origin !== "handoff") return "CustomerGiveUp";
  return call.missedBy.length > 0 ? "ToHumanNoAnswer" : "ToHumanGiveUp";
}

/**
 * The call record, its recording and its transcript, so the call appears in the call lists and
 * its detail plays. A connected call's lines are its recording's, timed to the audio; a call that
 * never connected has no recording and keeps what the robot said, untimed.
 */
export async function writeRecord(
  db: Db,
  call: Call,
  end: { endedAt: number; hangupParty: number; outcome: DialOutcome | "ABANDONED" | null },
): Promise<void> {
  const answered = call.answeredAt !== null;
  const dial = end.outcome === "NO_ANSWER" || end.outcome === "BUSY" ? DIAL_RESULT[end.outcome] : null;
  const callResult = dial?.callResult ?? (answered ? 200 : 487);
  const outboundResult = dial?.outcome ?? (answered ? "EndOfTheCall" : unansweredOutcome(call));
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
        queue_wait_ms: call.queueWaitMs,
        recording,
        // A campaign contact dialled by the agent: its record is the campaign's (preview) and the contact moves on.
        ...(call.task
          ? {
              batch_id: call.task.batchId,
              task_call_id: call.task.taskCallId,
              campaign_type: call.task.campaignType,
              call_kind: callKindOf(call.task.campaignType),
              user_data: call.task.userData,
            }
          : {}),
      },
      dialogs,
    );
    if (call.task) await endTaskDial(trx, call.tenantId, call.task.taskCallId, answered, end.hangupParty, new Date(end.endedAt));
  });
}
