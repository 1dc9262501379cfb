import { useEffect, useRef, useState } from "react";
import type { SubmissionResult } from "@conform-to/react";
import { QC_INFLUENCES, QC_RESULTS } from "#contracts/codes";
import { QC_REMARK_MAX } from "#contracts/inspection-limits";
import { CsrfInput } from "#app/components/csrf-input";
import { Notice } from "#app/components/filters";
import { firstError } from "#app/components/form-field";
import { formatTime } from "#app/lib/format";

type Draft = { checkResult: string; influence: string; remark: string };
const draftKey = (callId: number) => `qc-draft-${callId}`;
/** Keys 1, 2, 3 choose the results in QC_RESULTS order; n (or Ctrl+Enter) saves and opens the next call. */
const RESULT_KEYS = QC_RESULTS.map((r, i) => ({ key: String(i + 1), code: String(r.code), label: r.label }));

/**
 * The lock holder's score: result, influence, remark. A plain POST form (works without
 * JavaScript); hydrated, it takes keys per result and save-and-next, and keeps a draft in
 * localStorage until it is posted, so a reload loses nothing.
 */
export function ScoreForm({
  callId,
  refusal,
  lockedUntil,
}: {
  callId: number;
  refusal: SubmissionResult<string[]> | undefined;
  lockedUntil: number | null;
}) {
  const typed = refusal?.initialValue ?? null;
  const [draft, setDraft] = useState<Draft>({
    checkResult: typed?.checkResult ? String(typed.checkResult) : "",
    influence: typed?.influence ? String(typed.influence) : "0",
    remark: typed?.remark ? String(typed.remark) : "",
  });
  const formRef = useRef<HTMLFormElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  const restored = useRef(false);
  const [ready, setReady] = useState(false);

  // A draft of this call survives a reload (not when the server sent back what was typed).
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    if (typed) return;
    const saved = window.localStorage.getItem(draftKey(callId));
    if (!saved) return;
    try {
      const parsed = JSON.parse(saved) as Partial<Draft>;
      setDraft((d) => ({ ...d, ...parsed }));
    } catch {
      window.localStorage.removeItem(draftKey(callId));
    }
  }, [callId, typed]);

  useEffect(() => {
    if (!restored.current) return;
    window.localStorage.setItem(draftKey(callId), JSON.stringify(draft));
  }, [callId, draft]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      const typing = target?.tagName === "TEXTAREA" || (target?.tagName === "INPUT" && (target as HTMLInputElement).type === "text");
      if (event.key === "Enter" && (event.ctrlKey || event.metaKey)) {
        event.preventDefault();
        nextRef.current?.click();
        return;
      }
      if (typing || event.altKey || event.ctrlKey || event.metaKey) return;
      const result = RESULT_KEYS.find((r) => r.key === event.key);
      if (result) {
        event.preventDefault();
        setDraft((d) => ({ ...d, checkResult: result.code }));
      } else if (event.key === "n") {
        event.preventDefault();
        nextRef.current?.click();
      }
    };
    window.addEventListener("keydown", onKey);
    setReady(true);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  const forget = () => window.localStorage.removeItem(draftKey(callId));

  return (
    <form method="post" ref={formRef} className="sb-form" aria-label="质检评分" onSubmit={forget} data-ready={ready ? "1" : undefined}>
      <CsrfInput />
      <input type="hidden" name="intent" value="score" />
      {refusal ? <Notice tone="error">{firstError(refusal)}</Notice> : null}
      <fieldset className="sb-fieldset">
        <legend>质检结果（快捷键 1、2、3）</legend>
        {RESULT_KEYS.map((r) => (
          <label key={r.code} className="sb-check">
            <input
              type="radio"
              name="checkResult"
              value={r.code}
              required
              checked={draft.checkResult === r.code}
              onChange={() => setDraft((d) => ({ ...d, checkResult: r.code }))}
            />{" "}
            {r.label} <kbd>{r.key}</kbd>
          </label>
        ))}
      </fieldset>
      <fieldset className="sb-fieldset">
        <legend>坐席对结果的影响</legend>
        {QC_INFLUENCES.map((f) => (
          <label key={f.code} className="sb-check">
            <input
              type="radio"
              name="influence"
              value={f.code}
              checked={draft.influence === String(f.code)}
              onChange={() => setDraft((d) => ({ ...d, influence: String(f.code) }))}
            />{" "}
            {f.label}
          </label>
        ))}
      </fieldset>
      <div className="sb-field">
        <label htmlFor="qc-remark">备注（最多{QC_REMARK_MAX}字）</label>
        <textarea
          id="qc-remark"
          name="remark"
          rows={3}
          maxLength={QC_REMARK_MAX}
          value={draft.remark}
          onChange={(event) => setDraft((d) => ({ ...d, remark: event.target.value }))}
          className="p-inputtextarea p-inputtext"
        />
      </div>
      <div className="sb-form-actions">
        <button type="submit" className="p-button p-button-outlined">
          保存
        </button>
        <button type="submit" name="next" value="1" className="p-button" ref={nextRef}>
          保存并下一条 <kbd>N</kbd>
        </button>
      </div>
      {lockedUntil ? <p className="sb-hint">锁定至 {formatTime(lockedUntil)}，超时未提交将退回待质检。</p> : null}
    </form>
  );
}
