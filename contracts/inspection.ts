import { z } from "zod";
import {
  codesOf,
  INTENT_LABELS,
  QC_ACCESS_SCOPES,
  QC_APPEAL_STATES,
  QC_CHECKING,
  QC_FORM_STATES,
  QC_INFLUENCES,
  QC_RESULTS,
  QC_UNCHECKED,
  QUALITY_CHECK_STATUSES,
} from "./codes";
import { CallDetailSchema, CallFilterSchema, CallRecordRowSchema } from "./contact";
import { envelope, page } from "./envelope";
import {
  QC_APPLY_LIMIT,
  QC_BULK_LIMIT,
  QC_FORM_DESCRIPTION_MAX,
  QC_FORM_ITEMS_MAX,
  QC_FORM_NAME_MAX,
  QC_ITEM_TITLE_MAX,
  QC_ITEM_WEIGHT_MAX,
  QC_REASON_MAX,
  QC_REMARK_MAX,
} from "./inspection-limits";

/**
 * Quality inspection (`/ccb`, spec §7 "Inspection", decision 018): the inspection queue
 * over the tenant's calls, each call's lock and result, agents' appeals, inspectors' access and the
 * agents' performance. Codes live in codes.ts; the status moves are the data below.
 */

export * from "./inspection-limits";

/**
 * The quality-check status machine (QUALITY_CHECK_STATUSES): every allowed move, by operation.
 * claim: apply/order/reallot lock a waiting call (or move a lock); release: recovery or an expired
 * lock; score: the lock holder's result; revise: an accepted appeal changes a result.
 */
export type QcOperation = "claim" | "release" | "score" | "revise";
const RESULT_CODES = codesOf(QC_RESULTS);
export const QC_TRANSITIONS: ReadonlyArray<{ operation: QcOperation; from: readonly number[]; to: readonly number[] }> = [
  { operation: "claim", from: [QC_UNCHECKED, QC_CHECKING], to: [QC_CHECKING] },
  { operation: "release", from: [QC_CHECKING], to: [QC_UNCHECKED] },
  { operation: "score", from: [QC_CHECKING], to: RESULT_CODES },
  { operation: "revise", from: RESULT_CODES, to: RESULT_CODES },
];
export function qcMoveAllowed(operation: QcOperation, from: number, to: number): boolean {
  return QC_TRANSITIONS.some((t) => t.operation === operation && t.from.includes(from) && t.to.includes(to));
}
/** The Chinese refusal of a move the machine does not allow. */
export const QC_REFUSALS: Record<QcOperation, string> = {
  claim: "该通话已质检完成，不能再领取",
  release: "该通话不在质检中，无需收回",
  score: "该通话不在质检中，不能提交结果",
  revise: "该通话尚未质检，不能修改结果",
};

const codeOf = (codes: string[], message: string) => z.string({ invalid_type_error: message }).refine((c) => codes.includes(c), message);
const numberCode = (codes: number[], message: string) =>
  z.coerce
    .number({ invalid_type_error: message })
    .int(message)
    .refine((c) => codes.includes(c), message);
const id = z.coerce
  .number({ invalid_type_error: "编号无效" })
  .int("编号无效")
  .positive("编号无效")
  .max(Number.MAX_SAFE_INTEGER, "编号无效");

/** POST /ccb/callInfo (and /ccb/humanRobot/callInfo, /ccb/callInfo/export): the call filters plus the inspection's. */
export const InspectionListQuerySchema = CallFilterSchema.extend({
  qcStatus: numberCode(codesOf(QUALITY_CHECK_STATUSES), "质检状态无效").optional(),
  intent: codeOf(codesOf(INTENT_LABELS), "意向标签无效").optional(),
  /** Talk time range in seconds. */
  minDuration: z.coerce.number().int().nonnegative().max(86_400).optional(),
  maxDuration: z.coerce.number().int().nonnegative().max(86_400).optional(),
  inspectorId: id.optional(),
  appealState: codeOf(codesOf(QC_APPEAL_STATES), "申诉状态无效").optional(),
  /** Only the calls locked to the caller (their work queue). */
  mine: z.coerce.boolean().optional(),
});
export type InspectionListQuery = z.infer<typeof InspectionListQuerySchema>;
export type InspectionListQueryInput = z.input<typeof InspectionListQuerySchema>;

