import { describe, expect, it } from "vitest";
import type { PhoneSnapshot } from "../../contracts/cti";
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
  it("applies a change within the same state", () => {
    const talking = phone("TALKING", "2026-11-22T06:52:30.000Z");
    const muted = phone("TALKING", "2026-11-22T06:52:30.000Z", true);
    expect(laterPhone(talking, muted)).toBe(muted);
  });
});
