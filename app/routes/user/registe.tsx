import { getInputProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { z } from "zod";
import { CompanyNameSchema, MobileSchema, PasswordSchema, SmsCodeSchema } from "#contracts/account";
import { AccountCard, maskMobile } from "#app/components/account-card";
import { PageErrorBoundary } from "#app/components/error-boundary";
import { Field, inputClass } from "#app/components/form-field";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { SignInRefused, signIn } from "#app/server/auth.server";
import { attempt } from "#app/server/forms.server";
import { commitSignedIn, getSignedIn } from "#app/server/session.server";
import { isCompanyNameFree, registerTenant } from "#app/services/account.server";
import { CodeForm, useCodeForm } from "./code-form";
import { codeFormAction, codeFormPage } from "./code-form.server";
import { NewPasswordFields } from "./new-password";

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

/** Public (spec §2): a signed-in user has nothing to sign up for. */
export async function loader({ request }: LoaderFunctionArgs) {
  if (await getSignedIn(request)) throw redirect("/");
  return codeFormPage(request);
}

export async function action({ request }: ActionFunctionArgs) {
  const page = {
    schema: RegisterFormSchema,
    purpose: "register" as const,
    hideFields: ["password", "code", "challengeAnswer"],
    sentNotice: (channel: "sms" | "voice", mobile: string, sent: { expiresInSeconds: number; resendAfterSeconds: number }) =>
      `${channel === "voice" ? `将致电 ${maskMobile(mobile)} 播报验证码，请留意来电` : `验证码已发送至 ${maskMobile(mobile)}`}，${sent.expiresInSeconds / 60} 分钟内有效；${sent.resendAfterSeconds} 秒后可重新获取`,
  };
  return codeFormAction(request, page, async (value, { address, refuse }) => {
    // The name first: a taken name must not cost the code.
    const free = await attempt(() => isCompanyNameFree(value.companyName));
    if (!free.ok) return refuse({ formErrors: [free.message] }, free.status);
    if (!free.value) return refuse({ fieldErrors: { companyName: ["该公司名称已被注册"] } });
    const registered = await attempt(() =>
      registerTenant({ mobile: value.mobile, code: value.code, password: value.password, companyName: value.companyName }, address),
    );
    if (!registered.ok) return refuse({ formErrors: [registered.message] }, registered.status);
    // Signed in at once, as the new tenant's administrator; then the company details.
    try {
      const signedIn = await signIn(registered.value.userName, value.password, address);
      return redirect("/user/fillInformation", { headers: { "Set-Cookie": await commitSignedIn(request, signedIn) } });
    } catch (error) {
      if (error instanceof SignInRefused) return redirect("/user/login");
      throw error;
    }
  });
}

export default function Registe() {
  const [form, fields] = useCodeForm("registe", RegisterFormSchema);
  return (
    <AccountCard title={title}>
      <CodeForm
        form={form}
        fields={fields}
        intent="register"
        submitLabel="注册"
        links={
          <>
            已有账号？<a href="/user/login">去登录</a>
          </>
        }
      >
        <NewPasswordFields password={fields.password} label="密码" />
        <Field field={fields.companyName} label="公司名称">
          <input
            {...getInputProps(fields.companyName, { type: "text" })}
            className={inputClass(fields.companyName)}
            autoComplete="organization"
          />
        </Field>
      </CodeForm>
    </AccountCard>
  );
}

export { PageErrorBoundary as ErrorBoundary };
