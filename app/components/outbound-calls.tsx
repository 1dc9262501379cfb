import { useLocation } from "@remix-run/react";
import { CALL_STATUSES, hangupPartyLabel } from "#contracts/codes";
import type { TaskCall } from "#contracts/outbound";
import { maskPhone } from "#app/lib/format";
import { idCursors } from "#app/lib/list-url";
import { CodeLabel } from "./code-tag";
import { CodeSelect } from "./code-select";
import { DataTable } from "./data-table";
import { FilterBar } from "./filters";
import { Paginator } from "./paginator";

type CallPage = { list: TaskCall[]; total: number; estimated?: boolean };

/**
 * Calls with their states and hang-up parties (a batch, an agent's task, business records), paged
 * by keyset: prev and next seek from this page's first and last call.
 */
export function CallTable({
  caption,
  calls,
  pageNo,
  pageSize,
  pathname,
  search,
}: {
  caption: string;
  calls: CallPage;
  pageNo: number;
  pageSize: number;
  pathname: string;
  search: string;
}) {
  const rows = calls.list;
  return (
    <>
      <DataTable<TaskCall>
        caption={caption}
        rowKey="id"
        config={{
          list: rows,
          total: calls.total,
          eleItem: [
            { prop: "phone", label: "手机号码", render: (c) => maskPhone(c.phone) },
            { prop: "customerName", label: "客户姓名" },
            { prop: "status", label: "呼叫状态", render: (c) => <CodeLabel table={CALL_STATUSES} code={c.status} /> },
            { prop: "hangupParty", label: "挂机方", render: (c) => (c.hangupParty === null ? "-" : hangupPartyLabel(c.hangupParty)) },
            { prop: "attempts", label: "呼叫次数" },
            { prop: "agentName", label: "坐席" },
            { prop: "skipReason", label: "跳过原因" },
            { prop: "updatedAt", label: "更新时间", type: "datetime", minWidth: 150 },
          ],
        }}
      />
      <Paginator
        total={calls.total}
        estimated={calls.estimated}
        pageNo={pageNo}
        pageSize={pageSize}
        pathname={pathname}
        search={search}
        cursors={idCursors(rows)}
      />
    </>
  );
}

/** A GET filter by call status, kept in the URL. */
export function CallStatusFilter({ status, size }: { status: number | undefined; size: number }) {
  const { pathname } = useLocation();
  return (
    <FilterBar label="筛选呼叫" size={size} resetHref={pathname}>
      <CodeSelect
        id="filter-status"
        name="status"
        label="呼叫状态"
        table={CALL_STATUSES}
        defaultValue={String(status ?? "")}
        empty="全部"
      />
    </FilterBar>
  );
}
