import { z } from "zod";
import { CALL_QUALITY_ISSUE_CODES } from "./codes";
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, envelope, page } from "./envelope";
import { BusinessRecordSchema } from "./workbench";

/**
 * The contact service's call records (spec §3 "Call task detail", endpoints.md R rows):
 * GET /contact/business/callhistory, GET /contact/income/calls/history, POST /contact/income/calls,
 * POST /contact/campaign/record/list (+ /export), GET /contact/income/calls/{id}.
 * Every list takes the same filters; times are epoch milliseconds (spec §9 today boundaries).
 */

const optionalInt = z.coerce.number().int().optional();

/** Filters every call list accepts, as query (GET) or body (POST). */
export const CallFilterSchema = z.object({
  pageNo: z.coerce.number().int().min(1).max(1_000_000).default(1),
  pageSize: z.coerce
    .number()
    .int()
    .refine((n) => (PAGE_SIZES as readonly number[]).includes(n), { message: "每页条数只能是 10、20、50 或 100" })
    .default(DEFAULT_PAGE_SIZE),
  /** Inclusive range of callTime, epoch ms. */
  startTime: z.coerce.number().int().nonnegative().optional(),
  endTime: z.coerce.number().int().nonnegative().optional(),
  phone: z
    .string()
    .trim()
    .max(20)
    .regex(/^[+\d]*$/, "电话号码只能包含数字")
    .optional(),
  callResult: optionalInt,
  outboundResult: z.string().max(40).optional(),
  isAnswer: z.coerce.number().int().min(0).max(1).optional(),
  callKind: z.coerce.number().int().min(0).max(1).optional(),
  campaignId: z.coerce.number().int().positive().optional(),
  agentId: z.coerce.number().int().positive().optional(),
  /**
   * Keyset cursor (`<callTimeMs>_<id>`): with `after` the page starts after that row, with
   * `before` it ends before it. pageNo still names the page for display.
   */
  after: z
    .string()
    .regex(/^\d+_\d+$/)
    .optional(),
  before: z
    .string()
    .regex(/^\d+_\d+$/)
    .optional(),
});
export type CallFilter = z.infer<typeof CallFilterSchema>;

/** One row of every call list. */
/** A call whose audio the agent's softphone found poor: the longest poor stretch and what was wrong. */
export const PoorQualitySchema = z.object({
  seconds: z.number().int().positive(),
  issues: z.array(z.enum(CALL_QUALITY_ISSUE_CODES)),
});
export type PoorQuality = z.infer<typeof PoorQualitySchema>;

export const CallRecordRowSchema = z.object({
  callId: z.number().int(),
  ctiCallId: z.string(),
  prevCtiCallId: z.string().nullable(),
  direction: z.enum(["outbound", "inbound"]),
  phone: z.string(),
  campaignId: z.number().int().nullable(),
  campaignName: z.string().nullable(),
  campaignType: z.number().int().nullable(),
  callKind: z.number().int(),
  isAnswer: z.number().int(),
  outboundResult: z.string().nullable(),
  callResult: z.number().int(),
  callResultName: z.string(),
  intent: z.string().nullable(),
  qcStatus: z.number().int(),
  conclusion: z.number().int().nullable(),
  hangupParty: z.number().int().nullable(),
  agentId: z.number().int().nullable(),
  agentName: z.string().nullable(),
  callTime: z.number().int(),
  callDuration: z.number().int(),
  poorQuality: PoorQualitySchema.nullable(),
});
export type CallRecordRow = z.infer<typeof CallRecordRowSchema>;

/** `estimated`: the total is the platform's estimate (very large results are not counted exactly). */
export const CallRecordPageSchema = page(CallRecordRowSchema).extend({ estimated: z.boolean().optional() });
export type CallRecordPage = z.infer<typeof CallRecordPageSchema>;
export const CallRecordPageResponseSchema = envelope(CallRecordPageSchema);

/** Spec §3 "Dialog line". */
export const DialogLineSchema = z.object({
  thisRole: z.number().int(),
  dialogContent: z.string(),
  nluResult: z.string().nullable(),
  gender: z.number().int(),
  recordStartTime: z.number().int().nullable(),
  recordEndTime: z.number().int().nullable(),
});

/** Spec §3 "Calling result entry": dialogType 1 human-machine, otherwise human-human. */
export const CallingResultSchema = z.object({ dialogType: z.number().int(), dialogResults: z.array(DialogLineSchema) });
export type CallingResult = z.infer<typeof CallingResultSchema>;

/** Spec §3 "Call task detail" (plus the record's ids of "call record"). */
export const CallDetailSchema = z.object({
  callId: z.number().int(),
  tenantID: z.number().int(),
  ctiCallId: z.string(),
  prevCtiCallId: z.string().nullable(),
  phone: z.string(),
  isAnswer: z.number().int(),
  outboundResult: z.string().nullable(),
  callResult: z.number().int(),
  callResultName: z.string(),
  callTime: z.number().int(),
  callDuration: z.number().int(),
  instanceName: z.string().nullable(),
  flowVersionName: z.string().nullable(),
  flowId: z.number().int().nullable(),
  campaignType: z.number().int().nullable(),
  gender: z.number().int(),
  callingResults: z.array(CallingResultSchema),
  attachData: z.object({ conclusion: z.string().nullish() }).passthrough(),
  userData: z.object({ data: z.string().nullish() }).passthrough(),
  groupDn: z.string().nullable(),
  dn: z.string().nullable(),
  /** Whether the call has a recording: without one, the detail shows no player at all. */
  hasRecording: z.boolean(),
  /** The work order made from this call (the first, if several), shown instead of the form (decision 026). */
  workOrder: z.object({ id: z.number().int(), number: z.string(), title: z.string() }).nullable(),
  poorQuality: PoorQualitySchema.nullable(),
  /**
   * The result the agent saved for the call (its business record, POST /contact/call/conclusion),
   * null when none was saved: attachData.conclusion is only what a robot noted (decision 067).
   */
  businessRecord: BusinessRecordSchema.pick({ callResult: true, intent: true, remark: true, fields: true, agentName: true }).nullable(),
});
export type CallDetail = z.infer<typeof CallDetailSchema>;
export const CallDetailResponseSchema = envelope(CallDetailSchema);

/** POST /contact/campaign/record/export: the list filters plus the file format. */
export const EXPORT_FORMATS = ["csv", "xlsx"] as const;
export const CallExportSchema = CallFilterSchema.omit({ pageNo: true, pageSize: true, after: true, before: true }).extend({
  format: z.enum(EXPORT_FORMATS).default("csv"),
});
export type CallExport = z.infer<typeof CallExportSchema>;
