import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import type { AuditEntry } from "#contracts/audit";
import { AUDIT_ACTIONS, AUDIT_TARGETS, labelOf } from "#contracts/codes";
import { CodeSelect } from "#app/components/code-select";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { FilterBar } from "#app/components/filters";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { idCursors } from "#app/lib/list-url";
import { SCREEN_TITLES } from "#app/lib/screens";
import { requireAccess } from "#app/server/access.server";
import { KeysetPageSchema, pagination, parseListQuery } from "#app/server/page-query.server";
import { listAuditLog } from "#app/services/audit.server";

const title = SCREEN_TITLES["/audit"];
export const handle: RouteHandle = { title };

const day = z.string().date("日期格式不正确").optional();
const QuerySchema = KeysetPageSchema.extend({
  action: z.string().max(64).optional(),
  targetType: z.string().max(32).optional(),
  keyword: z.string().trim().max(64, "关键字不能超过64个字符").optional(),
  from: day,
  to: day,
});

/** A China Standard Time day as the instants it spans (the tenant's zone). */
const dayStart = (date: string) => `${date}T00:00:00+08:00`;
const nextDayStart = (date: string) => new Date(new Date(dayStart(date)).getTime() + 86_400_000).toISOString();

export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const query = parseListQuery(request, QuerySchema);
  const page = await listAuditLog(access.caller, {
    ...pagination(query),
    action: query.action,
    targetType: query.targetType,
    keyword: query.keyword,
    from: query.from ? dayStart(query.from) : undefined,
    to: query.to ? nextDayStart(query.to) : undefined,
    after: query.after === undefined ? undefined : Number(query.after),
    before: query.before === undefined ? undefined : Number(query.before),
  });
  return { query, page };
}

export default function AuditLog() {
  const { query, page } = useLoaderData<typeof loader>();
  const { pathname, search } = useLocation();
  return (
    <Screen title={title}>
      <FilterBar label="筛选操作日志" size={query.size} resetHref={pathname}>
        <CodeSelect id="filter-action" name="action" label="操作" table={AUDIT_ACTIONS} defaultValue={query.action ?? ""} empty="全部" />
        <CodeSelect
          id="filter-target"
          name="targetType"
          label="对象"
          table={AUDIT_TARGETS}
          defaultValue={query.targetType ?? ""}
          empty="全部"
        />
        <div className="sb-field">
          <label htmlFor="filter-keyword">关键字</label>
          <input id="filter-keyword" name="keyword" className="p-inputtext" defaultValue={query.keyword ?? ""} maxLength={64} />
        </div>
        <div className="sb-field">
          <label htmlFor="filter-from">开始日期</label>
          <input id="filter-from" name="from" type="date" className="p-inputtext" defaultValue={query.from ?? ""} />
        </div>
        <div className="sb-field">
          <label htmlFor="filter-to">结束日期</label>
          <input id="filter-to" name="to" type="date" className="p-inputtext" defaultValue={query.to ?? ""} />
        </div>
      </FilterBar>
      <DataTable<AuditEntry>
        caption="操作日志"
        rowKey="id"
        config={{
          list: page.list,
          total: page.total,
          eleItem: [
            { prop: "at", label: "时间", type: "datetime", minWidth: 150 },
            { prop: "actorName", label: "操作人" },
            { prop: "action", label: "操作", render: (e) => labelOf(AUDIT_ACTIONS, e.action, e.action) },
            {
              prop: "targetType",
              label: "对象",
              render: (e) => `${labelOf(AUDIT_TARGETS, e.targetType, e.targetType)}${e.targetId ? ` ${e.targetId}` : ""}`,
            },
            { prop: "summary", label: "内容", type: "content" },
            { prop: "reason", label: "原因", render: (e) => e.reason ?? "—" },
          ],
        }}
      />
      <Paginator
        total={page.total}
        estimated={page.estimated}
        pageNo={query.page}
        pageSize={query.size}
        pathname={pathname}
        search={search}
        cursors={idCursors(page.list)}
      />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
