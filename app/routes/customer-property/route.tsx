import { getInputProps, getSelectProps, getTextareaProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { CUSTOMER_PROPERTY_TYPES, CUSTOMER_PROPERTY_VALID, labelOf } from "#contracts/codes";
import type { CustomerProperty } from "#contracts/customers";
import { CodeLabel } from "#app/components/code-tag";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { Field, inputClass } from "#app/components/form-field";
import { refusalOf, useIntentForm } from "#app/components/intent-form";
import { DeleteStep, RowForm, rowFormOpen, rowRefusalMessage } from "#app/components/row-editing";
import { PostButton } from "#app/components/row-actions";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { attempt, deletionStep, parseIntent, rejectForm } from "#app/server/forms.server";
import { parseListQuery } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import { deleteProperty, listProperties, reorderProperty, saveProperty, setPropertyValid } from "#app/services/customers.server";
import { INTENT_SCHEMAS } from "./schema";
import { CodeOptions } from "#app/components/code-select";

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
      const step = deletionStep(input);
      if (step) return step;
      const done = await attempt(() => deleteProperty(caller, input.id));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(SCREEN, "属性已删除");
    }
  }
}

export default function CustomerPropertyScreen() {
  const { query, properties, editing } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const rowError = rowRefusalMessage(result, ["property.save"]);

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
      <DeleteStep
        result={result}
        title="删除属性"
        message={(name) => `确定删除属性「${name}」吗？所有联系人的该属性值将一并删除，不可恢复。`}
      />
      <p className="sb-hint">属性按下表顺序出现在联系人表单、列表和导入文件中；设为无效的属性不再填写，也不能用作短信变量。</p>
      {rowFormOpen(query.edit !== undefined, result, ["property.save"]) ? (
        <PropertyForm editing={editing} result={result} missing={typeof query.edit === "number" && !editing} />
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

function PropertyActions({ property: p }: { property: CustomerProperty }) {
  return (
    <div className="sb-row-actions" aria-label={`属性「${p.name}」的操作`}>
      <a href={`${SCREEN}?edit=${p.id}`} aria-label={`编辑「${p.name}」`}>
        编辑
      </a>
      <PostButton fields={{ intent: "property.move", id: p.id, action: "up" }} label="上移" />
      <PostButton fields={{ intent: "property.move", id: p.id, action: "down" }} label="下移" />
      <PostButton fields={{ intent: "property.valid", id: p.id, valid: p.valid ? "0" : "1" }} label={p.valid ? "设为无效" : "设为有效"} />
      <PostButton fields={{ intent: "property.delete", id: p.id, name: p.name }} label="删除" danger />
    </div>
  );
}

function PropertyForm({ editing, result, missing }: { editing: CustomerProperty | null; result: unknown; missing: boolean }) {
  const [form, fields] = useIntentForm(
    "property.save",
    result,
    editing
      ? {
          id: String(editing.id),
          name: editing.name,
          type: editing.type,
          options: editing.options.join("，"),
          ...(editing.required ? { required: "on" } : {}),
          ...(editing.unique ? { unique: "on" } : {}),
        }
      : { type: "text" },
  );
  if (missing && !refusalOf(result, "property.save")) return <Notice tone="error">要编辑的属性不存在，请在列表中重新选择。</Notice>;
  return (
    <RowForm
      form={form}
      id={fields.id}
      titles={{ edit: "编辑属性", create: "新建属性" }}
      titleId="property-form-title"
      intent="property.save"
      buttons={
        <button type="submit" className="p-button">
          保存
        </button>
      }
      cancelHref={SCREEN}
    >
      <Field field={fields.name} label="属性名称">
        <input {...getInputProps(fields.name, { type: "text" })} required maxLength={20} className={inputClass(fields.name)} />
      </Field>
      <Field field={fields.type} label="类型">
        <select {...getSelectProps(fields.type)} className={inputClass(fields.type)}>
          <CodeOptions table={CUSTOMER_PROPERTY_TYPES} />
        </select>
      </Field>
      <Field field={fields.options} label="选项（单选、多选用，以逗号、顿号或换行分隔）">
        <textarea
          {...getTextareaProps(fields.options)}
          rows={2}
          maxLength={2000}
          className={`p-inputtextarea ${inputClass(fields.options)}`}
        />
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
    </RowForm>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
