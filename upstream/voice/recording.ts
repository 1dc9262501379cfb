import { readdir, readFile, rm } from "node:fs/promises";
import path from "node:path";
import { emptyWav } from "#common/wav.mjs";

/**
 * A call's recording from rtpengine's pcap (decision 036): the RTP each side sent, G.711 A-law
 * (the only codec the phone line offers, so both legs carry it untranscoded), decoded into a
 * stereo WAV every browser plays: the customer on the left, the agent on the right. Each stream
 * starts at the time its first packet was captured; its packets follow by their RTP timestamps,
 * so the jitter of their arrival adds no gaps or overlaps to the sound.
 */

const RATE = 8_000;
const SAMPLES_PER_MS = RATE / 1000;
const PCMA = 8;
/** How far RTP time may stray from capture time (1 s) before a stream is placed anew. */
const MAX_DRIFT_SAMPLES = RATE;

/** ITU-T G.711 A-law to 16-bit linear. */
function alaw(byte: number): number {
  const a = byte ^ 0x55;
  const exponent = (a & 0x70) >> 4;
  let magnitude = ((a & 0x0f) << 4) + 8;
  if (exponent !== 0) magnitude = (magnitude + 0x100) << (exponent - 1);
  return a & 0x80 ? magnitude : -magnitude;
}

type Packet = { atMs: number; dstPort: number; ssrc: number; timestamp: number; payload: Buffer };

/** The A-law RTP packets of a pcap (raw IP or Ethernet link), with capture time and destination port. */
function rtpPackets(pcap: Buffer): Packet[] {
  if (pcap.length < 24) return [];
  const little = pcap.readUInt32LE(0) === 0xa1b2c3d4;
  const u32 = (at: number) => (little ? pcap.readUInt32LE(at) : pcap.readUInt32BE(at));
  const linkType = u32(20);
  const linkHeader = linkType === 1 ? 14 : linkType === 113 ? 16 : 0;
  const packets: Packet[] = [];
  for (let at = 24; at + 16 <= pcap.length;) {
    const atMs = u32(at) * 1000 + u32(at + 4) / 1000;
    const length = u32(at + 8);
    const frame = pcap.subarray(at + 16, at + 16 + length);
    at += 16 + length;
    const ip = frame.subarray(linkHeader);
    if (ip.length < 28 || ip[0] >> 4 !== 4 || ip[9] !== 17) continue;
    const udp = ip.subarray((ip[0] & 0x0f) * 4);
    const rtp = udp.subarray(8);
    if (rtp.length < 12 || rtp[0] >> 6 !== 2 || (rtp[1] & 0x7f) !== PCMA) continue;
    let header = 12 + (rtp[0] & 0x0f) * 4;
    if (rtp[0] & 0x10) header += 4 + rtp.readUInt16BE(header + 2) * 4;
    packets.push({
      atMs,
      dstPort: udp.readUInt16BE(2),
      ssrc: rtp.readUInt32BE(8),
      timestamp: rtp.readUInt32BE(4),
      payload: rtp.subarray(header),
    });
  }
  return packets;
}

/** The port rtpengine offered the agent's browser: the first audio line of the call's metadata (the offer went to the agent). */
export function agentFacingPort(metadata: string): number | null {
  const port = /^m=audio (\d+) /m.exec(metadata)?.[1];
  return port ? Number(port) : null;
}

/** The stereo WAV of a recorded call: left what the customer said, right what the agent said (packets sent to `agentPort`). */
export function pcapToWav(pcap: Buffer, agentPort: number): Buffer {
  const packets = rtpPackets(pcap);
  // A loop, not Math.min(...): an hour's call has some 360,000 packets, past what a call's arguments may hold.
  const start = packets.reduce((min, p) => Math.min(min, p.atMs), Infinity);
  // Each packet's first sample, counted from `start`: its stream's first capture, then RTP time.
  const streams = new Map<string, { sample: number; timestamp: number }>();
  const placed = packets.map((packet) => {
    const key = `${packet.dstPort}/${packet.ssrc}`;
    const captured = Math.round((packet.atMs - start) * SAMPLES_PER_MS);
    let stream = streams.get(key);
    // The 32-bit timestamps' difference, signed (a packet reordered before the first comes earlier).
    let first = stream ? stream.sample + ((packet.timestamp - stream.timestamp) | 0) : captured;
    // A stream whose timestamps jump (a sender that restarted its clock) starts again where it was captured.
    if (!stream || Math.abs(first - captured) > MAX_DRIFT_SAMPLES) {
      stream = { sample: captured, timestamp: packet.timestamp };
      streams.set(key, stream);
      first = captured;
    }
    return { packet, first: Math.max(0, first) };
  });
  const frames = placed.reduce((most, { packet, first }) => Math.max(most, first + packet.payload.length), 0);
  const wav = emptyWav(frames, 2, RATE);
  for (const { packet, first } of placed) {
    const channel = packet.dstPort === agentPort ? 1 : 0;
    for (let i = 0; i < packet.payload.length; i++) wav.writeInt16LE(alaw(packet.payload[i]), 44 + (first + i) * 4 + channel * 2);
  }
  return wav;
}

/** The files rtpengine wrote for one SIP call under its recording directory (metadata, the pcap), by their folder. */
async function filesOf(recordingsDir: string, sipCallId: string) {
  const named = async (dir: string, prefix: string) =>
    (await readdir(path.join(recordingsDir, dir)).catch(() => [] as string[]))
      .filter((n) => n.startsWith(prefix))
      .map((n) => path.join(recordingsDir, dir, n));
  return { metadata: await named("metadata", `rtpengine-meta-${sipCallId}-`), pcaps: await named("pcaps", `${sipCallId}-`) };
}

/** A SIP call's recording as a WAV, once the media server has closed it (its metadata names the end). */
export async function readRecording(recordingsDir: string, sipCallId: string): Promise<Buffer | null> {
  const files = await filesOf(recordingsDir, sipCallId);
  const metadata = files.metadata[0] ? (await readFile(files.metadata[0])).toString() : undefined;
  const port = metadata?.includes("call end time") ? agentFacingPort(metadata) : null;
  const pcap = port && files.pcaps[0] ? await readFile(files.pcaps[0]) : null;
  return pcap && port ? pcapToWav(pcap, port) : null;
}

/** Deletes what rtpengine wrote for a SIP call whose recording nobody keeps (a 通话测试's). */
export async function removeRecording(recordingsDir: string, sipCallId: string): Promise<void> {
  const files = await filesOf(recordingsDir, sipCallId);
  await Promise.all([...files.metadata, ...files.pcaps].map((file) => rm(file, { force: true })));
}
