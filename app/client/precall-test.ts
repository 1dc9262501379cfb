import type { PrecallResult } from "#contracts/voice";
import type { SipPhone } from "./sip-phone";

/**
 * The pre-call test (通话测试, decision 053): the devices, the SIP server, media through the media
 * server and a loopback of the agent's own voice, each with a verdict in Chinese, within 30 s.
 */
export type StepKey = "microphone" | "speaker" | "sip" | "media" | "loopback";
export type StepStatus = "waiting" | "running" | "passed" | "failed" | "skipped";
export type Step = { key: StepKey; label: string; status: StepStatus; detail: string };

export const STEPS: ReadonlyArray<{ key: StepKey; label: string }> = [
  { key: "microphone", label: "麦克风" },
  { key: "speaker", label: "扬声器" },
  { key: "sip", label: "语音服务器（注册）" },
  { key: "media", label: "媒体服务器（测试音）" },
  { key: "loopback", label: "您的声音回放" },
];

/** Quieter than this (RMS, dBFS) is no sound: a room's noise on an open microphone is about -60. */
export const SOUND_DB = -50;
const MIC_LISTEN_MS = 1_500;
const REGISTER_MS = 5_000;
const TEST_CALL_MS = 8_000;
/** The test call is held this long after it connects, for the agent's voice to reach the media server. */
const HOLD_MS = 3_500;
const RESULT_MS = 8_000;

const TEXT = {
  micDenied: "浏览器未允许使用麦克风。请点击地址栏左侧的网站设置，允许本站使用麦克风后重试。",
  micMissing: "未找到麦克风。请连接耳麦，或在“设备”中选择其他麦克风后重试。",
  micBusy: "无法打开麦克风（可能被其他程序占用）。请关闭占用麦克风的程序后重试。",
  micSilent: (db: number) => `麦克风没有声音（电平 ${db} dB）。请检查耳麦是否静音、是否选错麦克风，测试时请对着麦克风说话。`,
  micOk: (db: number) => `麦克风有声音（电平 ${db} dB）。`,
  speakerOk: "已在通话扬声器播放提示音，请确认听到了“嘟”声；若没有听到，请在“设备”中检查通话扬声器。",
  speakerFailed: "无法在通话扬声器播放声音。请在“设备”中选择其他扬声器，或检查系统音量后重试。",
  sipMissing: "软电话尚未连接语音服务器。请刷新页面后重试。",
  sipFailed: "无法注册到语音服务器（服务器无响应或拒绝注册）。请检查网络连接；若持续失败，请联系管理员检查语音服务器。",
  sipOk: "已注册到语音服务器。",
  noTestCall: "测试电话没有接通本软电话。请刷新页面后重试；若持续失败，请联系管理员检查语音服务器。",
  mediaSilent: "听不到经过媒体服务器的测试音：通话声音可能被网络拦截（如防火墙阻止了 UDP）。请联系管理员为软电话配置 TURN 中继。",
  mediaOk: (db: number) => `通过媒体服务器听到了测试音（电平 ${db} dB）。`,
  noRecording: "媒体服务器没有收到您的声音：上行声音可能被网络拦截。请联系管理员检查网络或配置 TURN 中继。",
  quietRecording: (db: number) => `媒体服务器收到的您的声音过小（电平 ${db} dB）。请检查麦克风音量，测试时请对着麦克风说话。`,
  loopbackOk: (db: number) => `媒体服务器收到了您的声音（电平 ${db} dB），正在回放，请听是否清晰。`,
  skippedNoMic: "未进行：需要可用的麦克风。",
  skippedNoSip: "未进行：软电话未注册到语音服务器。",
  skippedNoCall: "未进行：测试电话没有接通。",
} as const;

/** The verdict of the whole test: passed, or the first step that failed and what to do. */
export function verdictOf(steps: Step[]): string {
  const failed = steps.find((step) => step.status === "failed");
  if (failed) return `通话测试未通过：${failed.label}——${failed.detail}`;
  return steps.every((step) => step.status === "passed") ? "通话测试通过，可以开始接听电话。" : "";
}

/** The verdict of the agent's recorded voice. */
export function loopbackVerdict(levelDb: number | null): { passed: boolean; detail: string } {
  if (levelDb === null) return { passed: false, detail: TEXT.noRecording };
  if (levelDb < SOUND_DB) return { passed: false, detail: TEXT.quietRecording(levelDb) };
  return { passed: true, detail: TEXT.loopbackOk(levelDb) };
}

/** Why a microphone could not be opened, from the browser's error. */
export function microphoneProblem(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === "NotAllowedError" || name === "SecurityError") return TEXT.micDenied;
  if (name === "NotFoundError" || name === "OverconstrainedError") return TEXT.micMissing;
  return TEXT.micBusy;
}

type Run = {
  phone: SipPhone | null;
  microphone: string | undefined;
  /** Plays a stream (the test tone, the beep) on the call speaker; rejects if it cannot. */
  play: (source: MediaStream | string) => Promise<void>;
  start: () => Promise<{ testId: string } | { error: string }>;
  result: (testId: string) => Promise<PrecallResult | null>;
  onSteps: (steps: Step[]) => void;
};