/** POST /ccb/callInfo/export: the list's filters and a format; streams CSV or XLSX. */
export const InspectionExportSchema = InspectionListQuerySchema.omit({ pageNo: true, pageSize: true, after: true, before: true }).extend({
  format: z.enum(["csv", "xlsx"], { errorMap: () => ({ message: "导出格式只能是 CSV 或 XLSX" }) }).default("csv"),
});

/** One row of the inspection list: the call and its inspection. */
export const InspectionRowSchema = CallRecordRowSchema.extend({
  queueName: z.string().nullable(),
  inspectorId: z.number().int().nullable(),
  inspectorName: z.string().nullable(),
  lockedAt: z.number().int().nullable(),
  influence: z.number().int().nullable(),
  remark: z.string().nullable(),
  checkedAt: z.number().int().nullable(),
  appealId: z.number().int().nullable(),
  appealState: z.string().nullable(),
  /** The scoring form's total out of 100 (decision 028), when the call was scored with one. */
  score: z.number().nullable(),
});
export type InspectionRow = z.infer<typeof InspectionRowSchema>;
export const InspectionPageSchema = page(InspectionRowSchema).extend({ estimated: z.boolean().optional() });
export type InspectionPage = z.infer<typeof InspectionPageSchema>;
export const InspectionPageResponseSchema = envelope(InspectionPageSchema);

/**
 * The live inspection queue (decision 033): whenever calls' inspection state changes (claimed,
 * scored, released or expired, reallotted, appealed, an appeal decided), the platform publishes one
 * `inspection.calls` notification to the tenant's supervisors with each call's state as it is now.
 * No customer or phone: only what the queue's rows show of the inspection.
 */
export const INSPECTION_NOTIFICATIONS = { calls: "inspection.calls" } as const;
export const InspectionLiveCallSchema = z.object({
  callId: z.number().int(),
  qcStatus: z.number().int(),
  inspectorId: z.number().int().nullable(),
  inspectorName: z.string().nullable(),
  influence: z.number().int().nullable(),
  score: z.number().nullable(),
  appealState: z.string().nullable(),
});
export type InspectionLiveCall = z.infer<typeof InspectionLiveCallSchema>;
export const InspectionCallsChangedSchema = z.object({ calls: z.array(InspectionLiveCallSchema) });

// Scoring forms (decision 028)

/** The moves of a scoring form's lifecycle (QC_FORM_STATES); edits and deletion: drafts only. */
export type QcFormState = "draft" | "active" | "retired";
export type QcFormAction = "activate" | "retire";
export const QC_FORM_TRANSITIONS: ReadonlyArray<{ action: QcFormAction; label: string; from: readonly QcFormState[]; to: QcFormState }> = [
  { action: "activate", label: "启用", from: ["draft", "retired"], to: "active" },
  { action: "retire", label: "停用", from: ["active"], to: "retired" },
];
export const QC_FORM_EDITABLE: readonly QcFormState[] = ["draft"];
export const qcFormMove = (action: QcFormAction, from: string) =>
  QC_FORM_TRANSITIONS.find((t) => t.action === action && t.from.includes(from as QcFormState));
export const QC_FORM_REFUSALS = {
  activate: "只有草稿或已停用的评分表可以启用",
  retire: "只有启用中的评分表可以停用",
  edit: "只有草稿可以编辑，已启用过的评分表请复制为新草稿后修改",
  delete: "只有草稿可以删除，已启用过的评分表请停用",
} as const;

