import { describe, expect, it } from "vitest";
import { shownToSupervisor } from "./monitor.server";

const at = "2026-11-28T12:00:00.000Z";
const agent = {
  userId: 3,
  state: "TALKING",
  reason: null,
  since: at,
  queueName: "demo-voice",
  work: { kind: "call", id: "cti-1", party: "13800138000", direction: "inbound", campaignId: null, campaignName: null, startedAt: at },
  chats: 0,
  signOutPending: false,
};

describe("shownToSupervisor: what the monitor's island gets, checked by the console", () => {
  it("masks the party of an agent's call", () => {
    const shown = shownToSupervisor({ id: 1, type: "monitor.agent", at, payload: agent });
    expect((shown?.payload as typeof agent).work.party).toBe("138****8000");
  });

  it("passes a queue's waiting calls and drops a malformed one", () => {
    const queue = { queueName: "demo-voice", waiting: 2, oldestWaitingSince: at };
    expect(shownToSupervisor({ id: 2, type: "monitor.queue", at, payload: queue })?.payload).toEqual(queue);
    expect(shownToSupervisor({ id: 3, type: "monitor.queue", at, payload: { queueName: "demo-voice", waiting: "2" } })).toBeNull();
    expect(shownToSupervisor({ id: 4, type: "monitor.agent", at, payload: { userId: "3" } })).toBeNull();
  });

  it("passes a listened call's line and drops a malformed one", () => {
    const line = { kind: "call", id: "cti-1", role: "customer", content: "我想查账单", at };
    expect(shownToSupervisor({ id: 5, type: "monitor.line", at, payload: line })?.payload).toEqual(line);
    expect(shownToSupervisor({ id: 6, type: "monitor.line", at, payload: { ...line, role: "boss" } })).toBeNull();
  });
});
