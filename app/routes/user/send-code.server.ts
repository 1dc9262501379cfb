import type { z } from "zod";
import type { CodePurpose } from "#contracts/account";
import type { CodeRequestSchema } from "#app/components/code-request";
import { attempt } from "#app/server/forms.server";
import { sendCode } from "#app/services/account.server";

/**
 * Sends the code a sign-up or reset form asked for, by SMS or (once offered) by voice, with the
 * answer to the form's picture challenge; the platform's refusal comes back as `sent.ok === false`.
 */
export async function sendAskedCode(
  form: FormData,
  asked: z.infer<typeof CodeRequestSchema>,
  purpose: CodePurpose,
  clientAddress: string | null,
) {
  const channel = asked.intent === "voice" ? ("voice" as const) : ("sms" as const);
  const sent = await attempt(() =>
    sendCode(
      {
        mobile: asked.mobile,
        purpose,
        channel,
        challengeId: String(form.get("challengeId") ?? ""),
        challengeAnswer: asked.challengeAnswer,
      },
      clientAddress,
    ),
  );
  return { channel, sent };
}
