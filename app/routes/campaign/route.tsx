import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { CAMPAIGN_STATES, CAMPAIGN_TYPES, SCHEDULE_CYCLES, labelOf } from "#contracts/codes";
import type { CampaignSummary } from "#contracts/outbound";
import { requireAccess } from "#app/server/access.server";
import { CodeLabel } from "#app/components/code-tag";
import { CodeSelect } from "#app/components/code-select";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { FilterBar } from "#app/components/filters";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { ListPageSchema, pagination, parseListQuery } from "#app/server/page-query.server";
import { CAMPAIGN_TITLES } from "#app/lib/screens";
import { listManagedCampaigns } from "#app/services/outbound.server";

export const handle: RouteHandle = { title: CAMPAIGN_TITLES.list };

const QuerySchema = ListPageSchema.extend({
  name: z.string().trim().max(64).optional(),
  state: z.coerce.number().int().optional(),
  type: z.coerce.number().int().optional(),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const query = parseListQuery(request, QuerySchema);
  return {
    query,
    page: await listManagedCampaigns(access.caller, { ...pagination(query), name: query.name, state: query.state, type: query.type }),
  };
}

export default function CampaignList() {
  const { query, page } = useLoaderData<typeof loader>();
  const { pathname, search } = useLocation();
  return (
    <Screen
      title={CAMPAIGN_TITLES.list}
      actions={
        <a className="p-button" href="/campaign/new">
          新建活动
        </a>
      }
    >
      <FilterBar label="筛选活动" size={query.size} resetHref={pathname}>
        <div className="sb-field">
          <label htmlFor="filter-name">活动名称</label>
          <input id="filter-name" name="name" className="p-inputtext" defaultValue={query.name ?? ""} maxLength={64} />
        </div>
        <CodeSelect
          id="filter-state"
          name="state"
          label="状态"
          table={CAMPAIGN_STATES}
          defaultValue={String(query.state ?? "")}
          empty="全部"
        />
        <CodeSelect
          id="filter-type"
          name="type"
          label="活动类型"
          table={CAMPAIGN_TYPES.filter((t) => t.code !== -1)}
          defaultValue={String(query.type ?? "")}
          empty="全部"
        />
      </FilterBar>
      <DataTable<CampaignSummary>
        caption="外呼活动"
        rowKey="id"
        config={{
          list: page.list,
          total: page.total,
          eleItem: [
            { prop: "name", label: "活动名称", render: (c) => <a href={`/campaign/${c.id}`}>{c.name}</a> },
            { prop: "type", label: "活动类型", render: (c) => labelOf(CAMPAIGN_TYPES, c.type) },
            { prop: "cycle", label: "调度周期", render: (c) => labelOf(SCHEDULE_CYCLES, c.cycle) },
            { prop: "state", label: "状态", render: (c) => <CodeLabel table={CAMPAIGN_STATES} code={c.state} /> },
            { prop: "ratio", label: "外呼比例" },
            { prop: "batchCount", label: "批次数" },
            { prop: "callDone", label: "已呼/名单", render: (c) => `${c.callDone} / ${c.callTotal}` },
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
