import { z } from "zod";
import { QC_INFLUENCES, QC_RESULTS, codesOf } from "#contracts/codes";
import { QC_REASON_MAX, QC_REMARK_MAX } from "#contracts/inspection";

const code = (codes: number[], message: string) =>
  z.coerce
    .number({ required_error: message, invalid_type_error: message })
    .int(message)
    .refine((n) => codes.includes(n), message);

/**
 * The scoring view's forms, by intent: the holder's score (and save-and-next), the agent's appeal,
 * the decision on it. On the server only: the page hydrates and loads no schema (decision 054).
 */
export const SCORE_SCHEMAS = {
  score: z.object({
    intent: z.literal("score"),
    checkResult: code(codesOf(QC_RESULTS), "请选择质检结果（意向不明确、明确办理或无意向）"),
    influence: code(codesOf(QC_INFLUENCES), "请选择影响"),
    remark: z.string().trim().max(QC_REMARK_MAX, `备注不能超过${QC_REMARK_MAX}个字符`).optional(),
    next: z.literal("1").optional(),
    /** The scoring form's answers (decision 028): item.<key> points or pass/fail/na, na.<key> the N/A boxes. */
    formId: z.coerce.number().int().positive().optional(),
    item: z.record(z.string().max(10).optional()).optional(),
    na: z.record(z.string().max(10).optional()).optional(),
  }),
  appeal: z.object({
    intent: z.literal("appeal"),
    reason: z
      .string({ required_error: "请填写申诉理由" })
      .trim()
      .min(1, "请填写申诉理由")
      .max(QC_REASON_MAX, `申诉理由不能超过${QC_REASON_MAX}个字符`),
  }),
  decide: z.object({
    intent: z.literal("decide"),
    appealId: z.coerce.number().int().positive("申诉不存在"),
    decision: z.enum(["accepted", "rejected"], { errorMap: () => ({ message: "请选择处理结果" }) }),
    reason: z
      .string({ required_error: "请填写处理意见" })
      .trim()
      .min(1, "请填写处理意见")
      .max(QC_REASON_MAX, `处理意见不能超过${QC_REASON_MAX}个字符`),
    checkResult: code(codesOf(QC_RESULTS), "质检结果无效").optional(),
    influence: code(codesOf(QC_INFLUENCES), "影响无效").optional(),
    /** Accepting an appeal of a call scored with a form: the items re-scored (decision 033), named as the score form's. */
    item: z.record(z.string().max(10).optional()).optional(),
    na: z.record(z.string().max(10).optional()).optional(),
  }),
} as const;
