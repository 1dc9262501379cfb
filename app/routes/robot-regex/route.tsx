import { getInputProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import {
  REGEX_DESCRIPTION_MAX,
  REGEX_NAME_MAX,
  REGEX_PATTERN_MAX,
  REGEX_SAMPLE_MAX,
  type RegexMatch,
  type RobotRegex,
} from "#contracts/robot-resources";
import { EditDeleteActions } from "#app/components/row-actions";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice, FilterBar } from "#app/components/filters";
import { Field, inputClass } from "#app/components/form-field";
import { useIntentsForm } from "#app/components/intent-form";
import { DeleteStep, RowForm, rowFormOpen, rowRefusalMessage } from "#app/components/row-editing";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { ROBOT_RESOURCE_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { attempt, deletionStep, parseIntent, rejectForm } from "#app/server/forms.server";
import { ListPageSchema, pagination, parseListQuery } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import { deleteRegex, getRegex, listRegexes, saveRegex, testRegex } from "#app/services/robot-resources.server";
import { INTENT_SCHEMAS } from "./schema";

const SCREEN = "/robot/regex";
const title = ROBOT_RESOURCE_TITLES.regex;
export const handle: RouteHandle = { title };

/** The form's buttons: 测试 (the form comes back with the matches) and 保存. */
const FORM_INTENTS = ["regex.save", "regex.test"] as const;

const QuerySchema = ListPageSchema.extend({
  name: z.string().trim().max(REGEX_NAME_MAX).optional(),
  edit: z.union([z.literal("new"), z.coerce.number().int().positive()]).optional(),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const query = parseListQuery(request, QuerySchema) as z.infer<typeof QuerySchema>;
  const [regexes, editing] = await Promise.all([
    listRegexes(caller, { ...pagination(query), name: query.name }),
    typeof query.edit === "number" ? getRegex(caller, query.edit) : null,
  ]);
  return { query, regexes, editing };
}

export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const back = `${SCREEN}${new URL(request.url).search}`;
  const { submission } = parseIntent(form, INTENT_SCHEMAS, title);
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const { caller } = access;
  switch (input.intent) {
    case "regex.test": {
      // The form comes back with what was typed and the matches, with or without JavaScript.
      const done = await attempt(() => testRegex(caller, input.pattern, input.sample));
      if (!done.ok) return rejectForm(submission, { fieldErrors: { sample: [done.message] } }, done.status);
      return data({ tested: { sample: input.sample, matches: done.value }, typed: submission.reply() });
    }
    case "regex.save": {
      const { intent: _intent, id, sample: _sample, ...regex } = input;
      const done = await attempt(() => saveRegex(caller, id ?? null, regex));
      if (!done.ok)
        return rejectForm(
          submission,
          done.message.includes("名称") ? { fieldErrors: { name: [done.message] } } : { formErrors: [done.message] },
          done.status,
        );
      return redirectWithToast(SCREEN, `正则表达式「${done.value.name}」已保存`);
    }
    case "regex.delete": {
      const step = deletionStep(input);
      if (step) return step;
      const done = await attempt(() => deleteRegex(caller, input.id));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(back, "正则表达式已删除");
    }
  }
}

export default function RobotRegexes() {
  const { query, regexes, editing } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  const tested = result && "tested" in result ? result : undefined;
  // What the form posted last comes back to it: refused, or tested (what was typed with the matches).
  const posted = tested?.typed ?? result;
  const rowError = rowRefusalMessage(result, FORM_INTENTS);

  return (
    <Screen
      title={title}
      actions={
        <a className="p-button" href={`${SCREEN}?edit=new`}>
          新建正则表达式
        </a>
      }
    >
      <DeleteStep
        result={result}
        title="删除正则表达式"
        message={(name) => `确定删除正则表达式「${name}」吗？引用它的流程将无法再按它匹配。`}
      />
      {rowFormOpen(query.edit !== undefined, posted, FORM_INTENTS) ? (
        <RegexForm editing={editing} posted={posted} tested={tested?.tested} />
      ) : null}
      {rowError ? <Notice tone="error">{rowError}</Notice> : null}
      <section aria-labelledby="regex-list-title" className="sb-section">
        <h2 id="regex-list-title" className="sb-section-title">
          正则表达式列表
        </h2>
        <FilterBar label="搜索正则表达式" search resetHref={SCREEN}>
          <div className="sb-field">
            <label htmlFor="regex-search">按名称搜索</label>
            <input
              id="regex-search"
              name="name"
              type="search"
              maxLength={REGEX_NAME_MAX}
              defaultValue={query.name ?? ""}
              className="p-inputtext"
            />
          </div>
        </FilterBar>
        <DataTable<RobotRegex>
          caption="正则表达式列表"
          rowKey="id"
          emptyMessage="暂无正则表达式"
          config={{
            list: regexes.list,
            total: regexes.total,
            eleItem: [
              { prop: "name", label: "名称", render: (r) => <strong>{r.name}</strong> },
              { prop: "pattern", label: "表达式", render: (r) => <code>{r.pattern}</code> },
              { prop: "description", label: "说明", type: "content", maxChars: 30 },
              { prop: "updatedBy", label: "修改人", render: (r) => r.updatedBy ?? "—" },
              { prop: "updatedAt", label: "更新时间", type: "datetime", minWidth: 150 },
              {
                prop: "id",
                label: "操作",
                render: (r) => <EditDeleteActions editHref={`${SCREEN}?edit=${r.id}`} intent="regex.delete" id={r.id} name={r.name} />,
              },
            ],
          }}
        />
        <Paginator total={regexes.total} pageNo={query.page} pageSize={query.size} pathname={pathname} search={search} />
      </section>
    </Screen>
  );
}

function RegexForm({
  editing,
  posted,
  tested,
}: {
  editing: RobotRegex | null;
  posted: unknown;
  tested: { sample: string; matches: RegexMatch[] } | undefined;
}) {
  const [form, fields] = useIntentsForm(
    FORM_INTENTS,
    posted,
    editing ? { id: String(editing.id), name: editing.name, pattern: editing.pattern, description: editing.description } : undefined,
  );
  return (
    <RowForm
      form={form}
      id={fields.id}
      titles={{ edit: "编辑正则表达式", create: "新建正则表达式" }}
      titleId="robot-regex-title"
      buttons={
        <>
          <button type="submit" name="intent" value="regex.test" className="p-button p-button-outlined" formNoValidate>
            测试
          </button>
          <button type="submit" name="intent" value="regex.save" className="p-button">
            保存
          </button>
        </>
      }
      cancelHref={SCREEN}
    >
      <Field field={fields.name} label="名称">
        <input {...getInputProps(fields.name, { type: "text" })} required maxLength={REGEX_NAME_MAX} className={inputClass(fields.name)} />
      </Field>
      <Field field={fields.pattern} label="正则表达式">
        <input
          {...getInputProps(fields.pattern, { type: "text" })}
          required
          maxLength={REGEX_PATTERN_MAX}
          spellCheck={false}
          className={inputClass(fields.pattern)}
        />
      </Field>
      <Field field={fields.description} label="说明">
        <input
          {...getInputProps(fields.description, { type: "text" })}
          maxLength={REGEX_DESCRIPTION_MAX}
          className={inputClass(fields.description)}
        />
      </Field>
      <Field field={fields.sample} label="测试句子（客户可能说的话）">
        <input {...getInputProps(fields.sample, { type: "text" })} maxLength={REGEX_SAMPLE_MAX} className={inputClass(fields.sample)} />
      </Field>
      <p className="sb-hint sb-kb-wide">
        按 JavaScript 正则语法（Unicode 模式）编译，一个汉字算一个字符；保存前可先用测试句子查看匹配结果。
      </p>
      {tested ? <TestResult sample={tested.sample} matches={tested.matches} /> : null}
    </RowForm>
  );
}

/** The sample with its matches marked, and each match's position and groups. */
function TestResult({ sample, matches }: { sample: string; matches: RegexMatch[] }) {
  const chars = Array.from(sample);
  const parts: Array<{ text: string; match: boolean }> = [];
  let at = 0;
  for (const m of matches) {
    const length = Array.from(m.text).length;
    if (m.index > at) parts.push({ text: chars.slice(at, m.index).join(""), match: false });
    if (length > 0) parts.push({ text: chars.slice(m.index, m.index + length).join(""), match: true });
    at = Math.max(at, m.index + length);
  }
  if (at < chars.length) parts.push({ text: chars.slice(at).join(""), match: false });
  return (
    <div className="sb-kb-wide" role="status" aria-labelledby="regex-test-title">
      <h3 id="regex-test-title" className="sb-section-title">
        测试结果：{matches.length ? `共 ${matches.length} 处匹配` : "没有匹配"}
      </h3>
      <p>{parts.map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}</p>
      {matches.length ? (
        <div className="p-datatable p-component">
          <table className="p-datatable-table" aria-label="匹配明细">
            <thead className="p-datatable-thead">
              <tr>
                <th scope="col">位置（第几个字符）</th>
                <th scope="col">匹配内容</th>
                <th scope="col">分组</th>
              </tr>
            </thead>
            <tbody className="p-datatable-tbody">
              {matches.map((m, i) => (
                <tr key={i}>
                  <td>{m.index + 1}</td>
                  <td>{m.text || "（空）"}</td>
                  <td>{m.groups.length ? m.groups.map((g, n) => `${n + 1}：${g ?? "（未参与）"}`).join("；") : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
