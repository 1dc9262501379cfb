import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import {
  AUDIT_ACTIONS,
  INTENT_LABELS,
  QC_APPEAL_STATES,
  QC_CHECKING,
  QC_INFLUENCES,
  QUALITY_CHECK_STATUSES,
  labelOf,
} from "#contracts/codes";
import { QC_LOCK_MINUTES, QC_REASON_MAX } from "#contracts/inspection-limits";
import { CodeLabel } from "#app/components/code-tag";
import { CsrfInput } from "#app/components/csrf-input";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { firstError } from "#app/components/form-field";
import { Screen } from "#app/components/screen";
import { maskedForBrowser } from "#app/lib/call-detail";
import { formatDateTime, formatDuration, maskPhone } from "#app/lib/format";
import type { RouteHandle } from "#app/lib/handle";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { idParam } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import {
  getActiveScoreForm,
  getCallbacksAndCustomer,
  getInspection,
  getInspectionCall,
  nextInspection,
  scoreInspection,
  appealInspection,
  decideAppeal,
} from "#app/services/inspection.server";
import { Conversation } from "#app/components/call-conversation";
import type { Evaluation, InspectionScore } from "#contracts/inspection";
import { evaluate, NOT_APPLICABLE, type ScoreAnswer, type ScoreFormItem } from "#contracts/inspection-scoring";
import { EvaluationView } from "./evaluation";
import { ScoreIntentSchema } from "./schema";
import { ItemInputs, ScoreForm, draftAnswers, texts } from "./score-form";

/**
 * The scoring view of one call (decision 018): the recording and transcript (the call detail's
 * player island), the call's facts, and — by who is looking — the lock holder's score form
 * (keyboard keys per result, save-and-next, a draft kept in the browser), the agent's appeal, or
 * the inspector's decision on an appeal. The forms post without JavaScript too.
 */
export const handle: RouteHandle = { title: "通话质检", hydrate: true };
const LIST = "/inspectionSuccess";

