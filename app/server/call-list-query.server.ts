import { z } from "zod";
import { CALL_KINDS, CONNECTED_FLAGS, OUTCOME_CODES, codesOf } from "#contracts/codes";
import type { CallFilter } from "#contracts/contact";
import { pageParam, sizeParam } from "./page-query.server";
import { dayBoundaries, today } from "#app/lib/format";

export { cursorOfRow, withParams } from "#app/lib/list-url";

/**
 * The URL of a call list (filters kept in the URL, so a filtered page can be bookmarked and
 * shared): short parameter names, every message in Chinese, empty fields ignored.
 */
const flag = (table: typeof CONNECTED_FLAGS, message: string) =>
  z.coerce
    .number()
    .int()
    .refine((n) => codesOf(table).includes(n), message)
    .optional();
const day = (message: string) =>
  z
    .string()
    .refine((d) => dayBoundaries(d) !== null, message)
    .optional();
const id = (message: string) =>
  z.coerce
    .number({ invalid_type_error: message })
    .int(message)
    .positive(message)
    .max(2 ** 31, message)
    .optional();
const cursor = z
  .string()
  .regex(/^\d{1,15}_\d{1,15}$/, "翻页参数不正确")
  .optional();

export const CallListQuerySchema = z
  .object({
    page: pageParam,
    size: sizeParam,
    start: day("开始日期格式不正确"),
    end: day("结束日期格式不正确"),
    phone: z
      .string()
      .trim()
      .max(20, "电话号码过长")
      .regex(/^\+?\d*$/, "电话号码只能包含数字")
      .optional(),
    result: z.coerce
      .number({ invalid_type_error: "结果码必须是数字" })
      .int("结果码必须是整数")
      .min(100, "结果码不正确")
      .max(699, "结果码不正确")
      .optional(),
    outcome: z
      .string()
      .refine((c) => codesOf(OUTCOME_CODES).includes(c), "外呼结果不正确")
      .optional(),
    answered: flag(CONNECTED_FLAGS, "是否接通的取值不正确"),
    kind: flag(CALL_KINDS, "呼叫类型的取值不正确"),
    campaign: id("活动编号不正确"),
    agent: id("坐席不正确"),
    after: cursor,
    before: cursor,
  })
  .refine((q) => !q.start || !q.end || q.start <= q.end, { message: "开始日期不能晚于结束日期", path: ["end"] });
export type CallListQuery = z.infer<typeof CallListQuerySchema>;

export type ParsedCallList =
  | { ok: true; query: CallListQuery & { start: string; end: string }; filter: CallFilter; values: Record<string, string> }
  | { ok: false; errors: string[]; values: Record<string, string> };

/** The URL's search parameters, with today's boundaries (spec §9) when no dates are given. */
export function parseCallListQuery(params: URLSearchParams, now = Date.now()): ParsedCallList {
  const values: Record<string, string> = {};
  for (const [key, value] of params) if (value.trim() !== "") values[key] = value;
  const parsed = CallListQuerySchema.safeParse(values);
  if (!parsed.success) return { ok: false, errors: [...new Set(parsed.error.issues.map((i) => i.message))], values };
  const q = parsed.data;
  const start = q.start ?? today(now);
  const end = q.end ?? today(now);
  return {
    ok: true,
    values,
    query: { ...q, start, end },
    filter: {
      pageNo: q.page,
      pageSize: q.size,
      startTime: dayBoundaries(start)!.start,
      endTime: dayBoundaries(end)!.end,
      phone: q.phone || undefined,
      callResult: q.result,
      outboundResult: q.outcome,
      isAnswer: q.answered,
      callKind: q.kind,
      campaignId: q.campaign,
      agentId: q.agent,
      after: q.after,
      before: q.before,
    },
  };
}
