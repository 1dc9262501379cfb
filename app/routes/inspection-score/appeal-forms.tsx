import type { SubmissionResult } from "@conform-to/react";
import { QC_APPEAL_STATES, QC_INFLUENCES, QC_RESULTS } from "#contracts/codes";
import type { Evaluation, QcAppeal } from "#contracts/inspection";
import { QC_REASON_MAX } from "#contracts/inspection-limits";
import { CodeLabel } from "#app/components/code-tag";
import { CsrfInput } from "#app/components/csrf-input";
import { Notice } from "#app/components/filters";
import { firstError } from "#app/components/form-field";
import { ItemInputs } from "./score-form";
import { decisionStart, typedText } from "./scoring";

type Refusal = SubmissionResult<string[]> | undefined;

/** The agent's one appeal of a result; a refused reason comes back as typed. */
export function AppealForm({ refusal }: { refusal: Refusal }) {
  return (
    <form method="post" className="sb-form" aria-label="申诉质检结果">
      <CsrfInput />
      <input type="hidden" name="intent" value="appeal" />
      {refusal ? <Notice tone="error">{firstError(refusal)}</Notice> : null}
      <ReasonField id="qc-appeal-reason" label="申诉理由（每条通话只能申诉一次）" rows={3} defaultValue={typedText(refusal, "reason")} />
      <button type="submit" className="p-button">
        提交申诉
      </button>
    </form>
  );
}

/** A call's appeal, its decision if made, and an inspector's form to decide a pending one (`decide`). */
export function AppealView({
  appeal,
  decide,
  current,
  evaluation,
  refusal,
}: {
  appeal: QcAppeal;
  decide: boolean;
  current: { qcStatus: number; influence: number | null };
  evaluation: Evaluation | null;
  refusal: Refusal;
}) {
  return (
    <div className="sb-qc-appeal">
      <h3>申诉</h3>
      <p>
        <CodeLabel table={QC_APPEAL_STATES} code={appeal.state} /> {appeal.agentName}：{appeal.reason}
      </p>
      {appeal.decisionReason ? (
        <p>
          处理意见（{appeal.decidedBy}）：{appeal.decisionReason}
        </p>
      ) : null}
      {decide ? <DecisionForm appealId={appeal.id} current={current} evaluation={evaluation} refusal={refusal} /> : null}
    </div>
  );
}

/** What accepting an appeal corrects (not CodeSelect: its chunk would add 0.4 KB to the island, decision 060). */
const corrections = [
  { id: "qc-decision-result", name: "checkResult", label: "更正后的质检结果（通过时）", table: QC_RESULTS },
  { id: "qc-decision-influence", name: "influence", label: "更正后的影响（通过时）", table: QC_INFLUENCES },
] as const;

/**
 * Rejecting or accepting an appeal with a reason; accepting corrects the result and influence
 * and, for a call scored with a form, re-scores its items, prefilled with the original answers.
 */
function DecisionForm({
  appealId,
  current,
  evaluation,
  refusal,
}: {
  appealId: number;
  current: { qcStatus: number; influence: number | null };
  evaluation: Evaluation | null;
  refusal: Refusal;
}) {
  const start = decisionStart(current, evaluation, refusal);
  return (
    <form method="post" className="sb-form" aria-label="处理申诉">
      <CsrfInput />
      <input type="hidden" name="intent" value="decide" />
      <input type="hidden" name="appealId" value={appealId} />
      {refusal ? <Notice tone="error">{firstError(refusal)}</Notice> : null}
      <div className="sb-field">
        <label htmlFor="qc-decision">处理结果</label>
        <select id="qc-decision" name="decision" defaultValue={start.decision} className="p-inputtext">
          <option value="rejected">驳回申诉</option>
          <option value="accepted">通过申诉并更正结果</option>
        </select>
      </div>
      {corrections.map(({ id, name, label, table }) => (
        <div key={id} className="sb-field">
          <label htmlFor={id}>{label}</label>
          <select id={id} name={name} defaultValue={start[name]} className="p-inputtext">
            {table.map((s) => (
              <option key={s.code} value={s.code}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
      ))}
      {evaluation ? (
        <fieldset className="sb-fieldset sb-qc-items">
          <legend>通过时逐项重新评分（评分表「{evaluation.formName}」，已填入原评分）</legend>
          <ItemInputs items={evaluation.items} idPrefix="qc-revise" values={start.items} na={start.na} />
        </fieldset>
      ) : null}
      <ReasonField id="qc-decision-reason" label="处理意见" rows={2} defaultValue={start.reason} />
      <button type="submit" className="p-button">
        提交处理
      </button>
    </form>
  );
}

/** A reason the form requires, of at most QC_REASON_MAX characters (the appeal's, the decision's). */
function ReasonField({ id, label, rows, defaultValue }: { id: string; label: string; rows: number; defaultValue: string }) {
  return (
    <div className="sb-field">
      <label htmlFor={id}>{label}</label>
      <textarea
        id={id}
        name="reason"
        required
        maxLength={QC_REASON_MAX}
        rows={rows}
        defaultValue={defaultValue}
        className="p-inputtextarea p-inputtext"
      />
    </div>
  );
}
