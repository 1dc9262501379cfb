import { emptyWav } from "#common/wav.mjs";

/**
 * A speaker's preview (GET /config/agent/voice/preview, decision 030): the reference platform has
 * no speech synthesiser, so a speaker is heard as a short rising three-note phrase at its own
 * pitch — a real WAV (8 kHz, 16-bit PCM, mono, about a second) that any <audio> element plays.
 */
export const PREVIEW_SAMPLE_RATE = 8_000;
const NOTE_SECONDS = 0.28;
const GAP_SECONDS = 0.06;
/** A major triad: the speaker's pitch, its third and its fifth. */
const STEPS = [1, 5 / 4, 3 / 2];

export function previewWav(pitch: number): Buffer {
  const note = Math.round(NOTE_SECONDS * PREVIEW_SAMPLE_RATE);
  const gap = Math.round(GAP_SECONDS * PREVIEW_SAMPLE_RATE);
  const samples = STEPS.length * (note + gap);
  const wav = emptyWav(samples, 1, PREVIEW_SAMPLE_RATE);
  let at = 44;
  for (const step of STEPS) {
    const frequency = pitch * step;
    for (let i = 0; i < note; i++) {
      // A short fade in and out, so the notes do not click.
      const envelope = Math.min(1, i / 200, (note - i) / 200);
      wav.writeInt16LE(Math.round(Math.sin((2 * Math.PI * frequency * i) / PREVIEW_SAMPLE_RATE) * envelope * 12_000), at);
      at += 2;
    }
    at += gap * 2; // silence (the buffer is zeroed)
  }
  return wav;
}
