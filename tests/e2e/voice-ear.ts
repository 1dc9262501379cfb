import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, type APIRequestContext, type BrowserContext, type Page } from "@playwright/test";
import { toneWav } from "../../scripts/voice-servers.mjs";
import { PLATFORM_URL } from "./support";

/**
 * What the real-voice e2e files share (decision 036): Chromium with a fake microphone playing an
 * 880 Hz tone (the agent), the simulated customer's 440 Hz, and the test's ear on the page.
 */
export const AGENT_TONE_HZ = 880;
export const CUSTOMER_TONE_HZ = 440;
/** A second agent's microphone (a consulted colleague), in a browser of its own. */
export const COLLEAGUE_TONE_HZ = 660;

/** Chromium whose fake microphone plays a tone of `hz` (the flag is the browser's, so one tone per browser). */
export function launchOptionsWithTone(hz: number) {
  const tone = join(tmpdir(), `switchboard-agent-tone-${hz}.wav`);
  writeFileSync(tone, toneWav(hz, 30, 48_000));
  return {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--use-fake-ui-for-media-stream",
      "--use-fake-device-for-media-stream",
      `--use-file-for-fake-audio-capture=${tone}`,
      "--autoplay-policy=no-user-gesture-required",
      "--allow-loopback-in-peer-connection",
    ],
  };
}

export const voiceLaunchOptions = launchOptionsWithTone(AGENT_TONE_HZ);

/**
 * Prepares the test's ear on the agent's pages: Chrome's echo cancellation, noise suppression and
 * gain control would fade a steady tone, so the pages' microphone is asked for without them. The
 * page counts its microphone requests (`window.micRequests`).
 */
export async function listenOnPage(page: Page | BrowserContext) {
  await page.addInitScript(() => {
    const w = window as unknown as { micRequests: number; peerConnections: RTCPeerConnection[] };
    w.micRequests = 0;
    const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = (constraints) => {
      w.micRequests += 1;
      const chosen = typeof constraints?.audio === "object" ? constraints.audio : {};
      return original({
        ...constraints,
        audio: constraints?.audio ? { ...chosen, echoCancellation: false, noiseSuppression: false, autoGainControl: false } : false,
      });
    };
    // The page's peer connections, for what the agent sends (the microphone's track, packets sent).
    w.peerConnections = [];
    const Original = window.RTCPeerConnection;
    window.RTCPeerConnection = class extends Original {
      constructor(...args: ConstructorParameters<typeof RTCPeerConnection>) {
        super(...args);
        w.peerConnections.push(this);
      }
    };
  });
}

/** What the page's latest call sends: the microphone's name and the audio packets sent so far. */
export const sending = (page: Page) =>
  page.evaluate(async () => {
    const peer = (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections.at(-1);
    const sender = peer?.getSenders().find((s) => s.track?.kind === "audio");
    let packets = 0;
    (await sender?.getStats())?.forEach((entry: { type: string; packetsSent?: number }) => {
      if (entry.type === "outbound-rtp") packets += entry.packetsSent ?? 0;
    });
    return { microphone: sender?.track?.label ?? "", live: sender?.track?.readyState === "live", packets };
  });

/**
 * What the page hears now on the softphone's stream (WebAudio analyser): the loudest frequency,
 * and the level (dB) at each of `tones`.
 */
const listen = (page: Page, tones: number[] = []) =>
  page.evaluate((tones) => {
    const w = window as unknown as { ear?: { analyser: AnalyserNode; rate: number; stream: MediaStream } };
    const audio = document.querySelector<HTMLAudioElement>("[data-testid=softphone-audio]");
    const stream = audio?.srcObject as MediaStream | null;
    if (!stream) return { hz: 0, db: -Infinity, levels: tones.map(() => -Infinity) };
    if (w.ear?.stream !== stream) {
      const context = new AudioContext();
      void context.resume();
      const analyser = context.createAnalyser();
      analyser.fftSize = 8192;
      context.createMediaStreamSource(stream).connect(analyser);
      w.ear = { analyser, rate: context.sampleRate, stream };
    }
    const { analyser, rate } = w.ear;
    const bins = new Float32Array(analyser.frequencyBinCount);
    analyser.getFloatFrequencyData(bins);
    let top = 1;
    for (let i = 2; i < bins.length; i++) if (bins[i] > bins[top]) top = i;
    const levels = tones.map((hz) => bins[Math.round((hz * analyser.fftSize) / rate)]);
    return { hz: (top * rate) / analyser.fftSize, db: bins[top], levels };
  }, tones);

/** The loudest frequency the page hears now on the softphone's remote stream. */
export const loudest = async (page: Page) => {
  const { hz, db } = await listen(page);
  return { hz, db };
};

/** Which of `tones` the page hears now (each clearly above the noise), in the same order. */
export const hearsTones = async (page: Page, tones: number[]) => (await listen(page, tones)).levels.map((db) => db > -70);

export const hears = (sound: { hz: number; db: number }, hz: number) => Math.abs(sound.hz - hz) < 15 && sound.db > -70;
/** Nothing at all: the loudest frequency is far below any tone. */
export const silent = (sound: { db: number }) => sound.db < -100;

/** The strength of `hz` in one channel of a 16-bit stereo WAV (Goertzel), and the channel's RMS. */
export function toneIn(wav: Buffer, channel: 0 | 1, hz: number) {
  const rate = wav.readUInt32LE(24);
  const samples: number[] = [];
  for (let at = 44 + channel * 2; at + 2 <= wav.length; at += 4) samples.push(wav.readInt16LE(at) / 32768);
  const k = 2 * Math.cos((2 * Math.PI * hz) / rate);
  let [s1, s2] = [0, 0];
  for (const x of samples) [s1, s2] = [x + k * s1 - s2, s1];
  const power = (s1 * s1 + s2 * s2 - k * s1 * s2) / Math.max(1, samples.length) ** 2;
  return { power, rms: Math.sqrt(samples.reduce((sum, x) => sum + x * x, 0) / Math.max(1, samples.length)) };
}

/** The recorded audio of the call's leg (left: the customer said, right: the customer heard), once the leg has ended. */
export async function recordedCall(request: APIRequestContext, token: string, ctiCallId: string): Promise<Buffer> {
  let wav: Buffer | null = null;
  await expect
    .poll(
      async () => {
        const response = await request.get(`${PLATFORM_URL}/cti/simulator/call/${ctiCallId}/audio`, {
          headers: { authorization: `Bearer ${token}` },
        });
        wav = response.ok() ? await response.body() : null;
        return wav !== null;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  return wav!;
}
