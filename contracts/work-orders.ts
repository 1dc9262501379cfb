import { z } from "zod";
import { WORK_ORDER_FIELD_TYPES, WORK_ORDER_STATES, WORK_ORDER_TEMPLATE_STATUSES, codesOf, labelOf } from "./codes";
import { envelope, page, PaginationSchema } from "./envelope";

/**
 * Work orders (decision 021): templates that say which fields a work order asks for
 * and how long it may stay open (SLA), and the records agents create from calls and follow to
 * completion. `/config/workorder/template` and `/config/workorder/record`.
 */

export const WORK_ORDER_NAME_MAX = 30;
export const WORK_ORDER_FIELDS_MAX = 20;
export const WORK_ORDER_LABEL_MAX = 20;
export const WORK_ORDER_OPTIONS_MAX = 20;
export const WORK_ORDER_TITLE_MAX = 100;
export const WORK_ORDER_CONTENT_MAX = 2000;
export const WORK_ORDER_NOTE_MAX = 500;
export const WORK_ORDER_SLA_MAX = 720;
// The values' checks and limits live in a module without zod, so a hydrated screen's form can use them.
import { WORK_ORDER_VALUE_MAX } from "./work-order-values";
export { WORK_ORDER_MENU_URLS, WORK_ORDER_VALUE_MAX, checkWorkOrderValues } from "./work-order-values";

export type WorkOrderFieldType = (typeof WORK_ORDER_FIELD_TYPES)[number]["code"];
const fieldTypes = codesOf(WORK_ORDER_FIELD_TYPES) as [WorkOrderFieldType, ...WorkOrderFieldType[]];

// ---------------------------------------------------------------------------------------------
// The follow states as one state machine: which state may follow which. The platform refuses the
// others (400 with the message below); the console offers only these.
// ---------------------------------------------------------------------------------------------
export const WORK_ORDER_PENDING = 0;
export const WORK_ORDER_IN_PROGRESS = 1;
export const WORK_ORDER_DONE = 2;
export const WORK_ORDER_CLOSED = 3;

export const WORK_ORDER_TRANSITIONS: Readonly<Record<number, readonly number[]>> = {
  [WORK_ORDER_PENDING]: [WORK_ORDER_IN_PROGRESS, WORK_ORDER_CLOSED],
  [WORK_ORDER_IN_PROGRESS]: [WORK_ORDER_DONE, WORK_ORDER_CLOSED],
  [WORK_ORDER_DONE]: [],
  [WORK_ORDER_CLOSED]: [],
};

export const nextWorkOrderStates = (state: number): readonly number[] => WORK_ORDER_TRANSITIONS[state] ?? [];
export const isWorkOrderOpen = (state: number) => nextWorkOrderStates(state).length > 0;

/** Why a transition is refused, in the words an agent reads; null when it is allowed. */
export function workOrderTransitionRefusal(from: number, to: number): string | null {
  if (nextWorkOrderStates(from).includes(to)) return null;
  if (!isWorkOrderOpen(from)) return `工单${labelOf(WORK_ORDER_STATES, from)}，不能再变更状态`;
  return `工单当前为「${labelOf(WORK_ORDER_STATES, from)}」，不能变更为「${labelOf(WORK_ORDER_STATES, to, String(to))}」`;
}

// ---------------------------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------------------------

/** One field a template asks for; `name` is its stable key in a record's values. */
export const WorkOrderFieldSchema = z.object({
  name: z.string(),
  label: z.string(),
  type: z.enum(fieldTypes),
  required: z.boolean(),
  options: z.array(z.string()),
});
export type WorkOrderField = z.infer<typeof WorkOrderFieldSchema>;

/** Options typed in one box: separated by commas, 、, semicolons or new lines. */
export function splitOptions(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,，、;；\n]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

const FieldInputSchema = z.object({
  name: z
    .string()
    .regex(/^f\d{1,3}$/, "字段标识无效")
    .optional(),
  label: z
    .string({ required_error: "请填写字段名称" })
    .trim()
    .min(1, "请填写字段名称")
    .max(WORK_ORDER_LABEL_MAX, `字段名称不能超过${WORK_ORDER_LABEL_MAX}个字符`),
  type: z.enum(fieldTypes, { errorMap: () => ({ message: "请选择字段类型" }) }),
  required: z.boolean().default(false),
  options: z
    .array(z.string().trim().min(1).max(WORK_ORDER_LABEL_MAX, `每个选项不能超过${WORK_ORDER_LABEL_MAX}个字符`))
    .max(WORK_ORDER_OPTIONS_MAX, `选项不能超过${WORK_ORDER_OPTIONS_MAX}个`)
    .default([]),
});

