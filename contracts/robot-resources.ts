import { z } from "zod";
import { ROBOT_SPEAKERS, WEEKDAYS, codesOf } from "./codes";
import { PaginationSchema, envelope, page } from "./envelope";

/*
 * The resources a robot uses (decision 030): the regular-expression library its flows
 * match with, the working and festival calendars its calls are dispatched by, the speakers it
 * talks with, the gateway lines it dials out on. Administrators only.
 */

/* ------------------------------------------------------------------------------------------------
 * Regular expressions. A pattern is compiled as JavaScript with the `u` flag (Unicode: a Chinese
 * character is one character), the way the flows match a customer's sentence.
 * --------------------------------------------------------------------------------------------- */

export const REGEX_NAME_MAX = 30;
export const REGEX_PATTERN_MAX = 200;
export const REGEX_SAMPLE_MAX = 200;
export const REGEX_DESCRIPTION_MAX = 200;
export const REGEX_FLAGS = "u";

/** What the engine says, in Chinese (V8's message after the pattern's last colon). */
const ENGINE_MESSAGES: ReadonlyArray<[RegExp, string]> = [
  [/Unterminated group/, "括号未闭合"],
  [/Unmatched '\)'/, "多余的右括号"],
  [/Nothing to repeat/, "量词前没有可重复的内容"],
  [/numbers out of order/, "{} 量词的数字顺序颠倒"],
  [/Incomplete quantifier|Lone quantifier brackets/, "量词的花括号不完整"],
  [/Unterminated character class/, "方括号（字符集）未闭合"],
  [/Range out of order/, "字符集的范围顺序颠倒"],
  [/\\ at end of pattern/, "末尾多了一个反斜杠"],
  [/Invalid (named reference|capture group name|named capture referenced)/, "命名分组或其引用无效"],
  [/Duplicate capture group name/, "命名分组重名"],
  [/Invalid group/, "分组写法无效"],
  [/Invalid (escape|Unicode escape|class escape|property name|unicode escape)/, "转义写法无效"],
];

/** The characters of a pattern up to position `end` and what is still open there. */
function openAt(pattern: string, end: number): { groups: number[]; inClass: boolean } {
  const groups: number[] = [];
  let inClass = false;
  for (let i = 0; i < end; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") groups.push(i);
    else if (c === ")") groups.pop();
  }
  return { groups, inClass };
}

const compiles = (pattern: string) => {
  try {
    new RegExp(pattern, REGEX_FLAGS);
    return true;
  } catch {
    return false;
  }
};

/** Prefix ends inside one token (a group's opener, a quantifier's braces, a multi-character escape). */
const INSIDE_TOKEN = /(\(\?(<([A-Za-z_$][\w$]*)?)?|\{\d*(,\d*)?|\\[pPu]\{[^}]*|\\u[0-9A-Fa-f]{0,3}|\\x[0-9A-Fa-f]?|\\k(<[^>]*)?|\\c)$/;

/**
 * Why a pattern does not compile, in Chinese with the (1-based) position of the fault, or null.
 * The position is the first character after which the pattern cannot be completed: each prefix is
 * tried with what it leaves open closed (prefixes ending inside a token are not judged); an
 * unclosed group or class is named at its opening bracket.
 */
export function regexProblem(pattern: string): string | null {
  let engine: string;
  try {
    new RegExp(pattern, REGEX_FLAGS);
    return null;
  } catch (error) {
    engine = error instanceof Error ? error.message : String(error);
  }
  const what = ENGINE_MESSAGES.find(([test]) => test.test(engine))?.[1] ?? "语法错误";
  const escapes = new Set<number>();
  for (let i = 0; i < pattern.length; i++) if (pattern[i] === "\\") escapes.add(i++);
  let at = pattern.length;
  for (let end = 1; end <= pattern.length; end++) {
    const prefix = pattern.slice(0, end);
    const { groups, inClass } = openAt(pattern, end);
    if (end < pattern.length && (escapes.has(end - 1) || (!inClass && INSIDE_TOKEN.test(prefix)))) continue;
    if (!compiles(prefix + (inClass ? "]" : "") + ")".repeat(groups.length))) {
      at = end;
      break;
    }
    if (end === pattern.length) {
      const open = inClass ? classStart(pattern) : groups.at(-1);
      if (open !== undefined) at = open + 1;
    }
  }
  return `正则表达式无法编译：第${at}个字符处${what}`;
}

/** Where the class still open at the end of the pattern began. */
function classStart(pattern: string): number | undefined {
  let start: number | undefined;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === "\\") i++;
    else if (start !== undefined) {
      if (c === "]") start = undefined;
    } else if (c === "[") start = i;
  }
  return start;
}

const regexPattern = z
  .string({ required_error: "请输入正则表达式" })
  .min(1, "请输入正则表达式")
  .max(REGEX_PATTERN_MAX, `正则表达式不能超过${REGEX_PATTERN_MAX}个字符`)
  .superRefine((pattern, ctx) => {
    const problem = regexProblem(pattern);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, message: problem });
  });

