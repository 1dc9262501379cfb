import { useState } from "react";
import type { ChatBusinessRecord } from "#contracts/chat";
import { CALL_RESULTS, CHAT_BUSINESS_CATEGORIES } from "#contracts/codes";
import { CodeSelect } from "#app/components/code-select";
import type { WorkbenchSession } from "#app/client/chat-sessions";
import { postAction } from "#app/client/island";
import { formatDateTime } from "#app/lib/chat-format";
import { maskPhone } from "#app/lib/format";
import { CHAT_ACTIONS } from "./endpoints";

/** Beside the open session: who the customer is, and the business record of the session. */
export function ContactCard({ session }: { session: WorkbenchSession }) {
  const { customer } = session;
  return (
    <section className="sb-chat-card" aria-labelledby="sb-chat-card-title">
      <h2 id="sb-chat-card-title" className="sb-chat-heading">
        客户名片
      </h2>
      <dl>
        <dt>姓名</dt>
        <dd>{customer.name}</dd>
        <dt>手机号</dt>
        <dd>{maskPhone(customer.phone)}</dd>
        <dt>来源渠道</dt>
        <dd>{customer.channel}</dd>
        <dt>所在地区</dt>
        <dd>{customer.region}</dd>
        <dt>会话开始</dt>
        <dd>
          <time dateTime={session.createdAt}>{formatDateTime(session.createdAt)}</time>
        </dd>
      </dl>
    </section>
  );
}

export function BusinessRecordForm(props: {
  csrf: string;
  sessionId: string;
  record: ChatBusinessRecord | null;
  onSaved: (record: ChatBusinessRecord) => void;
}) {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  return (
    <form
      className="sb-chat-record sb-form"
      aria-labelledby="sb-chat-record-title"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        setSaving(true);
        const answer = await postAction<ChatBusinessRecord>(CHAT_ACTIONS, props.csrf, "record", {
          sessionId: props.sessionId,
          category: String(form.get("category") ?? ""),
          result: String(form.get("result") ?? ""),
          remark: String(form.get("remark") ?? ""),
        });
        setSaving(false);
        if (answer.ok) {
          props.onSaved(answer.result);
          setMessage({ ok: true, text: "业务记录已保存" });
        } else setMessage({ ok: false, text: answer.error });
      }}
    >
      <h2 id="sb-chat-record-title" className="sb-chat-heading">
        业务记录
      </h2>
      <CodeSelect
        id="sb-record-category"
        name="category"
        label="业务类型"
        table={CHAT_BUSINESS_CATEGORIES}
        defaultValue={props.record?.category ?? ""}
        empty="请选择"
        required
      />
      <CodeSelect
        id="sb-record-result"
        name="result"
        label="处理结果"
        table={CALL_RESULTS}
        defaultValue={String(props.record?.result ?? 0)}
      />
      <div className="sb-field">
        <label htmlFor="sb-record-remark">备注</label>
        <textarea
          id="sb-record-remark"
          name="remark"
          className="p-inputtextarea p-inputtext"
          rows={3}
          maxLength={500}
          defaultValue={props.record?.remark ?? ""}
        />
      </div>
      {message ? (
        <p className={message.ok ? "sb-chat-saved" : "p-error"} role={message.ok ? "status" : "alert"}>
          {message.text}
        </p>
      ) : null}
      <button type="submit" className="p-button p-button-sm" disabled={saving}>
        保存业务记录
      </button>
    </form>
  );
}
