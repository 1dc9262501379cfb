import { getFormProps, getInputProps, getSelectProps, useForm } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { CAMPAIGN_TYPES, SCHEDULE_CYCLES, TASK_TYPES, type CodeTable } from "#contracts/codes";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { idParam } from "#app/server/page-query.server";
import { CAMPAIGN_TITLES } from "#app/lib/screens";
import { listCallerIdNumbers } from "#app/services/config.server";
import { countCampaignsNamed, getCampaign, getCampaignInit, listTransTemplates, saveCampaign } from "#app/services/outbound.server";
import { listRobotInstances } from "#app/services/robot.server";
import type { Caller } from "#app/services/upstream.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { redirectWithToast } from "#app/server/toast.server";
import { CampaignFormSchema, choiceErrors, toSave, type CampaignChoices } from "./schema";
import { CodeOptions } from "#app/components/code-select";

export const handle: RouteHandle = { title: CAMPAIGN_TITLES.create };

/** One module for /campaign/new and /campaign/:id/edit. */
/** The tenant's robots, caller numbers and transfer templates, each from its own endpoint. */
async function loadChoices(caller: Caller): Promise<CampaignChoices> {
  const [robots, callerNumbers, templates] = await Promise.all([
    listRobotInstances(caller),
    listCallerIdNumbers(caller),
    listTransTemplates(caller),
  ]);
  return { robots, callerNumbers, templates };
}

