import { useEffect, useRef, useState, type FormEvent } from "react";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import { CALL_ORIGIN_LABELS, CALL_RESULTS, INTENT_LABELS, labelOf } from "#contracts/codes";
import { BUSINESS_FIELDS } from "#contracts/workbench-live";
import { cstDate } from "#common/china-time";
import {
  createConclusionOutbox,
  type CallToConclude,
  type ConclusionDraft,
  type ConclusionItem,
  type ConclusionOutbox,
} from "#app/client/conclusion-outbox";
import { isRetryable, postAction } from "#app/client/island";
import { OUTBOX_STATE_LABELS, type SendResult } from "#app/client/outbox";
import { formatTime, maskPhone } from "#app/lib/format";
import { focusNext } from "./focus";
import { PHONE_ENDPOINT } from "./types";

/** Sends one queued conclusion and says whether to retry (the number stays here: the platform has the call's). */
async function sendConclusion(csrf: string, item: ConclusionItem): Promise<SendResult> {
  const { ctiCallId, callResult, intent, remark, fields } = item.payload;
  const answer = await postAction(PHONE_ENDPOINT, csrf, "conclusion", {
    ctiCallId,
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
  if (!pageOutbox) {
    const outbox = createConclusionOutbox({
      storage: window.localStorage,
      send: (item) => sendConclusion(csrf, item),
      newKey: () => crypto.randomUUID(),
    });
    // The agent's other tabs share the storage: what one of them opens, saves or sends shows here too.
    window.addEventListener("storage", (event) => {
      if (event.key === null || (outbox.sharedKeys as readonly string[]).includes(event.key)) outbox.refresh();
    });
    pageOutbox = outbox;
  }
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

/** What names a call to the agent: its number as shown, when it started, how it came. */
export function callTitle(call: CallToConclude): string {
  return `${maskPhone(call.phone)} · ${formatTime(Date.parse(call.startedAt))} · ${labelOf(CALL_ORIGIN_LABELS, call.origin)}`;
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

/** The calls whose result is still to be written (browser storage: read once hydrated), oldest first. */
export function useCallsToConclude(): CallToConclude[] {
  const csrf = useAuthenticityToken();
  const [calls, setCalls] = useState<CallToConclude[]>([]);
  useEffect(() => {
    const outbox = sharedOutbox(csrf);
    setCalls(outbox.openCalls());
    return outbox.subscribeCalls(setCalls);
  }, [csrf]);
  return calls;
}

/** What the agent sees of what was sent: the last few results, each named by its call, and any to correct. */
export function OutboxPanel() {
  const [outbox, items] = useOutbox();
  if (items.length === 0) return null;
  return (
    <section className="sb-wb-card" aria-label="结论发送状态">
      <h2>结论发送状态</h2>
      <ul className="sb-outbox" data-testid="outbox">
        {/* What is still on its way or refused first, then the latest saved. */}
        {[...items.filter((i) => i.state !== "saved"), ...items.filter((i) => i.state === "saved").reverse()].slice(0, 5).map((item) => {
          const state = item.state === "saved" ? "saved" : item.state === "failed" ? "failed" : "pending";
          return (
            <li key={item.key} className={`sb-outbox-${state}`}>
              <span>{item.payload.startedAt ? callTitle(item.payload as CallToConclude) : maskPhone(item.payload.phone)}</span>
              <span>{OUTBOX_STATE_LABELS[item.state]}</span>
              {item.error && item.state !== "saved" ? <span>{item.error}</span> : null}
              {item.state === "failed" ? (
                <button
                  type="button"
                  className="p-button p-button-text p-button-sm"
                  onClick={() =>
                    outbox.reopen(item, { ...item.payload, startedAt: item.payload.startedAt ?? "", origin: item.payload.origin ?? "" })
                  }
                >
                  修改后重新保存
                </button>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

/**
 * One result form per call still to conclude: the call on the phone first (marked as such), then
 * earlier calls whose result is not yet written, each titled with its call so a result never lands
 * on another call. A form closes once its result is submitted; the outbox below shows it going.
 */
export function ConclusionForms({ currentCallId, onCall }: { currentCallId: string | undefined; onCall: boolean }) {
  const calls = useCallsToConclude();
  const ordered = [...calls.filter((c) => c.ctiCallId === currentCallId), ...calls.filter((c) => c.ctiCallId !== currentCallId).reverse()];
  return (
    <>
      {ordered.map((call) => (
        <ConclusionForm key={call.ctiCallId} call={call} current={call.ctiCallId === currentCallId} onCall={onCall} />
      ))}
      <OutboxPanel />
    </>
  );
}

/** The result's control the keyboard lands on in its group: the chosen result, else the first. */
function resultControl(group: HTMLFieldSetElement | null): HTMLInputElement | null | undefined {
  return group?.querySelector<HTMLInputElement>("input:checked") ?? group?.querySelector<HTMLInputElement>("input");
}

function ConclusionForm({ call, current, onCall }: { call: CallToConclude; current: boolean; onCall: boolean }) {
  const [outbox] = useOutbox();
  const empty: ConclusionDraft = { ...call, callResult: "", intent: "", remark: "", fields: {} };
  const [draft, setDraft] = useState<ConclusionDraft>(() => ({ ...empty, ...outbox.loadDraft(call.ctiCallId) }));
  const [problem, setProblem] = useState<string | null>(null);
  const change = (patch: Partial<ConclusionDraft>) => {
    const next = { ...draft, ...patch };
    setDraft(next);
    outbox.saveDraft(next);
  };
  const results = useRef<HTMLFieldSetElement>(null);
  // The call ended and its result is to write: the keyboard starts there (not on the page's body).
  const wasOnCall = useRef(onCall);
  useEffect(() => {
    if (current && wasOnCall.current && !onCall) focusNext(resultControl(results.current));
    wasOnCall.current = onCall;
  }, [current, onCall]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (draft.callResult === "") {
      setProblem("请选择通话结果");
      resultControl(results.current)?.focus();
      return;
    }
    setProblem(null);
    outbox.submit({ ...draft, ...call });
    void outbox.flush(true);
  };
  const id = (name: string) => `${name}-${call.ctiCallId}`;
  const title = callTitle(call);
  return (
    <form
      className={`sb-wb-card sb-conclusion ${current ? "sb-conclusion--current" : ""}`}
      aria-label={`通话结论 ${title}`}
      onSubmit={submit}
      noValidate
    >
      <h2>
        通话结论 <span className="sb-conclusion-call">{title}</span>
        <span className={`sb-call-tag ${current ? "sb-call-tag--current" : "sb-call-tag--waiting"}`}>
          {current && onCall ? "当前通话" : current ? "刚结束" : "已结束，待保存"}
        </span>
      </h2>
      <fieldset
        ref={results}
        className="sb-form-row"
        style={{ border: 0, padding: 0 }}
        aria-invalid={problem ? true : undefined}
        aria-describedby={problem ? id("callResult-error") : undefined}
      >
        <legend>通话结果</legend>
        <div style={{ display: "flex", gap: "1rem", flexWrap: "wrap" }}>
          {CALL_RESULTS.map((r) => (
            <label key={r.code}>
              <input
                type="radio"
                name={id("callResult")}
                value={r.code}
                checked={draft.callResult === String(r.code)}
                onChange={() => {
                  change({ callResult: String(r.code) });
                  setProblem(null);
                }}
              />{" "}
              {r.label}
            </label>
          ))}
        </div>
        {problem ? (
          <small id={id("callResult-error")} className="p-error">
            {problem}
          </small>
        ) : null}
      </fieldset>
      <div className="sb-conclusion-fields">
        <div className="sb-form-row">
          <label htmlFor={id("intent-label")}>意向标签</label>
          <select
            id={id("intent-label")}
            className="p-inputtext p-component"
            value={draft.intent}
            onChange={(e) => change({ intent: e.target.value })}
          >
            <option value="">未选择</option>
            {/* Not CodeOptions: its chunk would weigh on this island (app/components/code-select.tsx). */}
            {INTENT_LABELS.map((l) => (
              <option key={l.code} value={l.code}>
                {l.label}
              </option>
            ))}
          </select>
        </div>
        {BUSINESS_FIELDS.map((field) => (
          <div className="sb-form-row" key={field.name}>
            <label htmlFor={id(`field-${field.name}`)}>{field.label}</label>
            <input
              id={id(`field-${field.name}`)}
              className="p-inputtext p-component"
              type={field.name === "callbackDate" ? "date" : "text"}
              // The picker offers no day before today (Beijing); the platform refuses one typed anyway.
              min={field.name === "callbackDate" ? cstDate(new Date()) : undefined}
              maxLength={200}
              value={draft.fields[field.name] ?? ""}
              onChange={(e) => change({ fields: { ...draft.fields, [field.name]: e.target.value } })}
            />
          </div>
        ))}
      </div>
      <div className="sb-form-row">
        <label htmlFor={id("conclusion-remark")}>备注</label>
        <textarea
          id={id("conclusion-remark")}
          className="p-inputtextarea p-inputtext p-component"
          rows={2}
          maxLength={500}
          value={draft.remark}
          onChange={(e) => change({ remark: e.target.value })}
        />
      </div>
      <button type="submit" className="p-button p-button-sm sb-primary-action">
        保存结论
      </button>
    </form>
  );
}
