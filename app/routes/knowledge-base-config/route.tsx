import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint, parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { KNOWLEDGE_STATES, labelOf } from "#contracts/codes";
import {
  KNOWLEDGE_ANSWER_MAX,
  KNOWLEDGE_IMPORT_COLUMNS,
  KNOWLEDGE_QUESTION_MAX,
  type KnowledgeGroup,
  type KnowledgeNode,
} from "#contracts/knowledge";
import { CodeLabel } from "#app/components/code-tag";
import { ConfirmStep } from "#app/components/confirm";
import { CsrfInput } from "#app/components/csrf-input";
import { PostButton } from "#app/components/row-actions";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice, FilterBar } from "#app/components/filters";
import { Field, FormErrors, firstError, inputClass } from "#app/components/form-field";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { requireAccess, requireUploadAccess } from "#app/server/access.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { pagination, parseListQuery } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import {
  createKnowledgeGroup,
  deleteKnowledgeGroup,
  deleteKnowledgeNodes,
  importKnowledgeNodes,
  listKnowledgeGaps,
  listKnowledgeGroups,
  listKnowledgeNodes,
  renameKnowledgeGroup,
  saveKnowledgeNode,
  setKnowledgeNodeState,
} from "#app/services/knowledge.server";
import { KnowledgeScreenQuerySchema, type KnowledgeScreenQuery } from "./query.server";
import { INTENT_SCHEMAS, isIntent, NodeFormSchema, NodeImportSchema } from "./schema";

const title = SCREEN_TITLES["/knowledgeBase/config"];
export const handle: RouteHandle = { title };
const SCREEN = "/knowledgeBase/config";

