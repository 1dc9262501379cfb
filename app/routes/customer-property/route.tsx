import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { CUSTOMER_PROPERTY_TYPES, CUSTOMER_PROPERTY_VALID, labelOf } from "#contracts/codes";
import type { CustomerProperty } from "#contracts/customers";
import { CodeLabel } from "#app/components/code-tag";
import { ConfirmStep } from "#app/components/confirm";
import { CsrfInput } from "#app/components/csrf-input";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { Field, FormErrors, firstError, inputClass } from "#app/components/form-field";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { attempt, parseIntent, rejectForm } from "#app/server/forms.server";
import { parseListQuery } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import { deleteProperty, listProperties, reorderProperty, saveProperty, setPropertyValid } from "#app/services/customers.server";
import { INTENT_SCHEMAS, PropertyFormSchema } from "./schema";

const SCREEN = "/customerProperty";
const title = SCREEN_TITLES[SCREEN];
export const handle: RouteHandle = { title };

const QuerySchema = z.object({ edit: z.union([z.literal("new"), z.coerce.number().int().positive()]).optional() });

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const query = parseListQuery(request, QuerySchema) as z.infer<typeof QuerySchema>;
  const properties = await listProperties(caller);
  const editing = typeof query.edit === "number" ? (properties.find((p) => p.id === query.edit) ?? null) : null;
  return { query, properties, editing };
}

export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const { submission } = parseIntent(form, INTENT_SCHEMAS, title);
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const { caller } = access;
  switch (input.intent) {
    case "property.save": {
      const done = await attempt(() => saveProperty(caller, input.id ?? null, input.input));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(SCREEN, input.id ? `属性「${done.value.name}」已保存` : `属性「${done.value.name}」已创建`);
    }
    case "property.move": {
      const done = await attempt(() => reorderProperty(caller, input.id, input.action));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(SCREEN, input.action === "up" ? "已上移" : "已下移");
    }
    case "property.valid": {
      const done = await attempt(() => setPropertyValid(caller, input.id, input.valid === "1"));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(SCREEN, `属性「${done.value.name}」已设为${done.value.valid ? "有效" : "无效"}`);
    }
    case "property.delete": {
      if (!input.confirmed)
        return data({
          confirm: { fields: { intent: input.intent, id: String(input.id), name: input.name ?? "" }, name: input.name ?? String(input.id) },
        });
      const done = await attempt(() => deleteProperty(caller, input.id));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(SCREEN, "属性已删除");
    }
  }
}

export default function CustomerPropertyScreen() {
  const { query, properties, editing } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  const refusal = result && "initialValue" in result ? result : undefined;
  const refusedIntent = refusal?.initialValue?.intent;
  const confirm = result && "confirm" in result ? result.confirm : undefined;
  const showForm = query.edit !== undefined || refusedIntent === "property.save";
  const rowError = refusal && refusedIntent !== "property.save" ? firstError(refusal) : null;

  return (
    <Screen
      title={title}
      actions={
        <>
          <a className="p-button p-button-outlined" href={`${SCREEN}/export`} download>
            导出属性
          </a>
          <a className="p-button" href={`${SCREEN}?edit=new`}>
            新建属性
          </a>
        </>
      }
    >
      {confirm ? (
        <ConfirmStep title="删除属性" fields={confirm.fields} confirmLabel="确认删除" cancelHref={`${pathname}${search}`}>
          <p>确定删除属性「{confirm.name}」吗？所有联系人的该属性值将一并删除，不可恢复。</p>
        </ConfirmStep>
      ) : null}
      <p className="sb-hint">属性按下表顺序出现在联系人表单、列表和导入文件中；设为无效的属性不再填写，也不能用作短信变量。</p>
      {showForm ? (
        <PropertyForm
          editing={editing}
          refusal={refusedIntent === "property.save" ? refusal : undefined}
          missing={typeof query.edit === "number" && !editing}
        />
      ) : null}
      {rowError ? <Notice tone="error">{rowError}</Notice> : null}
      <DataTable<CustomerProperty>
        caption="客户属性"
        rowKey="id"
        emptyMessage="暂无客户属性，请先新建"
        config={{
          list: properties,
          total: properties.length,
          eleItem: [
            { prop: "position", label: "顺序" },
            { prop: "name", label: "属性名称", render: (p) => <strong>{p.name}</strong> },
            { prop: "type", label: "类型", render: (p) => labelOf(CUSTOMER_PROPERTY_TYPES, p.type) },
            { prop: "options", label: "选项", render: (p) => (p.options.length ? p.options.join("、") : "—") },
            { prop: "required", label: "必填", render: (p) => (p.required ? "是" : "否") },
            { prop: "unique", label: "唯一", render: (p) => (p.unique ? "是" : "否") },
            { prop: "valid", label: "状态", render: (p) => <CodeLabel table={CUSTOMER_PROPERTY_VALID} code={p.valid ? 1 : 0} /> },
            { prop: "id", label: "操作", render: (p) => <PropertyActions property={p} /> },
          ],
        }}
      />
    </Screen>
  );
}

