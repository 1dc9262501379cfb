import { useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { INTENT_LABELS, QC_INFLUENCES, QUALITY_CHECK_STATUSES } from "#contracts/codes";
import { Conversation } from "#app/components/call-conversation";
import { CodeLabel } from "#app/components/code-tag";
import { formatDateTime, formatDuration, maskPhone } from "#app/lib/format";
import { LIST } from "./scoring";
import type { loadScoring } from "./scoring.server";

/** The call inspected: its facts, its callbacks, and its recording and dialogue (the call detail's player). */
export function CallFacts() {
  const { inspection, call, callbacks, customer, user } = useLoaderData<typeof loadScoring>();
  const { row } = inspection;
  const facts: Array<[string, ReactNode]> = [
    ["电话号码", maskPhone(row.phone)],
    ["客户", customer.customerName ?? "—"],
    ["呼叫时间", formatDateTime(row.callTime)],
    ["坐席", row.agentName ?? "—"],
    ["活动", row.campaignName ?? "—"],
    ["通话时长", formatDuration(row.callDuration)],
    ["意向标签", row.intent ? <CodeLabel key="i" table={INTENT_LABELS} code={row.intent} /> : "—"],
    ["通话结论", call.attachData.conclusion ?? "—"],
    ["质检状态", <CodeLabel key="s" table={QUALITY_CHECK_STATUSES} code={row.qcStatus} />],
    ["影响", row.influence === null ? "—" : <CodeLabel key="f" table={QC_INFLUENCES} code={row.influence} />],
    ["质检员", row.inspectorName ?? "—"],
    ["质检得分", row.score === null ? "—" : `${row.score} 分`],
    ["质检备注", row.remark ?? "—"],
  ];
  return (
    <section className="sb-section" aria-labelledby="qc-call-title">
      <h2 id="qc-call-title" className="sb-section-title">
        通话内容
      </h2>
      <dl className="sb-detail-facts">
        {facts.map(([label, value]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <h3>回拨记录</h3>
      {callbacks.length > 0 ? (
        <ul className="sb-qc-callbacks">
          {callbacks.map((c) => (
            <li key={c.callId}>
              {formatDateTime(c.callTime)} {c.agentName ?? "—"} {formatDuration(c.callDuration)} {c.callResultName}
            </li>
          ))}
        </ul>
      ) : (
        <p className="sb-muted">该通话没有回拨记录。</p>
      )}
      {call.callingResults.length > 0 ? (
        <Conversation
          key={call.callId}
          callingResults={call.callingResults}
          recordingHref={`${LIST}/${row.callId}/recording`}
          hasRecording={call.hasRecording}
          agentId={user.id}
        />
      ) : (
        <p className="sb-muted">该通话未接通，暂无通话内容。</p>
      )}
    </section>
  );
}
