import { useEffect, useRef, useState } from "react";
import type { SubmissionResult } from "@conform-to/react";
import { QC_INFLUENCES, QC_RESULTS } from "#contracts/codes";
import type { ScoreForm as ScoringForm } from "#contracts/inspection";
import { QC_REMARK_MAX } from "#contracts/inspection-limits";
import { ANSWER_LABELS, evaluate, NOT_APPLICABLE, VETO_FAIL, VETO_PASS, type ScoreFormItem } from "#contracts/inspection-scoring";
import { takeEarlyInput } from "#app/client/early-input";
import { CsrfInput } from "#app/components/csrf-input";
import { Notice } from "#app/components/filters";
import { firstError } from "#app/components/form-field";
import { formatTime } from "#app/lib/format";
import { draftAnswers, draftOf, sameDraft, typedDraft, type Draft } from "./scoring";

const draftKey = (callId: number) => `qc-draft-${callId}`;
/** Keys 1, 2, 3 choose the results in QC_RESULTS order; n (or Ctrl+Enter) saves and opens the next call. */
const RESULT_KEYS = QC_RESULTS.map((r, i) => ({ key: String(i + 1), code: String(r.code), label: r.label }));

/**
 * The lock holder's score: the active scoring form's items (points, pass/fail of a 一票否决 item,
 * N/A where allowed), result, influence, remark. A plain POST form (works without JavaScript);
 * hydrated, it shows the total as it is typed, takes keys per result and save-and-next, and keeps
 * a draft in localStorage until it is posted, so a reload loses nothing.
 */
export function ScoreForm({
  callId,
  form,
  refusal,
  lockedUntil,
}: {
  callId: number;
  form: ScoringForm | null;
  refusal: SubmissionResult<string[]> | undefined;
  lockedUntil: number | null;
}) {
  const [rendered] = useState<Draft>(() => typedDraft(refusal));
  const [draft, setDraft] = useState(rendered);
  const formRef = useRef<HTMLFormElement>(null);
  const nextRef = useRef<HTMLButtonElement>(null);
  const restored = useRef(false);
  const [ready, setReady] = useState(false);

  // What was clicked or typed before the page hydrated is kept. Otherwise a draft of this call
  // survives a reload (not when the server sent back what was typed).
  useEffect(() => {
    if (restored.current) return;
    restored.current = true;
    const early = takeEarlyInput(formRef.current);
    if (early && !sameDraft(draftOf(early), rendered)) {
      setDraft(draftOf(early));
      return;
    }
    if (refusal) return;
    const saved = window.localStorage.getItem(draftKey(callId));
    if (!saved) return;
    try {
      const parsed = JSON.parse(saved) as Partial<Draft>;
      setDraft((d) => ({ ...d, ...parsed, items: { ...d.items, ...parsed.items }, na: { ...d.na, ...parsed.na } }));
    } catch {
      window.localStorage.removeItem(draftKey(callId));
    }
  }, [callId, refusal, rendered]);

  useEffect(() => {
    if (!restored.current) return;
    window.localStorage.setItem(draftKey(callId), JSON.stringify(draft));
  }, [callId, draft]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      // Digits typed into an item's points are points, not a result's key.
      const typing =
        target?.tagName === "TEXTAREA" ||
        (target?.tagName === "INPUT" && !["radio", "checkbox"].includes((target as HTMLInputElement).type));
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
  const total = form ? evaluate(form.items, draftAnswers(form, draft)) : null;
  const vetoed = total?.ok === true && total.vetoed;
  const setItem = (key: string, value: string) =>
    setDraft((d) => ({ ...d, items: { ...d.items, [key]: value }, ...(value === VETO_FAIL ? { influence: "-1" } : {}) }));

  return (
    <form method="post" ref={formRef} className="sb-form" aria-label="质检评分" onSubmit={forget} data-ready={ready ? "1" : undefined}>
      <CsrfInput />
      <input type="hidden" name="intent" value="score" />
      {refusal ? <Notice tone="error">{firstError(refusal)}</Notice> : null}
      {form ? (
        <fieldset className="sb-fieldset sb-qc-items">
          <legend>评分表「{form.name}」（满分 100，按分值折算）</legend>
          <input type="hidden" name="formId" value={form.id} />
          <ItemInputs
            items={form.items}
            idPrefix="qc-item"
            values={draft.items}
            na={draft.na}
            onItem={setItem}
            onNa={(key, checked) => setDraft((d) => ({ ...d, na: { ...d.na, [key]: checked } }))}
          />
          <p className="sb-qc-total" aria-live="polite">
            {total?.ok
              ? vetoed
                ? "一票否决项不通过：本通话不合格，得分 0，影响记为负面影响"
                : `当前得分：${total.score} 分`
              : "逐项评分后显示得分"}
          </p>
        </fieldset>
      ) : null}
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
          aria-describedby="qc-remark-count"
          className="p-inputtextarea p-inputtext"
        />
        {/* The count shows a paste cut at the limit by maxLength; read out when typing pauses. */}
        <small id="qc-remark-count" className="sb-hint" aria-live="polite">
          已输入 {draft.remark.length}/{QC_REMARK_MAX} 字
        </small>
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

/**
 * A scoring form's items as inputs named item.<key> (points, or a veto item's 通过/不通过) and
 * na.<key> (不适用): controlled when `onItem` is given (the hydrated score form's total), else
 * filled with `values` (the decision's re-scoring, prefilled with the original answers).
 */
export function ItemInputs({
  items,
  idPrefix,
  values,
  na,
  onItem,
  onNa,
}: {
  items: readonly ScoreFormItem[];
  idPrefix: string;
  values: Record<string, string>;
  na: Record<string, boolean>;
  onItem?: (key: string, value: string) => void;
  onNa?: (key: string, checked: boolean) => void;
}) {
  const text = (key: string) => (onItem ? { value: values[key] ?? "" } : { defaultValue: values[key] ?? "" });
  const check = (on: boolean) => (onItem ? { checked: on } : { defaultChecked: on });
  return items.map((item) =>
    item.veto ? (
      <fieldset key={item.key} className="sb-fieldset sb-qc-item">
        <legend>
          {item.title}（一票否决，{item.weight} 分）
        </legend>
        {[VETO_PASS, VETO_FAIL, ...(item.allowNa ? [NOT_APPLICABLE] : [])].map((value) => (
          <label key={value} className="sb-check">
            <input
              type="radio"
              name={`item.${item.key}`}
              value={value}
              required
              {...check(values[item.key] === value)}
              onChange={onItem && (() => onItem(item.key, value))}
            />{" "}
            {ANSWER_LABELS[value]}
          </label>
        ))}
      </fieldset>
    ) : (
      <div key={item.key} className="sb-field sb-qc-item">
        <label htmlFor={`${idPrefix}-${item.key}`}>
          {item.title}（0–{item.weight} 分）
        </label>
        <input
          id={`${idPrefix}-${item.key}`}
          type="number"
          name={`item.${item.key}`}
          min={0}
          max={item.weight}
          step={1}
          inputMode="numeric"
          required={!item.allowNa}
          {...text(item.key)}
          onChange={onItem && ((event) => onItem(item.key, event.target.value))}
          className="p-inputtext"
        />
        {item.allowNa ? (
          <label className="sb-check">
            <input
              type="checkbox"
              name={`na.${item.key}`}
              value="1"
              {...check(na[item.key] ?? false)}
              onChange={onNa && ((event) => onNa(item.key, event.target.checked))}
            />{" "}
            {item.title}不适用
          </label>
        ) : null}
      </div>
    ),
  );
}
