import { z } from "zod";
import { WORK_ORDER_STATES, codesOf } from "#contracts/codes";
import { WORK_ORDER_NOTE_MAX, WorkOrderNoteSchema, WorkOrderRecordInputSchema } from "#contracts/work-orders";
import { pageParam, sizeParam } from "#app/server/page-query.server";

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional();
const state = z.coerce
  .number()
  .int()
  .refine((n) => codesOf(WORK_ORDER_STATES).includes(n), "请选择要变更的状态");

/** The list's URL: filters and pagination. */
export const WorkOrderListQuerySchema = z.object({
  templateId: z.coerce.number().int().positive().optional(),
  state: state.optional(),
  ownerId: z.coerce.number().int().positive().optional(),
  mine: z.enum(["1"]).optional(),
  from: day,
  to: day,
  overdue: z.enum(["1"]).optional(),
  keyword: z.string().trim().max(50).optional(),
  page: pageParam,
  size: sizeParam,
  /** The create form: `create=1`, then the chosen template. */
  create: z.enum(["1"]).optional(),
  template: z.coerce.number().int().positive().optional(),
});

/** The detail's forms: take it, hand it on (supervisors, administrators), follow it to a new state. */
export const INTENT_SCHEMAS = {
  receive: z.object({ intent: z.literal("receive") }),
  reassign: z.object({
    intent: z.literal("reassign"),
    userId: z.coerce.number({ required_error: "请选择处理人", invalid_type_error: "请选择处理人" }).int().positive("请选择处理人"),
    note: z.string().trim().max(WORK_ORDER_NOTE_MAX, `说明不能超过${WORK_ORDER_NOTE_MAX}个字符`).default(""),
  }),
  follow: z.object({ intent: z.literal("follow"), state, note: WorkOrderNoteSchema }),
} as const;

/** The list's create form: a record of the chosen template, its fields posted as values.<key>. */
export const CreateSchema = WorkOrderRecordInputSchema.omit({ ctiCallId: true }).extend({ intent: z.literal("create") });
