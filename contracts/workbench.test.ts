import { describe, expect, it } from "vitest";
import { CALLBACK_DATE_PAST, callbackDateProblem } from "./workbench";

describe("a conclusion's 回访日期", () => {
  // 23:30 on the 28th in Beijing (15:30 UTC), and 00:30 on the 29th there (still the 28th in UTC).
  const lateEvening = new Date("2026-11-28T15:30:00Z");
  const afterMidnight = new Date("2026-11-28T16:30:00Z");

  it("takes today or later on the tenant's clock, and no date at all", () => {
    expect(callbackDateProblem("2026-11-28", lateEvening)).toBeNull();
    expect(callbackDateProblem("2026-12-01", lateEvening)).toBeNull();
    expect(callbackDateProblem(undefined, lateEvening)).toBeNull();
    expect(callbackDateProblem("", lateEvening)).toBeNull();
  });

  it("refuses a day before today in China Standard Time, whatever UTC's date", () => {
    expect(callbackDateProblem("2026-11-27", lateEvening)).toBe(CALLBACK_DATE_PAST);
    expect(callbackDateProblem("2026-11-28", afterMidnight)).toBe(CALLBACK_DATE_PAST);
  });

  it("refuses what is not a calendar date", () => {
    expect(callbackDateProblem("明天", lateEvening)).toBe("回访日期格式无效");
    expect(callbackDateProblem("2026-13-01", lateEvening)).toBe("回访日期格式无效");
  });
});
