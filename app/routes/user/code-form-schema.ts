import type { z } from "zod";
import { CodeRequestSchema, NewChallengeSchema } from "#app/components/code-request";

/** The schema of what was posted: asking for a code, a new picture, or the form's own work (`schema`). */
export function codeFormSchema<Schema extends z.ZodTypeAny>(intent: FormDataEntryValue | null, schema: Schema) {
  return intent === "send" || intent === "voice" ? CodeRequestSchema : intent === "challenge" ? NewChallengeSchema : schema;
}
