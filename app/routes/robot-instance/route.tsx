import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import type { RobotInstance } from "#contracts/robot";
import { FilterSelect, namedChoices } from "#app/components/code-select";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Paginator } from "#app/components/paginator";
import { RobotCampaigns } from "#app/components/robot-campaigns";
import { Screen } from "#app/components/screen";
import { FilterBar } from "#app/components/filters";
import type { RouteHandle } from "#app/lib/handle";
import { ROBOT_TITLES } from "#app/lib/screens";
import { requireAccess } from "#app/server/access.server";
import { ListPageSchema, pagination, parseListQuery } from "#app/server/page-query.server";
import { listFlowChoices, listRobotPage } from "#app/services/robot.server";

const title = ROBOT_TITLES.instances;
export const handle: RouteHandle = { title };

const QuerySchema = ListPageSchema.extend({
  name: z.string().trim().max(64, "机器人名称不能超过64个字符").optional(),
  flowId: z.coerce.number().int().positive("流程无效").optional(),
});

/** The tenant's robots (design §9's list: GET filters, page links); each opens its own page. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const query = parseListQuery(request, QuerySchema) as z.infer<typeof QuerySchema>;
  const [robots, flows] = await Promise.all([
    listRobotPage(caller, { ...pagination(query), name: query.name || undefined, flowId: query.flowId }),
    listFlowChoices(caller),
  ]);
  return { query, robots, flows };
}

export default function RobotInstances() {
  const { query, robots, flows } = useLoaderData<typeof loader>();
  const { pathname, search } = useLocation();
  return (
    <Screen title={title}>
      <FilterBar label="搜索机器人" search resetHref={pathname}>
        <div className="sb-field">
          <label htmlFor="robot-search">按名称搜索</label>
          <input id="robot-search" name="name" type="search" maxLength={64} defaultValue={query.name ?? ""} className="p-inputtext" />
        </div>
        <FilterSelect id="robot-flow" name="flowId" label="运行的流程" table={namedChoices(flows)} value={query.flowId} />
      </FilterBar>
      <DataTable<RobotInstance>
        caption="机器人列表"
        rowKey="id"
        emptyMessage="暂无机器人"
        config={{
          list: robots.list,
          total: robots.total,
          eleItem: [
            { prop: "name", label: "机器人名称", render: (r) => <a href={`/robot/instance/${r.id}`}>{r.name}</a> },
            {
              prop: "flowName",
              label: "运行的流程",
              render: (r) => (r.flowName ? `${r.flowName}${r.published ? "" : "（流程未发布）"}` : "未设置"),
            },
            { prop: "flowVersionName", label: "版本", render: (r) => r.flowVersionName ?? "—" },
            { prop: "concurrency", label: "并发数" },
            { prop: "queueName", label: "转人工队列", render: (r) => r.queueName ?? "未分配" },
            { prop: "callerNumber", label: "主叫号码", render: (r) => r.callerNumber ?? "—" },
            { prop: "campaigns", label: "使用它的活动", render: (r) => <RobotCampaigns campaigns={r.campaigns} /> },
            {
              prop: "id",
              label: "操作",
              render: (r) => (
                <a href={`/robot/instance/${r.id}`} aria-label={`编辑「${r.name}」`}>
                  编辑
                </a>
              ),
            },
          ],
        }}
      />
      <Paginator total={robots.total} pageNo={query.page} pageSize={query.size} pathname={pathname} search={search} />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
