import type { DispatchDay, Festival, WorkingDay } from "#contracts/robot-resources";

type Window = { start: string; end: string };

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
/** ISO weekday (1 Monday … 7 Sunday) of a YYYY-MM-DD date. */
const weekdayOf = (date: string) => ((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1;

/**
 * When a campaign's robots may call on each of `count` days from `from` (decision 030): its
 * windows cut to the working day's hours; nothing on a festival, a resting weekday, or a day
 * outside the campaign's dates. Times are HH:MM, compared as text.
 */
export function dispatchDays(
  from: string,
  count: number,
  week: WorkingDay[],
  festivals: Festival[],
  campaign: { windows: Window[]; startDate: string | null; endDate: string | null },
): DispatchDay[] {
  return Array.from({ length: count }, (_, i) => {
    const date = addDays(from, i);
    const weekday = weekdayOf(date);
    const day = (windows: Window[], reason: string | null): DispatchDay => ({ date, weekday, windows, reason });
    if ((campaign.startDate && date < campaign.startDate) || (campaign.endDate && date > campaign.endDate))
      return day([], "不在活动日期内");
    const festival = festivals.find((f) => f.startDate <= date && date <= f.endDate);
    if (festival) return day([], `节假日「${festival.name}」`);
    const working = week.find((w) => w.weekday === weekday);
    if (!working?.enabled) return day([], "工作日历休息");
    const windows = campaign.windows
      .map((w) => ({ start: w.start > working.start ? w.start : working.start, end: w.end < working.end ? w.end : working.end }))
      .filter((w) => w.start < w.end);
    return day(windows, windows.length ? null : "活动时段不在工作时间内");
  });
}
