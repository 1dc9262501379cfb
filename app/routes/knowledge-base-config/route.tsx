import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { KNOWLEDGE_STATES } from "#contracts/codes";
import type { KnowledgeNode } from "#contracts/knowledge";
import { CodeSelect } from "#app/components/code-select";
import { CodeLabel } from "#app/components/code-tag";
import { ConfirmStep } from "#app/components/confirm";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { FilterBar, Notice } from "#app/components/filters";
import { firstError } from "#app/components/form-field";
import { refusalOf } from "#app/components/intent-form";
import { Paginator } from "#app/components/paginator";
import { PostButton } from "#app/components/row-actions";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { requireAccess, requireUploadAccess } from "#app/server/access.server";
import { attempt, parseIntent, rejectForm } from "#app/server/forms.server";
import { parseListQuery } from "#app/server/page-query.server";
import { importKnowledgeNodes } from "#app/services/knowledge.server";
import { KnowledgeGaps } from "./gaps";
import { GroupPanel } from "./groups";
import { SCREEN, screenHref } from "./href";
import { KnowledgeImport } from "./import";
import { changeGroup, changeNodes, importResult, loadKnowledge, type Posted } from "./knowledge.server";
import { NodeActions } from "./node-actions";
import { NodeForm } from "./node-form";
import { KnowledgeScreenQuerySchema, type KnowledgeScreenQuery } from "./query.server";
import { INTENT_SCHEMAS, NodeImportSchema } from "./schema";

const title = SCREEN_TITLES[SCREEN];
export const handle: RouteHandle = { title };

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  return loadKnowledge(caller, parseListQuery(request, KnowledgeScreenQuerySchema) as KnowledgeScreenQuery);
}

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
  const { submission } = parseIntent(form, INTENT_SCHEMAS, "知识库配置");
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const posted: Posted = {
    caller: access.caller,
    current,
    back: screenHref(current, { page: current.page && current.page > 1 ? current.page : undefined }),
    refuse: (errors, status) => rejectForm(submission, errors, status),
  };
  switch (input.intent) {
    case "group.create":
    case "group.rename":
    case "group.delete":
      return changeGroup(posted, input);
    case "node.save":
    case "node.state":
    case "node.delete":
    case "node.batchDelete":
      return changeNodes(posted, input);
    case "node.import":
      return importResult(posted, input, imported);
  }
}

export default function KnowledgeBaseConfig() {
  const { query, groups, group, nodes, gaps, editing } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  const refusal = refusalOf(result);
  const refusedIntent = refusal?.initialValue?.intent;
  const errorOf = (intent: string) => (refusedIntent === intent ? firstError(refusal!) : null);
  const confirm = result && "confirm" in result ? result.confirm : undefined;
  const imported = result && "imported" in result ? result.imported : undefined;
  const showForm = query.edit !== undefined || refusedIntent === "node.save";
  const deleting = confirm?.intent === "group.delete" ? groups.find((g) => String(g.id) === confirm.fields.groupId) : undefined;
  const nodeError = errorOf("node.state") ?? errorOf("node.delete") ?? errorOf("node.batchDelete");

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
        <GroupPanel groups={groups} group={group} query={query} result={result} errorOf={errorOf} />

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
              <CodeSelect
                id="kb-state"
                name="state"
                label="状态"
                table={KNOWLEDGE_STATES}
                defaultValue={String(query.state ?? "")}
                empty="全部"
              />
            </FilterBar>

            {showForm ? (
              <NodeForm groups={groups} query={query} editing={editing} refusal={refusedIntent === "node.save" ? refusal : undefined} />
            ) : null}

            {nodeError ? <Notice tone="error">{nodeError}</Notice> : null}
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
                  { prop: "question", label: "问题", minWidth: 150, render: (n) => <strong>{n.question}</strong> },
                  { prop: "answer", label: "答案（快捷回复内容）", type: "content", maxChars: 40, minWidth: 200 },
                  { prop: "labels", label: "标签", render: (n) => (n.labels.length ? n.labels.join("、") : "—") },
                  ...(group ? [] : [{ prop: "groupName" as const, label: "分组", type: "code" as const }]),
                  { prop: "state", label: "状态", render: (n) => <CodeLabel table={KNOWLEDGE_STATES} code={n.state} /> },
                  { prop: "usageCount", label: "使用次数" },
                  { prop: "updatedAt", label: "更新时间", type: "datetime", minWidth: 150 },
                  { prop: "id", label: "操作", render: (n) => <NodeActions node={n} query={query} /> },
                ],
              }}
            />
            {/* Below the rows it acts on, away from the form's 保存 above the list. */}
            <PostButton
              formId="kb-batch"
              formClassName="sb-table-toolbar"
              fields={{ intent: "node.batchDelete" }}
              label="批量删除所选"
              className="p-button p-button-danger p-button-outlined"
            />
            <Paginator total={nodes.total} pageNo={query.page} pageSize={query.size} pathname={pathname} search={search} />
          </section>

          <KnowledgeImport groups={groups} groupId={String(query.group ?? "")} result={result} imported={imported} />
          <KnowledgeGaps gaps={gaps} newHref={screenHref(query, { edit: "new" })} />
        </div>
      </div>
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
