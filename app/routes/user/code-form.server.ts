import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { data } from "@remix-run/node";
import type { z } from "zod";
import type { CodePurpose } from "#contracts/account";
import { codeStateOf, type CodeRequestSchema, type CodeState, type NewChallengeSchema } from "#app/components/code-request";
import { CLIENT_ADDRESS_HEADER } from "#app/server/auth.server";
import { attempt } from "#app/server/forms.server";
import { honeypot, readPostedForm, requireCsrf, requireHuman } from "#app/server/security.server";
import { newCodeChallenge, sendCode } from "#app/services/account.server";
import { isUpstreamError } from "#app/services/upstream.server";
import { codeFormSchema } from "./code-form-schema";

/**
 * The sign-up and reset forms: each asks for an SMS code (decision 024) before it does its work,
 * on a public page (a honeypot, a picture challenge). One action for both, so a refusal keeps the
 * same things on both: what was typed (never a password, the code or the picture's answer) and
 * the codes asked for.
 */

/** What the page gets back: the form's reply, the codes asked for, a notice; `done` once the form did its work. */
export type CodeFormAnswer = CodeState & { result: SubmissionResult<string[]>; notice?: string; done?: boolean };
const answer = (body: CodeFormAnswer, status = 200) => data(body, { status });

/** The page: its honeypot and a new picture (every page a new one: the last was used by the post that led here). */
export async function codeFormPage(request: Request) {
  const challenge = await attempt(() => newCodeChallenge(request.headers.get(CLIENT_ADDRESS_HEADER)));
  return {
    honeypot: honeypot.getInputProps(),
    challenge: challenge.ok ? challenge.value : null,
    challengeFailure: challenge.ok ? null : challenge.message,
  };
}

type Sent = { expiresInSeconds: number; resendAfterSeconds: number; voiceOffered: boolean };
type Refuse = (errors: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }, status?: number) => ReturnType<typeof answer>;

/**
 * A post of a code form: a bot's refused, a bad CSRF token refused (403), a new picture shown,
 * a code sent by SMS or by voice (`sentNotice` tells the user), or the form itself checked with
 * `schema` and handed to `submit` (`refuse` answers it with errors, `done` with the form cleared).
 */
export async function codeFormAction<Value extends { intent: string }>(
  request: Request,
  page: {
    schema: z.ZodType<Value, z.ZodTypeDef, unknown>;
    purpose: CodePurpose;
    /** Never sent back to the page: passwords, and the code and the picture's answer (each page shows a new picture). */
    hideFields: string[];
    sentNotice: (channel: "sms" | "voice", mobile: string, sent: Sent) => string;
  },
  submit: (
    value: Value,
    form: { address: string | null; refuse: Refuse; done: () => ReturnType<typeof answer> },
  ) => Promise<Response | ReturnType<typeof answer>>,
) {
  const form = await readPostedForm(request);
  requireHuman(form);
  const submission = parseWithZod(form, { schema: codeFormSchema(form.get("intent"), page.schema) as z.ZodTypeAny });
  const kept = codeStateOf(form);
  const { hideFields } = page;
  const refuse: Refuse = (errors, status = 400) => answer({ ...kept, result: submission.reply({ ...errors, hideFields }) }, status);
  try {
    await requireCsrf(request, form);
  } catch (error) {
    if (!isUpstreamError(error)) throw error;
    return refuse({ formErrors: [error.data.message] }, 403);
  }
  if (submission.status !== "success") return refuse({});
  const address = request.headers.get(CLIENT_ADDRESS_HEADER);
  const value = submission.value as Value | z.infer<typeof CodeRequestSchema> | z.infer<typeof NewChallengeSchema>;
  if (value.intent === "challenge") return answer({ ...kept, result: submission.reply({ hideFields }) });
  if (value.intent === "send" || value.intent === "voice") {
    const asked = value as z.infer<typeof CodeRequestSchema>;
    const channel = asked.intent === "voice" ? "voice" : "sms";
    const { mobile, challengeAnswer } = asked;
    const challengeId = String(form.get("challengeId") ?? "");
    const sent = await attempt(() => sendCode({ mobile, purpose: page.purpose, channel, challengeId, challengeAnswer }, address));
    if (!sent.ok) return refuse({ formErrors: [sent.message] }, sent.status);
    return answer({
      result: submission.reply({ hideFields }),
      notice: page.sentNotice(channel, mobile, sent.value),
      codeSent: true,
      voiceOffered: sent.value.voiceOffered,
      countdown: sent.value.resendAfterSeconds,
    });
  }
  return submit(value as Value, { address, refuse, done: () => answer({ result: submission.reply({ resetForm: true }), done: true }) });
}
