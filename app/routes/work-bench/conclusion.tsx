import { useEffect, useState, type FormEvent } from "react";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import { CALL_RESULTS, INTENT_LABELS } from "#contracts/codes";
import { BUSINESS_FIELDS } from "#contracts/workbench";
import { createConclusionOutbox, type ConclusionDraft, type ConclusionItem, type ConclusionOutbox } from "#app/client/conclusion-outbox";
import { isRetryable, postAction } from "#app/client/island";
import { OUTBOX_STATE_LABELS, type SendResult } from "#app/client/outbox";
import { maskPhone } from "#app/lib/format";
import { PHONE_ENDPOINT } from "./types";

/** Sends one queued conclusion and says whether to retry. */
async function sendConclusion(csrf: string, item: ConclusionItem): Promise<SendResult> {
  const { ctiCallId, phone, callResult, intent, remark, fields } = item.payload;
  const answer = await postAction(PHONE_ENDPOINT, csrf, "conclusion", {
    ctiCallId,
    phone,
    callResult,
    intentLabel: intent,
    remark,
    fields,
    idempotencyKey: item.key,
  });
  if (answer.ok) return { kind: "saved" };
  const message = answer.status === 0 ? "网络已断开，恢复后自动重试" : answer.error;
  return isRetryable(answer) ? { kind: "retry", message } : { kind: "refused", message };
}

/** One outbox per page (browser only), shared by the form and the status list. */
let pageOutbox: ConclusionOutbox | null = null;
export function sharedOutbox(csrf: string): ConclusionOutbox {
  pageOutbox ??= createConclusionOutbox({
    storage: window.localStorage,
    send: (item) => sendConclusion(csrf, item),
    newKey: () => crypto.randomUUID(),
  });
  return pageOutbox;
}
/** Whether the call's conclusion has been typed (a draft with anything in it) but not saved yet. */
export function hasUnsavedConclusion(outbox: ConclusionOutbox, ctiCallId: string | undefined): boolean {
  const draft = ctiCallId ? outbox.loadDraft(ctiCallId) : null;
  if (!draft) return false;
  return Boolean(
    draft.callResult !== "" || draft.intent || draft.remark.trim() || Object.values(draft.fields).some((v) => String(v).trim()),
  );
}

function useOutbox(): [ConclusionOutbox, ConclusionItem[]] {
  const csrf = useAuthenticityToken();
  const [outbox] = useState(() => sharedOutbox(csrf));
  const [items, setItems] = useState(outbox.items());
  useEffect(() => {
    const unsubscribe = outbox.subscribe(setItems);
    const timer = setInterval(() => void outbox.flush(), 2_000);
    const online = () => void outbox.flush(true);
    window.addEventListener("online", online);
    void outbox.flush();
    return () => {
      unsubscribe();
      clearInterval(timer);
      window.removeEventListener("online", online);
    };
  }, [outbox]);
  return [outbox, items];
}

export function OutboxPanel() {
  const [, items] = useOutbox();
  if (items.length === 0) return null;
  return (
    <section className="sb-wb-card" aria-label="结论发送状态">
      <h2>结论发送状态</h2>
      <ul className="sb-outbox" data-testid="outbox">
        {items
          .slice()
          .reverse()
          .slice(0, 5)
          .map((item) => (
            <li key={item.key} className={`sb-outbox-${item.state === "saved" ? "saved" : item.state === "failed" ? "failed" : "pending"}`}>
              <span>{maskPhone(item.payload.phone)}</span>
              <span>{OUTBOX_STATE_LABELS[item.state]}</span>
              {item.error && item.state !== "saved" ? <span>{item.error}</span> : null}
            </li>
          ))}
      </ul>
    </section>
  );
}

export function ConclusionForm({ call, onSubmitted }: { call: { ctiCallId: string; phone: string }; onSubmitted: () => void }) {
  const [outbox, items] = useOutbox();
  const empty: ConclusionDraft = { ctiCallId: call.ctiCallId, phone: call.phone, callResult: "", intent: "", remark: "", fields: {} };
  const [draft, setDraft] = useState<ConclusionDraft>(() => outbox.loadDraft(call.ctiCallId) ?? empty);
  const [problem, setProblem] = useState<string | null>(null);
  const submitted = items.some((i) => i.payload.ctiCallId === call.ctiCallId && i.state !== "failed");
  const change = (patch: Partial<ConclusionDraft>) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    outbox.saveDraft(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.callResult === "") return setProblem("请选择通话结果");
    setProblem(null);
    outbox.submit(draft);
    void outbox.flush(true);
    onSubmitted();
  };
  return (
    <>
      <form className="sb-wb-card" aria-label="通话结论" onSubmit={submit} noValidate>
        <h2>通话结论</h2>
        <fieldset className="sb-form-row" style={{ border: 0, padding: 0 }} disabled={submitted}>
          <legend>通话结果</legend>
          <div style={{ display: "flex", gap: "1rem" }}>
            {CALL_RESULTS.map((r) => (
              <label key={r.code}>
                <input
                  type="radio"
                  name="callResult"
                  value={r.code}
                  checked={draft.callResult === String(r.code)}
                  onChange={() => change({ callResult: String(r.code) })}
                />{" "}
                {r.label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="sb-form-row">
          <label htmlFor="intent-label">意向标签</label>
          <select
            id="intent-label"
            className="p-inputtext p-component"
            value={draft.intent}
            disabled={submitted}
            onChange={(e) => change({ intent: e.target.value })}
          >
            <option value="">未选择</option>
            {INTENT_LABELS.map((l) => (
              <option key={l.code} value={l.code}>
                {l.label}
              </option>
            ))}
          </select>
        </div>
        {BUSINESS_FIELDS.map((field) => (
          <div className="sb-form-row" key={field.name}>
            <label htmlFor={`field-${field.name}`}>{field.label}</label>
            <input
              id={`field-${field.name}`}
              className="p-inputtext p-component"
              type={field.name === "callbackDate" ? "date" : "text"}
              maxLength={200}
              value={draft.fields[field.name] ?? ""}
              disabled={submitted}
              onChange={(e) => change({ fields: { ...draft.fields, [field.name]: e.target.value } })}
            />
          </div>
        ))}
        <div className="sb-form-row">
          <label htmlFor="conclusion-remark">备注</label>
          <textarea
            id="conclusion-remark"
            className="p-inputtextarea p-inputtext p-component"
            rows={3}
            maxLength={500}
            value={draft.remark}
            disabled={submitted}
            onChange={(e) => change({ remark: e.target.value })}
          />
        </div>
        {problem ? (
          <p className="sb-phonebar-error" role="alert">
            {problem}
          </p>
        ) : null}
        <button type="submit" className="p-button p-button-sm" disabled={submitted}>
          保存结论
        </button>
      </form>
      <OutboxPanel />
    </>
  );
}
