import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { HANDOFF_STATES, INTENT_LABELS, labelOf } from "../../../contracts/codes";
import { TransCallQuerySchema } from "../../../contracts/outbound";
import { requireAccess } from "../../access.server";
import { GeneralErrorBoundary } from "../../components/error-boundary";
import { CodeSelect } from "../../components/code-select";
import { FilterBar } from "../../components/filters";
import { CodeTag, OutboundTable, PageLinks, formatTime } from "../../components/outbound-table";
import { Screen } from "../../components/screen";
import type { RouteHandle } from "../../lib/handle";
import { parseListQuery } from "../../lib/page-query";
import { SCREEN_TITLES } from "../../lib/screens";
import { listHandoffs } from "../../services/outbound.server";
import { maskPhone } from "../../lib/format";

const title = SCREEN_TITLES["/manMachine/coordination"];
export const handle: RouteHandle = { title };

/** Human-machine collaborative outbound: robot calls waiting for, handed to, or lost by a human. */
export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const query = parseListQuery(request, TransCallQuerySchema);
  return { query, page: await listHandoffs(access.caller, query) };
}

export default function Coordination() {
  const { query, page } = useLoaderData<typeof loader>();
  const location = useLocation();
  return (
    <Screen title={title}>
      <FilterBar label="筛选转人工记录">
        <CodeSelect id="filter-state" name="state" label="转人工状态" table={HANDOFF_STATES} defaultValue={String(query.state ?? "")} empty="全部" />
      </FilterBar>
      <OutboundTable
        caption="转人工记录"
        rows={page.list}
        rowKey={(h) => h.id}
        columns={[
          { header: "手机号码", cell: (h) => maskPhone(h.phone) },
          { header: "活动", cell: (h) => h.campaignName },
          { header: "客户意向", cell: (h) => labelOf(INTENT_LABELS, h.intent, "—") },
          { header: "状态", cell: (h) => <CodeTag table={HANDOFF_STATES} code={h.state} /> },
          { header: "接听坐席", cell: (h) => h.agentName ?? "—" },
          { header: "时间", cell: (h) => formatTime(h.createdAt) },
        ]}
      />
      <PageLinks total={page.total} pageNo={query.pageNo} pageSize={query.pageSize} search={location.search} />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
