import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { HANDOFF_STATES, INTENT_LABELS, labelOf } from "#contracts/codes";
import { z } from "zod";
import type { Handoff } from "#contracts/outbound";
import { requireAccess } from "#app/server/access.server";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { CodeSelect } from "#app/components/code-select";
import { FilterBar } from "#app/components/filters";
import { CodeLabel } from "#app/components/code-tag";
import { DataTable } from "#app/components/data-table";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { ListPageSchema, pagination, parseListQuery } from "#app/server/page-query.server";
import { SCREEN_TITLES } from "#app/lib/screens";
import { listHandoffs } from "#app/services/outbound.server";
import { maskPhone } from "#app/lib/format";

const title = SCREEN_TITLES["/manMachine/coordination"];
export const handle: RouteHandle = { title };

const QuerySchema = ListPageSchema.extend({ state: z.enum(["waiting", "handed", "lost"]).optional() });

/** Human-machine collaborative outbound: robot calls waiting for, handed to, or lost by a human. */
export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const query = parseListQuery(request, QuerySchema);
  return { query, page: await listHandoffs(access.caller, { ...pagination(query), state: query.state }) };
}

export default function Coordination() {
  const { query, page } = useLoaderData<typeof loader>();
  const { pathname, search } = useLocation();
  return (
    <Screen title={title}>
      <FilterBar label="筛选转人工记录" size={query.size} resetHref={pathname}>
        <CodeSelect
          id="filter-state"
          name="state"
          label="转人工状态"
          table={HANDOFF_STATES}
          defaultValue={String(query.state ?? "")}
          empty="全部"
        />
      </FilterBar>
      <DataTable<Handoff>
        caption="转人工记录"
        rowKey="id"
        config={{
          list: page.list,
          total: page.total,
          eleItem: [
            { prop: "phone", label: "手机号码", render: (h) => maskPhone(h.phone) },
            { prop: "campaignName", label: "活动" },
            { prop: "intent", label: "客户意向", render: (h) => labelOf(INTENT_LABELS, h.intent, "-") },
            { prop: "state", label: "状态", render: (h) => <CodeLabel table={HANDOFF_STATES} code={h.state} /> },
            { prop: "agentName", label: "接听坐席" },
            { prop: "createdAt", label: "时间", type: "datetime", minWidth: 150 },
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
