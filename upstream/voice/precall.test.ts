import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createTestCalls, levelDb } from "./precall";
import { removeRecording } from "./recording";
import type { VoiceSettings } from "./settings";

const settings = { domain: "127.0.0.1:3710" } as VoiceSettings;

/** A stereo 16-bit WAV: left silent, right a full-scale square wave at `amplitude`. */
function stereoWav(frames: number, amplitude: number): Buffer {
  const wav = Buffer.alloc(44 + frames * 4);
  wav.writeUInt32LE(8000, 24);
  for (let i = 0; i < frames; i++) wav.writeInt16LE(Math.round((i % 2 ? 1 : -1) * amplitude * 32767), 46 + i * 4);
  return wav;
}

/** The phone line as the test calls use it (baresip is the e2e's; here only what was dialled counts). */
function fakeLine() {
  const dialled: string[] = [];
  return { dialled, dial: async (uri: string) => dialled.push(uri), hangup: async () => undefined };
}

/** A recording directory as rtpengine leaves it (pcap method): each call's metadata and pcap, by SIP call id. */
function recordingsDir(...sipCallIds: string[]) {
  const dir = mkdtempSync(join(tmpdir(), "precall-recordings-"));
  mkdirSync(join(dir, "metadata"));
  mkdirSync(join(dir, "pcaps"));
  for (const id of sipCallIds) {
    writeFileSync(join(dir, "metadata", `rtpengine-meta-${id}-0123abcd`), "call end time: 1\n");
    writeFileSync(join(dir, "pcaps", `${id}-0123abcd-1.pcap`), "pcap");
  }
  return dir;
}
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe("the pre-call test's calls", () => {
  it("call the agent's SIP user naming a test call, and once it ends give back the agent's recorded side and its level, its recording removed", async () => {
    const line = fakeLine();
    const dir = recordingsDir("sip-1", "sip-customer");
    dirs.push(dir);
    const calls = createTestCalls(
      settings,
      line,
      {
        read: async (sipCallId) =>
          sipCallId === "sip-1" && existsSync(join(dir, "pcaps", "sip-1-0123abcd-1.pcap")) ? stereoWav(800, 0.5) : null,
        remove: (sipCallId) => removeRecording(dir, sipCallId),
      },
      () => undefined,
    );
    const { testId } = calls.start(3, 42);
    expect(line.dialled).toEqual([`sip:t3u42@127.0.0.1:3710;cti=test-${testId};leg=test-${testId}`]);
    expect(calls.result(3, 42, testId)).toEqual({ done: false, agentLevelDb: null, audio: null });

    const uri = line.dialled[0];
    expect(calls.onLineEvent({ type: "established", uri, reason: "", sipCallId: "sip-1" })).toBe(true);
    expect(calls.onLineEvent({ type: "closed", uri, reason: "", sipCallId: "sip-1" })).toBe(true);
    await expect.poll(() => calls.result(3, 42, testId).done).toBe(true);
    const result = calls.result(3, 42, testId);
    expect(result.agentLevelDb).toBe(-6);
    const audio = Buffer.from(result.audio!, "base64");
    expect(audio.readUInt16LE(22)).toBe(1);
    expect(audio.readUInt32LE(24)).toBe(8000);
    expect(audio.readInt16LE(44 + 2)).toBe(16384);
    // The test call's recording is gone from the media server's directory; a customer call's stays.
    expect([readdirSync(join(dir, "metadata")), readdirSync(join(dir, "pcaps"))]).toEqual([
      ["rtpengine-meta-sip-customer-0123abcd"],
      ["sip-customer-0123abcd-1.pcap"],
    ]);
  });

  it("are the starting agent's alone, say nothing was recorded of a call that never connected, and leave other calls to the media layer", async () => {
    const line = fakeLine();
    const calls = createTestCalls(settings, line, { read: async () => null, remove: async () => undefined }, () => undefined);
    const { testId } = calls.start(3, 42);
    expect(() => calls.result(3, 43, testId)).toThrow("找不到该通话测试");
    expect(() => calls.result(4, 42, testId)).toThrow("找不到该通话测试");
    calls.onLineEvent({ type: "closed", uri: line.dialled[0], reason: "480", sipCallId: "" });
    expect(calls.result(3, 42, testId)).toEqual({ done: true, agentLevelDb: null, audio: null });
    expect(calls.onLineEvent({ type: "closed", uri: "sip:t3u42@127.0.0.1:3710;cti=c1;leg=1", reason: "", sipCallId: "x" })).toBe(false);
  });

  it("measure a level in dBFS, silence as -100", () => {
    expect(levelDb(new Float32Array([0.5, -0.5]))).toBe(-6);
    expect(levelDb(new Float32Array(10))).toBe(-100);
  });
});
