import { z } from "zod";
import { WORK_ORDER_FIELD_TYPES, WORK_ORDER_TEMPLATE_STATUSES, codesOf } from "#contracts/codes";
import {
  WORK_ORDER_FIELDS_MAX,
  WORK_ORDER_LABEL_MAX,
  WorkOrderTemplateNameSchema,
  WorkOrderTemplateSlaSchema,
  refineTemplateFields,
  splitOptions,
  type WorkOrderFieldType,
} from "#contracts/work-orders";

const id = (message: string) => z.coerce.number({ required_error: message, invalid_type_error: message }).int().positive(message);
const types = codesOf(WORK_ORDER_FIELD_TYPES) as [WorkOrderFieldType, ...WorkOrderFieldType[]];

/**
 * The template form as posted: one row per field (fields[i].label, .type, .required, .options
 * typed in one box). Rows are added and removed with conform's list intents, which post the form
 * too, so the editor works without JavaScript.
 */
export const TemplateFormSchema = z
  .object({
    intent: z.literal("template.save"),
    id: z.coerce.number().int().positive().optional(),
    name: WorkOrderTemplateNameSchema,
    slaHours: WorkOrderTemplateSlaSchema,
    fields: z
      .array(
        z.object({
          name: z.string().optional(),
          label: z
            .string({ required_error: "请填写字段名称" })
            .trim()
            .min(1, "请填写字段名称")
            .max(WORK_ORDER_LABEL_MAX, `字段名称不能超过${WORK_ORDER_LABEL_MAX}个字符`),
          type: z.enum(types, { errorMap: () => ({ message: "请选择字段类型" }) }),
          required: z.boolean().default(false),
          options: z
            .string()
            .max(WORK_ORDER_LABEL_MAX * 25, "选项过长")
            .optional()
            .transform((text) => splitOptions(text ?? "")),
        }),
      )
      .max(WORK_ORDER_FIELDS_MAX, `字段不能超过${WORK_ORDER_FIELDS_MAX}个`)
      .default([]),
  })
  .superRefine(refineTemplateFields);

export const TemplateStatusSchema = z.object({
  intent: z.literal("template.status"),
  id: id("模板不存在"),
  status: z.coerce
    .number()
    .int()
    .refine((n) => codesOf(WORK_ORDER_TEMPLATE_STATUSES).includes(n), "状态无效"),
});
export const TemplateDeleteSchema = z.object({
  intent: z.literal("template.delete"),
  id: id("模板不存在"),
  name: z.string().max(60).optional(),
  confirmed: z.literal("1").optional(),
});

export const INTENT_SCHEMAS = {
  "template.save": TemplateFormSchema,
  "template.status": TemplateStatusSchema,
  "template.delete": TemplateDeleteSchema,
} as const;
export type Intent = keyof typeof INTENT_SCHEMAS;
