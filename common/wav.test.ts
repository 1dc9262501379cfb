import { describe, expect, it } from "vitest";
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CUSTOMER_VOICE_SECONDS, toneWav, writeCustomerVoice } from "../scripts/voice-servers.mjs";
import { emptyWav } from "./wav.mjs";

describe("the one WAV writer", () => {
  it("writes a 16-bit PCM header that says the channels, rate and length", () => {
    const wav = emptyWav(8_000, 2, 8_000);
    expect(wav.length).toBe(44 + 32_000);
    expect(wav.toString("ascii", 0, 4) + wav.toString("ascii", 8, 16) + wav.toString("ascii", 36, 40)).toBe("RIFFWAVEfmt data");
    expect([
      wav.readUInt16LE(20),
      wav.readUInt16LE(22),
      wav.readUInt32LE(24),
      wav.readUInt32LE(28),
      wav.readUInt16LE(32),
      wav.readUInt16LE(34),
    ]).toEqual([1, 2, 8_000, 32_000, 4, 16]);
    expect([wav.readUInt32LE(4), wav.readUInt32LE(40)]).toEqual([36 + 32_000, 32_000]);
  });

  it("is what the start scripts' test tone is written with", () => {
    const tone = toneWav(440, 1, 8_000);
    expect(tone.subarray(0, 44)).toEqual(emptyWav(8_000, 1, 8_000).subarray(0, 44));
    // A quarter period of 440 Hz at 8 kHz in: the sine is near its peak (amplitude 0.5).
    expect(tone.readInt16LE(44 + 2 * 5)).toBeGreaterThan(15_000);
  });

  it("gives the simulated customer ten minutes of voice, its tone unbroken from one second to the next", () => {
    const dir = mkdtempSync(join(tmpdir(), "switchboard-wav-"));
    try {
      const file = join(dir, "customer.wav");
      writeCustomerVoice(file, 440);
      const wav = readFileSync(file);
      // baresip ends a call when this file ends: ten minutes, not the minute that cut every call at 60 s.
      expect(CUSTOMER_VOICE_SECONDS).toBe(600);
      expect(wav.readUInt32LE(40) / 2 / wav.readUInt32LE(24)).toBe(600);
      expect(wav.length).toBe(44 + 600 * 8_000 * 2);
      // Across the seam between two seconds, the samples go on as one sine would.
      const at = (i: number) => wav.readInt16LE(44 + i * 2);
      const sine = (i: number) => Math.round(Math.sin((2 * Math.PI * 440 * i) / 8_000) * 0.5 * 32767);
      for (const i of [7_998, 7_999, 8_000, 8_001, 599 * 8_000 + 3]) expect(at(i)).toBe(sine(i));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
