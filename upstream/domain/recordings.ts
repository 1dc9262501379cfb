import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import transcripts from "../fixtures/recordings/transcripts.json";
import type { NewDialogLine } from "../repositories/call-records";

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

/** The file of a stored recording name; names never leave the fixtures directory. */
export function recordingPath(name: string): string {
  recordingsDir ??= findRecordingsDir();
  return path.join(recordingsDir, path.basename(name));
}

/** The recording a connected call of a campaign type has (the seed's calls and the dialer's alike). */
export function recordingForCampaign(campaignType: number | null): RecordingName {
  if (campaignType === 20) return "inbound-enquiry.mp3";
  return campaignType === 1 ? "card-instalment.mp3" : "transfer-to-agent.mp3";
}
