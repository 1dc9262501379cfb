import { getFormProps, getInputProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { QC_FORM_STATES } from "#contracts/codes";
import { QC_FORM_EDITABLE, ScoreFormInputSchema, type ScoreForm } from "#contracts/inspection";
import { QC_FORM_DESCRIPTION_MAX, QC_FORM_NAME_MAX, QC_ITEM_TITLE_MAX, QC_ITEM_WEIGHT_MAX } from "#contracts/inspection-limits";
import { CodeLabel } from "#app/components/code-tag";
import { CsrfInput } from "#app/components/csrf-input";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { Field, FormErrors, inputClass } from "#app/components/form-field";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess, requireMenuUrl } from "#app/server/access.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { idParam } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import { getScoreForm, saveScoreForm } from "#app/services/inspection.server";

const LIST = "/inspectionForm";
export const handle: RouteHandle = { title: SCREEN_TITLES["/inspectionForm/:id"] };

/**
 * One module for /inspectionForm/new and /inspectionForm/{id} (decision 028): a draft's editor
 * (name, description, one row per item: title, points, N/A allowed, 一票否决), rows added and
 * removed by posting the form; a form that was activated is shown read-only. No JavaScript.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const access = requireMenuUrl(await requireAccess(request), LIST);
  const form = params.id === undefined ? null : await getScoreForm(access.caller, idParam(params.id));
  return { form };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  requireMenuUrl(access, LIST);
  const id = params.id === undefined ? null : idParam(params.id);
  const submission = parseWithZod(form, { schema: ScoreFormInputSchema });
  // A row added or removed (conform's list intents): the form again with the change, nothing saved.
  if (submission.status === undefined) return data(submission.reply());
  if (submission.status !== "success") return rejectForm(submission);
  const done = await attempt(() => saveScoreForm(access.caller, id, submission.value));
  if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
  return redirectWithToast(LIST, id === null ? `评分表「${done.value.name}」已创建（草稿）` : `评分表「${done.value.name}」已保存`);
}

export default function ScoreFormPage() {
  const { form } = useLoaderData<typeof loader>();
  const reply = useActionData<typeof action>() as SubmissionResult<string[]> | undefined;
  const title = form ? `评分表 · ${form.name}` : SCREEN_TITLES["/inspectionForm/new"];
  return (
    <Screen title={title}>
      <p>
        <a href={LIST}>返回评分表列表</a>
      </p>
      {form && !QC_FORM_EDITABLE.includes(form.state) ? <ReadOnly form={form} /> : <Editor form={form} reply={reply} />}
    </Screen>
  );
}

function ReadOnly({ form }: { form: ScoreForm }) {
  return (
    <section className="sb-section" aria-labelledby="qc-form-items">
      <Notice tone="info">
        该评分表
        <CodeLabel table={QC_FORM_STATES} code={form.state} />
        ，启用过的评分表不能修改（已有 {form.usedCount} 条通话按它评分）。如需调整，请新建评分表。
      </Notice>
      {form.description ? <p>{form.description}</p> : null}
      <h2 id="qc-form-items" className="sb-section-title">
        评分项（共 {form.totalWeight} 分）
      </h2>
      <DataTable<ScoreForm["items"][number]>
        caption="评分项"
        rowKey="key"
        emptyMessage="暂无评分项"
        config={{
          list: form.items,
          total: form.items.length,
          eleItem: [
            { prop: "title", label: "评分项" },
            { prop: "weight", label: "分值" },
            { prop: "allowNa", label: "可选不适用", render: (item) => (item.allowNa ? "是" : "否") },
            { prop: "veto", label: "一票否决", render: (item) => (item.veto ? "是" : "否") },
          ],
        }}
      />
    </section>
  );
}

function Editor({ form: editing, reply }: { form: ScoreForm | null; reply: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({
    id: "qc-form",
    lastResult: reply,
    constraint: getZodConstraint(ScoreFormInputSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: ScoreFormInputSchema }),
    defaultValue: editing
      ? {
          name: editing.name,
          description: editing.description,
          items: editing.items.map((item) => ({
            key: item.key,
            title: item.title,
            weight: String(item.weight),
            allowNa: item.allowNa ? "on" : undefined,
            veto: item.veto ? "on" : undefined,
          })),
        }
      : { items: [{ weight: "10" }] },
  });
  const rows = fields.items.getFieldList();
  return (
    <div className="sb-section">
      <h2 className="sb-section-title">{editing ? "编辑草稿" : "评分表内容"}</h2>
      <form method="post" {...getFormProps(form)} className="sb-form">
        <CsrfInput />
        {/* Enter in a field saves: the first submit button is the form's default, so it must not be a row's 删除. */}
        <button type="submit" className="p-hidden-accessible" tabIndex={-1} aria-hidden="true">
          保存评分表
        </button>
        <FormErrors id={form.errorId} errors={form.errors} />
        <div className="sb-form-grid">
          <Field field={fields.name} label="评分表名称">
            <input {...getInputProps(fields.name, { type: "text" })} maxLength={QC_FORM_NAME_MAX} className={inputClass(fields.name)} />
          </Field>
          <Field field={fields.description} label="说明（选填）">
            <textarea
              {...getTextareaProps(fields.description)}
              maxLength={QC_FORM_DESCRIPTION_MAX}
              rows={2}
              className={`p-inputtextarea ${inputClass(fields.description)}`}
            />
          </Field>
        </div>
        <fieldset className="sb-wo-fields" aria-describedby={fields.items.errors ? fields.items.errorId : undefined}>
          <legend>评分项</legend>
          <p className="sb-hint">
            分值为正整数；得分按未选“不适用”的评分项折算为百分制。一票否决项按“通过/不通过”评，不通过则整通电话不合格（0 分）。
          </p>
          {fields.items.errors ? (
            <p id={fields.items.errorId} className="p-error" role="alert">
              {fields.items.errors.join("；")}
            </p>
          ) : null}
          {rows.map((row, index) => {
            const item = row.getFieldset();
            const n = index + 1;
            return (
              <div key={row.key} className="sb-wo-field-row" role="group" aria-label={`第 ${n} 个评分项`}>
                <input {...getInputProps(item.key, { type: "hidden" })} />
                <Field field={item.title} label={`评分项 ${n} 名称`}>
                  <input
                    {...getInputProps(item.title, { type: "text" })}
                    maxLength={QC_ITEM_TITLE_MAX}
                    className={inputClass(item.title)}
                  />
                </Field>
                <Field field={item.weight} label={`评分项 ${n} 分值`}>
                  <input
                    {...getInputProps(item.weight, { type: "number" })}
                    min={1}
                    max={QC_ITEM_WEIGHT_MAX}
                    step={1}
                    className={inputClass(item.weight)}
                  />
                </Field>
                <div className="sb-field sb-field-check">
                  <input {...getInputProps(item.allowNa, { type: "checkbox" })} />
                  <label htmlFor={item.allowNa.id}>评分项 {n} 可选不适用</label>
                </div>
                <div className="sb-field sb-field-check">
                  <input {...getInputProps(item.veto, { type: "checkbox" })} />
                  <label htmlFor={item.veto.id}>评分项 {n} 一票否决</label>
                </div>
                <button
                  {...form.remove.getButtonProps({ name: fields.items.name, index })}
                  className="p-button p-button-text p-button-danger p-button-sm"
                >
                  删除评分项 {n}
                </button>
              </div>
            );
          })}
          <button
            {...form.insert.getButtonProps({ name: fields.items.name, defaultValue: { weight: "10" } })}
            className="p-button p-button-outlined p-button-sm"
          >
            添加评分项
          </button>
        </fieldset>
        <div className="sb-form-actions">
          <button type="submit" className="p-button">
            保存评分表
          </button>
          <a className="p-button p-button-text" href={LIST}>
            取消
          </a>
        </div>
      </form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
