/**
 * What a simulated robot call turns out to be: deterministic from the call's id and attempt, so
 * tests and demos are repeatable. Codes come from contracts/codes.ts.
 */
import { CUSTOMER_ROLE, INTENT_LABELS, RESULT_CODES, codesOf, labelOf } from "#contracts/codes";
import type { FlowNode } from "#contracts/robot";
import type { NewDialogLine } from "#upstream/db/schema";
import { walkFlow } from "#upstream/domain/flow-design";
import { RECORDINGS, recordingFor } from "#upstream/domain/recordings";
import { outcomeFor, type CallOutcome } from "#upstream/domain/outcomes";
import { CallStatus } from "#upstream/domain/dialer-states";

export const resultName = (code: number) => labelOf(RESULT_CODES, code);

const INTENTS = codesOf(INTENT_LABELS);

/** A small integer hash (FNV-1a) so outcomes spread evenly but repeat exactly. */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** As if an agent takes every hand-off: the dialer marks the ones still waiting or lost. */
const outcomeOf = (campaignType: number, callResult: number, intent: string | null) =>
  outcomeFor({ campaignType, callResult, intent, agentTookHandOff: true });

export function simulateCall(taskCallId: number, attempt: number, campaignType: number): CallOutcome {
  const roll = hash(`${taskCallId}:${attempt}`);
  const bucket = roll % 100;
  const gender = roll % 3 === 2 ? -1 : roll % 2;
  if (bucket < 15) {
    const callResult = [408, 486, 480][roll % 3];
    return {
      status: CallStatus.notConnected,
      hangupParty: 5,
      callResult,
      isAnswer: 0,
      outcome: outcomeOf(campaignType, callResult, null),
      intent: null,
      durationMs: 0,
      gender,
      recording: null,
    };
  }
  if (bucket < 20) {
    return {
      status: CallStatus.abnormal,
      hangupParty: 4,
      callResult: 502,
      isAnswer: 0,
      outcome: outcomeOf(campaignType, 502, null),
      intent: null,
      durationMs: 3_000,
      gender,
      recording: null,
    };
  }
  const intent = INTENTS[roll % INTENTS.length];
  // The recording is one where the customer says that intent (in a hand-off, to the agent too).
  const recording = recordingFor(campaignType, intent);
  return {
    status: CallStatus.complete,
    hangupParty: roll % 4 === 0 ? 2 : 1,
    callResult: 200,
    isAnswer: 1,
    outcome: outcomeOf(campaignType, 200, intent),
    intent,
    durationMs: RECORDINGS[recording].durationMs,
    gender,
    recording,
  };
}

/** Robot and customer roles of a dialog line (DIALOG_ROLES); 1 is the robot's dialog type. */
const ROBOT_ROLE = 1;
const ROBOT_DIALOG = 1;

/**
 * A connected call spoken from a designed flow version (decision 019): the robot says the
 * version's prompts, filled from the call's parameters, and the customer answers each listen node
 * with the sentence of the call's intent. There is no audio (the simulator synthesises none), so
 * the lines carry no offsets and the duration is estimated from their length.
 */
export function speakFlow(
  outcome: CallOutcome,
  nodes: FlowNode[],
  params: Record<string, unknown>,
): { outcome: CallOutcome; dialogs: NewDialogLine[]; transfer: { queueName: string | null } | null } | null {
  if (outcome.status !== CallStatus.complete || outcome.intent === null || nodes.length === 0) return null;
  const { lines, endNode } = walkFlow(nodes, outcome.intent, params);
  const dialogs = lines.map((line) => ({
    dialog_type: ROBOT_DIALOG,
    this_role: line.role === "robot" ? ROBOT_ROLE : CUSTOMER_ROLE,
    content: line.content,
    nlu_result: line.nluResult,
    gender: line.role === "robot" ? 1 : 0,
    record_start_ms: null,
    record_end_ms: null,
  }));
  // About 5 characters a second, and a pause between turns.
  const durationMs = lines.reduce((sum, line) => sum + 600 + line.content.length * 200, 0);
  // The call reached a 转人工 node: the flow, not the intent, decides the hand-off (decision 029).
  const transfer = endNode?.type === "transfer" ? { queueName: endNode.queueName || null } : null;
  return { outcome: { ...outcome, recording: null, durationMs }, dialogs, transfer };
}
