import type { Submission, SubmissionResult } from "@conform-to/react";
import { data } from "@remix-run/node";
import { isUpstreamError } from "#app/services/upstream.server";

/**
 * The one form pattern (docs/architecture.md): an action parses its form with conform + zod
 * (`parseWithZod`), answers `rejectForm` on bad input (400, every entered value and its error
 * back on the form), does the change through `attempt`, and on success redirects with a toast
 * (`redirectWithToast`).
 */

/** Bad input: a 400 whose body is the submission's reply, so the form shows what was typed and why. */
export function rejectForm<Schema, Output>(
  submission: Submission<Schema, string[], Output>,
  errors?: { formErrors?: string[]; fieldErrors?: Record<string, string[]> },
  status = 400,
) {
  return data(submission.reply(errors) as SubmissionResult<string[]>, { status });
}

/**
 * Runs a change on the platform. A refusal of the platform (a 4xx with its Chinese message:
 * a name already taken, a state that does not allow it, another tenant's id) and a platform that
 * failed, is down or too slow (502/503/504: "请稍后重试") come back as `{ ok: false }` for the form
 * to show with everything typed kept; an ended session (401) and anything else are thrown. The
 * transport never retries a write, so trying again is the user's informed choice.
 */
export async function attempt<T>(
  change: () => Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; message: string; status: number }> {
  try {
    return { ok: true, value: await change() };
  } catch (error) {
    if (isUpstreamError(error) && error.init.status >= 400 && error.init.status !== 401) {
      return { ok: false, message: error.data.message, status: error.init.status };
    }
    throw error;
  }
}
