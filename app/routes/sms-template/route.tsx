import { getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { SMS_TEMPLATE_STATES } from "#contracts/codes";
import { BUILT_IN_COLUMNS, SMS_PART_LIMIT_TEXT, smsCount, templateVariables, type SmsTemplate } from "#contracts/customers";
import { CodeLabel } from "#app/components/code-tag";
import { CsrfInput } from "#app/components/csrf-input";
import { EditDeleteActions, PostButton } from "#app/components/row-actions";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { Field, inputClass } from "#app/components/form-field";
import { refusalOf, useIntentsForm, useKeyedIntentForm } from "#app/components/intent-form";
import { DeleteStep, RowForm, rowFormOpen, rowRefusalMessage } from "#app/components/row-editing";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import smsCountScript from "#app/client/sms-count.js?url";
import { EnhancementScript } from "#app/components/enhancement-script";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { attempt, deletionStep, parseIntent, rejectForm } from "#app/server/forms.server";
import { ListPageSchema, pagination, parseListQuery } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import { deleteTemplate, listProperties, listTemplates, reviewTemplate, saveTemplate } from "#app/services/customers.server";
import { INTENT_SCHEMAS } from "./schema";

const SCREEN = "/sms/template";
const title = SCREEN_TITLES[SCREEN];
export const handle: RouteHandle = { title };

/** The template form's buttons: 计算字数 (the form comes back with the count) and 保存并提交审核. */
const FORM_INTENTS = ["template.save", "template.count"] as const;
/** A row's review: 通过, or 不通过 with its reason (a form per pending row). */
const REVIEW = "template.review";

const QuerySchema = ListPageSchema.extend({
  state: z.enum(["pending", "approved", "rejected"]).optional(),
  edit: z.union([z.literal("new"), z.coerce.number().int().positive()]).optional(),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const query = parseListQuery(request, QuerySchema) as z.infer<typeof QuerySchema>;
  const [templates, properties] = await Promise.all([
    listTemplates(caller, { ...pagination(query), state: query.state }),
    listProperties(caller, "valid"),
  ]);
  const variables = [BUILT_IN_COLUMNS.name, BUILT_IN_COLUMNS.phone, ...properties.map((p) => p.name)];
  const editing = typeof query.edit === "number" ? (templates.list.find((t) => t.id === query.edit) ?? null) : null;
  return { query, templates, variables, editing };
}

export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const back = `${SCREEN}${new URL(request.url).search}`;
  const { submission } = parseIntent(form, INTENT_SCHEMAS, title);
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const { caller } = access;
  switch (input.intent) {
    case "template.count":
      // Counting without JavaScript: the form comes back with what was typed and its count.
      return data({
        counted: { ...smsCount(input.content, input.signature), variables: templateVariables(input.content) },
        typed: submission.reply(),
      });
    case "template.save": {
      const { intent: _intent, id, ...template } = input;
      const done = await attempt(() => saveTemplate(caller, id ?? null, template));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(SCREEN, `模板「${done.value.name}」已提交审核`);
    }
    case "template.review": {
      const done = await attempt(() => reviewTemplate(caller, input.id, input.state, input.reason));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(back, `模板「${done.value.name}」${done.value.state === "approved" ? "已通过" : "未通过"}`);
    }
    case "template.delete": {
      const step = deletionStep(input);
      if (step) return step;
      const done = await attempt(() => deleteTemplate(caller, input.id));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(back, "模板已删除");
    }
  }
}

export default function SmsTemplates() {
  const { query, templates, variables, editing } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  const counted = result && "counted" in result ? result : undefined;
  // What the form posted last comes back to it: refused, or counted (what was typed with its count).
  const posted = counted?.typed ?? result;
  // A refused reason comes back on its row; any other refusal of a row (删除, a review the platform
  // refused: the row may be reviewed already) above the list.
  const rowError = refusalOf(result, REVIEW)?.error?.reason ? null : rowRefusalMessage(result, FORM_INTENTS);

  return (
    <Screen
      title={title}
      actions={
        <a className="p-button" href={`${SCREEN}?edit=new`}>
          新建模板
        </a>
      }
    >
      <DeleteStep result={result} title="删除模板" message={(name) => `确定删除模板「${name}」吗？已发送的短信记录保留。`} />
      <nav aria-label="按审核状态筛选" className="sb-inline-forms">
        <a href={SCREEN} aria-current={query.state ? undefined : "page"}>
          全部
        </a>
        {SMS_TEMPLATE_STATES.map((s) => (
          <a key={s.code} href={`${SCREEN}?state=${s.code}`} aria-current={query.state === s.code ? "page" : undefined}>
            {s.label}
          </a>
        ))}
      </nav>
      {rowFormOpen(query.edit !== undefined, posted, FORM_INTENTS) ? (
        <TemplateForm editing={editing} variables={variables} posted={posted} counted={counted?.counted} />
      ) : null}
      {rowError ? <Notice tone="error">{rowError}</Notice> : null}
      <DataTable<SmsTemplate>
        caption="短信模板"
        rowKey="id"
        emptyMessage="暂无短信模板"
        config={{
          list: templates.list,
          total: templates.total,
          eleItem: [
            { prop: "name", label: "模板名称", render: (t) => <strong>{t.name}</strong> },
            { prop: "content", label: "内容", render: (t) => `【${t.signature}】${t.content}` },
            { prop: "length", label: "字数/条数", render: (t) => `${t.length} 字 / ${t.segments} 条` },
            { prop: "state", label: "审核状态", render: (t) => <CodeLabel table={SMS_TEMPLATE_STATES} code={t.state} /> },
            { prop: "reason", label: "原因", render: (t) => t.reason ?? "—" },
            { prop: "updatedAt", label: "更新时间", type: "datetime", minWidth: 150 },
            { prop: "id", label: "操作", render: (t) => <TemplateActions template={t} result={result} /> },
          ],
        }}
      />
      <Paginator total={templates.total} pageNo={query.page} pageSize={query.size} pathname={pathname} search={search} />
    </Screen>
  );
}

function TemplateActions({ template: t, result }: { template: SmsTemplate; result: unknown }) {
  return (
    <EditDeleteActions editHref={`${SCREEN}?edit=${t.id}`} intent="template.delete" id={t.id} name={t.name}>
      {t.state === "pending" ? (
        <>
          <PostButton fields={{ intent: REVIEW, id: t.id, state: "approved" }} label="通过" ariaLabel={`通过「${t.name}」`} />
          <RejectForm template={t} result={result} />
        </>
      ) : null}
    </EditDeleteActions>
  );
}

/** A pending row's 不通过 and its reason: a refused reason comes back on this row's field with what was typed. */
function RejectForm({ template: t, result }: { template: SmsTemplate; result: unknown }) {
  const [form, fields] = useKeyedIntentForm<{ reason: string }>(REVIEW, String(t.id), result, undefined, "id");
  return (
    <form method="post" {...getFormProps(form)} className="sb-inline-forms">
      <CsrfInput />
      <input type="hidden" name="intent" value={REVIEW} />
      <input type="hidden" name="id" value={t.id} />
      <input type="hidden" name="state" value="rejected" />
      <input
        {...getInputProps(fields.reason, { type: "text" })}
        maxLength={200}
        placeholder="不通过的原因"
        aria-label={`「${t.name}」不通过的原因`}
        className={`${inputClass(fields.reason)} p-inputtext-sm`}
      />
      {fields.reason.errors ? (
        <small id={fields.reason.errorId} className="p-error">
          {fields.reason.errors[0]}
        </small>
      ) : null}
      <button type="submit" className="p-button p-button-text p-button-danger p-button-sm" aria-label={`不通过「${t.name}」`}>
        不通过
      </button>
    </form>
  );
}

function TemplateForm({
  editing,
  variables,
  posted,
  counted,
}: {
  editing: SmsTemplate | null;
  variables: string[];
  posted: unknown;
  counted: { length: number; segments: number; variables: string[] } | undefined;
}) {
  const [form, fields] = useIntentsForm(
    FORM_INTENTS,
    posted,
    editing ? { id: String(editing.id), name: editing.name, signature: editing.signature, content: editing.content } : undefined,
  );
  const unknown = counted?.variables.filter((v) => !variables.includes(v)) ?? [];
  return (
    <RowForm
      form={form}
      id={fields.id}
      titles={{ edit: "编辑模板（保存后重新审核）", create: "新建模板" }}
      titleId="sms-template-title"
      buttons={
        <>
          <button type="submit" name="intent" value="template.count" className="p-button p-button-outlined" formNoValidate>
            计算字数
          </button>
          <button type="submit" name="intent" value="template.save" className="p-button">
            保存并提交审核
          </button>
        </>
      }
      cancelHref={SCREEN}
    >
      <Field field={fields.name} label="模板名称">
        <input {...getInputProps(fields.name, { type: "text" })} required maxLength={30} className={inputClass(fields.name)} />
      </Field>
      <Field field={fields.signature} label="短信签名（不含【】）">
        <input
          {...getInputProps(fields.signature, { type: "text" })}
          required
          minLength={2}
          maxLength={12}
          className={inputClass(fields.signature)}
        />
      </Field>
      <div className="sb-kb-wide">
        <Field field={fields.content} label="短信内容">
          <textarea
            {...getTextareaProps(fields.content)}
            required
            rows={4}
            maxLength={500}
            className={`p-inputtextarea ${inputClass(fields.content)}`}
          />
        </Field>
        <p className="sb-hint">
          变量写作 ${"{"}变量名{"}"}，可用：{variables.join("、")}。{SMS_PART_LIMIT_TEXT}
        </p>
        <p className="sb-hint" aria-live="polite" data-sms-count hidden />
        {counted ? (
          <p role="status">
            共 {counted.length} 字（含签名），按 {counted.segments} 条计费。
            {unknown.length ? ` 未知变量：${unknown.join("、")}` : ""}
          </p>
        ) : null}
        <EnhancementScript src={smsCountScript} />
      </div>
    </RowForm>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
