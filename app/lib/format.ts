/**
 * Display helpers shared by server and client (spec §9): masking, durations, truncation, times.
 * Times are shown in China Standard Time, which has no daylight saving, so a fixed offset is exact.
 */

const CST_OFFSET_MS = 8 * 3_600_000;
const DAY_MS = 86_400_000;

/** Spec §9: a mainland mobile number (optional +86 or 0086) keeps its first 3 and last 4 digits. */
const MAINLAND_MOBILE = /^(\+86|0086)?(1\d{2})\d{4}(\d{4})$/;

/** Masks a mainland mobile number, however it is spaced; anything else is shown as it is. */
export function maskPhone(phone: string): string {
  const match = MAINLAND_MOBILE.exec(phone.replace(/[\s-]/g, ""));
  return match ? `${match[1] ?? ""}${match[2]}****${match[3]}` : phone;
}

/** A mainland mobile number inside a text: not the digits of a longer number. */
const MOBILE_IN_TEXT = /(?<!\d)(\+86|0086)?(1[3-9]\d)\d{4}(\d{4})(?!\d)/g;

/**
 * Every mainland mobile number in a value's strings masked as maskPhone does, objects and arrays
 * walked: what a hydrating page receives carries no whole number, whichever field brought it.
 */
export function maskNumbers<T>(value: T): T {
  if (typeof value === "string") return value.replace(MOBILE_IN_TEXT, (_, prefix = "", head, tail) => `${prefix}${head}****${tail}`) as T;
  if (Array.isArray(value)) return value.map(maskNumbers) as T;
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, maskNumbers(field)])) as T;
  return value;
}

/** Honorifics that follow a surname in robot speech: the surname is masked. */
const HONORIFIC = /[\u4e00-\u9fa5](?=(先生|女士|小姐|老师|阿姨|师傅|同学))/g;

/** Robot-dialogue masking (spec §9): every digit becomes a star, names before honorifics too. */
export function maskDialogue(text: string): string {
  return text.replace(/\d/g, "*").replace(HONORIFIC, "*");
}

/** Milliseconds as hours, minutes and seconds (spec §9): 3723000 → '1小时2分3秒'. */
export function formatDuration(ms: number | null | undefined): string {
  const total = Math.max(0, Math.round((ms ?? 0) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return `${hours}小时${minutes}分${seconds}秒`;
  if (minutes > 0) return `${minutes}分${seconds}秒`;
  return `${seconds}秒`;
}

/** Long text cut to `max` characters with an ellipsis; the whole text goes in a title. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max).join("")}…` : text;
}

const cst = (ms: number) => new Date(ms + CST_OFFSET_MS).toISOString();
export const formatDateTime = (ms: number) => cst(ms).slice(0, 19).replace("T", " ");
export const formatDate = (ms: number) => cst(ms).slice(0, 10);
export const formatTime = (ms: number) => cst(ms).slice(11, 19);

/** Start of a CST calendar day ('YYYY-MM-DD'), epoch ms, or null when the text is no real date. */
export function dayStart(day: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return null;
  const ms = Date.parse(`${day}T00:00:00+08:00`);
  return Number.isNaN(ms) || formatDate(ms) !== day ? null : ms;
}

/**
 * A day's boundaries as epoch seconds times 1000 (spec §9): 00:00:00 and 23:59:59 of the day.
 */
export function dayBoundaries(day: string): { start: number; end: number } | null {
  const start = dayStart(day);
  return start === null ? null : { start, end: start + DAY_MS - 1000 };
}

export const today = (now = Date.now()) => formatDate(now);
