import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { BATCH_STATUSES, CAMPAIGN_TYPES, labelOf } from "#contracts/codes";
import type { Batch } from "#contracts/outbound";
import { requireAccess, requireMenuUrl } from "#app/server/access.server";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { CodeLabel } from "#app/components/code-tag";
import { DataTable } from "#app/components/data-table";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { ListPageSchema, pagination, parseListQuery } from "#app/server/page-query.server";
import { SCREEN_TITLES } from "#app/lib/screens";
import { listMyTasks } from "#app/services/outbound.server";

const title = SCREEN_TITLES["/agentTask/my"];
export const handle: RouteHandle = { title };

/** My tasks: the batches that hold contacts assigned to me. */
export async function loader({ request }: LoaderFunctionArgs) {
  // Text agents have 我的工单 under /agentTask, not their outbound tasks.
  const access = requireMenuUrl(await requireAccess(request), "/agentTask/my");
  const query = parseListQuery(request, ListPageSchema);
  return { query, page: await listMyTasks(access.caller, pagination(query)) };
}

export default function MyTasks() {
  const { query, page } = useLoaderData<typeof loader>();
  const { pathname, search } = useLocation();
  return (
    <Screen title={title}>
      <DataTable<Batch>
        caption={title}
        rowKey="id"
        emptyMessage="暂无分配给您的任务"
        config={{
          list: page.list,
          total: page.total,
          eleItem: [
            { prop: "name", label: "任务", render: (b) => <a href={`/agentTask/${b.id}`}>{b.name}</a> },
            { prop: "campaignName", label: "活动" },
            { prop: "campaignType", label: "活动类型", render: (b) => labelOf(CAMPAIGN_TYPES, b.campaignType) },
            { prop: "status", label: "状态", render: (b) => <CodeLabel table={BATCH_STATUSES} code={b.status} /> },
            { prop: "open", label: "待呼" },
            { prop: "createdAt", label: "创建时间", type: "datetime", minWidth: 150 },
          ],
        }}
      />
      <Paginator total={page.total} pageNo={query.page} pageSize={query.size} pathname={pathname} search={search} />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