export const RobotRegexSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  pattern: z.string(),
  description: z.string(),
  updatedBy: z.string().nullable(),
  updatedAt: z.string(),
});
export type RobotRegex = z.infer<typeof RobotRegexSchema>;

/** GET /robot/api/regex?name=&pageNo=&pageSize= */
export const RobotRegexListQuerySchema = PaginationSchema.extend({ name: z.string().trim().max(REGEX_NAME_MAX).optional() });
export type RobotRegexListQuery = z.infer<typeof RobotRegexListQuerySchema>;
export const RobotRegexPageResponseSchema = envelope(page(RobotRegexSchema));
export const RobotRegexResponseSchema = envelope(RobotRegexSchema);

/** POST /robot/api/regex, PUT /robot/api/regex/{id} */
export const RobotRegexInputSchema = z.object({
  name: z.string({ required_error: "请输入名称" }).trim().min(1, "请输入名称").max(REGEX_NAME_MAX, `名称不能超过${REGEX_NAME_MAX}个字符`),
  pattern: regexPattern,
  description: z.string().trim().max(REGEX_DESCRIPTION_MAX, `说明不能超过${REGEX_DESCRIPTION_MAX}个字符`).default(""),
});
export type RobotRegexInput = z.infer<typeof RobotRegexInputSchema>;

/** POST /robot/api/regex/test: every match of a pattern in a sample sentence. */
export const RegexTestInputSchema = z.object({
  pattern: regexPattern,
  sample: z
    .string({ required_error: "请输入测试句子" })
    .min(1, "请输入测试句子")
    .max(REGEX_SAMPLE_MAX, `测试句子不能超过${REGEX_SAMPLE_MAX}个字符`),
});
export const RegexMatchSchema = z.object({
  /** 0-based, in characters (code points) of the sample. */
  index: z.number().int(),
  text: z.string(),
  groups: z.array(z.string().nullable()),
});
export type RegexMatch = z.infer<typeof RegexMatchSchema>;
export const RegexTestResultSchema = z.object({ matches: z.array(RegexMatchSchema) });
export type RegexTestResult = z.infer<typeof RegexTestResultSchema>;
export const RegexTestResponseSchema = envelope(RegexTestResultSchema);
export const REGEX_MATCHES_MAX = 50;

/* ------------------------------------------------------------------------------------------------
 * Calendars. The working calendar: for each weekday (WEEKDAYS, 1 Monday … 7 Sunday) whether robots
 * call and between which times. Festivals: named date ranges (inclusive) when they do not.
 * --------------------------------------------------------------------------------------------- */

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const time = (message: string) => z.string({ required_error: message }).regex(TIME, message);

export const WorkingDaySchema = z
  .object({
    weekday: z.coerce
      .number({ invalid_type_error: "星期无效" })
      .int("星期无效")
      .refine((n) => codesOf(WEEKDAYS).includes(n), "星期无效"),
    /** Robots call that day; absent (an unticked box) means they do not. */
    enabled: z.boolean({ invalid_type_error: "是否外呼应为是或否" }).default(false),
    start: time("开始时间应为 HH:MM"),
    end: time("结束时间应为 HH:MM"),
  })
  .refine((day) => day.start < day.end, { message: "结束时间应晚于开始时间", path: ["end"] });
export type WorkingDay = z.infer<typeof WorkingDaySchema>;

/** GET /robot/api/dispatch/working (always the seven days); PUT with all seven. */
export const WorkingCalendarSchema = z.object({ days: z.array(WorkingDaySchema) });
export type WorkingCalendar = z.infer<typeof WorkingCalendarSchema>;
export const WorkingCalendarInputSchema = z.object({
  days: z
    .array(WorkingDaySchema)
    .length(7, "请填写一周七天")
    .refine((days) => new Set(days.map((d) => d.weekday)).size === 7, "一周七天各填写一次"),
});
export const WorkingCalendarResponseSchema = envelope(WorkingCalendarSchema);

export const FESTIVAL_NAME_MAX = 30;
/** A festival lasts at most this many days (a typo in a year must not silence the robots for a year). */
export const FESTIVAL_DAYS_MAX = 31;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (value: string) => DATE.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);
const date = (message: string) => z.string({ required_error: message }).refine(isDate, message);

export const FestivalSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  days: z.number().int(),
});
export type Festival = z.infer<typeof FestivalSchema>;
/** GET /robot/api/dispatch/festival?year= (the festivals touching that year; all without it). */
export const FestivalListQuerySchema = z.object({ year: z.coerce.number().int().min(2000).max(2100).optional() });
export const FestivalListResponseSchema = envelope(page(FestivalSchema));
export const FestivalResponseSchema = envelope(FestivalSchema);

export const daysBetween = (start: string, end: string) =>
  Math.round((Date.parse(`${end}T00:00:00Z`) - Date.parse(`${start}T00:00:00Z`)) / 86_400_000) + 1;

