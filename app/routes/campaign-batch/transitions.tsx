import type { CodeTable } from "../../../contracts/codes";
import type { Transition } from "../../../contracts/outbound";
import { CodeTag, OutboundTable, formatTime } from "../../components/outbound-table";
import { maskPhone } from "../../lib/format";

/** A history of state moves, newest first. */
export function TransitionList({ caption, transitions, table, withPhone = false }: { caption: string; transitions: Transition[]; table: CodeTable<number>; withPhone?: boolean }) {
  return (
    <OutboundTable
      caption={caption}
      rows={transitions}
      rowKey={(t) => t.id}
      empty="暂无记录"
      columns={[
        { header: "时间", cell: (t) => formatTime(t.at) },
        ...(withPhone ? [{ header: "手机号码", cell: (t: Transition) => (t.phone ? maskPhone(t.phone) : "—") }] : []),
        { header: "原状态", cell: (t) => (t.fromStatus === null ? "—" : <CodeTag table={table} code={t.fromStatus} />) },
        { header: "新状态", cell: (t) => <CodeTag table={table} code={t.toStatus} /> },
        { header: "原因", cell: (t) => t.reason },
      ]}
    />
  );
}
