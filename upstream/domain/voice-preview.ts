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
  const wav = Buffer.alloc(44 + samples * 2);
  // RIFF header of a PCM file.
  wav.write("RIFF", 0, "ascii");
  wav.writeUInt32LE(36 + samples * 2, 4);
  wav.write("WAVE", 8, "ascii");
  wav.write("fmt ", 12, "ascii");
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20); // PCM
  wav.writeUInt16LE(1, 22); // mono
  wav.writeUInt32LE(PREVIEW_SAMPLE_RATE, 24);
  wav.writeUInt32LE(PREVIEW_SAMPLE_RATE * 2, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write("data", 36, "ascii");
  wav.writeUInt32LE(samples * 2, 40);
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
