import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { CALL_RESULTS, INTENT_LABELS, labelOf } from "#contracts/codes";
import { DEFAULT_PAGE_SIZE } from "#contracts/envelope";
import { BusinessRecordFilterSchema } from "#contracts/workbench";
import { requireAccess } from "#app/server/access.server";
import { CodeLabel } from "#app/components/code-tag";
import { CodeSelect } from "#app/components/code-select";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { FilterBar } from "#app/components/filters";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import { ListPageSchema, pagination, parseListQuery } from "#app/server/page-query.server";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { maskPhone } from "#app/lib/format";
import { recordHref } from "#app/lib/list-url";
import { listInboundBusinessRecords } from "#app/services/workbench.server";

const title = SCREEN_TITLES["/incoming/businessRecord"];
export const handle: RouteHandle = { title };

/** The business records (conclusions) agents saved on inbound calls: a no-JS list with GET filters. */
export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const query = parseListQuery(request, QuerySchema);
  const page = await listInboundBusinessRecords(access.caller, { phone: query.phone, callResult: query.callResult, ...pagination(query) });
  // Agents open their work orders on their own screen, supervisors and administrators on the records screen.
  const workOrders = access.user.role === "agent" ? "/agentTask/workOrder" : "/businessTemplate/record";
  return { ...page, query, workOrders };
}

/** The list's URL: the filters and the shared pagination (`page`, `size`; spec §9). */
const QuerySchema = ListPageSchema.merge(BusinessRecordFilterSchema.pick({ phone: true, callResult: true }));

export default function Page() {
  const { list, total, query: filter, workOrders } = useLoaderData<typeof loader>();
  const { pathname, search } = useLocation();
  return (
    <Screen title={title}>
      <FilterBar label="筛选" resetHref={pathname} size={filter.size === DEFAULT_PAGE_SIZE ? undefined : filter.size}>
        <div className="sb-field">
          <label htmlFor="filter-phone">客户电话</label>
          <input
            id="filter-phone"
            name="phone"
            className="p-inputtext p-component"
            defaultValue={filter.phone ?? ""}
            maxLength={20}
            inputMode="tel"
          />
        </div>
        <CodeSelect
          id="filter-result"
          name="callResult"
          label="通话结果"
          table={CALL_RESULTS}
          defaultValue={String(filter.callResult ?? "")}
          empty="全部"
        />
      </FilterBar>
      <DataTable
        caption={title}
        rowKey="id"
        config={{
          list,
          total,
          eleItem: [
            { prop: "createdAt", label: "保存时间", type: "datetime" },
            { prop: "phone", label: "客户电话", render: (r) => maskPhone(r.phone) },
            { prop: "callResult", label: "通话结果", render: (r) => <CodeLabel table={CALL_RESULTS} code={r.callResult} /> },
            { prop: "intent", label: "意向标签", render: (r) => (r.intent ? labelOf(INTENT_LABELS, r.intent) : "—") },
            { prop: "remark", label: "备注", type: "content" },
            { prop: "agentName", label: "处理坐席" },
            {
              prop: "workOrderId",
              label: "操作",
              // The call's detail opens over the inbound history (a record saved while its call was on has none yet).
              render: (r) =>
                r.callId || r.workOrderId ? (
                  <span className="sb-row-actions">
                    {r.callId ? (
                      <a href={recordHref("/incoming/history", r.callId)} aria-label={`查看 ${maskPhone(r.phone)} 的通话详情`}>
                        查看通话
                      </a>
                    ) : null}
                    {r.workOrderId ? <a href={`${workOrders}/${r.workOrderId}`}>查看工单</a> : null}
                  </span>
                ) : (
                  "—"
                ),
            },
          ],
        }}
      />
      <Paginator total={total} pageNo={filter.page} pageSize={filter.size} pathname={pathname} search={search} />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
