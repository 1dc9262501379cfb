import type { LoaderFunctionArgs } from "@remix-run/node";
import { Outlet, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { ROLES, WORK_TYPES, codesOf, labelOf } from "#contracts/codes";
import { QUEUE_NAME_MAX, type Agent } from "#contracts/config";
import { FilterSelect, nameChoices } from "#app/components/code-select";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice, FilterBar } from "#app/components/filters";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { ROBOT_RESOURCE_TITLES } from "#app/lib/screens";
import { requireAccess } from "#app/server/access.server";
import { ListPageSchema, pagination, parseListQuery } from "#app/server/page-query.server";
import { listAgents, listQueues } from "#app/services/config.server";
import { listSearch } from "./list-search";

const SCREEN = "/robot/agent";
const title = ROBOT_RESOURCE_TITLES.agents;
export const handle: RouteHandle = { title };

const QuerySchema = ListPageSchema.extend({
  name: z.string().trim().max(30, "姓名或工号不能超过30个字符").optional(),
  workType: z.coerce
    .number()
    .int()
    .refine((code) => codesOf(WORK_TYPES).includes(code), "类型无效")
    .optional(),
  queueName: z.string().trim().max(QUEUE_NAME_MAX).optional(),
});

/** The tenant's agents (design §9's list: GET filters, page links); each opens its edit form below the filters. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const query = parseListQuery(request, QuerySchema) as z.infer<typeof QuerySchema>;
  const filters = { name: query.name || undefined, workType: query.workType, queueName: query.queueName || undefined };
  const [first, queues] = await Promise.all([listAgents(caller, { ...pagination(query), ...filters }), listQueues(caller)]);
  // A page past the last (an old link, a list that shrank) shows the last page, saying so.
  const last = Math.max(1, Math.ceil(first.total / query.size));
  if (first.list.length > 0 || query.page <= last) return { query, agents: first, queues, missingPage: null };
  const agents = await listAgents(caller, { ...pagination({ ...query, page: last }), ...filters });
  return { query: { ...query, page: last }, agents, queues, missingPage: query.page };
}

export default function RobotAgents() {
  const { query, agents, queues, missingPage } = useLoaderData<typeof loader>();
  const search = listSearch(useLocation().search);
  // An agent's edit link keeps the list's filters and page, so saving comes back to the same list.
  const editHref = (agent: Agent) => `${SCREEN}/${agent.id}${search}`;
  return (
    <Screen title={title}>
      <Outlet />
      <section aria-labelledby="agent-list-title" className="sb-section">
        <h2 id="agent-list-title" className="sb-section-title">
          坐席列表
        </h2>
        <FilterBar label="搜索坐席" action={SCREEN} search resetHref={SCREEN}>
          <div className="sb-field">
            <label htmlFor="agent-search">姓名或工号</label>
            <input id="agent-search" name="name" type="search" maxLength={30} defaultValue={query.name ?? ""} className="p-inputtext" />
          </div>
          <FilterSelect id="agent-type" name="workType" label="类型" table={WORK_TYPES} value={query.workType} />
          <FilterSelect
            id="agent-queue"
            name="queueName"
            label="默认队列"
            table={nameChoices(queues.map((q) => q.name))}
            value={query.queueName}
          />
        </FilterBar>
        {missingPage ? (
          <Notice tone="info">
            第 {missingPage} 页不存在，已显示最后一页（第 {query.page} 页）
          </Notice>
        ) : null}
        <DataTable<Agent>
          caption="坐席列表"
          rowKey="id"
          emptyMessage="暂无坐席"
          config={{
            list: agents.list,
            total: agents.total,
            eleItem: [
              { prop: "realName", label: "姓名", render: (a) => <a href={editHref(a)}>{a.realName}</a> },
              { prop: "agentId", label: "工号", type: "code" },
              { prop: "userName", label: "账号" },
              { prop: "role", label: "角色", render: (a) => labelOf(ROLES, a.role) },
              { prop: "workType", label: "类型", render: (a) => labelOf(WORK_TYPES, a.workType) },
              { prop: "defaultQueueName", label: "默认队列", type: "code" },
              { prop: "autoAnswer", label: "自动应答", render: (a) => (a.autoAnswer ? "开启" : "关闭") },
              {
                prop: "id",
                label: "操作",
                render: (a) => (
                  <a href={editHref(a)} aria-label={`编辑坐席「${a.realName}」`}>
                    编辑
                  </a>
                ),
              },
            ],
          }}
        />
        <Paginator total={agents.total} pageNo={query.page} pageSize={query.size} pathname={SCREEN} search={search} />
      </section>
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
