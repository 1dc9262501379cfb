import { z } from "zod";
import { RegexTestInputSchema, RobotRegexInputSchema } from "#contracts/robot-resources";

const id = z.coerce.number({ invalid_type_error: "正则表达式不存在" }).int().positive("正则表达式不存在");

/** The form saves (regex.save) or tries the pattern on the sample (regex.test); both keep every value. */
export const RegexFormSchema = RobotRegexInputSchema.extend({
  intent: z.literal("regex.save"),
  id: id.optional(),
  sample: z.string().max(200, "测试句子不能超过200个字符").optional(),
});

export const INTENT_SCHEMAS = {
  "regex.save": RegexFormSchema,
  "regex.test": RegexTestInputSchema.extend({
    intent: z.literal("regex.test"),
    id: id.optional(),
    name: z.string().optional(),
    description: z.string().optional(),
  }),
  "regex.delete": z.object({
    intent: z.literal("regex.delete"),
    id,
    name: z.string().max(40).optional(),
    confirmed: z.literal("1").optional(),
  }),
} as const;
export type Intent = keyof typeof INTENT_SCHEMAS;
