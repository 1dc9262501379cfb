import { z } from "zod";
import { cstDate } from "#common/china-time";
import { CALL_RESULTS, codesOf, INTENT_LABELS } from "./codes";
import { AsrEntrySchema } from "./cti";
import { envelope, page, PaginationSchema } from "./envelope";
import { WorkOrderRecordInputSchema } from "./work-orders";

/**
 * The workbench calls of spec §7 that the voice workbench owns (endpoints.md "V"), across the
 * services they live in: crm_v2, robot, config, outbound, analysis and contact.
 */

/** GET /crm_v2/contactsByPhone/{phone} */
export const ContactSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  phone: z.string(),
  gender: z.number().int(),
  company: z.string().nullable(),
  address: z.string().nullable(),
  remark: z.string().nullable(),
  tags: z.array(z.string()),
});
export type Contact = z.infer<typeof ContactSchema>;
export const ContactsByPhoneResponseSchema = envelope(page(ContactSchema));

/** GET /robot/api/flow/{id}/service — the flow's service script for the agent. */
export const FlowServiceSchema = z.object({
  flowId: z.number().int(),
  flowName: z.string(),
  steps: z.array(z.object({ title: z.string(), content: z.string() })),
});
export const FlowServiceResponseSchema = envelope(FlowServiceSchema);

/** GET /config/business/record/{prevCtiCallId} — the business record (conclusion) of a call. */
export const BusinessRecordSchema = z.object({
  id: z.number().int(),
  ctiCallId: z.string(),
  phone: z.string(),
  callResult: z.number().int(),
  intent: z.string().nullable(),
  remark: z.string(),
  fields: z.record(z.string()),
  agentName: z.string(),
  workOrderId: z.number().int().nullable(),
  createdAt: z.string(),
  /** The call's record (its detail's id), null while the call is still on. */
  callId: z.number().int().nullable(),
});
export type BusinessRecord = z.infer<typeof BusinessRecordSchema>;
export const BusinessRecordResponseSchema = envelope(BusinessRecordSchema);

/**
 * GET /config/business/record/list — business records of inbound calls (incoming/businessRecord;
 * path decided here, decision 007): an agent's own, everyone's for supervisors and administrators.
 */
export const BusinessRecordFilterSchema = PaginationSchema.extend({
  phone: z.string().trim().max(20).optional(),
  callResult: z.coerce.number().int().min(0).max(2).optional(),
});
export type BusinessRecordFilter = z.infer<typeof BusinessRecordFilterSchema>;
export const BusinessRecordPageResponseSchema = envelope(page(BusinessRecordSchema));

/** GET /config/workorder/record/info/{id} */
export const WorkOrderInfoSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  title: z.string(),
  content: z.string(),
  followState: z.number().int(),
  ctiCallId: z.string().nullable(),
  createdAt: z.string(),
});
export type WorkOrderInfo = z.infer<typeof WorkOrderInfoSchema>;
export const WorkOrderInfoResponseSchema = envelope(WorkOrderInfoSchema);

/** GET /config/knowledge/node/platform?keyword= — published knowledge the agent can look up. */
export const KnowledgeNodeSchema = z.object({ id: z.number().int(), title: z.string(), content: z.string(), groupName: z.string() });
export const KnowledgeNodesResponseSchema = envelope(page(KnowledgeNodeSchema));

/** GET /outbound/business/needCall — outbound calls waiting for this agent. */
export const NeedCallResponseSchema = envelope(z.object({ count: z.number().int().nonnegative() }));

/** GET /outbound/business/campaignState/{id} */
export const CampaignStateResponseSchema = envelope(
  z.object({ id: z.number().int(), name: z.string(), type: z.number().int(), state: z.number().int() }),
);

/** GET /analysis/satisfaction/agent/today — survey answers on the agent's calls today. */
export const SatisfactionTodayResponseSchema = envelope(
  z.object({ calls: z.number().int().nonnegative(), rated: z.number().int().nonnegative(), satisfied: z.number().int().nonnegative() }),
);

/** GET /contact/campaign/dialog/list?ctiCallId= — the dialogue lines of a finished call, as ASR entries. */
export const DialogListResponseSchema = envelope(page(AsrEntrySchema));

export const REMARK_MAX = 500;

export const CALLBACK_DATE_PAST = "回访日期不能早于今天";

/**
 * Why a conclusion's 回访日期 (a calendar date, YYYY-MM-DD) is refused, or null: a callback is
 * planned, so not before today on the tenant's clock (China Standard Time). Empty means none planned.
 */
export function callbackDateProblem(value: string | undefined, now = new Date()): string | null {
  if (!value) return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(`${value}T00:00:00Z`))) return "回访日期格式无效";
  // ISO dates of the same length order as strings.
  return value < cstDate(now) ? CALLBACK_DATE_PAST : null;
}

/**
 * POST /contact/call/conclusion — the agent's result for a call. The `Idempotency-Key` header
 * (or `idempotencyKey`) makes a retried submission answer the first one's record, never a second.
 */
export const ConclusionRequestSchema = z.object({
  ctiCallId: z.string().min(1),
  phone: z.string().max(32).default(""),
  callResult: z.coerce
    .number()
    .int()
    .refine((n) => codesOf(CALL_RESULTS).includes(n), "请选择通话结果"),
  intent: z
    .string()
    .refine((v) => codesOf(INTENT_LABELS).includes(v), "请选择意向标签")
    .nullable()
    .default(null),
  remark: z.string().max(REMARK_MAX, `备注不能超过${REMARK_MAX}个字`).default(""),
  fields: z
    .record(z.string().max(200))
    .default({})
    .superRefine((fields, ctx) => {
      const problem = callbackDateProblem(fields.callbackDate);
      if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["callbackDate"], message: problem });
    }),
  idempotencyKey: z.string().min(8).max(100),
});
export type ConclusionRequest = z.infer<typeof ConclusionRequestSchema>;

/**
 * PUT /config/workorder/record/call — link a call to a work order, or create one for it (of an
 * enabled template, with the template's values: the same checks as POST /config/workorder/record).
 */
export const WorkOrderCallRequestSchema = z.union([
  z.object({ ctiCallId: z.string().min(1), workOrderId: z.number().int().positive() }),
  WorkOrderRecordInputSchema.extend({ ctiCallId: z.string().min(1).max(100) }),
]);

/** PUT /config/workorder/record/chat — a work order made from a chat, linked to its session (decision 026). */
export const WorkOrderChatRequestSchema = WorkOrderRecordInputSchema.omit({ ctiCallId: true }).extend({
  sessionId: z.string().min(1).max(64),
});
export type WorkOrderChatRequest = z.infer<typeof WorkOrderChatRequestSchema>;

/** PUT /config/agent/auto/answer */
export const AutoAnswerRequestSchema = z.object({ autoAnswer: z.boolean() });
export const AutoAnswerResponseSchema = envelope(AutoAnswerRequestSchema);
