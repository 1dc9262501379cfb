import { describe, expect, it } from "vitest";
import {
  NO_STRETCH,
  callQuality,
  estimateMos,
  followPoorStretch,
  poorCallReport,
  statsSample,
  type CallQuality,
  type StatsSample,
} from "./call-quality";

const sample = (over: Partial<StatsSample> = {}): StatsSample => ({
  rttMs: 40,
  jitterMs: 5,
  packetsReceived: 1000,
  packetsLost: 0,
  ...over,
});

describe("estimateMos", () => {
  it("rates a clean call near the top of G.711's range", () => {
    expect(estimateMos(40, 5, 0)).toBeCloseTo(4.39, 2);
  });
  it("falls with delay, jitter and loss", () => {
    const clean = estimateMos(40, 5, 0);
    expect(estimateMos(600, 5, 0)).toBeLessThan(clean);
    expect(estimateMos(40, 60, 0)).toBeLessThan(clean);
    expect(estimateMos(40, 5, 5)).toBeLessThan(clean);
    expect(estimateMos(800, 80, 20)).toBeLessThan(3.5);
  });
  it("stays within 1 and 4.5", () => {
    expect(estimateMos(0, 0, 0)).toBeLessThanOrEqual(4.5);
    expect(estimateMos(5000, 500, 100)).toBe(1);
  });
});

describe("callQuality", () => {
  it("a good call has no warning", () => {
    const quality = callQuality(sample(), sample({ packetsReceived: 1100 }));
    expect(quality.lossPercent).toBe(0);
    expect(quality.warnings).toEqual([]);
  });
  it("counts loss over the interval, not since the call began", () => {
    // 50 lost early in the call, none in the last interval.
    const quality = callQuality(sample({ packetsLost: 50 }), sample({ packetsReceived: 1100, packetsLost: 50 }));
    expect(quality.lossPercent).toBe(0);
    // 5 of 100 lost in the interval: 5 %.
    expect(callQuality(sample(), sample({ packetsReceived: 1095, packetsLost: 5 })).lossPercent).toBe(5);
  });
  it("warns at each threshold, only past it", () => {
    expect(callQuality(null, sample({ rttMs: 400 })).warnings).toEqual([]);
    expect(callQuality(null, sample({ rttMs: 401 })).warnings).toEqual(["延迟高（往返 401 毫秒）"]);
    expect(callQuality(null, sample({ jitterMs: 30 })).warnings).toEqual([]);
    expect(callQuality(null, sample({ jitterMs: 31 })).warnings).toEqual(["抖动大（31 毫秒）"]);
    expect(callQuality(sample(), sample({ packetsReceived: 1097, packetsLost: 3 })).warnings).toEqual([]);
    expect(callQuality(sample(), sample({ packetsReceived: 1096, packetsLost: 4 })).warnings).toEqual(["丢包 4%"]);
  });
  it("warns of a low MOS with the other causes", () => {
    const quality = callQuality(sample(), sample({ rttMs: 900, jitterMs: 80, packetsReceived: 1080, packetsLost: 20 }));
    expect(quality.mos).toBeLessThan(3.5);
    expect(quality.warnings).toEqual([
      "延迟高（往返 900 毫秒）",
      "抖动大（80 毫秒）",
      "丢包 20%",
      `音质评分低（MOS ${quality.mos.toFixed(1)}）`,
    ]);
  });
});

describe("statsSample", () => {
  const report = (entries: Record<string, unknown>[]) => new Map(entries.map((entry, i) => [String(i), entry]));
  it("reads the selected pair's round trip, and the received audio's jitter and counts", () => {
    const got = statsSample(
      report([
        { type: "candidate-pair", nominated: false, state: "failed", currentRoundTripTime: 9 },
        { type: "candidate-pair", nominated: true, state: "succeeded", currentRoundTripTime: 0.12 },
        { type: "inbound-rtp", kind: "audio", jitter: 0.015, packetsReceived: 500, packetsLost: 7 },
        { type: "inbound-rtp", kind: "video", jitter: 1, packetsReceived: 9, packetsLost: 9 },
      ]),
    );
    expect(got).toEqual({ rttMs: 120, jitterMs: 15, packetsReceived: 500, packetsLost: 7 });
  });
  it("falls back to RTCP's round trip; nothing known is null", () => {
    expect(statsSample(report([{ type: "remote-inbound-rtp", kind: "audio", roundTripTime: 0.25 }])).rttMs).toBe(250);
    expect(statsSample(report([]))).toEqual({ rttMs: null, jitterMs: null, packetsReceived: 0, packetsLost: 0 });
  });
});

type Reading = Pick<CallQuality, "issues">;

describe("a poor stretch", () => {
  const poor: Reading = { issues: ["loss"] };
  const good: Reading = { issues: [] };

  it("is reported once the badge warned 10 s without a break, with what it warned of", () => {
    let stretch = NO_STRETCH;
    const readings: Array<[number, Reading]> = [
      [0, { issues: ["mos"] }],
      [2_000, poor],
      [4_000, good],
      [6_000, poor],
      [16_000, poor],
    ];
    for (const [at, reading] of readings) stretch = followPoorStretch(stretch, reading, at);
    expect(poorCallReport("cti-1", stretch)).toEqual({ ctiCallId: "cti-1", poorSeconds: 10, issues: ["mos", "loss"] });
  });

  it("is not reported when shorter, however often it came back", () => {
    let stretch = NO_STRETCH;
    for (let at = 0; at < 60_000; at += 2_000) stretch = followPoorStretch(stretch, at % 8_000 === 6_000 ? good : poor, at);
    expect(stretch.longestMs).toBe(4_000);
    expect(poorCallReport("cti-1", stretch)).toBeNull();
  });
});
