import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { z } from "zod";
import { MobileSchema, PasswordSchema, SmsCodeSchema } from "#contracts/account";
import { AccountCard, SuccessNotice } from "#app/components/account-card";
import { PageErrorBoundary } from "#app/components/error-boundary";
import type { RouteHandle } from "#app/lib/handle";
import { attempt } from "#app/server/forms.server";
import { resetPassword } from "#app/services/account.server";
import { CodeForm, useCodeForm } from "./code-form";
import { codeFormAction, codeFormPage } from "./code-form.server";
import { withConfirmedPassword } from "./confirmed-password";
import { NewPasswordFields } from "./new-password";

const title = "找回密码";
export const handle: RouteHandle = { title };

const ResetFormSchema = withConfirmedPassword(
  z.object({ intent: z.literal("reset"), mobile: MobileSchema, code: SmsCodeSchema, password: PasswordSchema }),
  "password",
);

/** The same words whether or not the number has an account: nobody learns which numbers exist. */
const CODE_SENT = "如该手机号已注册账号，验证码已发送，5 分钟内有效；60 秒后可重新获取";
const VOICE_SENT = "如该手机号已注册账号，将致电该号码播报验证码，5 分钟内有效；60 秒后可重新获取";

/** Public (spec §2). */
export async function loader({ request }: LoaderFunctionArgs) {
  return codeFormPage(request);
}

export async function action({ request }: ActionFunctionArgs) {
  const page = {
    schema: ResetFormSchema,
    purpose: "reset" as const,
    hideFields: ["password", "confirm", "code", "challengeAnswer"],
    sentNotice: (channel: "sms" | "voice") => (channel === "voice" ? VOICE_SENT : CODE_SENT),
  };
  return codeFormAction(request, page, async (value, { address, refuse, done }) => {
    const reset = await attempt(() => resetPassword({ mobile: value.mobile, code: value.code, password: value.password }, address));
    return reset.ok ? done() : refuse({ formErrors: [reset.message] }, reset.status);
  });
}

export default function Reset() {
  const last = useActionData<typeof action>();
  const [form, fields] = useCodeForm("reset", ResetFormSchema);
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
  return (
    <AccountCard title={title}>
      <CodeForm form={form} fields={fields} intent="reset" submitLabel="重置密码" links={<a href="/user/login">返回登录</a>}>
        <NewPasswordFields password={fields.password} confirm={fields.confirm} />
      </CodeForm>
    </AccountCard>
  );
}

export { PageErrorBoundary as ErrorBoundary };