const TemplateBaseSchema = z.object({
  name: z
    .string({ required_error: "请填写模板名称" })
    .trim()
    .min(1, "请填写模板名称")
    .max(WORK_ORDER_NAME_MAX, `模板名称不能超过${WORK_ORDER_NAME_MAX}个字符`),
  slaHours: z.coerce
    .number({ required_error: "请填写处理时限", invalid_type_error: "处理时限必须是数字" })
    .int("处理时限必须是整数小时")
    .min(1, "处理时限至少 1 小时")
    .max(WORK_ORDER_SLA_MAX, `处理时限不能超过${WORK_ORDER_SLA_MAX}小时`),
  fields: z.array(FieldInputSchema).max(WORK_ORDER_FIELDS_MAX, `字段不能超过${WORK_ORDER_FIELDS_MAX}个`).default([]),
});
export const WorkOrderTemplateNameSchema = TemplateBaseSchema.shape.name;
export const WorkOrderTemplateSlaSchema = TemplateBaseSchema.shape.slaHours;

/** What no single field can check: names unique within the template, a choice has options. */
export function refineTemplateFields(
  input: { fields: ReadonlyArray<{ label: string; type: string; options: string[] }> },
  ctx: z.RefinementCtx,
) {
  const seen = new Set<string>();
  input.fields.forEach((field, i) => {
    if (seen.has(field.label)) ctx.addIssue({ code: "custom", path: ["fields", i, "label"], message: `字段名称「${field.label}」重复` });
    seen.add(field.label);
    if (field.type === "choice" && field.options.length === 0) {
      ctx.addIssue({ code: "custom", path: ["fields", i, "options"], message: "选项类型的字段请至少填写一个选项" });
    }
  });
}

/** POST /config/workorder/template, PUT /config/workorder/template/{id} */
export const WorkOrderTemplateInputSchema = TemplateBaseSchema.superRefine(refineTemplateFields);
export type WorkOrderTemplateInput = z.infer<typeof WorkOrderTemplateInputSchema>;

export const WorkOrderTemplateSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  slaHours: z.number().int(),
  status: z.number().int(),
  fields: z.array(WorkOrderFieldSchema),
  recordCount: z.number().int(),
  updatedAt: z.string(),
});
export type WorkOrderTemplate = z.infer<typeof WorkOrderTemplateSchema>;
export const WorkOrderTemplateResponseSchema = envelope(WorkOrderTemplateSchema);
/** GET /config/workorder/template/list?status= — every template of the tenant (a handful). */
export const WorkOrderTemplateListResponseSchema = envelope(page(WorkOrderTemplateSchema));
export const WorkOrderTemplateListQuerySchema = z.object({
  status: z.coerce
    .number()
    .int()
    .refine((n) => codesOf(WORK_ORDER_TEMPLATE_STATUSES).includes(n), "状态无效")
    .optional(),
});
export const WorkOrderTemplateStatusParamsSchema = z.object({
  id: z.coerce.number().int().positive(),
  status: z.coerce
    .number({ invalid_type_error: "状态无效" })
    .int()
    .refine((n) => codesOf(WORK_ORDER_TEMPLATE_STATUSES).includes(n), "状态无效"),
});
export const WorkOrderDeletedResponseSchema = envelope(z.object({ id: z.number().int() }));

// ---------------------------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------------------------

export const WorkOrderRecordSchema = z.object({
  id: z.number().int(),
  number: z.string(),
  templateId: z.number().int().nullable(),
  templateName: z.string().nullable(),
  title: z.string(),
  content: z.string(),
  values: z.record(z.string()),
  state: z.number().int(),
  ctiCallId: z.string().nullable(),
  ownerId: z.number().int().nullable(),
  ownerName: z.string().nullable(),
  createdById: z.number().int().nullable(),
  createdByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  dueAt: z.string().nullable(),
  /** Still open past its due time (the template's SLA). */
  overdue: z.boolean(),
});
export type WorkOrderRecord = z.infer<typeof WorkOrderRecordSchema>;

/** One row of a record's history: created, received, reassigned or followed (a state change with its note). */
export const WorkOrderFollowSchema = z.object({
  id: z.number().int(),
  kind: z.enum(["create", "receive", "reassign", "follow"]),
  fromState: z.number().int().nullable(),
  toState: z.number().int(),
  note: z.string(),
  actorName: z.string(),
  createdAt: z.string(),
});

