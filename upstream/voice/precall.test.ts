import { describe, expect, it } from "vitest";
import { createTestCalls, levelDb } from "./precall";
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

describe("the pre-call test's calls", () => {
  it("call the agent's SIP user naming a test call, and once it ends give back the agent's recorded side and its level", async () => {
    const line = fakeLine();
    const calls = createTestCalls(
      settings,
      line,
      async (sipCallId) => (sipCallId === "sip-1" ? stereoWav(800, 0.5) : null),
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
  });

  it("are the starting agent's alone, say nothing was recorded of a call that never connected, and leave other calls to the media layer", async () => {
    const line = fakeLine();
    const calls = createTestCalls(
      settings,
      line,
      async () => null,
      () => undefined,
    );
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
