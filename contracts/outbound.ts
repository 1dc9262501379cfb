/**
 * The outbound service (`/outbound`, plus the contact trace queries and the file upload it owns):
 * campaigns, their task batches ("tasks") and calls, contact import, hand-offs, agents' preview
 * lists. Codes are those of contracts/codes.ts. Paths are in endpoints.md; the preview and
 * distribution paths are ours (docs/decisions/006-outbound-dialer.md).
 */
import { z } from "zod";
import { envelope, page, PaginationSchema } from "./envelope";

const id = z.coerce.number().int().positive();
const isoTime = z.string();

/** Mainland mobile numbers, optionally prefixed +86 or 0086 (spec §9). */
export const MAINLAND_MOBILE = /^(?:\+86|0086)?1[3-9]\d{9}$/;
/** The 11 digits of a mainland mobile number, or null when it is not one. */
export function normaliseMobile(raw: string): string | null {
  const compact = raw.replace(/[\s-]/g, "");
  return MAINLAND_MOBILE.test(compact) ? compact.slice(-11) : null;
}

export const HHMM = /^([01]\d|2[0-3]):[0-5]\d$|^24:00$/;
export const CallingWindowSchema = z.object({ start: z.string().regex(HHMM), end: z.string().regex(HHMM) });

// ---- campaigns ----

export const CampaignSummarySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  type: z.number().int(),
  taskType: z.number().int(),
  cycle: z.number().int(),
  state: z.number().int(),
  ratio: z.number(),
  callingListName: z.string().nullable(),
  batchCount: z.number().int(),
  callTotal: z.number().int(),
  callDone: z.number().int(),
  createdAt: isoTime,
});
export type CampaignSummary = z.infer<typeof CampaignSummarySchema>;

export const CampaignSchema = CampaignSummarySchema.extend({
  robotId: z.number().int().nullable(),
  instanceName: z.string().nullable(),
  flowId: z.number().int().nullable(),
  flowVersionName: z.string().nullable(),
  queueName: z.string().nullable(),
  callerNumber: z.string().nullable(),
  transTemplateId: z.number().int().nullable(),
  windows: z.array(CallingWindowSchema),
  startDate: z.string().nullable(),
  endDate: z.string().nullable(),
  maxAttempts: z.number().int(),
});
export type Campaign = z.infer<typeof CampaignSchema>;

export const CampaignListQuerySchema = PaginationSchema.extend({
  name: z.string().trim().max(64).optional(),
  state: z.coerce.number().int().optional(),
  type: z.coerce.number().int().optional(),
});
export type CampaignListQuery = z.infer<typeof CampaignListQuerySchema>;
export const CampaignPageResponseSchema = envelope(page(CampaignSummarySchema));
export const CampaignResponseSchema = envelope(CampaignSchema);

/**
 * POST /outbound/campaign/save: no id creates, an id updates. The robot (POST
 * /robot/api/robot/instance/list), caller number (GET /config/tenants/{id}/callerIdNumbers) and
 * transfer template (GET /outbound/transTemplates/{agentId}/{type}) must be the tenant's own.
 */
export const CampaignSaveSchema = z.object({
  id: id.optional(),
  name: z.string().trim().min(1).max(64),
  type: z.number().int(),
  taskType: z.number().int(),
  cycle: z.number().int(),
  ratio: z.number().min(0.1).max(5),
  callingListName: z.string().trim().max(64).nullable(),
  robotId: id.nullable(),
  queueName: z.string().trim().max(64).nullable(),
  callerNumber: z.string().trim().max(32).nullable(),
  transTemplateId: id.nullable(),
  windows: z.array(CallingWindowSchema).min(1).max(6),
  startDate: z.string().date().nullable(),
  endDate: z.string().date().nullable(),
  maxAttempts: z.number().int().min(1).max(5),
});
export type CampaignSave = z.infer<typeof CampaignSaveSchema>;
export const SavedResponseSchema = envelope(z.object({ id: z.number().int() }));

/** GET /outbound/campaign/init: the queues and list names the campaign form offers (robots, numbers and templates have their own endpoints). */
export const CampaignInitSchema = z.object({
  queues: z.array(z.string()),
  callingListNames: z.array(z.string()),
});
export const CampaignInitResponseSchema = envelope(CampaignInitSchema);

export const NameCountResponseSchema = envelope(z.object({ count: z.number().int() }));
export const CallingListNamesResponseSchema = envelope(z.array(z.string()));

