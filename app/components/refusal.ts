import type { SubmissionResult } from "@conform-to/react";

/**
 * The action's answer when it refused a form (a `rejectForm` reply), and only when that form was
 * posted with `intent`, if given: a screen of several forms shows a refusal on the one posted.
 * Its own module, without conform's hooks (9.3 KB gzip), for the island that reads refusals
 * without conform (the inspection scoring view, decision 060); intent-form.ts passes it on.
 */
export function refusalOf(result: unknown, intent?: string): SubmissionResult<string[]> | undefined {
  if (!result || typeof result !== "object" || !("initialValue" in result)) return undefined;
  const refusal = result as SubmissionResult<string[]>;
  return intent === undefined || refusal.initialValue?.intent === intent ? refusal : undefined;
}
