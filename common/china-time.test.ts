import { describe, expect, it } from "vitest";
import { cstDate, cstMinuteOfDay, startOfCstDay } from "./china-time";

describe("China Standard Time", () => {
  it("starts the day at midnight in Beijing, whatever the machine's zone", () => {
    expect(startOfCstDay(new Date("2026-11-24T15:59:59Z")).toISOString()).toBe("2026-11-23T16:00:00.000Z");
    expect(startOfCstDay(new Date("2026-11-24T16:00:00Z")).toISOString()).toBe("2026-11-24T16:00:00.000Z");
    expect(cstDate(new Date("2026-11-24T16:30:00Z"))).toBe("2026-11-25");
    expect(cstMinuteOfDay(new Date("2026-11-24T01:30:00Z"))).toBe(9 * 60 + 30);
  });
});
