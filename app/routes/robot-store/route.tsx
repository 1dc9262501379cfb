import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import type { StoreItem } from "#contracts/robot-resources";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import { FilterBar } from "#app/components/filters";
import type { RouteHandle } from "#app/lib/handle";
import { ROBOT_RESOURCE_TITLES } from "#app/lib/screens";
import { requireAccess } from "#app/server/access.server";
import { ListPageSchema, pagination, parseListQuery } from "#app/server/page-query.server";
import { listStore } from "#app/services/robot-resources.server";

const SCREEN = "/robot/store";
const title = ROBOT_RESOURCE_TITLES.store;
export const handle: RouteHandle = { title };

const QuerySchema = ListPageSchema.extend({ name: z.string().trim().max(30).optional() });

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const query = parseListQuery(request, QuerySchema) as z.infer<typeof QuerySchema>;
  return { query, store: await listStore(caller, { ...pagination(query), name: query.name }) };
}

/** The versions the tenant published to the market (上架 on a flow's page); read-only here. */
export default function RobotStore() {
  const { query, store } = useLoaderData<typeof loader>();
  const { pathname, search } = useLocation();
  return (
    <Screen title={title}>
      <FilterBar label="搜索流程市场" search resetHref={SCREEN}>
        <div className="sb-field">
          <label htmlFor="store-search">按流程名称搜索</label>
          <input id="store-search" name="name" type="search" maxLength={30} defaultValue={query.name ?? ""} className="p-inputtext" />
        </div>
      </FilterBar>
      <DataTable<StoreItem>
        caption="已上架的流程版本"
        rowKey="versionId"
        emptyMessage="暂无已上架的流程版本"
        config={{
          list: store.list,
          total: store.total,
          eleItem: [
            { prop: "flowName", label: "流程", render: (s) => <a href={`/robot/flow/${s.flowId}`}>{s.flowName}</a> },
            { prop: "version", label: "版本" },
            { prop: "description", label: "说明", type: "content", maxChars: 30 },
            { prop: "nodeCount", label: "节点数" },
            { prop: "inService", label: "使用中", render: (s) => (s.inService ? "是" : "否") },
            { prop: "publishedAt", label: "发布时间", type: "datetime", minWidth: 150 },
          ],
        }}
      />
      <Paginator total={store.total} pageNo={query.page} pageSize={query.size} pathname={pathname} search={search} />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
