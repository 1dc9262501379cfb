import type { LoaderFunctionArgs } from "@remix-run/node";
import { Form, useLoaderData, useLocation } from "@remix-run/react";
import { CALL_RESULTS, INTENT_LABELS, labelOf, toneOf } from "#contracts/codes";
import { DEFAULT_PAGE_SIZE } from "#contracts/envelope";
import { BusinessRecordFilterSchema } from "#contracts/workbench";
import { requireAccess } from "#app/server/access.server";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import { ListPageSchema, pagination, parseListQuery } from "#app/server/page-query.server";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { maskPhone } from "#app/lib/format";
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
      <Form method="get" className="sb-filters" aria-label="筛选">
        <label htmlFor="filter-phone">客户电话</label>
        <input
          id="filter-phone"
          name="phone"
          className="p-inputtext p-component"
          defaultValue={filter.phone ?? ""}
          maxLength={20}
          inputMode="tel"
        />
        <label htmlFor="filter-result">通话结果</label>
        <select id="filter-result" name="callResult" className="p-inputtext p-component" defaultValue={filter.callResult ?? ""}>
          <option value="">全部</option>
          {CALL_RESULTS.map((r) => (
            <option key={r.code} value={r.code}>
              {r.label}
            </option>
          ))}
        </select>
        {filter.size === DEFAULT_PAGE_SIZE ? null : <input type="hidden" name="size" value={filter.size} />}
        <button type="submit" className="p-button p-component">
          查询
        </button>
      </Form>
      <div className="p-datatable p-component">
        <table className="p-datatable-table" aria-label={title}>
          <thead className="p-datatable-thead">
            <tr>
              <th>保存时间</th>
              <th>客户电话</th>
              <th>通话结果</th>
              <th>意向标签</th>
              <th>备注</th>
              <th>处理坐席</th>
              <th>工单</th>
            </tr>
          </thead>
          <tbody className="p-datatable-tbody">
            {list.length === 0 ? (
              <tr>
                <td colSpan={7}>暂无数据</td>
              </tr>
            ) : (
              list.map((r) => (
                <tr key={r.id}>
                  <td>{new Date(r.createdAt).toLocaleString("zh-CN", { timeZone: "Asia/Shanghai" })}</td>
                  <td>{maskPhone(r.phone)}</td>
                  <td>
                    <span
                      className={`p-tag p-tag-${toneOf(CALL_RESULTS, r.callResult) === "none" ? "info" : toneOf(CALL_RESULTS, r.callResult)}`}
                    >
                      {labelOf(CALL_RESULTS, r.callResult)}
                    </span>
                  </td>
                  <td>{r.intent ? labelOf(INTENT_LABELS, r.intent) : "—"}</td>
                  <td>{r.remark || "—"}</td>
                  <td>{r.agentName}</td>
                  <td>{r.workOrderId ? <a href={`${workOrders}/${r.workOrderId}`}>查看工单</a> : "—"}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <Paginator total={total} pageNo={filter.page} pageSize={filter.size} pathname={pathname} search={search} />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
