import { expect, it } from "vitest";
import { dispatchDays } from "./dispatch-plan";

const week = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
  weekday,
  enabled: weekday <= 6,
  start: "09:00",
  end: weekday === 6 ? "12:00" : "18:00",
}));

it("cuts a campaign's windows to the working hours, and calls on no festival, resting day or day outside its dates", () => {
  // 2026-09-28 is a Monday.
  const days = dispatchDays("2026-09-28", 8, week, [{ id: 1, name: "国庆节", startDate: "2026-10-01", endDate: "2026-10-03", days: 3 }], {
    windows: [
      { start: "08:00", end: "11:00" },
      { start: "13:00", end: "20:00" },
    ],
    startDate: null,
    endDate: "2026-10-04",
  });
  expect(days.map((d) => [d.date, d.weekday, d.windows.map((w) => `${w.start}-${w.end}`).join(","), d.reason])).toEqual([
    ["2026-09-28", 1, "09:00-11:00,13:00-18:00", null],
    ["2026-09-29", 2, "09:00-11:00,13:00-18:00", null],
    ["2026-09-30", 3, "09:00-11:00,13:00-18:00", null],
    ["2026-10-01", 4, "", "节假日「国庆节」"],
    ["2026-10-02", 5, "", "节假日「国庆节」"],
    ["2026-10-03", 6, "", "节假日「国庆节」"],
    ["2026-10-04", 7, "", "工作日历休息"],
    ["2026-10-05", 1, "", "不在活动日期内"],
  ]);
  const afternoon = dispatchDays("2026-10-03", 1, week, [], {
    windows: [{ start: "13:00", end: "20:00" }],
    startDate: null,
    endDate: null,
  });
  expect(afternoon[0]).toMatchObject({ weekday: 6, windows: [], reason: "活动时段不在工作时间内" });
});
