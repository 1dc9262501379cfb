/**
 * Call quality from WebRTC statistics (decision 043): round-trip time, jitter, packet loss and a
 * MOS estimated from them, with the thresholds call centres warn at. Pure: the workbench samples
 * `RTCPeerConnection.getStats()` every few seconds and hands two samples in.
 */

/** What one `getStats()` report says about the call's audio. */
export type StatsSample = {
  /** Round trip to the media server, in ms (the selected ICE pair's STUN checks, else RTCP). */
  rttMs: number | null;
  /** Inter-arrival jitter of the audio received, in ms. */
  jitterMs: number | null;
  /** Cumulative counts of the audio received. */
  packetsReceived: number;
  packetsLost: number;
};

export type CallQuality = {
  rttMs: number | null;
  jitterMs: number | null;
  /** Packets lost over the interval between the two samples, in percent. */
  lossPercent: number;
  mos: number;
  /** What is wrong, in the agent's words; empty when the call is good. */
  warnings: string[];
};

export const QUALITY_LIMITS = { rttMs: 400, jitterMs: 30, lossPercent: 3, mos: 3.5 } as const;

type StatsEntry = Record<string, unknown> & { type?: string };

/** Reads the audio figures out of a stats report (an RTCStatsReport, or any map of stats entries). */
export function statsSample(report: { forEach(callback: (entry: StatsEntry) => void): void }): StatsSample {
  const sample: StatsSample = { rttMs: null, jitterMs: null, packetsReceived: 0, packetsLost: 0 };
  let remoteRtt: number | null = null;
  report.forEach((entry) => {
    if (
      entry.type === "candidate-pair" &&
      entry.nominated &&
      entry.state === "succeeded" &&
      typeof entry.currentRoundTripTime === "number"
    ) {
      sample.rttMs = entry.currentRoundTripTime * 1000;
    } else if (entry.type === "remote-inbound-rtp" && entry.kind === "audio" && typeof entry.roundTripTime === "number") {
      remoteRtt = entry.roundTripTime * 1000;
    } else if (entry.type === "inbound-rtp" && entry.kind === "audio") {
      if (typeof entry.jitter === "number") sample.jitterMs = entry.jitter * 1000;
      sample.packetsReceived += Number(entry.packetsReceived ?? 0);
      sample.packetsLost += Number(entry.packetsLost ?? 0);
    }
  });
  sample.rttMs ??= remoteRtt;
  return sample;
}

/**
 * A MOS estimate (1–4.5) by the simplified E-model (ITU-T G.107): one-way delay plus twice the
 * jitter plus 10 ms of codec delay lower R, each percent of loss lowers it by 2.5.
 */
export function estimateMos(rttMs: number, jitterMs: number, lossPercent: number): number {
  const latency = rttMs / 2 + 2 * jitterMs + 10;
  const r = (latency < 160 ? 93.2 - latency / 40 : 93.2 - (latency - 120) / 10) - 2.5 * lossPercent;
  if (r <= 0) return 1;
  const mos = 1 + 0.035 * r + 0.000007 * r * (r - 60) * (100 - r);
  return Math.round(Math.min(4.5, Math.max(1, mos)) * 100) / 100;
}

/** The call's quality over the interval from `before` to `now` (`before` null: since the call began). */
export function callQuality(before: StatsSample | null, now: StatsSample): CallQuality {
  const received = now.packetsReceived - (before?.packetsReceived ?? 0);
  const lost = Math.max(0, now.packetsLost - (before?.packetsLost ?? 0));
  const lossPercent = received + lost > 0 ? Math.round((lost / (received + lost)) * 1000) / 10 : 0;
  const mos = estimateMos(now.rttMs ?? 0, now.jitterMs ?? 0, lossPercent);
  const warnings: string[] = [];
  if (now.rttMs !== null && now.rttMs > QUALITY_LIMITS.rttMs) warnings.push(`延迟高（往返 ${Math.round(now.rttMs)} 毫秒）`);
  if (now.jitterMs !== null && now.jitterMs > QUALITY_LIMITS.jitterMs) warnings.push(`抖动大（${Math.round(now.jitterMs)} 毫秒）`);
  if (lossPercent > QUALITY_LIMITS.lossPercent) warnings.push(`丢包 ${lossPercent}%`);
  if (mos < QUALITY_LIMITS.mos) warnings.push(`音质评分低（MOS ${mos.toFixed(1)}）`);
  return { rttMs: now.rttMs, jitterMs: now.jitterMs, lossPercent, mos, warnings };
}
