import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { CAMPAIGN_STATES, CAMPAIGN_TYPES, SCHEDULE_CYCLES, labelOf } from "../../../contracts/codes";
import { CampaignListQuerySchema } from "../../../contracts/outbound";
import { requireAccess } from "../../access.server";
import { GeneralErrorBoundary } from "../../components/error-boundary";
import { CodeSelect } from "../../components/code-select";
import { FilterBar } from "../../components/filters";
import { CodeTag, OutboundTable, PageLinks, formatTime } from "../../components/outbound-table";
import { Screen } from "../../components/screen";
import type { RouteHandle } from "../../lib/handle";
import { parseListQuery } from "../../lib/page-query";
import { CAMPAIGN_TITLES } from "../../lib/screens";
import { listManagedCampaigns } from "../../services/outbound.server";

export const handle: RouteHandle = { title: CAMPAIGN_TITLES.list };

export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const query = parseListQuery(request, CampaignListQuerySchema);
  return { query, page: await listManagedCampaigns(access.caller, query) };
}

export default function CampaignList() {
  const { query, page } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <Screen
      title={CAMPAIGN_TITLES.list}
      actions={
        <a className="p-button" href="/campaign/new">
          新建活动
        </a>
      }
    >
      <FilterBar label="筛选活动">
        <div className="sb-field">
          <label htmlFor="filter-name">活动名称</label>
          <input id="filter-name" name="name" className="p-inputtext" defaultValue={query.name ?? ""} maxLength={64} />
        </div>
        <CodeSelect id="filter-state" name="state" label="状态" table={CAMPAIGN_STATES} defaultValue={String(query.state ?? "")} empty="全部" />
        <CodeSelect id="filter-type" name="type" label="活动类型" table={CAMPAIGN_TYPES.filter((t) => t.code !== -1)} defaultValue={String(query.type ?? "")} empty="全部" />
      </FilterBar>
      <OutboundTable
        caption="外呼活动"
        rows={page.list}
        rowKey={(c) => c.id}
        columns={[
          { header: "活动名称", cell: (c) => <a href={`/campaign/${c.id}`}>{c.name}</a> },
          { header: "活动类型", cell: (c) => labelOf(CAMPAIGN_TYPES, c.type) },
          { header: "调度周期", cell: (c) => labelOf(SCHEDULE_CYCLES, c.cycle) },
          { header: "状态", cell: (c) => <CodeTag table={CAMPAIGN_STATES} code={c.state} /> },
          { header: "外呼比例", cell: (c) => c.ratio },
          { header: "批次数", cell: (c) => c.batchCount },
          { header: "已呼/名单", cell: (c) => `${c.callDone} / ${c.callTotal}` },
          { header: "创建时间", cell: (c) => formatTime(c.createdAt) },
        ]}
      />
      <PageLinks total={page.total} pageNo={query.pageNo} pageSize={query.pageSize} search={location.search} />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
