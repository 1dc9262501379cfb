import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { RegisterInfoSchema } from "#contracts/account";
import { AccountCard } from "#app/components/account-card";
import { CsrfInput } from "#app/components/csrf-input";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { callerFor, requireUser } from "#app/server/access.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { readPostedForm, requireCsrf } from "#app/server/security.server";
import { redirectWithToast } from "#app/server/toast.server";
import { generateBillingAccount, getTenantProfile, saveTenantProfile } from "#app/services/account.server";
import { listRobotIndustries } from "#app/services/crm.server";

const title = SCREEN_TITLES["/user/fillInformation"];
export const handle: RouteHandle = { title };

/**
 * The company details of a newly registered tenant: for its signed-in administrator, before any
 * menu (the page sits outside the shell and needs no menu entitlement, only the admin role).
 */
async function requireAdmin(request: Request) {
  const auth = await requireUser(request);
  if (auth.user.role !== "admin") throw data({ message: "仅管理员可以填写企业信息", status: 403, what: "权限校验" }, { status: 403 });
  return callerFor(auth, request);
}

export async function loader({ request }: LoaderFunctionArgs) {
  const caller = await requireAdmin(request);
  const [profile, industries] = await Promise.all([getTenantProfile(caller), listRobotIndustries(caller)]);
  return { profile, industries };
}

export async function action({ request }: ActionFunctionArgs) {
  const caller = await requireAdmin(request);
  const form = await readPostedForm(request);
  await requireCsrf(request, form);
  const submission = parseWithZod(form, { schema: RegisterInfoSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const saved = await attempt(async () => {
    await saveTenantProfile(caller, submission.value);
    // Made at sign-up already; asked again so a tenant made otherwise gets one too (idempotent).
    await generateBillingAccount(caller);
  });
  if (!saved.ok) return rejectForm(submission, { formErrors: [saved.message] }, saved.status);
  return redirectWithToast("/", "企业信息已保存，欢迎使用");
}

export default function FillInformation() {
  const { profile, industries } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "fill-information",
    lastResult,
    constraint: getZodConstraint(RegisterInfoSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RegisterInfoSchema }),
    defaultValue: {
      companyName: profile.companyName,
      industry: profile.industry ?? "",
      contactName: profile.contactName ?? "",
      contactEmail: profile.contactEmail ?? "",
      address: profile.address ?? "",
    },
  });
  return (
    <AccountCard title={title}>
      <p className="sb-hint">注册成功！请填写企业信息，完成后即可进入控制台。</p>
      <Form method="post" {...getFormProps(form)} className="sb-form">
        <CsrfInput />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field field={fields.companyName} label="公司名称">
          <input
            {...getInputProps(fields.companyName, { type: "text" })}
            className={inputClass(fields.companyName)}
            autoComplete="organization"
          />
        </Field>
        <Field field={fields.industry} label="所属行业">
          <select {...getSelectProps(fields.industry)} className={inputClass(fields.industry)}>
            <option value="">请选择</option>
            {industries.map((entry) => (
              <option key={entry.code} value={entry.code}>
                {entry.name}
              </option>
            ))}
          </select>
        </Field>
        <Field field={fields.contactName} label="联系人">
          <input {...getInputProps(fields.contactName, { type: "text" })} className={inputClass(fields.contactName)} autoComplete="name" />
        </Field>
        <Field field={fields.contactEmail} label="联系邮箱（选填）">
          <input
            {...getInputProps(fields.contactEmail, { type: "email" })}
            className={inputClass(fields.contactEmail)}
            autoComplete="email"
          />
        </Field>
        <Field field={fields.address} label="公司地址（选填）">
          <input
            {...getInputProps(fields.address, { type: "text" })}
            className={inputClass(fields.address)}
            autoComplete="street-address"
          />
        </Field>
        <button type="submit" className="p-button sb-login-submit">
          保存并进入控制台
        </button>
      </Form>
    </AccountCard>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
