import { z } from "zod";
import { INTENT_LABELS, QC_APPEAL_STATES, QUALITY_CHECK_STATUSES, codesOf } from "#contracts/codes";
import { QC_APPLY_LIMIT, QC_BULK_LIMIT, QC_REASON_MAX, type InspectionListQueryInput } from "#contracts/inspection";
import { dayBoundaries } from "#app/lib/format";
import { pageParam, sizeParam } from "#app/server/page-query.server";

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "日期格式应为 YYYY-MM-DD")
  .optional();
const cursor = z
  .string()
  .regex(/^\d{1,15}_\d{1,15}$/, "翻页参数不正确")
  .optional();

/** The list's URL: filters (GET form), page, and keyset cursors. */
export const InspectionScreenQuerySchema = z.object({
  start: day,
  end: day,
  qcStatus: z.coerce
    .number()
    .int()
    .refine((n) => codesOf(QUALITY_CHECK_STATUSES).includes(n), "质检状态无效")
    .optional(),
  intent: z
    .string()
    .refine((s) => codesOf(INTENT_LABELS).includes(s), "意向标签无效")
    .optional(),
  agentId: z.coerce.number().int().positive().optional(),
  callResult: z.coerce.number().int().min(100).max(699).optional(),
  minDuration: z.coerce.number({ invalid_type_error: "时长必须是数字" }).int().min(0).max(86_400).optional(),
  maxDuration: z.coerce.number({ invalid_type_error: "时长必须是数字" }).int().min(0).max(86_400).optional(),
  appealState: z
    .string()
    .refine((s) => codesOf(QC_APPEAL_STATES).includes(s), "申诉状态无效")
    .optional(),
  mine: z.literal("1").optional(),
  page: pageParam,
  size: sizeParam,
  after: cursor,
  before: cursor,
});
export type InspectionScreenQuery = z.infer<typeof InspectionScreenQuerySchema>;

/**
 * Filters that can match nothing (a reversed range): said in Chinese, with the filters kept, rather
 * than an empty list that looks like "no calls".
 */
export function filterProblem(q: InspectionScreenQuery): { field: "start" | "minDuration"; message: string } | null {
  if (q.start && q.end && q.start > q.end) {
    return { field: "start", message: `开始日期（${q.start}）晚于结束日期（${q.end}），请调整日期范围` };
  }
  if (q.minDuration !== undefined && q.maxDuration !== undefined && q.minDuration > q.maxDuration) {
    return { field: "minDuration", message: `最短时长（${q.minDuration} 秒）大于最长时长（${q.maxDuration} 秒），请调整时长范围` };
  }
  return null;
}

/** The platform's query for the screen's URL. */
export function platformQuery(q: InspectionScreenQuery): InspectionListQueryInput {
  return {
    pageNo: q.page,
    pageSize: q.size,
    startTime: q.start ? dayBoundaries(q.start)?.start : undefined,
    endTime: q.end ? dayBoundaries(q.end)?.end : undefined,
    qcStatus: q.qcStatus,
    intent: q.intent,
    agentId: q.agentId,
    callResult: q.callResult,
    minDuration: q.minDuration,
    maxDuration: q.maxDuration,
    appealState: q.appealState,
    mine: q.mine === "1" ? true : undefined,
    after: q.after,
    before: q.before,
  };
}

const ids = z
  .array(z.coerce.number().int().positive(), { required_error: "请先勾选通话" })
  .min(1, "请先勾选通话")
  .max(QC_BULK_LIMIT, `一次最多处理${QC_BULK_LIMIT}条通话`);
const reason = z.string().trim().max(QC_REASON_MAX, `原因不能超过${QC_REASON_MAX}个字符`).optional();

/** The list's forms: apply for calls, order the ticked ones, reallot or recover them (bulk, confirmed). */
export const ListIntentSchema = z.discriminatedUnion("intent", [
  z.object({
    intent: z.literal("apply"),
    count: z.coerce
      .number({ invalid_type_error: "请输入领取数量" })
      .int("领取数量必须是整数")
      .min(1, "领取数量至少为1")
      .max(QC_APPLY_LIMIT, `一次最多领取${QC_APPLY_LIMIT}条`),
  }),
  z.object({ intent: z.literal("order"), ids }),
  z.object({
    intent: z.literal("reallot"),
    ids,
    inspectorIds: z.array(z.coerce.number().int().positive(), { required_error: "请选择质检员" }).min(1, "请选择质检员"),
    reason,
    confirmed: z.literal("1").optional(),
  }),
  z.object({ intent: z.literal("recovery"), ids, reason, confirmed: z.literal("1").optional() }),
]);