export const SchedulerCheckQuerySchema = z.object({ campaignId: id, state: z.coerce.number().int() });
export const SchedulerCheckSchema = z.object({ allowed: z.boolean(), reason: z.string().nullable() });
export const SchedulerCheckResponseSchema = envelope(SchedulerCheckSchema);
export const ChangeStateSchema = z.object({ campaignId: id, state: z.number().int() });

export const RatioSchema = z.object({ campaignId: id, ratio: z.number().min(0.1).max(5) });
export const RatioResponseSchema = envelope(z.object({ campaignId: z.number().int(), ratio: z.number() }));

export const CampaignOptionSchema = z.object({ id: z.number().int(), name: z.string(), type: z.number().int(), state: z.number().int() });
export const CampaignSelectSchema = z.object({ types: z.array(z.number().int()).optional() });
export const CampaignSelectResponseSchema = envelope(z.array(CampaignOptionSchema));

export const CheckContactSchema = z.object({ campaignId: id, phone: z.string().max(32) });
export const CheckContactResponseSchema = envelope(
  z.object({ valid: z.boolean(), inCampaign: z.boolean(), blacklisted: z.boolean(), reason: z.string().nullable() }),
);

// ---- batches ("tasks") and calls ----

export const BatchSchema = z.object({
  id: z.number().int(),
  campaignId: z.number().int(),
  campaignName: z.string(),
  campaignType: z.number().int(),
  name: z.string(),
  status: z.number().int(),
  total: z.number().int(),
  open: z.number().int(),
  nextRunAt: isoTime.nullable(),
  startedAt: isoTime.nullable(),
  finishedAt: isoTime.nullable(),
  createdAt: isoTime,
});
export type Batch = z.infer<typeof BatchSchema>;
export const TaskListQuerySchema = PaginationSchema.extend({ campaignId: id.optional(), status: z.coerce.number().int().optional() });
export const BatchPageResponseSchema = envelope(page(BatchSchema));
export const TaskSaveSchema = z.object({ id: id.optional(), campaignId: id, name: z.string().trim().min(1).max(64) });
export const TaskRecoverSchema = z.object({ id });

export const TaskCallSchema = z.object({
  id: z.number().int(),
  batchId: z.number().int(),
  campaignId: z.number().int(),
  phone: z.string(),
  customerName: z.string().nullable(),
  status: z.number().int(),
  hangupParty: z.number().int().nullable(),
  attempts: z.number().int(),
  agentUserId: z.number().int().nullable(),
  agentName: z.string().nullable(),
  skipReason: z.string().nullable(),
  userData: z.record(z.unknown()),
  updatedAt: isoTime,
});
export type TaskCall = z.infer<typeof TaskCallSchema>;
/** `estimated`: the total is the platform's estimate (a batch of 100,000 contacts is not counted exactly). */
export const TaskCallPageSchema = page(TaskCallSchema).extend({ estimated: z.boolean().optional() });

/**
 * Keyset cursors of a list of calls (in id order): with `after` (the last id shown) the page
 * starts after that call, with `before` (the first id shown) it ends before it; pageNo still names
 * the page for display. Without a cursor, pageNo is an offset.
 */
const idCursor = z
  .string()
  .regex(/^\d{1,15}$/)
  .optional();
export const CallCursorSchema = z.object({ after: idCursor, before: idCursor });
export const TaskCallsQuerySchema = PaginationSchema.merge(CallCursorSchema);

export const TransitionSchema = z.object({
  id: z.number().int(),
  taskCallId: z.number().int().nullable(),
  phone: z.string().nullable(),
  fromStatus: z.number().int().nullable(),
  toStatus: z.number().int(),
  reason: z.string(),
  at: isoTime,
});
export type Transition = z.infer<typeof TransitionSchema>;
export const TraceResponseSchema = envelope(z.object({ batch: BatchSchema, transitions: z.array(TransitionSchema) }));

/**
 * GET /outbound/task/get/{id}/{isCalling}/{callType}: isCalling 1 = only open calls; callType a
 * call status or -1 for all. With `history=1` the answer also carries the batch's history as
 * /outbound/task/trace gives it, so that the batch page reads its batch once, in one call.
 */
export const TaskGetQuerySchema = TaskCallsQuerySchema.extend({ history: z.enum(["0", "1"]).optional() });
export const TaskDetailSchema = z.object({
  batch: BatchSchema,
  calls: TaskCallPageSchema,
  transitions: z.array(TransitionSchema).optional(),
});
export const TaskDetailResponseSchema = envelope(TaskDetailSchema);

export const DataListQuerySchema = TaskCallsQuerySchema.extend({
  campaignId: id.optional(),
  batchId: id.optional(),
  status: z.coerce.number().int().optional(),
  /** Only the caller's own calls (agents' business records). */
  mine: z.coerce.boolean().optional(),
});
export const TaskCallPageResponseSchema = envelope(TaskCallPageSchema);

