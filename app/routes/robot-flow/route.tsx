import { getFormProps, getInputProps, useForm } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { FLOW_VERSION_STATES, codesOf } from "#contracts/codes";
import { FLOW_NAME_MAX, FlowNewInputSchema, type FlowSummary } from "#contracts/robot";
import { FilterSelect } from "#app/components/code-select";
import { CodeLabel } from "#app/components/code-tag";
import { CsrfInput } from "#app/components/csrf-input";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Field, inputClass } from "#app/components/form-field";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import { FilterBar } from "#app/components/filters";
import type { RouteHandle } from "#app/lib/handle";
import { ROBOT_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { pageParam, pagination, parseListQuery, sizeParam } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import { createFlow, listFlows } from "#app/services/robot.server";

const title = ROBOT_TITLES.flows;
export const handle: RouteHandle = { title };

const QuerySchema = z.object({
  name: z.string().trim().max(FLOW_NAME_MAX).optional(),
  state: z.coerce
    .number()
    .int()
    .refine((n) => codesOf(FLOW_VERSION_STATES).includes(n))
    .optional(),
  page: pageParam,
  size: sizeParam,
});
const NewFlowSchema = FlowNewInputSchema.extend({ intent: z.literal("flow.create") });

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const query = parseListQuery(request, QuerySchema) as z.infer<typeof QuerySchema>;
  const flows = await listFlows(caller, { ...pagination(query), name: query.name, state: query.state });
  return { query, flows };
}

export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const submission = parseWithZod(form, { schema: NewFlowSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const { intent: _intent, ...input } = submission.value;
  const done = await attempt(() => createFlow(access.caller, input));
  if (!done.ok) return rejectForm(submission, { fieldErrors: { name: [done.message] } }, done.status);
  return redirectWithToast(`/robot/flow/${done.value.id}/design`, `流程「${done.value.name}」已创建，请设计草稿 v1.0`);
}

export default function RobotFlows() {
  const { query, flows } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  const [form, fields] = useForm({ id: "flow-new", lastResult });
  return (
    <Screen title={title}>
      <section aria-labelledby="flow-new-title" className="sb-section">
        <h2 id="flow-new-title" className="sb-section-title">
          新建流程
        </h2>
        <form method="post" {...getFormProps(form)} className="sb-inline-forms">
          <CsrfInput />
          <input type="hidden" name="intent" value="flow.create" />
          <Field field={fields.name} label="流程名称">
            <input
              {...getInputProps(fields.name, { type: "text" })}
              required
              maxLength={FLOW_NAME_MAX}
              className={inputClass(fields.name)}
            />
          </Field>
          <Field field={fields.description} label="说明">
            <input {...getInputProps(fields.description, { type: "text" })} maxLength={200} className={inputClass(fields.description)} />
          </Field>
          <button type="submit" className="p-button">
            新建
          </button>
        </form>
      </section>

      <section aria-labelledby="flow-list-title" className="sb-section">
        <h2 id="flow-list-title" className="sb-section-title">
          流程列表
        </h2>
        <FilterBar label="搜索流程" search resetHref="/robot/flow">
          <div className="sb-field">
            <label htmlFor="flow-search">按名称搜索</label>
            <input
              id="flow-search"
              name="name"
              type="search"
              maxLength={FLOW_NAME_MAX}
              defaultValue={query.name ?? ""}
              className="p-inputtext"
            />
          </div>
          <FilterSelect id="flow-state" name="state" label="含有状态的版本" table={FLOW_VERSION_STATES} value={query.state} />
        </FilterBar>
        <DataTable<FlowSummary>
          caption="流程列表"
          rowKey="id"
          emptyMessage="暂无流程"
          config={{
            list: flows.list,
            total: flows.total,
            eleItem: [
              { prop: "name", label: "流程名称", render: (f) => <a href={`/robot/flow/${f.id}`}>{f.name}</a> },
              { prop: "description", label: "说明", type: "content", maxChars: 30 },
              { prop: "serviceVersion", label: "使用中的版本", render: (f) => f.serviceVersion ?? "未发布" },
              {
                prop: "working",
                label: "工作区",
                render: (f) =>
                  f.working ? (
                    <>
                      {f.working.name} <CodeLabel table={FLOW_VERSION_STATES} code={f.working.state} />
                    </>
                  ) : (
                    "—"
                  ),
              },
              { prop: "versionCount", label: "版本数" },
              { prop: "robotCount", label: "机器人数" },
              { prop: "updatedAt", label: "更新时间", type: "datetime", minWidth: 150 },
              {
                prop: "id",
                label: "操作",
                render: (f) => (
                  <div className="sb-row-actions">
                    <a href={`/robot/flow/${f.id}`} aria-label={`「${f.name}」的版本`}>
                      版本
                    </a>
                    <a href={`/robot/flow/${f.id}/design`} aria-label={`设计「${f.name}」`}>
                      设计
                    </a>
                  </div>
                ),
              },
            ],
          }}
        />
        <Paginator total={flows.total} pageNo={query.page} pageSize={query.size} pathname={pathname} search={search} />
      </section>
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