const flag = z.preprocess((v) => v === true || v === "true" || v === "on" || v === "1", z.boolean());
/** One item of a form as an administrator writes it; `key` (i1, i2, …) is kept across edits. */
export const ScoreFormItemInputSchema = z.object({
  key: z
    .string()
    .regex(/^i\d{1,3}$/, "评分项标识无效")
    .optional(),
  title: z
    .string({ required_error: "请填写评分项名称" })
    .trim()
    .min(1, "请填写评分项名称")
    .max(QC_ITEM_TITLE_MAX, `评分项名称不能超过${QC_ITEM_TITLE_MAX}个字符`),
  weight: z.coerce
    .number({ required_error: "请填写分值", invalid_type_error: "分值必须是正整数" })
    .int("分值必须是正整数")
    .min(1, "分值必须是正整数")
    .max(QC_ITEM_WEIGHT_MAX, `分值不能超过${QC_ITEM_WEIGHT_MAX}`),
  allowNa: flag.default(false),
  veto: flag.default(false),
});
const ScoreFormBaseSchema = z.object({
  name: z
    .string({ required_error: "请填写评分表名称" })
    .trim()
    .min(1, "请填写评分表名称")
    .max(QC_FORM_NAME_MAX, `评分表名称不能超过${QC_FORM_NAME_MAX}个字符`),
  description: z.string().trim().max(QC_FORM_DESCRIPTION_MAX, `说明不能超过${QC_FORM_DESCRIPTION_MAX}个字符`).default(""),
  items: z
    .array(ScoreFormItemInputSchema, { required_error: "请至少添加一个评分项" })
    .min(1, "请至少添加一个评分项")
    .max(QC_FORM_ITEMS_MAX, `评分项不能超过${QC_FORM_ITEMS_MAX}个`),
});
/** What no single item can check: titles unique, and some item that is not N/A, so a total exists. */
export function refineScoreItems(input: { items: ReadonlyArray<{ title: string; allowNa: boolean }> }, ctx: z.RefinementCtx) {
  const seen = new Set<string>();
  input.items.forEach((item, i) => {
    if (seen.has(item.title)) ctx.addIssue({ code: "custom", path: ["items", i, "title"], message: `评分项「${item.title}」重复` });
    seen.add(item.title);
  });
  if (input.items.length > 0 && input.items.every((item) => item.allowNa)) {
    ctx.addIssue({ code: "custom", path: ["items"], message: "至少一个评分项不能允许不适用，否则总分可能无从计算" });
  }
}
/** POST /ccb/form, PUT /ccb/form/{id}: a draft's name, description and items. */
export const ScoreFormInputSchema = ScoreFormBaseSchema.superRefine(refineScoreItems);
export type ScoreFormInput = z.infer<typeof ScoreFormInputSchema>;

export const ScoreFormItemSchema = z.object({
  key: z.string(),
  title: z.string(),
  weight: z.number().int(),
  allowNa: z.boolean(),
  veto: z.boolean(),
});
export const ScoreFormSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string(),
  state: z.enum(codesOf(QC_FORM_STATES) as [QcFormState, ...QcFormState[]]),
  items: z.array(ScoreFormItemSchema),
  totalWeight: z.number().int(),
  /** How many calls were scored with it. */
  usedCount: z.number().int(),
  updatedAt: z.number().int(),
  activatedAt: z.number().int().nullable(),
});
export type ScoreForm = z.infer<typeof ScoreFormSchema>;
export const ScoreFormResponseSchema = envelope(ScoreFormSchema);
/** GET /ccb/form/active: the form inspectors score with, or null (scoring without a form). */
export const ActiveScoreFormResponseSchema = envelope(ScoreFormSchema.nullable());
/** POST /ccb/form/list: every form of the tenant (a handful), the active one first. */
export const ScoreFormListResponseSchema = envelope(page(ScoreFormSchema));
/** PUT /ccb/form/{id}/state: activate (the active one, if any, is retired) or retire, with a reason. */
export const ScoreFormStateSchema = z.object({
  action: z.enum(["activate", "retire"], { errorMap: () => ({ message: "操作无效，只能启用或停用" }) }),
  reason: z.string().trim().max(QC_REASON_MAX, `原因不能超过${QC_REASON_MAX}个字符`).default(""),
});
export const ScoreFormDeletedResponseSchema = envelope(z.object({ id: z.number().int() }));

