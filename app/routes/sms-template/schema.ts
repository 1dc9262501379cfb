import { z } from "zod";
import { SmsTemplateInputSchema } from "#contracts/customers";

const id = (message: string) => z.coerce.number({ required_error: message, invalid_type_error: message }).int().positive(message);

export const TemplateFormSchema = SmsTemplateInputSchema.extend({
  intent: z.enum(["template.save", "template.count"]),
  id: z.coerce.number().int().positive().optional(),
});

export const INTENT_SCHEMAS = {
  "template.save": TemplateFormSchema,
  "template.count": TemplateFormSchema,
  "template.review": z
    .object({
      intent: z.literal("template.review"),
      id: id("短信模板不存在"),
      state: z.enum(["approved", "rejected"], { errorMap: () => ({ message: "请选择审核结果" }) }),
      reason: z.string().trim().max(200, "原因不能超过200个字符").default(""),
    })
    .refine((r) => r.state === "approved" || r.reason.length > 0, { message: "不通过时请填写原因", path: ["reason"] }),
  "template.delete": z.object({
    intent: z.literal("template.delete"),
    id: id("短信模板不存在"),
    name: z.string().max(40).optional(),
    confirmed: z.literal("1").optional(),
  }),
} as const;
export type Intent = keyof typeof INTENT_SCHEMAS;
