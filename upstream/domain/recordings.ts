import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import transcripts from "#upstream/fixtures/recordings/transcripts.json";
import type { PhoneCall } from "#contracts/cti";
import type { NewDialogLine } from "#upstream/db/schema";

/**
 * The demo recordings (real synthesised speech, see fixtures/recordings/synthesise.ts) and their
 * transcripts, whose line offsets match the audio.
 */
export type RecordingName = keyof typeof transcripts;
export const RECORDINGS = transcripts;
export const RECORDING_NAMES = Object.keys(transcripts) as RecordingName[];

/**
 * A recording's transcript as call_dialogs lines, in order; `timed: false` leaves out the
 * offsets (a call whose audio was lost cannot seek).
 */
export function recordingDialogs(name: RecordingName, timed = true): NewDialogLine[] {
  return RECORDINGS[name].lines.map((line) => ({
    dialog_type: line.dialogType,
    this_role: line.thisRole,
    content: line.content,
    nlu_result: "nluResult" in line ? (line.nluResult ?? null) : null,
    gender: line.thisRole === 1 ? 1 : 0,
    record_start_ms: timed ? line.startMs : null,
    record_end_ms: timed ? line.endMs : null,
  }));
}

/**
 * Where the files are, from this module in the source tree or the bundled server
 * (build/upstream/server.mjs): the first ancestor holding upstream/fixtures/recordings.
 */
function findRecordingsDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, "upstream", "fixtures", "recordings");
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve("upstream/fixtures/recordings");
    dir = parent;
  }
}
let recordingsDir: string | undefined;

/** A recording of real voice (decision 036): kept by the media layer in VOICE_RECORDINGS_DIR/calls. */
export const VOICE_RECORDING_PREFIX = "voice/";

/** The file of a stored recording name; names never leave the fixtures directory (or real voice's). */
export function recordingPath(name: string): string {
  if (name.startsWith(VOICE_RECORDING_PREFIX) && process.env.VOICE_RECORDINGS_DIR) {
    return path.join(process.env.VOICE_RECORDINGS_DIR, "calls", path.basename(name));
  }
  recordingsDir ??= findRecordingsDir();
  return path.join(recordingsDir, path.basename(name));
}

/** What a recording file is: real voice is kept as WAV, the demo's as MP3. */
export const recordingType = (name: string) => (name.endsWith(".wav") ? "audio/wav" : "audio/mpeg");

/**
 * What the simulated network recorded of a connected call: a robot hand-off's recording holds the
 * robot's part and the agent's (its robot call's own when it has one, so that what the customer
 * says agrees with the intent); an inbound or manual call is agent and customer alone.
 */
export const RECORDING_OF: Record<PhoneCall["origin"], RecordingName> = {
  inbound: "inbound-enquiry.mp3",
  manual: "inbound-enquiry.mp3",
  handoff: "transfer-to-agent.mp3",
};

/** Collaborative campaigns (type 2) hand customers of these intents to an agent. */
const INTERESTED = ["CONFIRM", "HAS_INTENTION", "ASK_HOW", "ASK_FEE"] as const;
type InterestedIntent = (typeof INTERESTED)[number];
export const INTERESTED_INTENTS: ReadonlySet<string> = new Set(INTERESTED);

/** Whether robot calls of this campaign type may go on with an agent (人机协同外呼: agents wait for them). */
export const handsOffToAgents = (campaignType: number | null) => campaignType === 2;

/** Whether a robot call of this campaign type and intent goes on with an agent (a recorded conversation's robot). */
export function isHandedToAgent(campaignType: number | null, intent: string | null): intent is InterestedIntent {
  return handsOffToAgents(campaignType) && intent !== null && INTERESTED_INTENTS.has(intent);
}

/**
 * Connected robot calls per intent (INTENT_LABELS): the recording of the robot alone in which the
 * customer's last line says that intent, and the conclusion the robot notes (attachData).
 */
const ROBOT_CALLS: Record<string, { recording: RecordingName; conclusion: string }> = {
  CONFIRM: { recording: "card-instalment.mp3", conclusion: "客户确认办理分期，已登记" },
  NO_INTENTION: { recording: "robot-no-intention.mp3", conclusion: "客户无办理意向" },
  HAS_INTENTION: { recording: "robot-has-intention.mp3", conclusion: "客户有办理意向，已发送办理方式" },
  ASK_HOW: { recording: "robot-ask-how.mp3", conclusion: "客户询问如何办理，已告知办理渠道" },
  ASK_FEE: { recording: "robot-ask-fee.mp3", conclusion: "客户询问手续费，已告知费率" },
  CHANGE_INSTALMENTS: { recording: "robot-change-instalments.mp3", conclusion: "客户要求更改分期数，已改为六期" },
  AGREED_NO_KEY: { recording: "robot-agreed-no-key.mp3", conclusion: "客户口头同意但未按键，待再次联系" },
  HUNG_UP_SECOND_CONFIRM: { recording: "robot-hung-up-second-confirm.mp3", conclusion: "客户在二次确认时挂机，未办理" },
};

/** Collaborative calls handed to an agent: the robot's part, then the agent's, ending on the intent. */
const HANDOFF_RECORDINGS: Record<InterestedIntent, RecordingName> = {
  CONFIRM: "handoff-confirm.mp3",
  HAS_INTENTION: "handoff-has-intention.mp3",
  ASK_HOW: "handoff-ask-how.mp3",
  ASK_FEE: "handoff-ask-fee.mp3",
};

/**
 * The recording a connected call has (the seed's calls and the dialer's alike). A robot call
 * (campaign types 1 and 2) has the one where the customer's last line is its intent; without an
 * intent (a robot call cut on a line fault) it has its campaign type's general one, as inbound
 * (20) and human-only calls always do.
 */
export function recordingFor(campaignType: number | null, intent: string | null): RecordingName {
  if (campaignType === 20) return "inbound-enquiry.mp3";
  if (isHandedToAgent(campaignType, intent)) return HANDOFF_RECORDINGS[intent];
  if (campaignType === 1 || campaignType === 2) {
    const robotCall = intent === null ? undefined : ROBOT_CALLS[intent];
    if (robotCall) return robotCall.recording;
  }
  return campaignType === 1 ? "card-instalment.mp3" : "transfer-to-agent.mp3";
}

/** What a collaborative campaign's customer whom no agent took heard: the robot alone, as a robot campaign's call of that intent. */
export const robotAloneRecording = (intent: string | null): RecordingName => recordingFor(1, intent);

/** The conclusion a call notes (attachData): its intent's, or that it did not get through. */
export function conclusionFor(intent: string | null): string {
  return intent === null ? "未接通" : (ROBOT_CALLS[intent]?.conclusion ?? "");
}

/** Narrows a stored recording column to a recording that exists. */
export const isRecordingName = (name: string | null): name is RecordingName => name !== null && Object.hasOwn(RECORDINGS, name);
