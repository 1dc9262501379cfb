import { getFormProps, getSelectProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { QC_ACCESS_SCOPES, labelOf } from "#contracts/codes";
import { QcAccessGrantSchema, QC_REASON_MAX, type QcAccess } from "#contracts/inspection";
import { ConfirmStep } from "#app/components/confirm";
import { CsrfInput } from "#app/components/csrf-input";
import { PostButton } from "#app/components/row-actions";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import { refusalMessageOf, useIntentForm } from "#app/components/intent-form";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { attempt, parseIntent, rejectForm } from "#app/server/forms.server";
import { redirectWithToast } from "#app/server/toast.server";
import { grantInspectionAccess, listInspectionAccess, revokeInspectionAccess } from "#app/services/inspection.server";
import { CodeOptions, namedChoices } from "#app/components/code-select";

const title = SCREEN_TITLES["/access"];
export const handle: RouteHandle = { title };

/** A grant's target is one box: `queue:<name>` or `campaign:<id>`. */
const ACCESS_SCHEMAS = {
  grant: z.object({
    intent: z.literal("grant"),
    userId: QcAccessGrantSchema.shape.userId,
    target: z.string({ required_error: "请选择坐席组或活动" }).regex(/^(queue|campaign):.{1,60}$/, "请选择坐席组或活动"),
  }),
  revoke: z.object({
    intent: z.literal("revoke"),
    id: z.coerce.number().int().positive("授权不存在"),
    label: z.string().max(120).optional(),
    reason: z.string().trim().max(QC_REASON_MAX, `原因不能超过${QC_REASON_MAX}个字符`).optional(),
    confirmed: z.literal("1").optional(),
  }),
};

/**
 * Inspection access (decision 018): which inspectors (supervisors) may inspect which agent
 * groups or campaigns; administrators inspect everything. Administrators grant and revoke (each
 * an audit row, revoking confirmed first); supervisors read. No JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { caller, user } = await requireAccess(request);
  const access = await listInspectionAccess(caller);
  return { access, admin: user.role === "admin" };
}

export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  if (access.user.role !== "admin")
    throw data({ message: "仅管理员可以授予或收回质检权限", status: 403, what: "质检权限" }, { status: 403 });
  const { submission } = parseIntent(form, ACCESS_SCHEMAS, title);
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  if (input.intent === "grant") {
    const [scope, ...rest] = input.target.split(":");
    const done = await attempt(() => grantInspectionAccess(access.caller, { userId: input.userId, scope, value: rest.join(":") }));
    if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
    return redirectWithToast("/access", `已授予 ${done.value.userName} 质检「${done.value.valueLabel}」的权限`);
  }
  if (!input.confirmed) {
    return data({
      confirm: {
        fields: { intent: "revoke", id: String(input.id), label: input.label ?? "", reason: input.reason ?? "" },
        label: input.label ?? "",
      },
    });
  }
  const done = await attempt(() => revokeInspectionAccess(access.caller, input.id, input.reason ?? ""));
  if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
  return redirectWithToast("/access", "权限已收回");
}

export default function AccessScreen() {
  const { access, admin } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { pathname } = useLocation();
  const revokeRefusal = refusalMessageOf(result, "revoke");
  const confirm = result && "confirm" in result ? result.confirm : undefined;
  const [grantForm, grant] = useIntentForm("grant", result);

  return (
    <Screen title={title}>
      {confirm ? (
        <ConfirmStep title="收回质检权限" fields={confirm.fields} confirmLabel="确认收回" cancelHref={pathname}>
          <p>确定收回「{confirm.label}」吗？该质检员质检中的通话不受影响，之后不能再领取该范围的通话。</p>
        </ConfirmStep>
      ) : null}
      {revokeRefusal ? <Notice tone="error">{revokeRefusal}</Notice> : null}
      <p className="sb-hint">管理员可以质检全部通话；主管只能领取和质检授权给他的坐席组或外呼活动的通话。</p>
      {admin ? (
        <form method="post" {...getFormProps(grantForm)} className="sb-inline-forms" aria-label="授予质检权限">
          <CsrfInput />
          <input type="hidden" name="intent" value="grant" />
          <FormErrors id={grantForm.errorId} errors={grantForm.errors} />
          <Field field={grant.userId} label="质检员">
            <select {...getSelectProps(grant.userId)} required className={inputClass(grant.userId)}>
              <option value="">请选择</option>
              <CodeOptions table={namedChoices(access.inspectors.filter((i) => i.role !== "admin"))} />
            </select>
          </Field>
          <Field field={grant.target} label="坐席组或外呼活动">
            <select {...getSelectProps(grant.target)} required className={inputClass(grant.target)}>
              <option value="">请选择</option>
              <optgroup label="坐席组">
                {access.queues.map((q) => (
                  <option key={q} value={`queue:${q}`}>
                    {q}
                  </option>
                ))}
              </optgroup>
              <optgroup label="外呼活动">
                {access.campaigns.map((c) => (
                  <option key={c.id} value={`campaign:${c.id}`}>
                    {c.name}
                  </option>
                ))}
              </optgroup>
            </select>
          </Field>
          <button type="submit" className="p-button">
            授予权限
          </button>
        </form>
      ) : null}
      <DataTable<QcAccess>
        caption="质检权限列表"
        rowKey="id"
        emptyMessage="尚未授予任何质检权限"
        config={{
          list: access.list,
          total: access.total,
          eleItem: [
            { prop: "userName", label: "质检员" },
            { prop: "scope", label: "范围", render: (g) => labelOf(QC_ACCESS_SCOPES, g.scope) },
            { prop: "valueLabel", label: "坐席组 / 活动" },
            { prop: "grantedBy", label: "授权人" },
            { prop: "grantedAt", label: "授权时间", type: "datetime", minWidth: 150 },
            ...(admin
              ? [
                  {
                    prop: "id" as const,
                    label: "操作",
                    render: (g: QcAccess) => (
                      <PostButton
                        fields={{ intent: "revoke", id: g.id, label: `${g.userName} · ${g.valueLabel}` }}
                        label="收回"
                        ariaLabel={`收回 ${g.userName} 的「${g.valueLabel}」权限`}
                        danger
                      />
                    ),
                  },
                ]
              : []),
          ],
        }}
      />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
