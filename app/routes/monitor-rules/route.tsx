import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { MONITOR_RULE_KEYS, codesOf } from "#contracts/codes";
import { CsrfInput } from "#app/components/csrf-input";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { redirectWithToast } from "#app/server/toast.server";
import { getMonitorRules, saveMonitorRules } from "#app/services/monitor.server";

const title = "监控阈值";
export const handle: RouteHandle = { title };

const KEYS = codesOf(MONITOR_RULE_KEYS);
const seconds = (label: string) =>
  z.coerce
    .number({ required_error: `请填写${label}`, invalid_type_error: `${label}应为整数秒` })
    .int(`${label}应为整数秒`)
    .min(1, `${label}至少 1 秒`)
    .max(86_400, `${label}不能超过 86400 秒`);

/** One warning and one critical field per threshold (`NOT_READY_warning`, ...), and the reason. */
const RulesFormSchema = z
  .object({
    ...Object.fromEntries(
      KEYS.flatMap((key) => [
        [`${key}_warning`, seconds("预警阈值")],
        [`${key}_critical`, seconds("严重阈值")],
      ]),
    ),
    reason: z.string({ required_error: "请填写修改原因" }).trim().min(1, "请填写修改原因").max(200, "原因不能超过200个字符"),
  })
  .superRefine((form, ctx) => {
    for (const key of KEYS) {
      const values = form as Record<string, unknown>;
      if (Number(values[`${key}_warning`]) >= Number(values[`${key}_critical`])) {
        ctx.addIssue({ code: "custom", path: [`${key}_critical`], message: "严重阈值应大于预警阈值" });
      }
    }
  });

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  return { rules: await getMonitorRules(caller) };
}

export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const submission = parseWithZod(form, { schema: RulesFormSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const values = submission.value as Record<string, number | string>;
  const rules = KEYS.map((key) => ({
    key,
    warningSeconds: Number(values[`${key}_warning`]),
    criticalSeconds: Number(values[`${key}_critical`]),
  }));
  const saved = await attempt(() => saveMonitorRules(access.caller, rules, String(values.reason)));
  if (!saved.ok) return rejectForm(submission, { formErrors: [saved.message] }, saved.status);
  return redirectWithToast("/monitor/rules", "监控阈值已保存");
}

export default function MonitorRules() {
  const { rules } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "monitor-rules",
    lastResult,
    constraint: getZodConstraint(RulesFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: RulesFormSchema }),
    defaultValue: Object.fromEntries(
      rules.flatMap((r) => [
        [`${r.key}_warning`, String(r.warningSeconds)],
        [`${r.key}_critical`, String(r.criticalSeconds)],
      ]),
    ),
  });
  const field = (name: string) => (fields as unknown as Record<string, Parameters<typeof inputClass>[0]>)[name];
  return (
    <Screen
      title={title}
      actions={
        <a className="p-button p-button-outlined" href="/monitor/agent">
          返回坐席监控
        </a>
      }
    >
      <p className="sb-hint">状态或排队时间达到预警阈值时，坐席监控中该行变为黄色，达到严重阈值时变为红色（单位：秒）。</p>
      <Form method="post" {...getFormProps(form)} className="sb-form">
        <CsrfInput />
        <FormErrors id={form.errorId} errors={form.errors} />
        {MONITOR_RULE_KEYS.map((rule) => (
          <fieldset key={rule.code} className="sb-form-grid sb-rule-row">
            <legend>{rule.label}</legend>
            <Field field={field(`${rule.code}_warning`)} label={`${rule.label}预警（秒）`}>
              <input
                {...getInputProps(field(`${rule.code}_warning`) as never, { type: "number" })}
                min={1}
                step={1}
                className={inputClass(field(`${rule.code}_warning`))}
              />
            </Field>
            <Field field={field(`${rule.code}_critical`)} label={`${rule.label}严重（秒）`}>
              <input
                {...getInputProps(field(`${rule.code}_critical`) as never, { type: "number" })}
                min={1}
                step={1}
                className={inputClass(field(`${rule.code}_critical`))}
              />
            </Field>
          </fieldset>
        ))}
        <Field field={fields.reason} label="修改原因">
          <input {...getInputProps(fields.reason, { type: "text" })} maxLength={200} className={inputClass(fields.reason)} />
        </Field>
        <div className="sb-form-actions">
          <button type="submit" className="p-button">
            保存
          </button>
        </div>
      </Form>
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
