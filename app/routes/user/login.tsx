import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { HoneypotInputs, HoneypotProvider } from "remix-utils/honeypot/react";
import { z } from "zod";
import { authenticator, SignInRefused } from "#app/server/auth.server";
import { PageErrorBoundary } from "#app/components/error-boundary";
import type { RouteHandle } from "#app/lib/handle";
import { useRootData } from "#app/root";
import { rejectForm } from "#app/server/forms.server";
import { honeypot, readPostedForm, requireCsrf, requireHuman } from "#app/server/security.server";
import { isUpstreamError } from "#app/services/upstream.server";
import { commitSignedIn, getSignedIn, safeRedirectTo } from "#app/server/session.server";

export const handle: RouteHandle = { title: "登录" };

const LoginSchema = z.object({
  username: z.string({ required_error: "请输入用户名" }).trim().min(1, "请输入用户名").max(64, "用户名不能超过64个字符"),
  password: z.string({ required_error: "请输入密码" }).min(1, "请输入密码").max(128, "密码不能超过128个字符"),
  redirectTo: z.string().optional(),
});
/** Never sent back to the page, whatever the answer. */
const HIDDEN = ["password"];

export async function loader({ request }: LoaderFunctionArgs) {
  const redirectTo = safeRedirectTo(new URL(request.url).searchParams.get("redirectTo"));
  if (await getSignedIn(request)) throw redirect(redirectTo);
  // The honeypot's fields are encrypted per render: only the public form pays for them.
  return { redirectTo, honeypot: honeypot.getInputProps() };
}

export async function action({ request }: ActionFunctionArgs) {
  // remix-auth consumes the body, so CSRF and validation read a copy.
  const form = await readPostedForm(request.clone());
  requireHuman(form);
  const submission = parseWithZod(form, { schema: LoginSchema });
  try {
    await requireCsrf(request, form);
  } catch (error) {
    // A stale form (its token expired) is shown again with the username, ready to resubmit.
    if (!isUpstreamError(error)) throw error;
    return rejectForm(submission, { formErrors: [error.data.message], hideFields: HIDDEN }, 403);
  }
  if (submission.status !== "success") {
    return rejectForm(submission, { hideFields: HIDDEN });
  }
  try {
    // Failed sign-ins are throttled by the platform (per account and address, shared by every console).
    const signedIn = await authenticator.authenticate("form", request);
    return redirect(safeRedirectTo(submission.value.redirectTo), {
      headers: { "Set-Cookie": await commitSignedIn(request, signedIn) },
    });
  } catch (error) {
    if (error instanceof SignInRefused) {
      return rejectForm(submission, { formErrors: [error.message], hideFields: HIDDEN }, error.status);
    }
    if (isUpstreamError(error)) {
      return rejectForm(submission, { formErrors: [error.data.message], hideFields: HIDDEN }, error.data.status);
    }
    throw error;
  }
}

export default function Login() {
  const { redirectTo, honeypot: honeypotFields } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const root = useRootData();
  const [form, fields] = useForm({
    id: "login",
    lastResult,
    constraint: getZodConstraint(LoginSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: LoginSchema }),
  });
  return (
    <main className="sb-login">
      <div className="sb-login-card p-card">
        <header className="sb-login-brand">
          {root?.logo ? <img src={root.logo} alt="" width={48} height={48} /> : null}
          <h1>{root?.brand.title}</h1>
          <p>坐席登录</p>
        </header>
        <Form method="post" {...getFormProps(form)} className="sb-form">
          <AuthenticityTokenInput name="csrf" />
          <HoneypotProvider {...honeypotFields}>
            <HoneypotInputs label="请勿填写此项" />
          </HoneypotProvider>
          <input type="hidden" name="redirectTo" value={redirectTo} />
          {form.errors?.length ? (
            <div id={form.errorId} className="p-message p-message-error sb-message" role="alert">
              {form.errors.join("；")}
            </div>
          ) : null}
          <div className="sb-field">
            <label htmlFor={fields.username.id}>用户名</label>
            <input
              {...getInputProps(fields.username, { type: "text" })}
              className={`p-inputtext${fields.username.errors ? " p-invalid" : ""}`}
              autoComplete="username"
              autoFocus
            />
            {fields.username.errors ? (
              <small id={fields.username.errorId} className="p-error">
                {fields.username.errors[0]}
              </small>
            ) : null}
          </div>
          <div className="sb-field">
            <label htmlFor={fields.password.id}>密码</label>
            <input
              {...getInputProps(fields.password, { type: "password" })}
              className={`p-inputtext${fields.password.errors ? " p-invalid" : ""}`}
              autoComplete="current-password"
            />
            {fields.password.errors ? (
              <small id={fields.password.errorId} className="p-error">
                {fields.password.errors[0]}
              </small>
            ) : null}
          </div>
          <button type="submit" className="p-button sb-login-submit">
            登录
          </button>
          <p className="sb-login-links">
            <a href="/user/registe">注册新账号</a> · <a href="/user/reset">忘记密码？</a>
          </p>
        </Form>
      </div>
    </main>
  );
}

export { PageErrorBoundary as ErrorBoundary };
