import { useEffect, useRef } from "react";
import { CALL_ORIGIN_LABELS, CALL_RESULTS, CUSTOMER_ROLE, DIALOG_ROLES, GENDERS, INTENT_LABELS, labelOf } from "#contracts/codes";
import type { PhoneSnapshot } from "#contracts/cti";
import { formatDateTime, maskPhone } from "#app/lib/format";
import { WorkOrderCard } from "#app/components/work-order-form";
import { PHONE_ENDPOINT } from "./types";
import type { WorkbenchData } from "./types";

/** The screen pop of the current call: customer, live transcript, script, previous record, work order. */
export function ScreenPop({ phone, pop }: { phone: PhoneSnapshot; pop: WorkbenchData["pop"] }) {
  const call = phone.call;
  const transcriptEnd = useRef<HTMLLIElement>(null);
  // A block body: newer browsers return a promise from scrollIntoView, which must not become the cleanup.
  useEffect(() => {
    transcriptEnd.current?.scrollIntoView({ block: "nearest" });
  }, [call?.transcript.length]);
  if (!call) {
    return (
      <section className="sb-wb-card" aria-label="来电信息">
        <h2>来电信息</h2>
        <p>{phone.agent.state === "READY" ? "等待来电…" : "就绪后即可接听来电"}</p>
      </section>
    );
  }
  const current = pop?.ctiCallId === call.ctiCallId ? pop : null;
  const contact = current?.contact;
  return (
    <>
      <section className="sb-wb-card" aria-label="客户信息">
        <h2>客户信息</h2>
        <dl>
          <dt>客户</dt>
          <dd data-testid="customer-name">{contact?.name ?? (current ? "未知客户" : "加载中…")}</dd>
          <dt>电话</dt>
          <dd>{maskPhone(call.phone)}</dd>
          <dt>来源</dt>
          <dd>{labelOf(CALL_ORIGIN_LABELS, call.origin)}</dd>
          {contact ? (
            <>
              <dt>性别</dt>
              <dd>{labelOf(GENDERS, contact.gender)}</dd>
              <dt>公司</dt>
              <dd>{contact.company ?? "—"}</dd>
              <dt>标签</dt>
              <dd>{contact.tags.join("、") || "—"}</dd>
              <dt>备注</dt>
              <dd>{contact.remark ?? "—"}</dd>
            </>
          ) : null}
          {current?.campaign ? (
            <>
              <dt>外呼活动</dt>
              <dd>{current.campaign.name}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <section className="sb-wb-card" aria-label="对话记录">
        <h2>对话记录</h2>
        {call.transcript.length === 0 ? (
          <p>暂无对话</p>
        ) : (
          <ol className="sb-transcript">
            {call.transcript.map((line) => (
              <li key={line.segmentId} className={line.thisRole === CUSTOMER_ROLE ? "sb-transcript-customer" : undefined}>
                <small>{labelOf(DIALOG_ROLES, line.thisRole)}</small>
                {line.dialogContent}
              </li>
            ))}
            <li ref={transcriptEnd} hidden />
          </ol>
        )}
      </section>
      {current?.flow ? (
        <section className="sb-wb-card" aria-label="服务话术">
          <h2>服务话术 · {current.flow.flowName}</h2>
          <ol>
            {current.flow.steps.map((step) => (
              <li key={step.title}>
                <strong>{step.title}</strong>：{step.content}
              </li>
            ))}
          </ol>
        </section>
      ) : null}
      {current?.previous ? (
        <section className="sb-wb-card" aria-label="上次业务记录">
          <h2>上次业务记录</h2>
          <dl>
            <dt>通话结果</dt>
            <dd>{labelOf(CALL_RESULTS, current.previous.callResult)}</dd>
            <dt>意向</dt>
            <dd>{current.previous.intent ? labelOf(INTENT_LABELS, current.previous.intent) : "—"}</dd>
            <dt>备注</dt>
            <dd>{current.previous.remark || "—"}</dd>
            <dt>处理坐席</dt>
            <dd>{current.previous.agentName}</dd>
            <dt>时间</dt>
            <dd>{formatDateTime(Date.parse(current.previous.createdAt))}</dd>
          </dl>
        </section>
      ) : null}
      <WorkOrderCard
        key={call.ctiCallId}
        endpoint={PHONE_ENDPOINT}
        link={{ ctiCallId: call.ctiCallId }}
        linked={current?.workOrder ?? null}
        templates={current?.templates ?? []}
      />
    </>
  );
}
