import { z } from "zod";
import { CustomerPropertyInputSchema, splitOptions } from "#contracts/customers";

const id = (message: string) => z.coerce.number({ required_error: message, invalid_type_error: message }).int().positive(message);

/** The property form: options typed in one box; the checks are the platform's own (contracts). */
export const PropertyFormSchema = z
  .object({
    intent: z.literal("property.save"),
    id: z.coerce.number().int().positive().optional(),
    name: z.string({ required_error: "请输入属性名称" }),
    type: z.string({ required_error: "请选择属性类型" }),
    options: z.string().max(2000, "选项过长").optional(),
    required: z.literal("on").optional(),
    unique: z.literal("on").optional(),
  })
  .transform((form, ctx) => {
    const parsed = CustomerPropertyInputSchema.safeParse({
      name: form.name,
      type: form.type,
      options: splitOptions(form.options ?? ""),
      required: form.required === "on",
      unique: form.unique === "on",
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: "custom", path: [String(issue.path[0] ?? "name")], message: issue.message });
      return z.NEVER;
    }
    return { intent: form.intent, id: form.id, input: parsed.data };
  });

export const INTENT_SCHEMAS = {
  "property.save": PropertyFormSchema,
  "property.move": z.object({ intent: z.literal("property.move"), id: id("客户属性不存在"), action: z.enum(["up", "down"]) }),
  "property.valid": z.object({ intent: z.literal("property.valid"), id: id("客户属性不存在"), valid: z.enum(["0", "1"]) }),
  "property.delete": z.object({
    intent: z.literal("property.delete"),
    id: id("客户属性不存在"),
    name: z.string().max(40).optional(),
    confirmed: z.literal("1").optional(),
  }),
} as const;
export type Intent = keyof typeof INTENT_SCHEMAS;
