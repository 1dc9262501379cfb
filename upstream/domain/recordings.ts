import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import transcripts from "../fixtures/recordings/transcripts.json";

/**
 * The demo recordings (real synthesised speech, see fixtures/recordings/synthesise.ts) and their
 * transcripts, whose line offsets match the audio.
 */
export type RecordingName = keyof typeof transcripts;
export const RECORDINGS = transcripts;
export const RECORDING_NAMES = Object.keys(transcripts) as RecordingName[];

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