/** A festival's fields; FestivalInputSchema adds the range's checks (checkFestivalRange). */
export const FestivalFieldsSchema = z.object({
  name: z
    .string({ required_error: "请输入节日名称" })
    .trim()
    .min(1, "请输入节日名称")
    .max(FESTIVAL_NAME_MAX, `节日名称不能超过${FESTIVAL_NAME_MAX}个字符`),
  startDate: date("请选择开始日期"),
  endDate: date("请选择结束日期"),
});

/** The range's checks, for the contract's schema and for a form's that extends its fields. */
export function checkFestivalRange(festival: { startDate: string; endDate: string }, ctx: z.RefinementCtx): void {
  if (festival.startDate > festival.endDate)
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: "结束日期不能早于开始日期", path: ["endDate"] });
  else if (daysBetween(festival.startDate, festival.endDate) > FESTIVAL_DAYS_MAX)
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: `一个节日最长${FESTIVAL_DAYS_MAX}天`, path: ["endDate"] });
}

/** POST /robot/api/dispatch/festival, PUT /robot/api/dispatch/festival/{id} */
export const FestivalInputSchema = FestivalFieldsSchema.superRefine(checkFestivalRange);
export type FestivalInput = z.infer<typeof FestivalInputSchema>;

/* ------------------------------------------------------------------------------------------------
 * Speakers (ROBOT_SPEAKERS) and their preview: GET /config/agent/voice/preview?speaker= answers a
 * short WAV (audio/wav), made by the platform.
 * --------------------------------------------------------------------------------------------- */

export const RobotSpeakerSchema = z.object({
  code: z.string(),
  name: z.string(),
  gender: z.number().int(),
  style: z.string(),
  previewText: z.string(),
});
export type RobotSpeaker = z.infer<typeof RobotSpeakerSchema>;
/** GET /robot/api/robot/speaker */
export const RobotSpeakerListResponseSchema = envelope(z.object({ list: z.array(RobotSpeakerSchema) }));
export const VoicePreviewQuerySchema = z.object({
  speaker: z.string({ required_error: "请选择发音人" }).refine((code) => codesOf(ROBOT_SPEAKERS).includes(code), "发音人不存在"),
});

/* ------------------------------------------------------------------------------------------------
 * Gateway lines: GET /dialer/api/v1/gateway/line/robot, the tenant's lines its robots dial out on.
 * --------------------------------------------------------------------------------------------- */

export const GatewayLineSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  carrier: z.string(),
  /** The trunk's number prefix as the carrier gave it. */
  prefix: z.string(),
  /** The most calls the line carries at once, across every campaign whose robot uses it. */
  concurrency: z.number().int(),
  enabled: z.boolean(),
  /** The robot calls on the line now (dialling). */
  inUse: z.number().int().nonnegative(),
});
export type GatewayLine = z.infer<typeof GatewayLineSchema>;
export const GatewayLineListResponseSchema = envelope(z.object({ list: z.array(GatewayLineSchema), total: z.number().int() }));

/* ------------------------------------------------------------------------------------------------
 * The store (market): GET /robot/api/store?name=, the tenant's flow versions published to the
 * market (FLOW_VERSION_STATES 已上架), newest first.
 * --------------------------------------------------------------------------------------------- */

export const StoreQuerySchema = PaginationSchema.extend({ name: z.string().trim().max(30).optional() });
export type StoreQuery = z.infer<typeof StoreQuerySchema>;
export const StoreItemSchema = z.object({
  flowId: z.number().int(),
  flowName: z.string(),
  description: z.string(),
  versionId: z.number().int(),
  version: z.string(),
  nodeCount: z.number().int(),
  /** The version the tenant's robots speak now. */
  inService: z.boolean(),
  publishedAt: z.string().nullable(),
});
export type StoreItem = z.infer<typeof StoreItemSchema>;
export const StorePageResponseSchema = envelope(page(StoreItemSchema));

/* ------------------------------------------------------------------------------------------------
 * A task's dispatch: GET /task/api/dispatch/{id}, when campaign {id}'s robots may call over the
 * next DISPATCH_DAYS days (China time): its calling windows within the working week's hours, none
 * on a festival, a day the week rests, or outside the campaign's dates.
 * --------------------------------------------------------------------------------------------- */

export const DISPATCH_DAYS = 7;
export const DispatchWindowSchema = z.object({ start: z.string(), end: z.string() });
export const DispatchDaySchema = z.object({
  date: z.string(),
  weekday: z.number().int(),
  windows: z.array(DispatchWindowSchema),
  /** Why no calls that day, in Chinese (null when there are windows). */
  reason: z.string().nullable(),
});
export type DispatchDay = z.infer<typeof DispatchDaySchema>;
export const TaskDispatchSchema = z.object({ campaignId: z.number().int(), campaignName: z.string(), days: z.array(DispatchDaySchema) });
export type TaskDispatch = z.infer<typeof TaskDispatchSchema>;
export const TaskDispatchResponseSchema = envelope(TaskDispatchSchema);
