import { getInputProps, getSelectProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { WORK_ORDER_FIELD_TYPES, WORK_ORDER_TEMPLATE_STATUSES, labelOf } from "#contracts/codes";
import { WORK_ORDER_LABEL_MAX, WORK_ORDER_NAME_MAX, WORK_ORDER_SLA_MAX, type WorkOrderTemplate } from "#contracts/work-orders";
import { CodeLabel } from "#app/components/code-tag";
import { EditDeleteActions, PostButton } from "#app/components/row-actions";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { Field, inputClass } from "#app/components/form-field";
import { refusalOf, useIntentsForm } from "#app/components/intent-form";
import { DeleteStep, RowForm, rowFormOpen, rowRefusalMessage } from "#app/components/row-editing";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess, requireMenuUrl } from "#app/server/access.server";
import { attempt, deletionStep, parseIntent, rejectForm } from "#app/server/forms.server";
import { parseListQuery } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import {
  deleteWorkOrderTemplate,
  listWorkOrderTemplates,
  saveWorkOrderTemplate,
  setWorkOrderTemplateStatus,
} from "#app/services/work-orders.server";
import { INTENT_SCHEMAS, type TemplateFormSchema } from "./schema";
import { CodeOptions } from "#app/components/code-select";

const SCREEN = "/businessTemplate/template";
const title = SCREEN_TITLES[SCREEN];
export const handle: RouteHandle = { title };

const QuerySchema = z.object({ edit: z.union([z.literal("new"), z.coerce.number().int().positive()]).optional() });

/** Work-order templates (administrators): the fields a work order asks for, its SLA, enabled or not. */
export async function loader({ request }: LoaderFunctionArgs) {
  const access = requireMenuUrl(await requireAccess(request), SCREEN);
  const query = parseListQuery(request, QuerySchema);
  const templates = await listWorkOrderTemplates(access.caller);
  const editing = typeof query.edit === "number" ? (templates.find((t) => t.id === query.edit) ?? null) : null;
  return { query, templates, editing };
}

export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  requireMenuUrl(access, SCREEN);
  const { submission } = parseIntent(form, INTENT_SCHEMAS, title);
  // A row added or removed (conform's list intents): the form again with the change, nothing saved.
  if (submission.status === undefined) return data(submission.reply());
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const { caller } = access;
  switch (input.intent) {
    case "template.save": {
      const { intent: _intent, id, ...template } = input;
      const done = await attempt(() => saveWorkOrderTemplate(caller, id ?? null, template));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(SCREEN, id ? `模板「${done.value.name}」已保存` : `模板「${done.value.name}」已创建`);
    }
    case "template.status": {
      const done = await attempt(() => setWorkOrderTemplateStatus(caller, input.id, input.status));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(SCREEN, `模板「${done.value.name}」已${labelOf(WORK_ORDER_TEMPLATE_STATUSES, done.value.status)}`);
    }
    case "template.delete": {
      const step = deletionStep(input);
      if (step) return step;
      const done = await attempt(() => deleteWorkOrderTemplate(caller, input.id));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(SCREEN, "模板已删除");
    }
  }
}

export default function WorkOrderTemplates() {
  const { query, templates, editing } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const rowError = rowRefusalMessage(result, ["template.save"]);
  return (
    <Screen
      title={title}
      actions={
        <a className="p-button" href={`${SCREEN}?edit=new`}>
          新建模板
        </a>
      }
    >
      <DeleteStep result={result} title="删除模板" message={(name) => `确定删除模板「${name}」吗？删除后不可恢复。`} />
      <p className="sb-hint">
        坐席在语音工作台为通话创建工单时，可选择已启用的模板，按模板的字段填写；工单须在模板的处理时限内完成，超时的工单会被标记。
      </p>
      {rowFormOpen(query.edit !== undefined, result, ["template.save"]) ? (
        <TemplateForm editing={editing} result={result} missing={typeof query.edit === "number" && !editing} />
      ) : null}
      {rowError ? <Notice tone="error">{rowError}</Notice> : null}
      <DataTable<WorkOrderTemplate>
        caption="工单模板列表"
        rowKey="id"
        emptyMessage="暂无工单模板"
        config={{
          list: templates,
          total: templates.length,
          eleItem: [
            { prop: "name", label: "模板名称", render: (t) => <strong>{t.name}</strong> },
            {
              prop: "fields",
              label: "字段",
              render: (t) =>
                t.fields.length
                  ? t.fields.map((f) => `${f.label}（${labelOf(WORK_ORDER_FIELD_TYPES, f.type)}${f.required ? "，必填" : ""}）`).join("、")
                  : "—",
            },
            { prop: "slaHours", label: "处理时限", render: (t) => `${t.slaHours} 小时` },
            { prop: "status", label: "状态", render: (t) => <CodeLabel table={WORK_ORDER_TEMPLATE_STATUSES} code={t.status} /> },
            { prop: "recordCount", label: "工单数" },
            { prop: "updatedAt", label: "更新时间", type: "datetime", minWidth: 150 },
            { prop: "id", label: "操作", render: (t) => <TemplateActions template={t} /> },
          ],
        }}
      />
    </Screen>
  );
}

