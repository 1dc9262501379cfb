/**
 * The tenant's clock: China Standard Time (UTC+8, no daylight saving), whatever zone the
 * platform's machine runs in. "Today", calling windows and dates are read on it.
 */
const CST_OFFSET_MS = 8 * 3600_000;
const DAY_MS = 86_400_000;

export const cstMinuteOfDay = (at: Date) => Math.floor(((at.getTime() + CST_OFFSET_MS) % DAY_MS) / 60_000);
export const cstDate = (at: Date) => new Date(at.getTime() + CST_OFFSET_MS).toISOString().slice(0, 10);

/** When the China Standard Time day of `at` began. */
export function startOfCstDay(at = new Date()): Date {
  const local = at.getTime() + CST_OFFSET_MS;
  return new Date(local - (local % DAY_MS) - CST_OFFSET_MS);
}

/** 'HH:MM' of a moment in China Standard Time. */
export const cstClock = (at: Date) => new Date(at.getTime() + CST_OFFSET_MS).toISOString().slice(11, 16);
