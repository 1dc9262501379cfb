import type { CodeTable } from "#contracts/codes";
import type { Transition } from "#contracts/outbound";
import { CodeLabel } from "#app/components/code-tag";
import { DataTable, type Column } from "#app/components/data-table";
import { maskPhone } from "#app/lib/format";

/** A history of state moves, newest first. */
export function TransitionList({
  caption,
  transitions,
  table,
  withPhone = false,
}: {
  caption: string;
  transitions: Transition[];
  table: CodeTable<number>;
  withPhone?: boolean;
}) {
  const columns: Array<Column<Transition> | false> = [
    { prop: "at", label: "时间", type: "datetime", minWidth: 150 },
    withPhone && { prop: "phone", label: "手机号码", render: (t) => (t.phone ? maskPhone(t.phone) : "-") },
    { prop: "fromStatus", label: "原状态", render: (t) => <CodeLabel table={table} code={t.fromStatus} /> },
    { prop: "toStatus", label: "新状态", render: (t) => <CodeLabel table={table} code={t.toStatus} /> },
    { prop: "reason", label: "原因" },
  ];
  return (
    <DataTable<Transition>
      caption={caption}
      rowKey="id"
      emptyMessage="暂无记录"
      config={{ list: transitions, total: transitions.length, eleItem: columns.filter((c): c is Column<Transition> => c !== false) }}
    />
  );
}