export async function loader({ request, params }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const id = params.id === undefined ? undefined : idParam(params.id);
  const [init, choices, campaign] = await Promise.all([
    getCampaignInit(access.caller),
    loadChoices(access.caller),
    id === undefined ? null : getCampaign(access.caller, id),
  ]);
  return { init, choices, campaign };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const id = params.id === undefined ? undefined : idParam(params.id);
  const submission = parseWithZod(form, { schema: CampaignFormSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const [named, choices] = await Promise.all([countCampaignsNamed(access.caller, submission.value.name, id), loadChoices(access.caller)]);
  const fieldErrors = choiceErrors(submission.value, choices);
  if (named > 0) fieldErrors.name = ["活动名称已存在，请换一个名称"];
  if (Object.keys(fieldErrors).length > 0) return rejectForm(submission, { fieldErrors });
  // The platform's refusals (a name taken meanwhile, dates) come back on the form.
  const saved = await attempt(() => saveCampaign(access.caller, toSave(submission.value, id)));
  if (!saved.ok) return rejectForm(submission, { formErrors: [saved.message] }, saved.status);
  return redirectWithToast(`/campaign/${saved.value}`, id === undefined ? "活动已创建" : "活动已保存");
}

export default function CampaignFormPage() {
  const { init, choices, campaign } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const [w1, w2] = campaign?.windows ?? [
    { start: "09:00", end: "12:00" },
    { start: "13:30", end: "18:00" },
  ];
  const [form, fields] = useForm({
    id: "campaign",
    lastResult,
    constraint: getZodConstraint(CampaignFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: CampaignFormSchema }),
    defaultValue: {
      name: campaign?.name ?? "",
      type: String(campaign?.type ?? 1),
      taskType: String(campaign?.taskType ?? 1),
      cycle: String(campaign?.cycle ?? 1),
      ratio: String(campaign?.ratio ?? 1),
      maxAttempts: String(campaign?.maxAttempts ?? 1),
      callingListName: campaign?.callingListName ?? "",
      robotId: String(campaign?.robotId ?? ""),
      queueName: campaign?.queueName ?? "",
      callerNumber: campaign?.callerNumber ?? "",
      transTemplateId: String(campaign?.transTemplateId ?? ""),
      window1Start: w1?.start ?? "",
      window1End: w1?.end ?? "",
      window2Start: w2?.start ?? "",
      window2End: w2?.end ?? "",
      startDate: campaign?.startDate ?? "",
      endDate: campaign?.endDate ?? "",
    },
  });
  const title = campaign ? CAMPAIGN_TITLES.edit : CAMPAIGN_TITLES.create;
  const options = (table: CodeTable<number>) => <CodeOptions table={table.filter((i) => i.code !== -1)} />;
  const choicesOf = (items: Array<{ value: string | number; label: string; disabled?: boolean }>) => [
    <option key="" value="">
      （不选）
    </option>,
    ...items.map((item) => (
      <option key={item.value} value={item.value} disabled={item.disabled}>
        {item.label}
      </option>
    )),
  ];
  const names = (items: string[]) => choicesOf(items.map((name) => ({ value: name, label: name })));
  return (
    <Screen title={title}>
      <Form method="post" {...getFormProps(form)} className="sb-form sb-form-grid">
        <AuthenticityTokenInput name="csrf" />
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field field={fields.name} label="活动名称">
          <input {...getInputProps(fields.name, { type: "text" })} className={inputClass(fields.name)} />
        </Field>
        <Field field={fields.type} label="活动类型">
          <select {...getSelectProps(fields.type)} className={inputClass(fields.type)}>
            {options(CAMPAIGN_TYPES)}
          </select>
        </Field>
        <Field field={fields.taskType} label="任务类型">
          <select {...getSelectProps(fields.taskType)} className={inputClass(fields.taskType)}>
            {options(TASK_TYPES)}
          </select>
        </Field>
        <Field field={fields.cycle} label="调度周期">
          <select {...getSelectProps(fields.cycle)} className={inputClass(fields.cycle)}>
            {options(SCHEDULE_CYCLES)}
          </select>
        </Field>
        <Field field={fields.ratio} label="外呼比例">
          <input {...getInputProps(fields.ratio, { type: "number" })} step="0.1" className={inputClass(fields.ratio)} />
        </Field>
        <Field field={fields.maxAttempts} label="最大呼叫次数">
          <input {...getInputProps(fields.maxAttempts, { type: "number" })} className={inputClass(fields.maxAttempts)} />
        </Field>
        <Field field={fields.callingListName} label="名单名称">
          <input
            {...getInputProps(fields.callingListName, { type: "text" })}
            list="calling-list-names"
            className={inputClass(fields.callingListName)}
          />
          <datalist id="calling-list-names">
            {init.callingListNames.map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
        </Field>
        <Field field={fields.robotId} label="机器人">
          <select {...getSelectProps(fields.robotId)} className={inputClass(fields.robotId)}>
            {/* Only a robot whose flow has a published version can run a campaign (decision 019). */}
            {choicesOf(
              choices.robots.map((r) => ({
                value: r.id,
                label: r.published ? r.name : `${r.name}（流程未发布）`,
                disabled: !r.published,
              })),
            )}
          </select>
        </Field>
        <Field field={fields.queueName} label="坐席队列">
          <select {...getSelectProps(fields.queueName)} className={inputClass(fields.queueName)}>
            {names(init.queues)}
          </select>
        </Field>
        <Field field={fields.callerNumber} label="主叫号码">
          <select {...getSelectProps(fields.callerNumber)} className={inputClass(fields.callerNumber)}>
            {names(choices.callerNumbers.map((n) => n.number))}
          </select>
        </Field>
        <Field field={fields.transTemplateId} label="转接模板">
          <select {...getSelectProps(fields.transTemplateId)} className={inputClass(fields.transTemplateId)}>
            {choicesOf(choices.templates.map((t) => ({ value: t.id, label: t.name })))}
          </select>
        </Field>
        <Field field={fields.window1Start} label="时段一开始">
          <input
            {...getInputProps(fields.window1Start, { type: "text" })}
            placeholder="09:00"
            className={inputClass(fields.window1Start)}
          />
        </Field>
        <Field field={fields.window1End} label="时段一结束">
          <input {...getInputProps(fields.window1End, { type: "text" })} placeholder="12:00" className={inputClass(fields.window1End)} />
        </Field>
        <Field field={fields.window2Start} label="时段二开始">
          <input
            {...getInputProps(fields.window2Start, { type: "text" })}
            placeholder="13:30"
            className={inputClass(fields.window2Start)}
          />
        </Field>
        <Field field={fields.window2End} label="时段二结束">
          <input {...getInputProps(fields.window2End, { type: "text" })} placeholder="18:00" className={inputClass(fields.window2End)} />
        </Field>
        <Field field={fields.startDate} label="开始日期">
          <input {...getInputProps(fields.startDate, { type: "date" })} className={inputClass(fields.startDate)} />
        </Field>
        <Field field={fields.endDate} label="结束日期">
          <input {...getInputProps(fields.endDate, { type: "date" })} className={inputClass(fields.endDate)} />
        </Field>
        <div className="sb-form-actions">
          <button type="submit" className="p-button">
            保存
          </button>
          <a className="p-button p-button-text" href={campaign ? `/campaign/${campaign.id}` : "/campaign"}>
            取消
          </a>
        </div>
      </Form>
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
