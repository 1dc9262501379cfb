import { describe, expect, it } from "vitest";
import { isNotification } from "./realtime";

describe("isNotification", () => {
  it("takes a notification as the console relays it", () => {
    expect(isNotification({ id: 7, type: "monitor.agent", at: "2026-11-28T12:00:00.000Z", payload: { userId: 1 } })).toBe(true);
  });

  it("refuses a frame its replay cursor or handlers could not use", () => {
    for (const frame of [
      null,
      "text",
      7,
      { type: "monitor.agent", at: "x" },
      { id: 0, type: "a", at: "x" },
      { id: 1.5, type: "a", at: "x" },
      { id: 1, type: "", at: "x" },
      { id: 1, type: "a" },
    ]) {
      expect(isNotification(frame), JSON.stringify(frame)).toBe(false);
    }
  });
});