/** The call a record was created from: enough to open its call detail and recording. */
export const WorkOrderCallSchema = z.object({
  id: z.number().int(),
  ctiCallId: z.string(),
  phone: z.string(),
  direction: z.string(),
  callTime: z.string(),
  callDuration: z.number().int(),
  /** Whether the call has a recording to download (spec §5: else 暂无录音可下载). */
  hasRecording: z.boolean(),
});

/** GET /config/workorder/record/{id} */
export const WorkOrderDetailSchema = z.object({
  record: WorkOrderRecordSchema,
  template: WorkOrderTemplateSchema.nullable(),
  follows: z.array(WorkOrderFollowSchema),
  call: WorkOrderCallSchema.nullable(),
});
export type WorkOrderDetail = z.infer<typeof WorkOrderDetailSchema>;
export const WorkOrderDetailResponseSchema = envelope(WorkOrderDetailSchema);
export const WorkOrderRecordResponseSchema = envelope(WorkOrderRecordSchema);

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "日期格式应为年-月-日")
  .optional();

/**
 * GET /config/workorder/record/list — filters: template, state, owner (`ownerId`, or `mine=1`),
 * created day range (China Standard Time), overdue only, number or title keyword. Agents get
 * only records they own or created.
 */
export const WorkOrderRecordQuerySchema = PaginationSchema.extend({
  templateId: z.coerce.number().int().positive().optional(),
  state: z.coerce
    .number()
    .int()
    .refine((n) => codesOf(WORK_ORDER_STATES).includes(n), "状态无效")
    .optional(),
  ownerId: z.coerce.number().int().positive().optional(),
  mine: z.enum(["1"]).optional(),
  from: day,
  to: day,
  overdue: z.enum(["1"]).optional(),
  keyword: z.string().trim().max(50, "关键词不能超过50个字符").optional(),
});
export type WorkOrderRecordQuery = z.infer<typeof WorkOrderRecordQuerySchema>;
export const WorkOrderRecordPageResponseSchema = envelope(page(WorkOrderRecordSchema));

const title = z
  .string({ required_error: "请填写工单标题" })
  .trim()
  .min(1, "请填写工单标题")
  .max(WORK_ORDER_TITLE_MAX, `工单标题不能超过${WORK_ORDER_TITLE_MAX}个字符`);
const content = z.string().trim().max(WORK_ORDER_CONTENT_MAX, `工单内容不能超过${WORK_ORDER_CONTENT_MAX}个字符`).default("");

/** POST /config/workorder/record — a record of an enabled template, optionally from a call. */
export const WorkOrderRecordInputSchema = z.object({
  templateId: z.coerce.number({ invalid_type_error: "请选择工单模板" }).int().positive("请选择工单模板").optional(),
  title,
  content,
  values: z.record(z.string().max(WORK_ORDER_VALUE_MAX.longText)).default({}),
  ctiCallId: z.string().min(1).max(100).optional(),
});
export type WorkOrderRecordInput = z.infer<typeof WorkOrderRecordInputSchema>;

/** PUT /config/workorder/record/follow/{id}/{state} */
export const WorkOrderFollowParamsSchema = z.object({
  id: z.coerce.number().int().positive(),
  state: z.coerce
    .number({ invalid_type_error: "状态无效" })
    .int()
    .refine((n) => codesOf(WORK_ORDER_STATES).includes(n), "状态无效"),
});
export const WorkOrderNoteSchema = z
  .string({ required_error: "请填写跟进说明" })
  .trim()
  .min(1, "请填写跟进说明")
  .max(WORK_ORDER_NOTE_MAX, `跟进说明不能超过${WORK_ORDER_NOTE_MAX}个字符`);
export const WorkOrderFollowInputSchema = z.object({ note: WorkOrderNoteSchema });

/**
 * PUT /config/workorder/record/receive/{id} — take the record into my hands; with `userId`
 * (supervisors and administrators), hand it to that user of the tenant (reassign).
 */
export const WorkOrderReceiveInputSchema = z.object({
  userId: z.coerce.number().int().positive().optional(),
  note: z.string().trim().max(WORK_ORDER_NOTE_MAX, `说明不能超过${WORK_ORDER_NOTE_MAX}个字符`).default(""),
});

/** GET /config/workorder/record/number — the number the next record will get (not reserved). */
export const WorkOrderNumberResponseSchema = envelope(z.object({ number: z.string() }));

/** The refusal of a work order to someone whose menu has no work-order screen (console and platform). */
export const WORK_ORDER_CREATE_REFUSED = "您没有创建工单的权限（菜单中没有工单记录或我的工单）";
