// Plain JavaScript so that the start scripts (node, no TypeScript) and the platform share it.

/**
 * A 16-bit PCM WAV of `frames` frames of `channels` channels, its samples zero, to be written from byte 44.
 * @param {number} frames
 * @param {number} channels
 * @param {number} rate samples per second
 * @returns {Buffer}
 */
export function emptyWav(frames, channels, rate) {
  const bytes = frames * channels * 2;
  const wav = Buffer.alloc(44 + bytes);
  wav.write("RIFF", 0);
  wav.writeUInt32LE(36 + bytes, 4);
  wav.write("WAVEfmt ", 8);
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(channels, 22);
  wav.writeUInt32LE(rate, 24);
  wav.writeUInt32LE(rate * channels * 2, 28);
  wav.writeUInt16LE(channels * 2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write("data", 36);
  wav.writeUInt32LE(bytes, 40);
  return wav;
}