function TemplateActions({ template }: { template: WorkOrderTemplate }) {
  const next = template.status === 1 ? 0 : 1;
  const label = labelOf(WORK_ORDER_TEMPLATE_STATUSES, next);
  return (
    <EditDeleteActions editHref={`${SCREEN}?edit=${template.id}`} intent="template.delete" id={template.id} name={template.name}>
      <PostButton
        fields={{ intent: "template.status", id: template.id, status: next }}
        label={label}
        ariaLabel={`${label}「${template.name}」`}
      />
    </EditDeleteActions>
  );
}

/** The template editor: name, SLA and one row per field; rows are added and removed by posting the form. */
function TemplateForm({ editing, result, missing }: { editing: WorkOrderTemplate | null; result: unknown; missing: boolean }) {
  const [form, fields] = useIntentsForm<z.input<typeof TemplateFormSchema>>(
    ["template.save"],
    result,
    editing
      ? {
          id: String(editing.id),
          name: editing.name,
          slaHours: String(editing.slaHours),
          fields: editing.fields.map((f) => ({
            name: f.name,
            label: f.label,
            type: f.type,
            required: f.required ? "on" : undefined,
            options: f.options.join("，"),
          })),
        }
      : { slaHours: "24", fields: [{ type: "text" }] },
  );
  if (missing && !refusalOf(result, "template.save")) return <Notice tone="error">要编辑的模板不存在，请在列表中重新选择。</Notice>;
  const rows = fields.fields.getFieldList();
  return (
    <RowForm
      form={form}
      id={fields.id}
      titles={{ edit: "编辑模板", create: "新建模板" }}
      titleId="wo-form-title"
      intent="template.save"
      className="sb-form"
      buttons={
        <button type="submit" className="p-button">
          保存模板
        </button>
      }
      cancelHref={SCREEN}
    >
      {/* Enter in a field saves: the first submit button is the form's default, so it must not be a row's 删除. */}
      <button type="submit" className="p-hidden-accessible" tabIndex={-1} aria-hidden="true">
        保存模板
      </button>
      <div className="sb-form-grid">
        <Field field={fields.name} label="模板名称">
          <input
            {...getInputProps(fields.name, { type: "text" })}
            required
            maxLength={WORK_ORDER_NAME_MAX}
            className={inputClass(fields.name)}
          />
        </Field>
        <Field field={fields.slaHours} label="处理时限（小时）">
          <input
            {...getInputProps(fields.slaHours, { type: "number" })}
            required
            min={1}
            max={WORK_ORDER_SLA_MAX}
            className={inputClass(fields.slaHours)}
          />
        </Field>
      </div>
      <fieldset className="sb-wo-fields">
        <legend>字段</legend>
        {rows.length === 0 ? <p className="sb-hint">暂无字段，工单只有标题和内容。</p> : null}
        {rows.map((row, index) => {
          const f = row.getFieldset();
          const n = index + 1;
          return (
            <div key={row.key} className="sb-wo-field-row" role="group" aria-label={`第 ${n} 个字段`}>
              <input {...getInputProps(f.name, { type: "hidden" })} />
              <Field field={f.label} label={`字段 ${n} 名称`}>
                <input
                  {...getInputProps(f.label, { type: "text" })}
                  required
                  maxLength={WORK_ORDER_LABEL_MAX}
                  className={inputClass(f.label)}
                />
              </Field>
              <Field field={f.type} label={`字段 ${n} 类型`}>
                <select {...getSelectProps(f.type)} className={inputClass(f.type)}>
                  <CodeOptions table={WORK_ORDER_FIELD_TYPES} />
                </select>
              </Field>
              <Field field={f.options} label={`字段 ${n} 选项（选项类型填写，以逗号分隔）`}>
                <input
                  {...getInputProps(f.options, { type: "text" })}
                  maxLength={WORK_ORDER_LABEL_MAX * 25}
                  className={inputClass(f.options)}
                />
              </Field>
              <div className="sb-field sb-field-check">
                <input {...getInputProps(f.required, { type: "checkbox" })} />
                <label htmlFor={f.required.id}>字段 {n} 必填</label>
              </div>
              <button
                {...form.remove.getButtonProps({ name: fields.fields.name, index })}
                className="p-button p-button-text p-button-danger p-button-sm"
              >
                删除字段 {n}
              </button>
            </div>
          );
        })}
        <button
          {...form.insert.getButtonProps({ name: fields.fields.name, defaultValue: { type: "text" } })}
          className="p-button p-button-outlined p-button-sm"
        >
          添加字段
        </button>
      </fieldset>
    </RowForm>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
