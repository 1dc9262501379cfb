import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { BATCH_STATUSES, CAMPAIGN_TYPES, labelOf } from "../../../contracts/codes";
import { PaginationSchema } from "../../../contracts/envelope";
import { requireAccess } from "../../access.server";
import { GeneralErrorBoundary } from "../../components/error-boundary";
import { CodeTag, OutboundTable, PageLinks, formatTime } from "../../components/outbound-table";
import { Screen } from "../../components/screen";
import type { RouteHandle } from "../../lib/handle";
import { parseListQuery } from "../../lib/page-query";
import { SCREEN_TITLES } from "../../lib/screens";
import { listMyTasks } from "../../services/outbound.server";

const title = SCREEN_TITLES["/agentTask/my"];
export const handle: RouteHandle = { title };

/** My tasks: the batches that hold contacts assigned to me. */
export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const query = parseListQuery(request, PaginationSchema);
  return { query, page: await listMyTasks(access.caller, query) };
}

export default function MyTasks() {
  const { query, page } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <Screen title={title}>
      <OutboundTable
        caption={title}
        rows={page.list}
        rowKey={(b) => b.id}
        empty="暂无分配给您的任务"
        columns={[
          { header: "任务", cell: (b) => <a href={`/agentTask/${b.id}`}>{b.name}</a> },
          { header: "活动", cell: (b) => b.campaignName },
          { header: "活动类型", cell: (b) => labelOf(CAMPAIGN_TYPES, b.campaignType) },
          { header: "状态", cell: (b) => <CodeTag table={BATCH_STATUSES} code={b.status} /> },
          { header: "待呼", cell: (b) => b.open },
          { header: "创建时间", cell: (b) => formatTime(b.createdAt) },
        ]}
      />
      <PageLinks total={page.total} pageNo={query.pageNo} pageSize={query.pageSize} search={location.search} />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
