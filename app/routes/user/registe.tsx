import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { HoneypotInputs, HoneypotProvider } from "remix-utils/honeypot/react";
import { z } from "zod";
import { CompanyNameSchema, MobileSchema, PasswordSchema, SmsCodeSchema } from "#contracts/account";
import { AccountCard, PasswordRules, SuccessNotice, maskMobile } from "#app/components/account-card";
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
import { SCREEN_TITLES } from "#app/lib/screens";
import { CLIENT_ADDRESS_HEADER, SignInRefused, signIn } from "#app/server/auth.server";
import { attempt } from "#app/server/forms.server";
import { honeypot, readPostedForm, requireCsrf, requireHuman } from "#app/server/security.server";
import { sendAskedCode } from "./send-code.server";
import { commitSignedIn, getSignedIn } from "#app/server/session.server";
import { isCompanyNameFree, newCodeChallenge, registerTenant } from "#app/services/account.server";
import { isUpstreamError } from "#app/services/upstream.server";

const title = SCREEN_TITLES["/user/registe"];
export const handle: RouteHandle = { title };

/** Asking for a code needs the number and the picture's answer; signing up needs everything. */
const RegisterFormSchema = z.object({
  intent: z.literal("register"),
  mobile: MobileSchema,
  code: SmsCodeSchema,
  password: PasswordSchema,
  companyName: CompanyNameSchema,
});
const schemaFor = (intent: FormDataEntryValue | null) =>
  intent === "send" || intent === "voice" ? CodeRequestSchema : intent === "challenge" ? NewChallengeSchema : RegisterFormSchema;
/** Passwords and codes (the picture's answer too: each page shows a new picture) are never sent back to the page. */
const HIDDEN = ["password", "code", "challengeAnswer"];

type Answer = CodeState & { result: SubmissionResult<string[]>; notice?: string };
const answer = (body: Answer, status = 200) => data(body, { status });

/** Public (spec §2): a signed-in user has nothing to sign up for. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (await getSignedIn(request)) throw redirect("/");
  // Every page shows a new picture: the last one was used by the post that led here.
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
  if (value.intent !== "register") {
    const { channel, sent } = await sendAskedCode(form, value, "register", address);
    if (!sent.ok) return answer({ ...kept, result: submission.reply({ formErrors: [sent.message], hideFields: HIDDEN }) }, sent.status);
    const how =
      channel === "voice" ? `将致电 ${maskMobile(value.mobile)} 播报验证码，请留意来电` : `验证码已发送至 ${maskMobile(value.mobile)}`;
    return answer({
      result: submission.reply({ hideFields: HIDDEN }),
      notice: `${how}，${sent.value.expiresInSeconds / 60} 分钟内有效；${sent.value.resendAfterSeconds} 秒后可重新获取`,
      codeSent: true,
      voiceOffered: sent.value.voiceOffered,
      countdown: sent.value.resendAfterSeconds,
    });
  }

  // The name first: a taken name must not cost the code.
  const refused = (message: string, status: number) =>
    answer({ ...kept, result: submission.reply({ formErrors: [message], hideFields: HIDDEN }) }, status);
  const free = await attempt(() => isCompanyNameFree(value.companyName));
  if (!free.ok) return refused(free.message, free.status);
  if (!free.value) {
    return answer({ ...kept, result: submission.reply({ fieldErrors: { companyName: ["该公司名称已被注册"] }, hideFields: HIDDEN }) }, 400);
  }
  const registered = await attempt(() =>
    registerTenant({ mobile: value.mobile, code: value.code, password: value.password, companyName: value.companyName }, address),
  );
  if (!registered.ok) return refused(registered.message, registered.status);
  // Signed in at once, as the new tenant's administrator; then the company details.
  try {
    const signedIn = await signIn(registered.value.userName, value.password, address);
    return redirect("/user/fillInformation", { headers: { "Set-Cookie": await commitSignedIn(request, signedIn) } });
  } catch (error) {
    if (error instanceof SignInRefused) return redirect("/user/login");
    throw error;
  }
}

export default function Registe() {
  const { honeypot: honeypotFields, challenge, challengeFailure } = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "registe",
    lastResult: last?.result,
    constraint: getZodConstraint(RegisterFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: schemaFor(formData.get("intent")) }),
  });
  const rulesId = `${fields.password.id}-rules`;
  return (
    <AccountCard title={title}>
      <Form method="post" {...getFormProps(form)} className="sb-form">
        {/* Enter in any field signs up; the code button is pressed on purpose. */}
        <button type="submit" name="intent" value="register" className="sb-default-submit" tabIndex={-1} aria-hidden="true">
          注册
        </button>
        <CsrfInput />
        <HoneypotProvider {...honeypotFields}>
          <HoneypotInputs label="请勿填写此项" />
        </HoneypotProvider>
        <FormErrors id={form.errorId} errors={form.errors} />
        {last?.notice ? <SuccessNotice>{last.notice}</SuccessNotice> : null}
        <CodeRequestFields fields={fields} challenge={challenge} failure={challengeFailure} state={last} />
        <Field field={fields.password} label="密码">
          <input
            {...getInputProps(fields.password, { type: "password" })}
            className={inputClass(fields.password)}
            autoComplete="new-password"
            aria-describedby={fields.password.errors ? `${fields.password.errorId} ${rulesId}` : rulesId}
          />
        </Field>
        <PasswordRules id={rulesId} />
        <Field field={fields.companyName} label="公司名称">
          <input
            {...getInputProps(fields.companyName, { type: "text" })}
            className={inputClass(fields.companyName)}
            autoComplete="organization"
          />
        </Field>
        <button type="submit" name="intent" value="register" className="p-button sb-login-submit">
          注册
        </button>
        <p className="sb-login-links">
          已有账号？<a href="/user/login">去登录</a>
        </p>
      </Form>
      <ResendCountdownScript state={last} />
    </AccountCard>
  );
}

export { PageErrorBoundary as ErrorBoundary };
