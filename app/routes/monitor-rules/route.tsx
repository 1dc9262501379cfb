import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { MONITOR_RULE_KEYS, codesOf } from "#contracts/codes";
import { QueueSettingSchema, RING_SECONDS } from "#contracts/config";
import { CsrfInput } from "#app/components/csrf-input";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import { refusalOf } from "#app/components/intent-form";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { attempt, parseIntent, rejectForm } from "#app/server/forms.server";
import { redirectWithToast } from "#app/server/toast.server";
import { getMonitorRules, getQueueSettings, saveMonitorRules, saveQueueSettings } from "#app/services/monitor.server";

const title = "监控阈值与队列设置";
export const handle: RouteHandle = { title };

const KEYS = codesOf(MONITOR_RULE_KEYS);
const seconds = (label: string) =>
  z.coerce
    .number({ required_error: `请填写${label}`, invalid_type_error: `${label}应为整数秒` })
    .int(`${label}应为整数秒`)
    .min(1, `${label}至少 1 秒`)
    .max(86_400, `${label}不能超过 86400 秒`);

const reason = z.string({ required_error: "请填写修改原因" }).trim().min(1, "请填写修改原因").max(200, "原因不能超过200个字符");

/** One warning and one critical field per threshold (`NOT_READY_warning`, ...), and the reason. */
const RulesFormSchema = z
  .object({
    intent: z.literal("rules"),
    ...Object.fromEntries(
      KEYS.flatMap((key) => [
        [`${key}_warning`, seconds("预警阈值")],
        [`${key}_critical`, seconds("严重阈值")],
      ]),
    ),
    reason,
  })
  .superRefine((form, ctx) => {
    for (const key of KEYS) {
      const values = form as Record<string, unknown>;
      if (Number(values[`${key}_warning`]) >= Number(values[`${key}_critical`])) {
        ctx.addIssue({ code: "custom", path: [`${key}_critical`], message: "严重阈值应大于预警阈值" });
      }
    }
  });

/** Each queue's ring timeout and after-call work (a hidden name, a number and a checkbox per queue), and the reason. */
const QueuesFormSchema = z.object({
  intent: z.literal("queues"),
  queues: z
    .array(
      QueueSettingSchema.extend({
        acwAutoReady: z
          .literal("on")
          .optional()
          .transform((checked) => checked === "on"),
      }),
    )
    .min(1, "没有可设置的队列"),
  reason,
});

/** The screen's two forms, by the intent each posts. */
const INTENT_SCHEMAS = { rules: RulesFormSchema, queues: QueuesFormSchema } as const;

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const [rules, queues] = await Promise.all([getMonitorRules(caller), getQueueSettings(caller)]);
  return { rules, queues };
}

/** Each form posts here with its intent; a refusal comes back on that form with what was typed. */
export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const { submission } = parseIntent(form, INTENT_SCHEMAS, title);
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  switch (input.intent) {
    case "rules": {
      const values = input as Record<string, unknown>;
      const rules = KEYS.map((key) => ({
        key,
        warningSeconds: Number(values[`${key}_warning`]),
        criticalSeconds: Number(values[`${key}_critical`]),
      }));
      const saved = await attempt(() => saveMonitorRules(access.caller, rules, input.reason));
      if (!saved.ok) return rejectForm(submission, { formErrors: [saved.message] }, saved.status);
      return redirectWithToast("/monitor/rules", "监控阈值已保存");
    }
    case "queues": {
      const saved = await attempt(() => saveQueueSettings(access.caller, input.queues, input.reason));
      if (!saved.ok) return rejectForm(submission, { formErrors: [saved.message] }, saved.status);
      return redirectWithToast("/monitor/rules", "队列设置已保存");
    }
  }
}

export default function MonitorRules() {
  const { rules } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [form, fields] = useForm({
    id: "monitor-rules",
    lastResult: refusalOf(result, "rules"),
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
      <Form method="post" {...getFormProps(form)} className="sb-form" aria-labelledby="rules-title">
        <h2 id="rules-title" className="sb-section-title">
          监控阈值
        </h2>
        <CsrfInput />
        <input type="hidden" name="intent" value="rules" />
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
            保存阈值
          </button>
        </div>
      </Form>
      <QueueSettingsForm result={result} />
    </Screen>
  );
}

/**
 * How long an offered call rings at an agent of each queue before it goes to the next agent; the
 * agent who let it ring becomes not ready (未接来电).
 */
function QueueSettingsForm({ result }: { result: unknown }) {
  const { queues } = useLoaderData<typeof loader>();
  const [form, fields] = useForm({
    id: "queue-settings",
    lastResult: refusalOf(result, "queues"),
    constraint: getZodConstraint(QueuesFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: QueuesFormSchema }),
    defaultValue: {
      queues: queues.list.map((q) => ({
        queueName: q.queueName,
        ringSeconds: String(q.ringSeconds),
        acwAutoReady: q.acwAutoReady ? "on" : undefined,
      })),
    },
  });
  const rows = fields.queues.getFieldList();
  return (
    <Form method="post" {...getFormProps(form)} className="sb-form" aria-labelledby="queues-title">
      <h2 id="queues-title" className="sb-section-title">
        队列设置
      </h2>
      <p className="sb-hint">
        振铃超时：来电在坐席处振铃超过设定秒数仍未接听时，转给队列中的下一位坐席，该坐席置为未就绪（未接来电）。未单独设置的队列使用默认值{" "}
        {queues.defaultRingSeconds} 秒；可设 {RING_SECONDS.min}–{RING_SECONDS.max} 秒。
      </p>
      <p className="sb-hint">
        话后整理自动结束：勾选时，话后整理时间到且通话结论已保存后，坐席自动就绪；结论未保存时一直保持话后整理，保存后才就绪。不勾选时，话后整理只在坐席点击“就绪”后结束。
      </p>
      <CsrfInput />
      <input type="hidden" name="intent" value="queues" />
      <FormErrors id={form.errorId} errors={form.errors} />
      <div className="sb-form-grid">
        {rows.map((row, index) => {
          const { queueName, ringSeconds, acwAutoReady } = row.getFieldset();
          const agents = queues.list.find((q) => q.queueName === queueName.value)?.agents ?? 0;
          return (
            <div key={row.key} className="sb-queue-setting">
              <Field field={ringSeconds} label={`${queueName.value}（${agents} 名坐席）振铃超时（秒）`}>
                <input {...getInputProps(queueName, { type: "hidden" })} key={`name-${index}`} />
                <input
                  {...getInputProps(ringSeconds, { type: "number" })}
                  min={RING_SECONDS.min}
                  max={RING_SECONDS.max}
                  step={1}
                  className={inputClass(ringSeconds)}
                />
              </Field>
              <label>
                <input {...getInputProps(acwAutoReady, { type: "checkbox" })} key={`acw-${index}`} /> {queueName.value} 话后整理自动结束
              </label>
            </div>
          );
        })}
      </div>
      <Field field={fields.reason} label="队列设置的修改原因">
        <input {...getInputProps(fields.reason, { type: "text" })} maxLength={200} className={inputClass(fields.reason)} />
      </Field>
      <div className="sb-form-actions">
        <button type="submit" className="p-button">
          保存队列设置
        </button>
      </div>
    </Form>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
