import { describe, expect, it } from "vitest";
import type { PhoneCall, PhoneSnapshot } from "#contracts/cti";
import { laterPhone } from "./phone-snapshot";

const phone = (state: PhoneSnapshot["agent"]["state"], since: string, muted = false): PhoneSnapshot => ({
  agent: { agentId: "1002", queueName: "demo-voice", autoAnswer: false, state, reason: null, since, muted, acwEndsAt: null },
  call: null,
});

describe("laterPhone", () => {
  it("keeps a ring when the answer to 'ready' arrives after it", () => {
    const ringing = phone("RINGING", "2026-11-22T06:52:24.010Z");
    const ready = phone("READY", "2026-11-22T06:52:24.005Z");
    expect(laterPhone(ringing, ready)).toBe(ringing);
    expect(laterPhone(ready, ringing)).toBe(ringing);
  });
  it("keeps a live transcript line when the answer to 'answer' arrives after the line's event", () => {
    const line = (segmentId: number, dialogContent: string) => ({ segmentId, thisRole: 2, nluResult: null, dialogContent, gender: -1 });
    const call = (transcript: ReturnType<typeof line>[]): PhoneCall => ({
      ctiCallId: "cti-1",
      origin: "handoff",
      phone: "13800138000",
      queueName: "demo-voice",
      startedAt: "2026-11-22T06:52:20.000Z",
      answeredAt: "2026-11-22T06:52:30.000Z",
      flowId: 1,
      campaignId: null,
      prevCtiCallId: null,
      workOrderId: null,
      transcript,
      dtmf: "",
      consult: null,
    });
    const shown = { ...phone("TALKING", "2026-11-22T06:52:30.000Z"), call: call([line(0, "您好"), line(1, "我是人工客服")]) };
    const answered = { ...phone("TALKING", "2026-11-22T06:52:30.000Z"), call: call([line(0, "您好")]) };
    expect(laterPhone(shown, answered).call!.transcript.map((l) => l.dialogContent)).toEqual(["您好", "我是人工客服"]);
    // Another call's lines never carry over.
    const next = { ...phone("RINGING", "2026-11-22T06:53:00.000Z"), call: { ...call([]), ctiCallId: "cti-2" } };
    expect(laterPhone(shown, next)).toBe(next);
  });
  it("applies a change within the same state", () => {
    const talking = phone("TALKING", "2026-11-22T06:52:30.000Z");
    const muted = phone("TALKING", "2026-11-22T06:52:30.000Z", true);
    expect(laterPhone(talking, muted)).toBe(muted);
  });
});