function RowButton({
  intent,
  id,
  label,
  fields = {},
  danger = false,
}: {
  intent: string;
  id: number;
  label: string;
  fields?: Record<string, string>;
  danger?: boolean;
}) {
  return (
    <form method="post">
      <CsrfInput />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="id" value={id} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className={`p-button p-button-text p-button-sm${danger ? " p-button-danger" : ""}`}>
        {label}
      </button>
    </form>
  );
}

function PropertyActions({ property: p }: { property: CustomerProperty }) {
  return (
    <div className="sb-row-actions" aria-label={`属性「${p.name}」的操作`}>
      <a href={`${SCREEN}?edit=${p.id}`} aria-label={`编辑「${p.name}」`}>
        编辑
      </a>
      <RowButton intent="property.move" id={p.id} label="上移" fields={{ action: "up" }} />
      <RowButton intent="property.move" id={p.id} label="下移" fields={{ action: "down" }} />
      <RowButton intent="property.valid" id={p.id} label={p.valid ? "设为无效" : "设为有效"} fields={{ valid: p.valid ? "0" : "1" }} />
      <RowButton intent="property.delete" id={p.id} label="删除" fields={{ name: p.name }} danger />
    </div>
  );
}

function PropertyForm({
  editing,
  refusal,
  missing,
}: {
  editing: CustomerProperty | null;
  refusal: SubmissionResult<string[]> | undefined;
  missing: boolean;
}) {
  const [form, fields] = useForm({
    id: "property-form",
    lastResult: refusal,
    constraint: getZodConstraint(PropertyFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: PropertyFormSchema }),
    defaultValue: editing
      ? {
          id: String(editing.id),
          name: editing.name,
          type: editing.type,
          options: editing.options.join("，"),
          required: editing.required ? "on" : undefined,
          unique: editing.unique ? "on" : undefined,
        }
      : { type: "text" },
  });
  if (missing && !refusal) return <Notice tone="error">要编辑的属性不存在，请在列表中重新选择。</Notice>;
  const editingId = editing?.id ?? (refusal?.initialValue?.id ? String(refusal.initialValue.id) : undefined);
  return (
    <section aria-labelledby="property-form-title" className="sb-section">
      <h2 id="property-form-title" className="sb-section-title">
        {editingId ? "编辑属性" : "新建属性"}
      </h2>
      <form method="post" {...getFormProps(form)} className="sb-form-grid">
        <CsrfInput />
        <input type="hidden" name="intent" value="property.save" />
        {editingId ? <input type="hidden" name="id" value={editingId} /> : null}
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field field={fields.name} label="属性名称">
          <input {...getInputProps(fields.name, { type: "text" })} maxLength={20} className={inputClass(fields.name)} />
        </Field>
        <Field field={fields.type} label="类型">
          <select {...getSelectProps(fields.type)} className={inputClass(fields.type)}>
            {CUSTOMER_PROPERTY_TYPES.map((t) => (
              <option key={t.code} value={t.code}>
                {t.label}
              </option>
            ))}
          </select>
        </Field>
        <Field field={fields.options} label="选项（单选、多选用，以逗号、顿号或换行分隔）">
          <textarea {...getTextareaProps(fields.options)} rows={2} className={`p-inputtextarea ${inputClass(fields.options)}`} />
        </Field>
        <div className="sb-field">
          <span>规则</span>
          <label>
            <input {...getInputProps(fields.required, { type: "checkbox" })} /> 必填
          </label>
          <label>
            <input {...getInputProps(fields.unique, { type: "checkbox" })} /> 唯一（不同联系人不能相同）
          </label>
          {fields.unique.errors ? <small className="p-error">{fields.unique.errors[0]}</small> : null}
        </div>
        <div className="sb-form-actions">
          <button type="submit" className="p-button">
            保存
          </button>
          <a className="p-button p-button-text" href={SCREEN}>
            取消
          </a>
        </div>
      </form>
    </section>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
