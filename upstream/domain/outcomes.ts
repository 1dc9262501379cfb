import { isHandedToAgent, type RecordingName } from "./recordings";

/** What happened on an outbound call, as far as its outcome code (OUTCOME_CODES) depends on it. */
export type CallFacts = { campaignType: number; callResult: number; intent: string | null; agentTookHandOff: boolean };

const MANUAL_NOT_CONNECTED = ["NoAnswer", "CustomerGiveUp", "GiveUp"] as const;
const MANUAL_CONNECTED = ["EndOfTheCall", "EndOfTheSurveyCall", "ToSurveyRobotNoAnswer", "ToSurveyRobotGiveUp"] as const;
const HAND_OFF_LOST = ["ToHumanNoAnswer", "ToHumanGiveUp"] as const;

/**
 * The outcome code of an outbound call (null for inbound calls, which have none), so that the
 * dialer and the demo data agree with the call's result and intent: a call that never connected
 * is never 人工接通, a customer who said no is 无意向, an interested customer no agent took is a
 * 转人工 loss. Where several codes fit what happened, `variant` picks one, so the demo data shows
 * every code.
 */
export function outcomeFor(call: CallFacts, variant = 0): string | null {
  if (call.campaignType === 20) return null;
  const robot = call.campaignType === 1 || call.campaignType === 2;
  if (call.callResult !== 200) {
    if (robot) return call.callResult === 502 ? "RobotNoAnswer" : "NoAnswer";
    return MANUAL_NOT_CONNECTED[variant % MANUAL_NOT_CONNECTED.length];
  }
  if (call.intent === "NO_INTENTION") return "NoIntention";
  if (isHandedToAgent(call.campaignType, call.intent) && !call.agentTookHandOff) return HAND_OFF_LOST[variant % HAND_OFF_LOST.length];
  if (robot) return "EndOfTheCall";
  return MANUAL_CONNECTED[variant % MANUAL_CONNECTED.length];
}

/** What a finished robot call turned out to be (the robot conversation simulator decides it). */
export type CallOutcome = {
  status: number; // CallStatus.notConnected | complete | abnormal
  hangupParty: number; // HANGUP_PARTIES
  callResult: number; // RESULT_CODES
  isAnswer: 0 | 1;
  outcome: string | null; // OUTCOME_CODES (null for an inbound campaign, which no robot dials)
  intent: string | null; // INTENT_LABELS
  durationMs: number;
  gender: number;
  /** A connected call's recording (a real audio fixture whose transcript becomes the dialog lines). */
  recording: RecordingName | null;
};
