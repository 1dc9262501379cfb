import { useEffect, useState } from "react";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import { postAction, readJson } from "#app/client/island";
import { PHONE_ENDPOINT } from "./types";
import type { SmsCardData } from "./workbench.server";

/** The platform's answer to a send or its preview (types only: no schema reaches the browser). */
type SmsAnswer = {
  queued: number;
  rejected: Array<{ reason: string }>;
  preview: Array<{ text: string; length: number; segments: number }>;
};
type Preview = { text: string; length: number; segments: number } | { refused: string };

/**
 * An SMS to the customer of the call being concluded (during the call and after it, until the
 * conclusion is saved): an approved template, its text filled for this customer and counted by the
 * platform, sent on the agent's word. The message goes to the tenant's SMS outbox.
 */
export function SmsCard({ call }: { call: { ctiCallId: string; phone: string } }) {
  const csrf = useAuthenticityToken();
  const [data, setData] = useState<SmsCardData | null>(null);
  const [failed, setFailed] = useState(false);
  const [templateId, setTemplateId] = useState("");
  const [preview, setPreview] = useState<Preview | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);

  // Read again on 重试: the console or the platform may have been out for a moment (a restart, a failover).
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setFailed(false);
    void readJson<{ sms?: SmsCardData | null }>(PHONE_ENDPOINT, { sms: call.ctiCallId }).then((answer) => {
      if (!live) return;
      if (answer?.sms) setData(answer.sms);
      else setFailed(true);
    });
    return () => {
      live = false;
    };
  }, [call.ctiCallId, attempt]);

  const post = (id: string, preview: boolean) =>
    postAction<{ sms?: SmsAnswer }>(PHONE_ENDPOINT, csrf, "sms", {
      templateId: id,
      contactId: String(data?.contact?.id ?? ""),
      preview: preview ? "1" : "0",
    });

  const choose = async (id: string) => {
    setTemplateId(id);
    setPreview(null);
    setError(null);
    setSent(null);
    if (!id) return;
    setBusy(true);
    const answer = await post(id, true);
    setBusy(false);
    if (!answer.ok) return setError(answer.error);
    const result = answer.result.sms;
    const first = result?.preview[0];
    setPreview(first ?? { refused: result?.rejected[0]?.reason ?? "无法生成短信内容" });
  };

  const send = async () => {
    setBusy(true);
    setError(null);
    const answer = await post(templateId, false);
    setBusy(false);
    if (!answer.ok) return setError(answer.status === 0 ? "网络已断开，短信未发送" : answer.error);
    const result = answer.result.sms;
    if (!result || result.queued === 0) return setError(result?.rejected[0]?.reason ?? "短信未发送");
    setSent("短信已提交发送，发送结果见短信发送记录");
    setTemplateId("");
    setPreview(null);
  };

  let body;
  if (failed)
    body = (
      <p>
        短信模板加载失败。{" "}
        <button type="button" className="p-button p-button-sm p-button-outlined" onClick={() => setAttempt((n) => n + 1)}>
          重试
        </button>
      </p>
    );
  else if (!data) body = <p>加载中…</p>;
  else if (!data.contact) body = <p>该号码不是联系人，不能发送短信。</p>;
  else if (data.templates.length === 0) body = <p>暂无审核通过的短信模板</p>;
  else
    body = (
      <>
        <p>发送给：{data.contact.name || "未填写姓名"}</p>
        <div className="sb-form-row">
          <label htmlFor="sms-template">短信模板（已审核通过）</label>
          <select
            id="sms-template"
            className="p-inputtext p-component"
            value={templateId}
            disabled={busy}
            onChange={(e) => void choose(e.target.value)}
          >
            <option value="">请选择</option>
            {/* Not CodeOptions: its chunk would weigh on this island (app/components/code-select.tsx). */}
            {data.templates.map((t) => (
              <option key={t.id} value={t.id}>
                {t.name}
              </option>
            ))}
          </select>
        </div>
        {preview && "text" in preview ? (
          <div data-testid="sms-preview">
            <p>{preview.text}</p>
            <p className="sb-hint">
              共 {preview.length} 字（含签名），按 {preview.segments} 条计费
            </p>
          </div>
        ) : preview ? (
          <p className="p-error">不能发送：{preview.refused}</p>
        ) : null}
        <button
          type="button"
          className="p-button p-button-sm p-button-outlined"
          disabled={busy || !preview || !("text" in preview)}
          onClick={() => void send()}
        >
          {busy && preview ? "发送中…" : "发送短信"}
        </button>
      </>
    );

  return (
    <section className="sb-wb-card" aria-label="发送短信">
      <h2>发送短信</h2>
      {body}
      {error ? (
        <p className="p-error" role="alert">
          {error}
        </p>
      ) : null}
      {sent ? <p role="status">{sent}</p> : null}
    </section>
  );
}