export async function loader({ request, params }: LoaderFunctionArgs) {
  const { caller, user } = await requireAccess(request);
  const callId = idParam(params.id);
  const [inspection, call, form] = await Promise.all([
    getInspection(caller, callId),
    getInspectionCall(caller, callId),
    // Only an inspector holding the call's lock scores it with the form; an agent never does.
    user.role === "agent" ? null : getActiveScoreForm(caller),
  ]);
  const { callbacks, customer } = await getCallbacksAndCustomer(caller, callId, inspection.row.ctiCallId);
  // The page hydrates, so its data is in the page: numbers and dialogue go masked, as shown.
  return {
    inspection: { ...inspection, row: maskedForBrowser(inspection.row) },
    call: maskedForBrowser(call),
    form,
    callbacks: callbacks.map(maskedForBrowser),
    customer: maskedForBrowser(customer),
    user: { id: user.id, role: user.role },
  };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const callId = idParam(params.id);
  const submission = parseWithZod(form, { schema: ScoreIntentSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const { caller } = access;
  const self = `${LIST}/${callId}`;
  switch (input.intent) {
    case "score": {
      // With an active scoring form, each item's answer is checked here first (errors name the
      // items, everything typed kept), then by the platform against the same form.
      const form = await getActiveScoreForm(caller);
      let evaluation: InspectionScore["evaluation"];
      if (form) {
        const answers = postedAnswers(form.items, input);
        const checked = evaluate(form.items, answers);
        if (!checked.ok) return rejectForm(submission, { formErrors: [checked.errors.map((e) => e.message).join("；")] });
        evaluation = { formId: input.formId ?? form.id, answers };
      }
      const done = await attempt(() =>
        scoreInspection(caller, {
          callId,
          checkResult: input.checkResult,
          influence: input.influence,
          remark: input.remark ?? "",
          evaluation,
        }),
      );
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      const saved = `已保存：${labelOf(QUALITY_CHECK_STATUSES, input.checkResult)}`;
      if (input.next !== "1") return redirectWithToast(self, saved);
      const next = await attempt(() => nextInspection(caller, callId));
      if (next.ok && next.value) return redirectWithToast(`${LIST}/${next.value.callId}`, `${saved}，已打开下一条`);
      return redirectWithToast(`${LIST}?mine=1`, `${saved}。您的质检队列已完成`);
    }
    case "appeal": {
      const done = await attempt(() => appealInspection(caller, callId, input.reason));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(self, "申诉已提交，等待质检员处理");
    }
    case "decide": {
      // Accepting re-scores a call scored with a form on the items it was scored on (decision 033):
      // checked here first, each wrong item named with everything kept, then by the platform.
      let evaluation: { answers: ScoreAnswer[] } | undefined;
      if (input.decision === "accepted") {
        const scored = (await getInspection(caller, callId)).evaluation;
        if (scored) {
          const answers = postedAnswers(scored.items, input);
          const checked = evaluate(scored.items, answers);
          if (!checked.ok) return rejectForm(submission, { formErrors: [checked.errors.map((e) => e.message).join("；")] });
          evaluation = { answers };
        }
      }
      const decision =
        input.decision === "accepted"
          ? {
              decision: "accepted" as const,
              reason: input.reason,
              checkResult: input.checkResult ?? -9,
              influence: input.influence ?? -9,
              evaluation,
            }
          : { decision: "rejected" as const, reason: input.reason };
      const done = await attempt(() => decideAppeal(caller, input.appealId, decision));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(self, done.value.state === "accepted" ? "申诉已通过，结果已更正" : "申诉已驳回");
    }
  }
  throw data({ message: "请求参数错误", status: 400, what: "质检" }, { status: 400 });
}

/** The answers posted as item.<key> and na.<key> (the score form's and the decision's re-scoring). */
function postedAnswers(
  items: readonly ScoreFormItem[],
  input: { item?: Record<string, string | undefined>; na?: Record<string, string | undefined> },
) {
  return draftAnswers(
    { items },
    {
      items: Object.fromEntries(Object.entries(input.item ?? {}).map(([key, value]) => [key, value ?? ""])),
      na: Object.fromEntries(Object.entries(input.na ?? {}).map(([key, value]) => [key, Boolean(value)])),
    },
  );
}

export default function InspectionScore() {
  const { inspection, call, form, callbacks, customer, user } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const refusal = result && "initialValue" in result ? result : undefined;
  const refusedIntent = refusal?.initialValue?.intent;
  const { row, appeal, history, evaluation, earlierEvaluations } = inspection;
  const holder = row.qcStatus === QC_CHECKING && row.inspectorId === user.id;
  const isAgent = user.role === "agent";
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
    <Screen title={`通话质检 · ${row.callId}`}>
      <p>
        <a href={`${LIST}${holder ? "?mine=1" : ""}`}>返回质检列表</a>
      </p>
      <div className="sb-qc">
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

        <section className="sb-section" aria-labelledby="qc-work-title">
          <h2 id="qc-work-title" className="sb-section-title">
            质检
          </h2>
          {holder ? (
            <ScoreForm
              callId={row.callId}
              form={form}
              refusal={refusedIntent === "score" ? refusal : undefined}
              lockedUntil={row.lockedAt === null ? null : row.lockedAt + QC_LOCK_MINUTES * 60_000}
            />
          ) : row.qcStatus === QC_CHECKING ? (
            <Notice tone="info">该通话由 {row.inspectorName ?? "其他质检员"} 质检中。</Notice>
          ) : row.qcStatus === -1 ? (
            <Notice tone="info">该通话尚未质检。{isAgent ? "" : "可在列表中勾选后领取。"}</Notice>
          ) : null}

          {appeal ? (
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
              {appeal.state === "pending" && !isAgent ? (
                <DecisionForm
                  appealId={appeal.id}
                  current={row}
                  evaluation={evaluation}
                  refusal={refusedIntent === "decide" ? refusal : undefined}
                />
              ) : null}
            </div>
          ) : isAgent && [0, 1, 3].includes(row.qcStatus) ? (
            <form method="post" className="sb-form" aria-label="申诉质检结果">
              <CsrfInput />
              <input type="hidden" name="intent" value="appeal" />
              {refusedIntent === "appeal" && refusal ? <Notice tone="error">{firstError(refusal)}</Notice> : null}
              <div className="sb-field">
                <label htmlFor="qc-appeal-reason">申诉理由（每条通话只能申诉一次）</label>
                <textarea
                  id="qc-appeal-reason"
                  name="reason"
                  required
                  maxLength={QC_REASON_MAX}
                  rows={3}
                  defaultValue={refusedIntent === "appeal" ? String(refusal?.initialValue?.reason ?? "") : ""}
                  className="p-inputtextarea p-inputtext"
                />
              </div>
              <button type="submit" className="p-button">
                提交申诉
              </button>
            </form>
          ) : null}

          {evaluation ? <EvaluationView evaluation={evaluation} /> : null}
          {earlierEvaluations.map((earlier) => (
            <EvaluationView key={earlier.version} evaluation={earlier} earlier />
          ))}

          {history.length > 0 ? (
            <>
              <h3>质检记录</h3>
              <ol className="sb-qc-history">
                {history.map((h, i) => (
                  <li key={i}>
                    {formatDateTime(h.at)} {h.actorName}（{labelOf(AUDIT_ACTIONS, h.action, h.action)}）：{h.summary}
                    {h.reason ? `，原因：${h.reason}` : ""}
                  </li>
                ))}
              </ol>
            </>
          ) : null}
        </section>
      </div>
    </Screen>
  );
}

function DecisionForm({
  appealId,
  current,
  evaluation,
  refusal,
}: {
  appealId: number;
  current: { qcStatus: number; influence: number | null };
  evaluation: Evaluation | null;
  refusal: { initialValue?: Record<string, unknown> | null; error?: Record<string, string[] | null> | null } | undefined;
}) {
  const typed = (name: string, fallback: string) =>
    refusal?.initialValue?.[name] === undefined ? fallback : String(refusal.initialValue[name]);
  // The re-scoring starts from the original answers (or from what was typed, when refused).
  // (An ordinary item's 不适用 is its box; a veto item's is one of its radios.)
  const items = evaluation?.items ?? [];
  const notApplicable = (item: (typeof items)[number]) => !item.veto && item.value === NOT_APPLICABLE;
  const values = refusal
    ? texts(refusal.initialValue?.item)
    : Object.fromEntries(items.filter((item) => !notApplicable(item)).map((item) => [item.key, String(item.value)]));
  const na = refusal
    ? Object.fromEntries(Object.keys(texts(refusal.initialValue?.na)).map((key) => [key, true]))
    : Object.fromEntries(items.filter(notApplicable).map((item) => [item.key, true]));
  return (
    <form method="post" className="sb-form" aria-label="处理申诉">
      <CsrfInput />
      <input type="hidden" name="intent" value="decide" />
      <input type="hidden" name="appealId" value={appealId} />
      {refusal ? <Notice tone="error">{firstError(refusal as never)}</Notice> : null}
      <div className="sb-field">
        <label htmlFor="qc-decision">处理结果</label>
        <select id="qc-decision" name="decision" defaultValue={typed("decision", "rejected")} className="p-inputtext">
          <option value="rejected">驳回申诉</option>
          <option value="accepted">通过申诉并更正结果</option>
        </select>
      </div>
      <div className="sb-field">
        <label htmlFor="qc-decision-result">更正后的质检结果（通过时）</label>
        <select
          id="qc-decision-result"
          name="checkResult"
          defaultValue={typed("checkResult", String(current.qcStatus))}
          className="p-inputtext"
        >
          {QUALITY_CHECK_STATUSES.filter((s) => [0, 1, 3].includes(s.code)).map((s) => (
            <option key={s.code} value={s.code}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      <div className="sb-field">
        <label htmlFor="qc-decision-influence">更正后的影响（通过时）</label>
        <select
          id="qc-decision-influence"
          name="influence"
          defaultValue={typed("influence", String(current.influence ?? 0))}
          className="p-inputtext"
        >
          {QC_INFLUENCES.map((s) => (
            <option key={s.code} value={s.code}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      {evaluation ? (
        <fieldset className="sb-fieldset sb-qc-items">
          <legend>通过时逐项重新评分（评分表「{evaluation.formName}」，已填入原评分）</legend>
          <ItemInputs items={evaluation.items} idPrefix="qc-revise" values={values} na={na} />
        </fieldset>
      ) : null}
      <div className="sb-field">
        <label htmlFor="qc-decision-reason">处理意见</label>
        <textarea
          id="qc-decision-reason"
          name="reason"
          required
          maxLength={QC_REASON_MAX}
          rows={2}
          defaultValue={typed("reason", "")}
          className="p-inputtextarea p-inputtext"
        />
      </div>
      <button type="submit" className="p-button">
        提交处理
      </button>
    </form>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