/** One item's answer: points 0..weight, pass/fail for a veto item, or na. */
export const ScoreAnswerSchema = z.object({
  key: z.string().regex(/^i\d{1,3}$/, "评分项标识无效"),
  value: z.union([z.literal("na"), z.literal("pass"), z.literal("fail"), z.number().int().min(0).max(QC_ITEM_WEIGHT_MAX)], {
    errorMap: () => ({ message: "评分无效，只能是分数、通过、不通过或不适用" }),
  }),
});
/** PUT /ccb/callInfo/{id}: the lock holder's result (with the active form's answers when the tenant has one). */
export const InspectionScoreSchema = z.object({
  callId: id,
  checkResult: numberCode(codesOf(QC_RESULTS), "质检结果无效，只能是意向不明确、明确办理或无意向"),
  influence: numberCode(codesOf(QC_INFLUENCES), "影响无效"),
  remark: z.string().trim().max(QC_REMARK_MAX, `备注不能超过${QC_REMARK_MAX}个字符`).default(""),
  evaluation: z
    .object({ formId: id, answers: z.array(ScoreAnswerSchema).max(QC_FORM_ITEMS_MAX, `评分项不能超过${QC_FORM_ITEMS_MAX}个`) })
    .optional(),
});

/** A call's stored evaluation: the form's items as they were, each answer and its points, the total. */
export const EvaluationSchema = z.object({
  formId: z.number().int(),
  formName: z.string(),
  score: z.number(),
  vetoed: z.boolean(),
  items: z.array(ScoreFormItemSchema.extend({ value: z.union([z.number(), z.string()]), points: z.number().nullable() })),
  inspectorName: z.string().nullable(),
  createdAt: z.number().int(),
  /** 1 as scored; an accepted appeal that re-scores the items stores the next (decision 033), with the decider's reason. */
  version: z.number().int().positive(),
  reason: z.string().nullable(),
});
export type Evaluation = z.infer<typeof EvaluationSchema>;
export type InspectionScore = z.infer<typeof InspectionScoreSchema>;
export const InspectionRowResponseSchema = envelope(InspectionRowSchema);
/** GET /ccb/callInfo/next/{id}: the caller's next locked call after {id} (claiming one if none is left), or null. */
export const InspectionNextResponseSchema = envelope(InspectionRowSchema.nullable());

/** Per-item results of the queue operations. */
export const QcItemResultSchema = z.object({
  callId: z.number().int(),
  ok: z.boolean(),
  message: z.string(),
  inspectorId: z.number().int().nullable(),
});
export type QcItemResult = z.infer<typeof QcItemResultSchema>;
export const QcBulkResultSchema = z.object({ done: z.number().int(), failed: z.number().int(), results: z.array(QcItemResultSchema) });
export type QcBulkResult = z.infer<typeof QcBulkResultSchema>;
export const QcBulkResponseSchema = envelope(QcBulkResultSchema);

const ids = z
  .array(id, { invalid_type_error: "请选择通话", required_error: "请选择通话" })
  .min(1, "请选择通话")
  .max(QC_BULK_LIMIT, `一次最多处理${QC_BULK_LIMIT}条通话`)
  .transform((list) => [...new Set(list)]);
const reason = z.string().trim().max(QC_REASON_MAX, `原因不能超过${QC_REASON_MAX}个字符`).default("");

/** POST /ccb/tasks/apply: claim up to `count` waiting calls of the caller's access. */
export const QcApplySchema = z.object({
  count: z.coerce
    .number({ invalid_type_error: "请输入领取数量" })
    .int("领取数量必须是整数")
    .min(1, "领取数量至少为1")
    .max(QC_APPLY_LIMIT, `一次最多领取${QC_APPLY_LIMIT}条`),
});
/** POST /ccb/tasks/order: claim these calls for the caller. */
export const QcOrderSchema = z.object({ ids });
/** POST /ccb/tasks/reallot: lock these calls to the inspectors, split evenly (±1). */
export const QcReallotSchema = z.object({
  ids,
  inspectorIds: z
    .array(id, { required_error: "请选择质检员" })
    .min(1, "请选择质检员")
    .max(50, "一次最多选择50名质检员")
    .transform((list) => [...new Set(list)]),
  reason,
});
/** POST /ccb/tasks/recovery: return these calls to the pool. */
export const QcRecoverySchema = z.object({ ids, reason });

