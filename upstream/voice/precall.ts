import { randomUUID } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { z } from "zod";
import { sipUserOf, type PrecallResult } from "#contracts/voice";
import { HttpError, ok, parseInput } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import type { LineEvent } from "./phone-line";
import { emptyWav } from "#common/wav.mjs";
import type { VoiceSettings } from "./settings";

/** A test call the phone line still holds after this long is hung up (the browser hangs up after a few seconds). */
const TEST_CALL_MAX_MS = 20_000;
/** A finished test's result is kept this long for the page to read. */
const RESULT_KEPT_MS = 5 * 60_000;
/** The CTI call id a test call names (Kamailio passes it on as X-Cti-Call): no CTI call has it. */
const TEST_CALL_PREFIX = "test-";

type TestCall = {
  tenantId: number;
  userId: number;
  uri: string;
  /** The SIP call's id once established (the recording is named after it). */
  sipCallId: string;
  result: PrecallResult | null;
};

type PhoneLine = { dial(uri: string): Promise<unknown>; hangup(uri: string): Promise<unknown> };

/**
 * The workbench's pre-call test (decision 053), the platform's part: the phone line calls the
 * agent's softphone with a test call, which plays the line's test tone through the media server
 * (rtpengine) and carries the agent's voice back to it; once the browser hangs up, the agent's
 * side of the media server's recording is the loopback the agent hears, and its level says
 * whether the media server received the agent's voice at all.
 */
export function createTestCalls(
  settings: VoiceSettings,
  line: PhoneLine,
  /** The media server's recording of a SIP call (null until written), and its removal: a test call's is read once, never kept. */
  recordings: { read: (sipCallId: string) => Promise<Buffer | null>; remove: (sipCallId: string) => Promise<void> },
  log: (error: unknown, message: string) => void,
) {
  const tests = new Map<string, TestCall>();
  const byUri = new Map<string, string>();

  function start(tenantId: number, userId: number) {
    const testId = randomUUID();
    const uri = `sip:${sipUserOf(tenantId, userId)}@${settings.domain};cti=${TEST_CALL_PREFIX}${testId};leg=${TEST_CALL_PREFIX}${testId}`;
    tests.set(testId, { tenantId, userId, uri, sipCallId: "", result: null });
    byUri.set(uri, testId);
    void line.dial(uri).catch((error) => log(error, "placing a test call failed"));
    setTimeout(() => void line.hangup(uri).catch(() => undefined), TEST_CALL_MAX_MS).unref();
    setTimeout(() => forget(testId), RESULT_KEPT_MS).unref();
    return { testId };
  }

  function forget(testId: string) {
    const test = tests.get(testId);
    if (test) byUri.delete(test.uri);
    tests.delete(testId);
  }

  /** The phone line's events about test calls (true: it was one). */
  function onLineEvent(event: LineEvent): boolean {
    const testId = byUri.get(event.uri);
    const test = testId ? tests.get(testId) : undefined;
    if (!test) return false;
    if (event.type === "established") test.sipCallId = event.sipCallId;
    if (event.type === "closed") {
      byUri.delete(test.uri);
      if (!test.sipCallId) test.result = { done: true, agentLevelDb: null, audio: null };
      else void readBack(test).catch((error) => log(error, "reading a test call's recording failed"));
    }
    return true;
  }

  /** The agent's side of the test call's recording, once the media server has written it; then the recording goes. */
  async function readBack(test: TestCall) {
    let wav: Buffer | null = null;
    for (let attempt = 0; attempt < 50 && !wav; attempt++) {
      wav = await recordings.read(test.sipCallId);
      if (!wav) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    // Removed before the result is told: nobody keeps a test call's recording (the agent's voice).
    await recordings.remove(test.sipCallId).catch((error) => log(error, "removing a test call's recording failed"));
    const agent = wav ? channelOf(wav, 1) : null;
    test.result = {
      done: true,
      agentLevelDb: agent ? levelDb(agent) : null,
      audio: agent ? monoWav(agent, wav!.readUInt32LE(24)).toString("base64") : null,
    };
  }

  /** A test's result, for the agent who started it only. */
  function result(tenantId: number, userId: number, testId: string): PrecallResult {
    const test = tests.get(testId);
    if (!test || test.tenantId !== tenantId || test.userId !== userId) throw new HttpError(404, "找不到该通话测试，请重新测试");
    return test.result ?? { done: false, agentLevelDb: null, audio: null };
  }

  return { start, result, onLineEvent };
}

type TestCalls = ReturnType<typeof createTestCalls>;

/** One channel's samples (-1..1) of a 16-bit stereo WAV. */
function channelOf(wav: Buffer, channel: 0 | 1): Float32Array {
  const frames = Math.floor((wav.length - 44) / 4);
  const samples = new Float32Array(frames);
  for (let i = 0; i < frames; i++) samples[i] = wav.readInt16LE(44 + i * 4 + channel * 2) / 32768;
  return samples;
}

/** RMS level in dBFS (-100 for silence). */
export function levelDb(samples: Float32Array): number {
  let sum = 0;
  for (const x of samples) sum += x * x;
  const rms = Math.sqrt(sum / Math.max(1, samples.length));
  return rms > 0 ? Math.max(-100, Math.round(20 * Math.log10(rms))) : -100;
}

function monoWav(samples: Float32Array, rate: number): Buffer {
  const wav = emptyWav(samples.length, 1, rate);
  samples.forEach((x, i) => wav.writeInt16LE(Math.round(x * 32767), 44 + i * 2));
  return wav;
}

const TestParamsSchema = z.object({ testId: z.string().uuid("通话测试编号不正确") });

/**
 * `POST /cti/api/agent/sip/test` starts a test call to the signed-in agent's softphone (agents
 * only, not while the phone is busy or ready for calls); `GET /cti/api/agent/sip/test/:testId`
 * reads its result. Without SIP servers, a 409 says the media is simulated.
 */
export function precallRoutes(app: FastifyInstance, testCalls: () => TestCalls | null) {
  app.post("/cti/api/agent/sip/test", async (request) => {
    const user = requireUser(request);
    const { agent } = await app.cti.status({ id: user.id, tenantId: user.tenantId });
    const calls = testCalls();
    if (!calls) throw new HttpError(409, "当前为模拟语音（平台未配置语音服务器），无法进行通话测试");
    if (agent.state === "READY") throw new HttpError(409, "就绪时可能有来电，请先置为未就绪再进行通话测试");
    if (["RINGING", "TALKING", "HOLD"].includes(agent.state)) throw new HttpError(409, "通话中不能进行通话测试");
    return ok(calls.start(user.tenantId, user.id));
  });
  app.get("/cti/api/agent/sip/test/:testId", async (request) => {
    const user = requireUser(request);
    const { testId } = parseInput(TestParamsSchema, request.params);
    const calls = testCalls();
    if (!calls) throw new HttpError(404, "找不到该通话测试，请重新测试");
    return ok(calls.result(user.tenantId, user.id, testId));
  });
}
