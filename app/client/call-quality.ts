/**
 * Call quality from WebRTC statistics (decision 043): round-trip time, jitter, packet loss and a
 * MOS estimated from them, with the thresholds call centres warn at. Pure: the workbench samples
 * `RTCPeerConnection.getStats()` every few seconds and hands two samples in.
 */

import type { CallQualityReport } from "#contracts/cti";

type QualityIssue = CallQualityReport["issues"][number];

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
  /** The thresholds crossed (contracts/codes.ts CALL_QUALITY_ISSUES). */
  issues: QualityIssue[];
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
  const issues: QualityIssue[] = [];
  const warn = (issue: QualityIssue, text: string) => {
    issues.push(issue);
    warnings.push(text);
  };
  if (now.rttMs !== null && now.rttMs > QUALITY_LIMITS.rttMs) warn("rtt", `延迟高（往返 ${Math.round(now.rttMs)} 毫秒）`);
  if (now.jitterMs !== null && now.jitterMs > QUALITY_LIMITS.jitterMs) warn("jitter", `抖动大（${Math.round(now.jitterMs)} 毫秒）`);
  if (lossPercent > QUALITY_LIMITS.lossPercent) warn("loss", `丢包 ${lossPercent}%`);
  if (mos < QUALITY_LIMITS.mos) warn("mos", `音质评分低（MOS ${mos.toFixed(1)}）`);
  return { rttMs: now.rttMs, jitterMs: now.jitterMs, lossPercent, mos, warnings, issues };
}

/** A call is poor for its supervisors when its badge warned this long without a break. */
export const POOR_CALL_MS = 10_000;

/** The longest stretch of a call the badge warned through, and what it warned of. */
export type PoorStretch = { since: number | null; longestMs: number; issues: QualityIssue[] };
export const NO_STRETCH: PoorStretch = { since: null, longestMs: 0, issues: [] };

/**
 * The call's poor stretch after a reading at `atMs`: a warning starts a stretch (or continues the
 * one going), a good reading ends it. The issues are those of every poor reading of the call.
 */
export function followPoorStretch(stretch: PoorStretch, quality: Pick<CallQuality, "issues">, atMs: number): PoorStretch {
  if (quality.issues.length === 0) return { ...stretch, since: null };
  const since = stretch.since ?? atMs;
  return {
    since,
    longestMs: Math.max(stretch.longestMs, atMs - since),
    issues: [...new Set([...stretch.issues, ...quality.issues])],
  };
}

/** What the softphone reports of a call that ended after `stretch`: null when it was not poor long enough. */
export function poorCallReport(ctiCallId: string, stretch: PoorStretch): CallQualityReport | null {
  if (stretch.longestMs < POOR_CALL_MS) return null;
  return { ctiCallId, poorSeconds: Math.round(stretch.longestMs / 1000), issues: stretch.issues };
}
