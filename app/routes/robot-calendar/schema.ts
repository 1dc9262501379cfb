import { z } from "zod";
import { FestivalFieldsSchema, WorkingCalendarInputSchema, checkFestivalRange } from "#contracts/robot-resources";

export const SCREEN = "/robot/calendar";

/** The page's address: a festival's form open (`new` or its id), a campaign's calls previewed. */
export const CalendarQuerySchema = z.object({
  festival: z.union([z.literal("new"), z.coerce.number().int().positive()]).optional(),
  campaign: z.coerce.number().int().positive().optional(),
});
export type CalendarQuery = z.infer<typeof CalendarQuerySchema>;

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
