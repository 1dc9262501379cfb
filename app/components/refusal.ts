import type { SubmissionResult } from "@conform-to/react";

/**
 * `refusalOf` of intent-form.ts, for a page that hydrates and does not run conform in the browser
 * (the inspection scoring view, decision 060): intent-form.ts loads conform's hooks with it, some
 * 9.3 KB gzip of the island's JavaScript. The action's answer when it refused a form (a
 * `rejectForm` reply), and only when that form was posted with `intent`, if given.
 */
export function refusalOf(result: unknown, intent?: string): SubmissionResult<string[]> | undefined {
  if (!result || typeof result !== "object" || !("initialValue" in result)) return undefined;
  const refusal = result as SubmissionResult<string[]>;
  return intent === undefined || refusal.initialValue?.intent === intent ? refusal : undefined;
}
