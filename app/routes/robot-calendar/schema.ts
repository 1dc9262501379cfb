import { z } from "zod";
import { FestivalFieldsSchema, WorkingCalendarInputSchema, checkFestivalRange } from "#contracts/robot-resources";

const id = z.coerce.number({ invalid_type_error: "节假日不存在" }).int().positive("节假日不存在");

export const WorkingFormSchema = WorkingCalendarInputSchema.extend({ intent: z.literal("working.save") });
export const FestivalFormSchema = FestivalFieldsSchema.extend({ intent: z.literal("festival.save"), id: id.optional() });

export const INTENT_SCHEMAS = {
  "working.save": WorkingFormSchema,
  "festival.save": FestivalFormSchema.superRefine(checkFestivalRange),
  "festival.delete": z.object({
    intent: z.literal("festival.delete"),
    id,
    name: z.string().max(40).optional(),
    confirmed: z.literal("1").optional(),
  }),
} as const;
export type Intent = keyof typeof INTENT_SCHEMAS;
