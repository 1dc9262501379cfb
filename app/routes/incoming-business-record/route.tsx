import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { CALL_RESULTS, INTENT_LABELS, labelOf, toneOf } from "#contracts/codes";
import { PAGE_SIZES } from "#contracts/envelope";
import { BusinessRecordFilterSchema } from "#contracts/workbench";
import { requireAccess } from "#app/server/access.server";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { maskPhone } from "#app/lib/format";
import { listInboundBusinessRecords } from "#app/services/workbench.server";

const title = SCREEN_TITLES["/incoming/businessRecord"];
export const handle: RouteHandle = { title };

/** The business records (conclusions) agents saved on inbound calls: a no-JS list with GET filters. */
export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const params = Object.fromEntries([...new URL(request.url).searchParams].filter(([, value]) => value !== ""));
  const filter = BusinessRecordFilterSchema.safeParse(params);
  if (!filter.success) throw data({ message: "查询条件不正确，请检查后重试", status: 400, what: "查询" }, { status: 400 });
  const page = await listInboundBusinessRecords(access.caller, filter.data);
  const pages = Math.max(1, Math.ceil(page.total / filter.data.pageSize));
  if (filter.data.pageNo > pages) throw data({ message: "页码超出范围", status: 404, what: "查询" }, { status: 404 });
  return { ...page, filter: filter.data, pages };
}

export default function Page() {
  const { list, total, filter, pages } = useLoaderData<typeof loader>();
  const linkTo = (pageNo: number) => {
    const params = new URLSearchParams();
    if (filter.phone) params.set("phone", filter.phone);
    if (filter.callResult !== undefined) params.set("callResult", String(filter.callResult));
    params.set("pageSize", String(filter.pageSize));
    params.set("pageNo", String(pageNo));
    return `?${params}`;
  };
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
        <input type="hidden" name="pageSize" value={filter.pageSize} />
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
                  <td>{r.workOrderId ? "已关联" : "—"}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      <nav className="p-paginator p-component sb-list-pager" aria-label="分页">
        <span className="p-paginator-current">共 {total} 条</span>
        {filter.pageNo > 1 ? (
          <Link className="p-paginator-prev" to={linkTo(filter.pageNo - 1)}>
            上一页
          </Link>
        ) : null}
        <span>
          第 {filter.pageNo} / {pages} 页
        </span>
        {filter.pageNo < pages ? (
          <Link className="p-paginator-next" to={linkTo(filter.pageNo + 1)}>
            下一页
          </Link>
        ) : null}
        <span>每页</span>
        {PAGE_SIZES.map((size) => (
          <Link key={size} to={`?pageSize=${size}`} aria-current={size === filter.pageSize ? "page" : undefined}>
            {size}
          </Link>
        ))}
      </nav>
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