// ---- records of a call ----

export const CallRecordBriefSchema = z.object({
  id: z.number().int(),
  ctiCallId: z.string(),
  callTime: isoTime,
  callDurationMs: z.number().int(),
  callResult: z.number().int(),
  callResultName: z.string(),
  outboundResult: z.string().nullable(),
  intent: z.string().nullable(),
  hangupParty: z.number().int().nullable(),
});
export const BeforeCallResponseSchema = envelope(
  z.object({ call: TaskCallSchema, campaign: CampaignOptionSchema, records: z.array(CallRecordBriefSchema) }),
);
export const CallTraceResponseSchema = envelope(
  z.object({ call: TaskCallSchema, transitions: z.array(TransitionSchema), records: z.array(CallRecordBriefSchema) }),
);

// ---- hand-offs (collaborative campaigns) ----

export const HandoffSchema = z.object({
  id: z.number().int(),
  campaignId: z.number().int(),
  campaignName: z.string(),
  batchId: z.number().int(),
  taskCallId: z.number().int(),
  phone: z.string(),
  intent: z.string().nullable(),
  state: z.string(),
  agentName: z.string().nullable(),
  createdAt: isoTime,
});
export type Handoff = z.infer<typeof HandoffSchema>;
export const TransCallQuerySchema = PaginationSchema.extend({ state: z.enum(["waiting", "handed", "lost"]).optional() });
export const HandoffPageResponseSchema = envelope(page(HandoffSchema));

// ---- transfer templates ----

export const TransTemplateSchema = z.object({ id: z.number().int(), name: z.string(), type: z.number().int(), target: z.string() });
export const TransTemplateResponseSchema = envelope(TransTemplateSchema);
export const TransTemplatesResponseSchema = envelope(z.array(TransTemplateSchema));

// ---- contact import (POST /api/file/upload, multipart: campaignId, file) ----

export const ImportErrorSchema = z.object({ rowNo: z.number().int(), phone: z.string(), customerName: z.string(), reason: z.string() });
const ImportStatusSchema = z.enum(["running", "done", "failed"]);
export const ImportResultSchema = z.object({
  importId: z.number().int(),
  /**
   * "running": the file is large (or `background` was asked) and is read in the background;
   * its progress is in GET /outbound/campaign/imports. The figures are then those so far.
   */
  status: ImportStatusSchema.default("done"),
  batchId: z.number().int().nullable(),
  accepted: z.number().int(),
  rejected: z.number().int(),
  /** The first rejected rows; all of them through GET /outbound/campaign/export/error. */
  errors: z.array(ImportErrorSchema),
});
export type ImportResult = z.infer<typeof ImportResultSchema>;
export const ImportResultResponseSchema = envelope(ImportResultSchema);
export const ImportSummarySchema = z.object({
  id: z.number().int(),
  batchId: z.number().int().nullable(),
  fileName: z.string(),
  status: ImportStatusSchema,
  /** Rows read so far (the header not counted). */
  processed: z.number().int(),
  accepted: z.number().int(),
  rejected: z.number().int(),
  /** Why a failed import stopped. */
  message: z.string().nullable(),
  createdAt: isoTime,
  finishedAt: isoTime.nullable(),
});
export const ImportListResponseSchema = envelope(z.array(ImportSummarySchema));
export const ExportErrorQuerySchema = z.object({ campaignId: id, importId: id });

// ---- agents' preview lists and data distribution (ours) ----

export const PreviewNextSchema = z.object({ campaignId: id.optional() });
export const PreviewCallResponseSchema = envelope(TaskCallSchema.nullable());
export const PreviewDialSchema = z.object({ taskCallId: id });
export const PreviewSkipSchema = z.object({ taskCallId: id, reason: z.string().min(1).max(64) });
export const DistributeSchema = z.object({
  campaignId: id,
  mode: z.enum(["even", "count"]),
  agents: z
    .array(z.object({ userId: id, count: z.number().int().min(0).max(100_000).optional() }))
    .min(1)
    .max(200),
});
export const DistributeResponseSchema = envelope(
  z.object({ assigned: z.array(z.object({ userId: z.number().int(), count: z.number().int() })) }),
);
export const UnassignedCountResponseSchema = envelope(z.object({ unassigned: z.number().int() }));

export const SimulatorTickSchema = z.object({
  minutes: z
    .number()
    .min(0)
    .max(7 * 24 * 60)
    .default(1),
  times: z.number().int().min(1).max(100).default(1),
});
