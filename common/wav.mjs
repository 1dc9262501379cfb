// Plain JavaScript so that the start scripts (node, no TypeScript) and the platform share it.

/**
 * The 44-byte header of a 16-bit PCM WAV of `frames` frames of `channels` channels.
 * @param {number} frames
 * @param {number} channels
 * @param {number} rate samples per second
 * @returns {Buffer}
 */
export function wavHeader(frames, channels, rate) {
  const bytes = frames * channels * 2;
  const header = Buffer.alloc(44);
  header.write("RIFF", 0);
  header.writeUInt32LE(36 + bytes, 4);
  header.write("WAVEfmt ", 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write("data", 36);
  header.writeUInt32LE(bytes, 40);
  return header;
}

/**
 * A 16-bit PCM WAV of `frames` frames of `channels` channels, its samples zero, to be written from byte 44.
 * @param {number} frames
 * @param {number} channels
 * @param {number} rate samples per second
 * @returns {Buffer}
 */
export function emptyWav(frames, channels, rate) {
  const wav = Buffer.alloc(44 + frames * channels * 2);
  wavHeader(frames, channels, rate).copy(wav);
  return wav;
}
