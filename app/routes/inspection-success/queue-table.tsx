import type { ReactNode } from "react";
import { useLocation } from "@remix-run/react";
import {
  INTENT_LABELS,
  QC_APPEAL_STATES,
  QC_CHECKING,
  QC_INFLUENCES,
  QUALITY_CHECK_STATUSES,
  toneOf,
  type CodeTable,
} from "#contracts/codes";
import { INSPECTION_NOTIFICATIONS, QC_LOCK_MINUTES, type InspectionPage, type InspectionRow } from "#contracts/inspection";
import { STREAM_STATUS_LABELS } from "#app/client/use-event-stream";
import { CodeLabel } from "#app/components/code-tag";
import { DataTable } from "#app/components/data-table";
import { Paginator } from "#app/components/paginator";
import { formatDateTime, formatDuration, maskPhone } from "#app/lib/format";
import type { InspectionScreenQuery } from "./query.server";
import { SCREEN } from "./queue";

/**
 * The page of calls, live for an inspector when the stream's start is known (the queue's script
 * updates the marked cells), with its pages and the time the data was read.
 */
export function QueueTable({
  page,
  query,
  inspector,
  userId,
  startId,
  selected,
  emptyMessage,
  cursors,
  asOf,
}: {
  page: InspectionPage;
  query: InspectionScreenQuery;
  inspector: boolean;
  userId: number;
  startId: number | null;
  /** The rows ticked before a refusal. */
  selected: string[];
  emptyMessage: string;
  cursors: { first: string; last: string } | undefined;
  asOf: number;
}) {
  const { pathname, search } = useLocation();
  return (
    <div data-qc-live={inspector && startId !== null ? liveConfig({ startId, userId, query }) : undefined}>
      <DataTable<InspectionRow>
        caption="质检通话列表"
        rowKey="callId"
        selectionForm={inspector ? "qc-bulk" : undefined}
        selected={selected}
        emptyMessage={emptyMessage}
        config={{
          list: page.list,
          total: page.total,
          attributes: { selection: inspector },
          eleItem: [
            { prop: "callTime", label: "呼叫时间", type: "datetime", minWidth: 150 },
            { prop: "phone", label: "电话号码", render: (r) => maskPhone(r.phone) },
            { prop: "agentName", label: "坐席", render: (r) => r.agentName ?? "—" },
            { prop: "campaignName", label: "活动", render: (r) => r.campaignName ?? "—" },
            { prop: "callDuration", label: "时长", render: (r) => formatDuration(r.callDuration) },
            { prop: "intent", label: "意向", render: (r) => (r.intent ? <CodeLabel table={INTENT_LABELS} code={r.intent} /> : "—") },
            {
              prop: "qcStatus",
              label: "质检状态",
              render: (r) => (
                <Live call={r} field="status">
                  <CodeLabel table={QUALITY_CHECK_STATUSES} code={r.qcStatus} />
                </Live>
              ),
            },
            {
              prop: "influence",
              label: "影响",
              render: (r) => (
                <Live call={r} field="influence">
                  {r.influence === null ? "—" : <CodeLabel table={QC_INFLUENCES} code={r.influence} />}
                </Live>
              ),
            },
            {
              prop: "score",
              label: "得分",
              render: (r) => (
                <Live call={r} field="score">
                  {r.score === null ? "—" : r.score}
                </Live>
              ),
            },
            {
              prop: "inspectorName",
              label: "质检员",
              render: (r) => (
                <Live call={r} field="inspector">
                  {r.inspectorName ?? "—"}
                </Live>
              ),
            },
            {
              prop: "appealState",
              label: "申诉",
              render: (r) => (
                <Live call={r} field="appeal">
                  {r.appealState ? <CodeLabel table={QC_APPEAL_STATES} code={r.appealState} /> : "—"}
                </Live>
              ),
            },
            {
              prop: "callId",
              label: "操作",
              render: (r) => {
                const verb = r.qcStatus === QC_CHECKING && r.inspectorId === userId ? "质检" : "查看";
                return (
                  <a href={`${SCREEN}/${r.callId}`} aria-label={`${verb}通话 ${r.callId}`} data-call={r.callId} data-qc="action">
                    {verb}
                  </a>
                );
              },
            },
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
        cursors={cursors}
      />
      <p className="sb-hint">
        数据时间：<span data-qc="asOf">{formatDateTime(asOf)}</span>。领取的通话锁定 {QC_LOCK_MINUTES} 分钟，超时未提交自动退回待质检。
        {inspector ? <span data-qc="stream" role="status" /> : null}
      </p>
    </div>
  );
}

/** A cell the live queue's script updates in place (app/client/inspection-queue.js). */
function Live({ call, field, children }: { call: InspectionRow; field: string; children: ReactNode }) {
  return (
    <span data-call={call.callId} data-qc={field}>
      {children}
    </span>
  );
}

const tags = <C extends string | number>(table: CodeTable<C>) =>
  Object.fromEntries(table.map((c) => [c.code, [c.label, toneOf(table, c.code) === "none" ? "secondary" : toneOf(table, c.code)]]));

/**
 * What the live queue's script needs, in the markup (so no rule or text is written twice): where
 * its stream starts, whose queue it is, the filter on inspection state (a call entering or leaving
 * it reloads the list), and the labels and tones of the codes it shows.
 */
function liveConfig({ startId, userId, query }: { startId: number; userId: number; query: InspectionScreenQuery }) {
  return JSON.stringify({
    stream: `${SCREEN}/events`,
    type: INSPECTION_NOTIFICATIONS.calls,
    startId,
    userId,
    checking: QC_CHECKING,
    filter: { qcStatus: query.qcStatus ?? null, mine: query.mine === "1", appealState: query.appealState ?? null },
    status: tags(QUALITY_CHECK_STATUSES),
    influence: tags(QC_INFLUENCES),
    appeal: tags(QC_APPEAL_STATES),
    streamLabels: { ...STREAM_STATUS_LABELS, prefix: "实时更新：" },
    verbs: { score: "质检", view: "查看", call: "通话" },
  });
}
