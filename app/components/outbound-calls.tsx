import { CALL_STATUSES, hangupPartyLabel } from "../../contracts/codes";
import type { TaskCall } from "../../contracts/outbound";
import { CodeSelect } from "./code-select";
import { FilterBar } from "./filters";
import { CodeTag, OutboundTable, formatTime } from "./outbound-table";
import { maskPhone } from "../lib/format";

/** Calls with their states and hang-up parties (agents' screens). */
export function CallTable({ caption, calls }: { caption: string; calls: TaskCall[] }) {
  return (
    <OutboundTable
      caption={caption}
      rows={calls}
      rowKey={(c) => c.id}
      columns={[
        { header: "手机号码", cell: (c) => maskPhone(c.phone) },
        { header: "客户姓名", cell: (c) => c.customerName ?? "—" },
        { header: "呼叫状态", cell: (c) => <CodeTag table={CALL_STATUSES} code={c.status} /> },
        { header: "挂机方", cell: (c) => (c.hangupParty === null ? "—" : hangupPartyLabel(c.hangupParty)) },
        { header: "呼叫次数", cell: (c) => c.attempts },
        { header: "坐席", cell: (c) => c.agentName ?? "—" },
        { header: "跳过原因", cell: (c) => c.skipReason ?? "—" },
        { header: "更新时间", cell: (c) => formatTime(c.updatedAt) },
      ]}
    />
  );
}

/** A GET filter by call status, kept in the URL. */
export function CallStatusFilter({ status }: { status: number | undefined }) {
  return (
    <FilterBar label="筛选呼叫">
      <CodeSelect id="filter-status" name="status" label="呼叫状态" table={CALL_STATUSES} defaultValue={String(status ?? "")} empty="全部" />
    </FilterBar>
  );
}
