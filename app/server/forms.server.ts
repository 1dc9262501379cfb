import type { Submission, SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data } from "@remix-run/node";
import type { z } from "zod";
import { isUpstreamError } from "#app/services/upstream.server";

/**
 * The one form pattern (docs/architecture.md): an action parses its form with conform + zod
 * (`parseWithZod`), answers `rejectForm` on bad input (400, every entered value and its error
 * back on the form), does the change through `attempt`, and on success redirects with a toast
 * (`redirectWithToast`).
 */

/**
 * A form of several intents: its `intent`, one of `schemas`' own keys, and the form parsed with
 * that intent's schema. Any other intent is a 400 in Chinese for the error boundary (`what` names
 * the screen). Own keys only, so a posted "constructor" or "toString" is no intent (an `in` test
 * once took them for one: a 500).
 */
export function parseIntent<Schemas extends Record<string, z.ZodTypeAny>>(form: FormData, schemas: Schemas, what: string) {
  const intent = form.get("intent");
  if (typeof intent !== "string" || !Object.hasOwn(schemas, intent)) {
    throw data({ message: "请求参数错误", status: 400, what }, { status: 400 });
  }
  const known = intent as keyof Schemas & string;
  return { intent: known, submission: parseWithZod(form, { schema: schemas[known] }) };
}

/**
 * Bad input: a 400 whose body is the submission's reply, so the form shows what was typed and why;
 * `hideFields` are left out of what comes back (a password is never sent back to the page).
 */
export function rejectForm<Schema, Output>(
  submission: Submission<Schema, string[], Output>,
  errors?: { formErrors?: string[]; fieldErrors?: Record<string, string[]>; hideFields?: string[] },
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

/**
 * A list row's 删除, first post: the confirmation step to answer instead (design.md §9), naming the
 * row (`DeleteStep` shows it, app/components/row-editing.tsx); it posts the same fields again with
 * `confirmed=1`, and then this is null and the deletion goes ahead.
 */
export function deletionStep(input: { intent: string; id: number; name?: string; confirmed?: string }) {
  if (input.confirmed) return null;
  const name = input.name ?? "";
  return data({ deletion: { fields: { intent: input.intent, id: String(input.id), name }, name: name || String(input.id) } });
}
