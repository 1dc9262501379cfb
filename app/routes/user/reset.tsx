import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { HoneypotInputs, HoneypotProvider } from "remix-utils/honeypot/react";
import { z } from "zod";
import { MobileSchema, PasswordSchema, SmsCodeSchema } from "#contracts/account";
import { AccountCard, PasswordRules, SuccessNotice } from "#app/components/account-card";
import {
  CodeRequestFields,
  CodeRequestSchema,
  NewChallengeSchema,
  ResendCountdownScript,
  codeStateOf,
  type CodeState,
} from "#app/components/code-request";
import { CsrfInput } from "#app/components/csrf-input";
import { PageErrorBoundary } from "#app/components/error-boundary";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import type { RouteHandle } from "#app/lib/handle";
import { CLIENT_ADDRESS_HEADER } from "#app/server/auth.server";
import { attempt } from "#app/server/forms.server";
import { honeypot, readPostedForm, requireCsrf, requireHuman } from "#app/server/security.server";
import { sendAskedCode } from "./send-code.server";
import { newCodeChallenge, resetPassword } from "#app/services/account.server";
import { isUpstreamError } from "#app/services/upstream.server";

const title = "找回密码";
export const handle: RouteHandle = { title };

const ResetFormSchema = z
  .object({
    intent: z.literal("reset"),
    mobile: MobileSchema,
    code: SmsCodeSchema,
    password: PasswordSchema,
    confirm: z.string({ required_error: "请再次输入新密码" }).min(1, "请再次输入新密码"),
  })
  .refine((form) => form.password === form.confirm, { path: ["confirm"], message: "两次输入的密码不一致" });
const schemaFor = (intent: FormDataEntryValue | null) =>
  intent === "send" || intent === "voice" ? CodeRequestSchema : intent === "challenge" ? NewChallengeSchema : ResetFormSchema;
const HIDDEN = ["password", "confirm", "code", "challengeAnswer"];

/** The same words whether or not the number has an account: nobody learns which numbers exist. */
const CODE_SENT = "如该手机号已注册账号，验证码已发送，5 分钟内有效；60 秒后可重新获取";
const VOICE_SENT = "如该手机号已注册账号，将致电该号码播报验证码，5 分钟内有效；60 秒后可重新获取";

type Answer = CodeState & { result: SubmissionResult<string[]>; notice?: string; done?: boolean };
const answer = (body: Answer, status = 200) => data(body, { status });

/** Public (spec §2). Every page shows a new picture challenge: the last one was used by the post that led here. */
export async function loader({ request }: LoaderFunctionArgs) {
  const challenge = await attempt(() => newCodeChallenge(request.headers.get(CLIENT_ADDRESS_HEADER)));
  return {
    honeypot: honeypot.getInputProps(),
    challenge: challenge.ok ? challenge.value : null,
    challengeFailure: challenge.ok ? null : challenge.message,
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const form = await readPostedForm(request);
  requireHuman(form);
  const submission = parseWithZod(form, { schema: schemaFor(form.get("intent")) });
  const kept = codeStateOf(form);
  try {
    await requireCsrf(request, form);
  } catch (error) {
    if (!isUpstreamError(error)) throw error;
    return answer({ ...kept, result: submission.reply({ formErrors: [error.data.message], hideFields: HIDDEN }) }, 403);
  }
  if (submission.status !== "success") return answer({ ...kept, result: submission.reply({ hideFields: HIDDEN }) }, 400);
  const address = request.headers.get(CLIENT_ADDRESS_HEADER);
  const value = submission.value;
  if (value.intent === "challenge") return answer({ ...kept, result: submission.reply({ hideFields: HIDDEN }) });
  if (value.intent !== "reset") {
    const { channel, sent } = await sendAskedCode(form, value, "reset", address);
    if (!sent.ok) return answer({ ...kept, result: submission.reply({ formErrors: [sent.message], hideFields: HIDDEN }) }, sent.status);
    return answer({
      result: submission.reply({ hideFields: HIDDEN }),
      notice: channel === "voice" ? VOICE_SENT : CODE_SENT,
      codeSent: true,
      voiceOffered: sent.value.voiceOffered,
      countdown: sent.value.resendAfterSeconds,
    });
  }
  const reset = await attempt(() => resetPassword({ mobile: value.mobile, code: value.code, password: value.password }, address));
  if (!reset.ok) return answer({ ...kept, result: submission.reply({ formErrors: [reset.message], hideFields: HIDDEN }) }, reset.status);
  return answer({ result: submission.reply({ resetForm: true }), done: true });
}

export default function Reset() {
  const { honeypot: honeypotFields, challenge, challengeFailure } = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "reset",
    lastResult: last?.result,
    constraint: getZodConstraint(ResetFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: schemaFor(formData.get("intent")) }),
  });
  if (last?.done) {
    return (
      <AccountCard title={title}>
        <SuccessNotice>密码已重置，该账号在所有设备上的登录均已退出，请使用新密码登录。</SuccessNotice>
        <p className="sb-login-links">
          <a href="/user/login">返回登录</a>
        </p>
      </AccountCard>
    );
  }
  const rulesId = `${fields.password.id}-rules`;
  return (
    <AccountCard title={title}>
      <Form method="post" {...getFormProps(form)} className="sb-form">
        {/* Enter in any field resets; the code button is pressed on purpose. */}
        <button type="submit" name="intent" value="reset" className="sb-default-submit" tabIndex={-1} aria-hidden="true">
          重置密码
        </button>
        <CsrfInput />
        <HoneypotProvider {...honeypotFields}>
          <HoneypotInputs label="请勿填写此项" />
        </HoneypotProvider>
        <FormErrors id={form.errorId} errors={form.errors} />
        {last?.notice ? <SuccessNotice>{last.notice}</SuccessNotice> : null}
        <CodeRequestFields fields={fields} challenge={challenge} failure={challengeFailure} state={last} />
        <Field field={fields.password} label="新密码">
          <input
            {...getInputProps(fields.password, { type: "password" })}
            className={inputClass(fields.password)}
            autoComplete="new-password"
            aria-describedby={fields.password.errors ? `${fields.password.errorId} ${rulesId}` : rulesId}
          />
        </Field>
        <PasswordRules id={rulesId} />
        <Field field={fields.confirm} label="确认新密码">
          <input
            {...getInputProps(fields.confirm, { type: "password" })}
            className={inputClass(fields.confirm)}
            autoComplete="new-password"
          />
        </Field>
        <button type="submit" name="intent" value="reset" className="p-button sb-login-submit">
          重置密码
        </button>
        <p className="sb-login-links">
          <a href="/user/login">返回登录</a>
        </p>
      </Form>
      <ResendCountdownScript state={last} />
    </AccountCard>
  );
}

export { PageErrorBoundary as ErrorBoundary };