/** The screen's address with some parameters changed (undefined removes one); `edit` and `page` reset unless given. */
function screenHref(
  query: Partial<KnowledgeScreenQuery>,
  change: Partial<Record<keyof KnowledgeScreenQuery, string | number | undefined>> = {},
) {
  const params = new URLSearchParams();
  const merged: Record<string, unknown> = { group: query.group, keyword: query.keyword, state: query.state, size: query.size, ...change };
  for (const [key, value] of Object.entries(merged)) {
    if (value === undefined || value === "" || (key === "size" && value === 20)) continue;
    params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${SCREEN}?${search}` : SCREEN;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const query = parseListQuery(request, KnowledgeScreenQuerySchema) as KnowledgeScreenQuery;
  const [groups, nodes, gaps] = await Promise.all([
    listKnowledgeGroups(caller),
    listKnowledgeNodes(caller, { ...pagination(query), groupId: query.group, keyword: query.keyword, state: query.state }),
    listKnowledgeGaps(caller, { pageNo: 1, pageSize: 20 }),
  ]);
  const group = groups.find((g) => g.id === query.group) ?? null;
  const editing = typeof query.edit === "number" ? (nodes.list.find((n) => n.id === query.edit) ?? null) : null;
  return { query, groups, group, nodes, gaps, editing };
}

type Confirm = { intent: "group.delete" | "node.delete" | "node.batchDelete"; fields: Record<string, string | string[]>; message: string };

export async function action({ request }: ActionFunctionArgs) {
  // A knowledge file goes on to the platform as it arrives, once the group chosen before it is valid.
  const {
    access,
    form,
    sent: imported,
  } = await requireUploadAccess(request, (access, fieldsBefore, file) => {
    const before = NodeImportSchema.safeParse(Object.fromEntries(fieldsBefore));
    return before.success ? attempt(() => importKnowledgeNodes(access.caller, before.data.groupId, file)) : undefined;
  });
  const url = new URL(request.url);
  const query = KnowledgeScreenQuerySchema.safeParse(Object.fromEntries([...url.searchParams].filter(([, v]) => v !== "")));
  const current: Partial<KnowledgeScreenQuery> = query.success ? query.data : {};
  const back = screenHref(current, { page: current.page && current.page > 1 ? current.page : undefined });
  const intent = form.get("intent");
  if (!isIntent(intent)) throw data({ message: "请求参数错误", status: 400, what: "知识库配置" }, { status: 400 });
  const submission = parseWithZod(form, { schema: INTENT_SCHEMAS[intent] });
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const { caller } = access;

  switch (input.intent) {
    case "group.create": {
      const done = await attempt(() => createKnowledgeGroup(caller, input.name));
      if (!done.ok) return rejectForm(submission, { fieldErrors: { name: [done.message] } }, done.status);
      return redirectWithToast(screenHref({}, { group: done.value.id }), `分组「${done.value.name}」已创建`);
    }
    case "group.rename": {
      const done = await attempt(() => renameKnowledgeGroup(caller, input.groupId, input.name));
      if (!done.ok) return rejectForm(submission, { fieldErrors: { name: [done.message] } }, done.status);
      return redirectWithToast(back, `分组已重命名为「${done.value.name}」`);
    }
    case "group.delete": {
      if (!input.confirmed) {
        return data({
          confirm: {
            intent: input.intent,
            fields: { intent: input.intent, groupId: String(input.groupId) },
            message: "",
          } satisfies Confirm,
        });
      }
      const done = await attempt(() => deleteKnowledgeGroup(caller, input.groupId));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(SCREEN, "分组已删除");
    }
    case "node.save": {
      const { id, intent: _intent, ...node } = input;
      const done = await attempt(() => saveKnowledgeNode(caller, id ?? null, node));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(
        screenHref(current, { edit: undefined, group: current.group }),
        id ? "知识已保存" : `知识「${done.value.question}」已创建`,
      );
    }
    case "node.state": {
      const done = await attempt(() => setKnowledgeNodeState(caller, input.id, input.state));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(back, `知识「${done.value.question}」已${labelOf(KNOWLEDGE_STATES, done.value.state)}`);
    }
    case "node.delete":
    case "node.batchDelete": {
      const ids = input.intent === "node.delete" ? [input.id] : input.ids;
      if (!input.confirmed) {
        const fields: Record<string, string | string[]> =
          input.intent === "node.delete"
            ? { intent: input.intent, id: String(input.id), question: input.question ?? "" }
            : { intent: input.intent, ids: ids.map(String) };
        const message =
          input.intent === "node.delete" ? `确定删除知识「${input.question ?? input.id}」吗？` : `确定删除选中的 ${ids.length} 条知识吗？`;
        return data({ confirm: { intent: input.intent, fields, message } satisfies Confirm });
      }
      const done = await attempt(() => deleteKnowledgeNodes(caller, ids));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(back, `已删除 ${done.value} 条知识`);
    }
    case "node.import": {
      if (!imported) return rejectForm(submission, { formErrors: ["请选择要导入的 CSV 或 XLSX 文件"] });
      if (!imported.ok) return rejectForm(submission, { formErrors: [imported.message] }, imported.status);
      return data({ imported: { ...imported.value, groupId: input.groupId } });
    }
  }
}

export default function KnowledgeBaseConfig() {
  const { query, groups, group, nodes, gaps, editing } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  const refusal = result && "initialValue" in result ? result : undefined;
  const refusedIntent = refusal?.initialValue?.intent;
  const errorOf = (intent: string) => (refusedIntent === intent ? firstError(refusal!) : null);
  const typed = (intent: string, name: string) => (refusedIntent === intent ? String(refusal?.initialValue?.[name] ?? "") : undefined);
  const confirm = result && "confirm" in result ? result.confirm : undefined;
  const imported = result && "imported" in result ? result.imported : undefined;
  const showForm = query.edit !== undefined || refusedIntent === "node.save";
  const deleting = confirm?.intent === "group.delete" ? groups.find((g) => String(g.id) === confirm.fields.groupId) : undefined;

  return (
    <Screen
      title={title}
      actions={
        <a className="p-button" href={screenHref(query, { edit: "new" })}>
          新建知识
        </a>
      }
    >
      {confirm ? (
        <ConfirmStep
          title={confirm.intent === "group.delete" ? "删除分组" : "删除知识"}
          fields={confirm.fields}
          confirmLabel="确认删除"
          cancelHref={`${pathname}${search}`}
        >
          <p>{confirm.intent === "group.delete" ? `确定删除分组「${deleting?.name ?? ""}」吗？` : confirm.message}删除后不可恢复。</p>
        </ConfirmStep>
      ) : null}

      <div className="sb-kb">
        <GroupPanel groups={groups} group={group} query={query} errorOf={errorOf} typed={typed} />

        <div className="sb-kb-main">
          <section aria-labelledby="kb-nodes-title" className="sb-section">
            <h2 id="kb-nodes-title" className="sb-section-title">
              {group ? `分组「${group.name}」的知识` : "全部知识"}
            </h2>
            <FilterBar label="搜索知识" search resetHref={screenHref({ group: query.group, size: query.size })}>
              {query.group ? <input type="hidden" name="group" value={query.group} /> : null}
              <div className="sb-field">
                <label htmlFor="kb-keyword">关键词（问题、答案或标签）</label>
                <input
                  id="kb-keyword"
                  name="keyword"
                  type="search"
                  maxLength={50}
                  defaultValue={query.keyword ?? ""}
                  className="p-inputtext"
                />
              </div>
              <div className="sb-field">
                <label htmlFor="kb-state">状态</label>
                <select id="kb-state" name="state" defaultValue={query.state ?? ""} className="p-inputtext">
                  <option value="">全部</option>
                  {KNOWLEDGE_STATES.map((s) => (
                    <option key={s.code} value={s.code}>
                      {s.label}
                    </option>
                  ))}
                </select>
              </div>
            </FilterBar>

            {showForm ? (
              <NodeForm groups={groups} query={query} editing={editing} refusal={refusedIntent === "node.save" ? refusal : undefined} />
            ) : null}

            {(errorOf("node.state") ?? errorOf("node.delete") ?? errorOf("node.batchDelete")) ? (
              <Notice tone="error">{errorOf("node.state") ?? errorOf("node.delete") ?? errorOf("node.batchDelete")}</Notice>
            ) : null}
            <PostButton
              formId="kb-batch"
              formClassName="sb-table-toolbar"
              fields={{ intent: "node.batchDelete" }}
              label="批量删除所选"
              className="p-button p-button-danger p-button-outlined"
            />
            <DataTable<KnowledgeNode>
              caption="知识列表"
              rowKey="id"
              selectionForm="kb-batch"
              emptyMessage={query.keyword ? `没有找到含“${query.keyword}”的知识` : "暂无知识"}
              config={{
                list: nodes.list,
                total: nodes.total,
                attributes: { selection: true },
                eleItem: [
                  { prop: "question", label: "问题", minWidth: 120, render: (n) => <strong>{n.question}</strong> },
                  { prop: "answer", label: "答案（快捷回复内容）", type: "content", maxChars: 40, minWidth: 200 },
                  { prop: "labels", label: "标签", render: (n) => (n.labels.length ? n.labels.join("、") : "—") },
                  ...(group ? [] : [{ prop: "groupName" as const, label: "分组" }]),
                  { prop: "state", label: "状态", render: (n) => <CodeLabel table={KNOWLEDGE_STATES} code={n.state} /> },
                  { prop: "usageCount", label: "使用次数" },
                  { prop: "updatedAt", label: "更新时间", type: "datetime", minWidth: 150 },
                  { prop: "id", label: "操作", render: (n) => <NodeActions node={n} query={query} /> },
                ],
              }}
            />
            <Paginator total={nodes.total} pageNo={query.page} pageSize={query.size} pathname={pathname} search={search} />
          </section>

          <section aria-labelledby="kb-import-title" className="sb-section">
            <h2 id="kb-import-title" className="sb-section-title">
              批量导入
            </h2>
            <p className="sb-hint">
              CSV（UTF-8）或 XLSX 文件，不超过 1MB，第一行为表头：{KNOWLEDGE_IMPORT_COLUMNS.join("、")}
              （问题、答案必填；标签以逗号或顿号分隔；状态填“启用”或“停用”，留空为启用）。
            </p>
            <form method="post" encType="multipart/form-data" className="sb-inline-forms">
              <CsrfInput />
              <input type="hidden" name="intent" value="node.import" />
              <div className="sb-field">
                <label htmlFor="kb-import-group">导入到分组</label>
                <select
                  id="kb-import-group"
                  name="groupId"
                  required
                  defaultValue={typed("node.import", "groupId") ?? query.group ?? ""}
                  className="p-inputtext"
                >
                  <option value="">请选择</option>
                  {groups.map((g) => (
                    <option key={g.id} value={g.id}>
                      {g.name}
                    </option>
                  ))}
                </select>
              </div>
              <div className="sb-field">
                <label htmlFor="kb-import-file">知识文件</label>
                <input id="kb-import-file" name="file" type="file" accept=".csv,.xlsx" required className="p-inputtext" />
              </div>
              <button type="submit" className="p-button">
                上传并导入
              </button>
            </form>
            {errorOf("node.import") ? <Notice tone="error">{errorOf("node.import")}</Notice> : null}
            {imported ? (
              <Notice tone={imported.rejected > 0 ? "info" : "success"}>
                导入完成：成功 {imported.accepted} 条，失败 {imported.rejected} 条。
                {imported.errors.length > 0 ? (
                  <DataTable
                    caption="导入失败的行"
                    rowKey="row"
                    config={{
                      list: imported.errors,
                      total: imported.rejected,
                      eleItem: [
                        { prop: "row", label: "行号" },
                        { prop: "message", label: "原因" },
                      ],
                    }}
                  />
                ) : null}
              </Notice>
            ) : null}
          </section>

          <section aria-labelledby="kb-gaps-title" className="sb-section">
            <h2 id="kb-gaps-title" className="sb-section-title">
              无结果搜索
            </h2>
            <p className="sb-hint">
              坐席查询知识或输入“/”搜索快捷回复时没有找到结果的关键词，按次数排列；补充了相应知识后，关键词自动移出此表。
            </p>
            <DataTable
              caption="无结果搜索"
              rowKey="keyword"
              emptyMessage="暂无无结果的搜索"
              config={{
                list: gaps.list,
                total: gaps.total,
                eleItem: [
                  { prop: "keyword", label: "关键词" },
                  { prop: "times", label: "搜索次数" },
                  { prop: "lastAt", label: "最近搜索", type: "datetime", minWidth: 150 },
                  {
                    prop: "keyword",
                    label: "补充知识",
                    render: (g) => <a href={`${screenHref(query, { edit: "new" })}&question=${encodeURIComponent(g.keyword)}`}>新建知识</a>,
                  },
                ],
              }}
            />
          </section>
        </div>
      </div>
    </Screen>
  );
}

function GroupPanel({
  groups,
  group,
  query,
  errorOf,
  typed,
}: {
  groups: KnowledgeGroup[];
  group: KnowledgeGroup | null;
  query: KnowledgeScreenQuery;
  errorOf: (intent: string) => string | null;
  typed: (intent: string, name: string) => string | undefined;
}) {
  const total = groups.reduce((sum, g) => sum + g.nodeCount, 0);
  const createError = errorOf("group.create");
  const renameError = errorOf("group.rename");
  return (
    <nav className="sb-kb-groups" aria-labelledby="kb-groups-title">
      <h2 id="kb-groups-title" className="sb-section-title">
        知识分组
      </h2>
      <ul className="sb-kb-group-list">
        <li>
          <a href={screenHref({ keyword: query.keyword, size: query.size })} aria-current={group ? undefined : "page"}>
            全部（{total}）
          </a>
        </li>
        {groups.map((g) => (
          <li key={g.id}>
            <a
              href={screenHref({ keyword: query.keyword, size: query.size }, { group: g.id })}
              aria-current={group?.id === g.id ? "page" : undefined}
            >
              {g.name}（{g.enabledCount}/{g.nodeCount}）
            </a>
          </li>
        ))}
      </ul>
      <p className="sb-hint">括号内为启用数/总数。</p>

      <form method="post" className="sb-form">
        <CsrfInput />
        <input type="hidden" name="intent" value="group.create" />
        <div className="sb-field">
          <label htmlFor="kb-group-new">新分组名称</label>
          <input
            id="kb-group-new"
            name="name"
            maxLength={30}
            required
            defaultValue={typed("group.create", "name")}
            className={`p-inputtext${createError ? " p-invalid" : ""}`}
            aria-invalid={createError ? true : undefined}
            aria-describedby={createError ? "kb-group-new-error" : undefined}
          />
          {createError ? (
            <small id="kb-group-new-error" className="p-error">
              {createError}
            </small>
          ) : null}
        </div>
        <button type="submit" className="p-button p-button-outlined">
          新建分组
        </button>
      </form>

      {group ? (
        <>
          <form method="post" className="sb-form">
            <CsrfInput />
            <input type="hidden" name="intent" value="group.rename" />
            <input type="hidden" name="groupId" value={group.id} />
            <div className="sb-field">
              <label htmlFor="kb-group-name">分组名称</label>
              <input
                id="kb-group-name"
                name="name"
                maxLength={30}
                required
                defaultValue={typed("group.rename", "name") ?? group.name}
                className={`p-inputtext${renameError ? " p-invalid" : ""}`}
                aria-invalid={renameError ? true : undefined}
                aria-describedby={renameError ? "kb-group-name-error" : undefined}
              />
              {renameError ? (
                <small id="kb-group-name-error" className="p-error">
                  {renameError}
                </small>
              ) : null}
            </div>
            <button type="submit" className="p-button p-button-outlined">
              重命名
            </button>
          </form>
          <PostButton
            fields={{ intent: "group.delete", groupId: group.id }}
            label="删除分组"
            className="p-button p-button-danger p-button-text"
          />
          {errorOf("group.delete") ? <Notice tone="error">{errorOf("group.delete")}</Notice> : null}
        </>
      ) : null}
    </nav>
  );
}

function NodeActions({ node, query }: { node: KnowledgeNode; query: KnowledgeScreenQuery }) {
  const next = node.state === 1 ? 0 : 1;
  const label = labelOf(KNOWLEDGE_STATES, next);
  return (
    <div className="sb-row-actions">
      <a href={screenHref(query, { edit: node.id, page: query.page > 1 ? query.page : undefined })} aria-label={`编辑「${node.question}」`}>
        编辑
      </a>
      <PostButton fields={{ intent: "node.state", id: node.id, state: next }} label={label} ariaLabel={`${label}「${node.question}」`} />
      <PostButton
        fields={{ intent: "node.delete", id: node.id, question: node.question }}
        label="删除"
        ariaLabel={`删除「${node.question}」`}
        danger
      />
    </div>
  );
}

function NodeForm({
  groups,
  query,
  editing,
  refusal,
}: {
  groups: KnowledgeGroup[];
  query: KnowledgeScreenQuery;
  editing: KnowledgeNode | null;
  refusal: SubmissionResult<string[]> | undefined;
}) {
  const { search } = useLocation();
  const prefill = new URLSearchParams(search).get("question") ?? "";
  const missing = typeof query.edit === "number" && !editing && !refusal;
  const [form, fields] = useForm({
    id: "kb-node",
    lastResult: refusal,
    constraint: getZodConstraint(NodeFormSchema),
    shouldValidate: "onBlur",
    onValidate: ({ formData }) => parseWithZod(formData, { schema: NodeFormSchema }),
    defaultValue: editing
      ? {
          id: String(editing.id),
          groupId: String(editing.groupId),
          question: editing.question,
          answer: editing.answer,
          labels: editing.labels.join("，"),
          state: String(editing.state),
        }
      : { groupId: query.group ? String(query.group) : "", question: prefill.slice(0, KNOWLEDGE_QUESTION_MAX), state: "1" },
  });
  if (missing) return <Notice tone="error">要编辑的知识不存在或不在当前页，请在列表中重新选择。</Notice>;
  const editingId = editing?.id ?? (refusal?.initialValue?.id ? String(refusal.initialValue.id) : undefined);
  return (
    <section aria-labelledby="kb-form-title" className="sb-section sb-kb-form">
      <h3 id="kb-form-title">{editingId ? "编辑知识" : "新建知识"}</h3>
      <form method="post" {...getFormProps(form)} className="sb-form-grid">
        <CsrfInput />
        <input type="hidden" name="intent" value="node.save" />
        {editingId ? <input type="hidden" name="id" value={editingId} /> : null}
        <FormErrors id={form.errorId} errors={form.errors} />
        <Field field={fields.groupId} label="分组">
          <select {...getSelectProps(fields.groupId)} className={inputClass(fields.groupId)}>
            <option value="">请选择</option>
            {groups.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name}
              </option>
            ))}
          </select>
        </Field>
        <Field field={fields.state} label="状态">
          <select {...getSelectProps(fields.state)} className={inputClass(fields.state)}>
            {KNOWLEDGE_STATES.map((s) => (
              <option key={s.code} value={s.code}>
                {s.label}
              </option>
            ))}
          </select>
        </Field>
        <div className="sb-kb-wide">
          <Field field={fields.question} label="问题">
            <input
              {...getInputProps(fields.question, { type: "text" })}
              maxLength={KNOWLEDGE_QUESTION_MAX}
              className={inputClass(fields.question)}
            />
          </Field>
        </div>
        <div className="sb-kb-wide">
          <Field field={fields.answer} label="答案（坐席的快捷回复内容）">
            <textarea
              {...getTextareaProps(fields.answer)}
              rows={4}
              maxLength={KNOWLEDGE_ANSWER_MAX}
              className={`p-inputtextarea ${inputClass(fields.answer)}`}
            />
          </Field>
        </div>
        <div className="sb-kb-wide">
          <Field field={fields.labels} label="标签（以逗号、顿号或空格分隔）">
            <input {...getInputProps(fields.labels, { type: "text" })} className={inputClass(fields.labels)} />
          </Field>
        </div>
        <div className="sb-form-actions">
          <button type="submit" className="p-button">
            保存
          </button>
          <a className="p-button p-button-text" href={screenHref(query, { page: query.page > 1 ? query.page : undefined })}>
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
