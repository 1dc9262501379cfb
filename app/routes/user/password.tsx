import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData } from "@remix-run/react";
import { ChangePasswordSchema } from "#contracts/account";
import { AccountCard } from "#app/components/account-card";
import { CsrfInput } from "#app/components/csrf-input";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import type { RouteHandle } from "#app/lib/handle";
import { callerFor, requireUser } from "#app/server/access.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { readPostedForm, requireCsrf } from "#app/server/security.server";
import { redirectWithToast } from "#app/server/toast.server";
import { changePassword } from "#app/services/account.server";
import { withConfirmedPassword } from "./confirmed-password";
import { NewPasswordFields } from "./new-password";

const title = "修改密码";
export const handle: RouteHandle = { title };

const PasswordFormSchema = withConfirmedPassword(ChangePasswordSchema, "newPassword");
const HIDDEN = ["oldPassword", "newPassword", "confirm"];

/** Any signed-in user, for their own account (no menu entitlement needed). */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export async function action({ request }: ActionFunctionArgs) {
  const auth = await requireUser(request);
  const form = await readPostedForm(request);
  await requireCsrf(request, form);
  const submission = parseWithZod(form, { schema: PasswordFormSchema });
  if (submission.status !== "success") return rejectForm(submission, { hideFields: HIDDEN });
  const { oldPassword, newPassword } = submission.value;
  const changed = await attempt(() => changePassword(callerFor(auth, request), { oldPassword, newPassword }));
  if (!changed.ok) return rejectForm(submission, { formErrors: [changed.message], hideFields: HIDDEN }, changed.status);
  return redirectWithToast("/", "密码已修改，其他设备上的登录已退出");
}

export default function Password() {
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "password",
    lastResult,
    constraint: getZodConstraint(PasswordFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PasswordFormSchema }),
  });
  return (
    <AccountCard title={title}>
      <Form method="post" {...getFormProps(form)} className="sb-form">
        <CsrfInput />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field field={fields.oldPassword} label="当前密码">
          <input
            {...getInputProps(fields.oldPassword, { type: "password" })}
            className={inputClass(fields.oldPassword)}
            autoComplete="current-password"
          />
        </Field>
        <NewPasswordFields password={fields.newPassword} confirm={fields.confirm} />
        <p className="sb-hint">修改后，您在其他设备上的登录将退出。</p>
        <button type="submit" className="p-button sb-login-submit">
          保存新密码
        </button>
        <p className="sb-login-links">
          <a href="/">返回首页</a>
        </p>
      </Form>
    </AccountCard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