/** POST /ccb/appeal: the agent's one appeal of a result. */
export const QcAppealSchema = z.object({
  callId: id,
  reason: z
    .string({ required_error: "请填写申诉理由" })
    .trim()
    .min(1, "请填写申诉理由")
    .max(QC_REASON_MAX, `申诉理由不能超过${QC_REASON_MAX}个字符`),
});
/** POST /ccb/appeal/{id}/decision: accept (with the corrected result) or reject, with a reason. */
export const QcAppealDecisionSchema = z.discriminatedUnion("decision", [
  z.object({
    decision: z.literal("accepted"),
    reason: z.string().trim().min(1, "请填写处理意见").max(QC_REASON_MAX, `处理意见不能超过${QC_REASON_MAX}个字符`),
    checkResult: numberCode(codesOf(QC_RESULTS), "质检结果无效"),
    influence: numberCode(codesOf(QC_INFLUENCES), "影响无效"),
    /** A call scored with a form: the decider's answers to the same items (decision 033), stored as the next version. */
    evaluation: z.object({ answers: z.array(ScoreAnswerSchema).max(QC_FORM_ITEMS_MAX, `评分项不能超过${QC_FORM_ITEMS_MAX}个`) }).optional(),
  }),
  z.object({
    decision: z.literal("rejected"),
    reason: z.string().trim().min(1, "请填写处理意见").max(QC_REASON_MAX, `处理意见不能超过${QC_REASON_MAX}个字符`),
  }),
]);
export type QcAppealDecision = z.infer<typeof QcAppealDecisionSchema>;

export const QcAppealSchemaOut = z.object({
  id: z.number().int(),
  callId: z.number().int(),
  agentId: z.number().int(),
  agentName: z.string().nullable(),
  reason: z.string(),
  state: z.string(),
  decidedBy: z.string().nullable(),
  decisionReason: z.string().nullable(),
  createdAt: z.number().int(),
  decidedAt: z.number().int().nullable(),
});
export type QcAppeal = z.infer<typeof QcAppealSchemaOut>;
export const QcAppealResponseSchema = envelope(QcAppealSchemaOut);

/** One step of a call's inspection history (from the audit log). */
export const QcHistoryEntrySchema = z.object({
  at: z.number().int(),
  actorName: z.string(),
  action: z.string(),
  summary: z.string(),
  reason: z.string().nullable(),
});

/** GET /ccb/detail/{callId}/{selectType}: 1 the call (transcript, recording), 2 its inspection (row, appeal, history). */
export const QC_DETAIL_TYPES = { call: 1, inspection: 2 } as const;
export const InspectionDetailSchema = z.object({
  row: InspectionRowSchema,
  appeal: QcAppealSchemaOut.nullable(),
  /** The call's evaluation as it stands (its newest version). */
  evaluation: EvaluationSchema.nullable(),
  /** The versions it replaced, newest first: what was scored before an accepted appeal re-scored it. */
  earlierEvaluations: z.array(EvaluationSchema),
  history: z.array(QcHistoryEntrySchema),
});
export type InspectionDetail = z.infer<typeof InspectionDetailSchema>;
export const InspectionDetailResponseSchema = envelope(InspectionDetailSchema);
export const InspectionCallDetailResponseSchema = envelope(CallDetailSchema);

/** POST /ccb/callback: the call-back calls made after a call (call kind 1, prevCtiCallId = its ctiCallId). */
export const QcCallbackQuerySchema = z.object({ callId: id });
export const QcCallbackListResponseSchema = envelope(page(CallRecordRowSchema));
/** GET /ccb/callBack/customerInfo/{id}/{caseId}: the customer of a call ({caseId} is its ctiCallId). */
export const QcCustomerInfoSchema = z.object({
  callId: z.number().int(),
  phone: z.string(),
  customerName: z.string().nullable(),
  gender: z.number().int(),
  intent: z.string().nullable(),
  conclusion: z.string().nullable(),
  contactId: z.number().int().nullable(),
});
export const QcCustomerInfoResponseSchema = envelope(QcCustomerInfoSchema);