/** Runs every step in turn, telling `onSteps` after each change. */
export async function runPrecallTest(run: Run): Promise<Step[]> {
  const steps: Step[] = STEPS.map(({ key, label }) => ({ key, label, status: "waiting", detail: "" }));
  const set = (key: StepKey, status: StepStatus, detail = "") => {
    const at = steps.findIndex((step) => step.key === key);
    steps[at] = { ...steps[at], status, detail };
    run.onSteps([...steps]);
  };
  const context = new AudioContext();
  try {
    set("microphone", "running", "请对着麦克风说话…");
    const micDb = await checkMicrophone(context, run.microphone).catch((error: unknown) => microphoneProblem(error));
    const micOk = typeof micDb === "number" && micDb >= SOUND_DB;
    if (typeof micDb === "string") set("microphone", "failed", micDb);
    else set("microphone", micOk ? "passed" : "failed", micOk ? TEXT.micOk(micDb) : TEXT.micSilent(micDb));

    set("speaker", "running");
    await run.play(beep(context)).then(
      () => set("speaker", "passed", TEXT.speakerOk),
      () => set("speaker", "failed", TEXT.speakerFailed),
    );

    set("sip", "running");
    const sipOk = run.phone ? await run.phone.checkRegistration(REGISTER_MS) : false;
    set("sip", sipOk ? "passed" : "failed", sipOk ? TEXT.sipOk : run.phone ? TEXT.sipFailed : TEXT.sipMissing);
    if (!micOk || !sipOk || !run.phone) {
      const why = micOk ? TEXT.skippedNoSip : TEXT.skippedNoMic;
      set("media", "skipped", why);
      set("loopback", "skipped", why);
      return steps;
    }

    set("media", "running", "平台正在呼叫本软电话，接通后请说几句话…");
    // Armed first: the test call may arrive before the platform's answer.
    const arriving = run.phone.answerTestCall(TEST_CALL_MS);
    const started = await run.start();
    if ("error" in started) {
      set("media", "failed", started.error);
      set("loopback", "skipped", TEXT.skippedNoCall);
      return steps;
    }
    const call = await arriving;
    if (call && call.id !== started.testId) call.session.terminate();
    if (!call || call.id !== started.testId) {
      set("media", "failed", TEXT.noTestCall);
      set("loopback", "skipped", TEXT.skippedNoCall);
      return steps;
    }
    const connectedAt = Date.now();
    void run.play(call.stream).catch(() => undefined);
    const heardDb = await loudestWithin(context, call.stream, HOLD_MS);
    set("media", heardDb >= SOUND_DB ? "passed" : "failed", heardDb >= SOUND_DB ? TEXT.mediaOk(heardDb) : TEXT.mediaSilent);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, connectedAt + HOLD_MS - Date.now())));
    if (!call.session.isEnded()) call.session.terminate();

    set("loopback", "running", "正在读取媒体服务器收到的您的声音…");
    const recorded = await waitForResult(run.result, started.testId);
    const verdict = loopbackVerdict(recorded?.done ? recorded.agentLevelDb : null);
    set("loopback", verdict.passed ? "passed" : "failed", verdict.detail);
    if (verdict.passed && recorded?.audio) await run.play(wavUrl(recorded.audio)).catch(() => undefined);
    return steps;
  } finally {
    void context.close();
  }
}

/** The microphone's loudest moment over a second and a half, in dBFS. */
async function checkMicrophone(context: AudioContext, deviceId: string | undefined): Promise<number> {
  const stream = await navigator.mediaDevices.getUserMedia({ audio: deviceId ? { deviceId } : true });
  try {
    return await loudestWithin(context, stream, MIC_LISTEN_MS);
  } finally {
    for (const track of stream.getTracks()) track.stop();
  }
}

/** The loudest 50 ms of a stream within `ms` (dBFS; stops early once it is clearly sound). */
async function loudestWithin(context: AudioContext, stream: MediaStream, ms: number): Promise<number> {
  await context.resume();
  const analyser = context.createAnalyser();
  analyser.fftSize = 2048;
  const source = context.createMediaStreamSource(stream);
  source.connect(analyser);
  const samples = new Float32Array(analyser.fftSize);
  let loudest = -100;
  const until = Date.now() + ms;
  while (Date.now() < until && loudest < SOUND_DB + 10) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    analyser.getFloatTimeDomainData(samples);
    let sum = 0;
    for (const x of samples) sum += x * x;
    const rms = Math.sqrt(sum / samples.length);
    loudest = Math.max(loudest, rms > 0 ? Math.round(20 * Math.log10(rms)) : -100);
  }
  source.disconnect();
  return loudest;
}

/** A short 660 Hz beep as a stream, for the speaker check. */
function beep(context: AudioContext): MediaStream {
  const destination = context.createMediaStreamDestination();
  const tone = context.createOscillator();
  const gain = context.createGain();
  tone.frequency.value = 660;
  gain.gain.value = 0.2;
  tone.connect(gain).connect(destination);
  tone.start();
  tone.stop(context.currentTime + 0.4);
  return destination.stream;
}

async function waitForResult(result: Run["result"], testId: string): Promise<PrecallResult | null> {
  const until = Date.now() + RESULT_MS;
  while (Date.now() < until) {
    const answer = await result(testId);
    if (answer?.done) return answer;
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
  return null;
}

/** The recorded voice (a base64 WAV) as a URL the page may play (CSP allows blob: media). */
function wavUrl(base64: string): string {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  return URL.createObjectURL(new Blob([bytes], { type: "audio/wav" }));
}