/** POST /ccb/access/list, /ccb/access/grant, /ccb/access/revoke: who may inspect which groups or campaigns. */
export const QcAccessSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  userName: z.string(),
  scope: z.string(),
  value: z.string(),
  valueLabel: z.string(),
  grantedBy: z.string(),
  grantedAt: z.number().int(),
});
export type QcAccess = z.infer<typeof QcAccessSchema>;
export const QcAccessQuerySchema = z.object({ userId: id.optional() });
export const QcAccessListResponseSchema = envelope(
  page(QcAccessSchema).extend({
    inspectors: z.array(z.object({ id: z.number().int(), name: z.string(), role: z.string() })),
    queues: z.array(z.string()),
    campaigns: z.array(z.object({ id: z.number().int(), name: z.string() })),
  }),
);
export const QcAccessGrantSchema = z.object({
  userId: z.coerce.number({ invalid_type_error: "请选择质检员" }).int().positive("请选择质检员"),
  scope: codeOf(codesOf(QC_ACCESS_SCOPES), "授权范围无效"),
  value: z.string({ required_error: "请选择坐席组或活动" }).trim().min(1, "请选择坐席组或活动").max(60, "坐席组或活动无效"),
});
export const QcAccessRevokeSchema = z.object({ id, reason });
export const QcAccessResponseSchema = envelope(QcAccessSchema);

/** POST /ccb/agent/performance: per agent, for a period and a group. */
export const PERFORMANCE_SORTS = [
  "calls",
  "connected",
  "talkMs",
  "avgHandleMs",
  "acwMs",
  "succeeded",
  "failed",
  "inspected",
  "passRate",
  "satisfaction",
  "chats",
  "replies",
  "chatMs",
  "avgChatMs",
] as const;
export const PerformanceQuerySchema = z.object({
  startTime: z.coerce.number().int().nonnegative().optional(),
  endTime: z.coerce.number().int().nonnegative().optional(),
  queue: z.string().trim().max(60).optional(),
  /** Voice agents (any work type but text) or text agents (TEXT_AGENT_WORK_TYPE); both when absent. */
  workType: z.coerce.number({ invalid_type_error: "坐席类型无效" }).int("坐席类型无效").optional(),
  sort: z.enum(PERFORMANCE_SORTS, { errorMap: () => ({ message: "排序字段无效" }) }).default("calls"),
  order: z.enum(["asc", "desc"], { errorMap: () => ({ message: "排序方向无效" }) }).default("desc"),
});
export type PerformanceQuery = z.infer<typeof PerformanceQuerySchema>;
export const PerformanceRowSchema = z.object({
  agentId: z.number().int(),
  agentName: z.string(),
  queueName: z.string(),
  calls: z.number().int(),
  connected: z.number().int(),
  talkMs: z.number().int(),
  avgHandleMs: z.number().int(),
  acwMs: z.number().int(),
  succeeded: z.number().int(),
  failed: z.number().int(),
  inspected: z.number().int(),
  passed: z.number().int(),
  /** Percent, one decimal; null when nothing was inspected. */
  passRate: z.number().nullable(),
  /** Percent of rated calls rated 4 or 5; null when none was rated. */
  satisfaction: z.number().nullable(),
  /** A text agent's chat sessions served (begun in the period), their replies in them, and the sessions' length. */
  chats: z.number().int(),
  replies: z.number().int(),
  chatMs: z.number().int(),
  avgChatMs: z.number().int(),
});
export type PerformanceRow = z.infer<typeof PerformanceRowSchema>;
export const PerformanceResponseSchema = envelope(page(PerformanceRowSchema).extend({ queues: z.array(z.string()) }));
