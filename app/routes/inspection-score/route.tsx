import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { QC_LOCK_MINUTES } from "#contracts/inspection-limits";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { refusalOf } from "#app/components/refusal";
import { Screen } from "#app/components/screen";
import { formatDateTime } from "#app/lib/format";
import type { RouteHandle } from "#app/lib/handle";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { parseIntent, rejectForm } from "#app/server/forms.server";
import { idParam } from "#app/server/page-query.server";
import { AppealForm, AppealView } from "./appeal-forms";
import { CallFacts } from "./call-facts";
import { EvaluationView } from "./evaluation";
import { SCORE_SCHEMAS } from "./schema.server";
import { ScoreForm } from "./score-form";
import { decideOnAppeal, fileAppeal, loadScoring, saveScore, type Posted } from "./scoring.server";
import { editableBy, LIST } from "./scoring";

/**
 * The scoring view of one call (decision 018): the recording and transcript (the call detail's
 * player island), the call's facts, and — by who is looking — the lock holder's score form
 * (keyboard keys per result, save-and-next, a draft kept in the browser), the agent's appeal, or
 * the inspector's decision on an appeal. The forms post without JavaScript too; the page loads no
 * schema (decision 054): its forms are checked by the action, a refusal read by `refusalOf`.
 */
export const handle: RouteHandle = { title: "通话质检", hydrate: true };

export async function loader({ request, params }: LoaderFunctionArgs) {
  return loadScoring(await requireAccess(request), idParam(params.id));
}

/** Each form posts here with its intent; a refusal comes back on that form with what was typed. */
export async function action({ request, params }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const callId = idParam(params.id);
  const { submission } = parseIntent(form, SCORE_SCHEMAS, "质检");
  if (submission.status !== "success") return rejectForm(submission);
  const posted: Posted = {
    caller: access.caller,
    callId,
    refuse: (message, status) => rejectForm(submission, { formErrors: [message] }, status),
  };
  const input = submission.value;
  switch (input.intent) {
    case "score":
      return saveScore(posted, input);
    case "appeal":
      return fileAppeal(posted, input);
    case "decide":
      return decideOnAppeal(posted, input);
  }
}

export default function InspectionScore() {
  const { inspection, form, user } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { row, appeal, history, evaluation, earlierEvaluations } = inspection;
  const may = editableBy(user, row, appeal);

  return (
    <Screen title={`通话质检 · ${row.callId}`}>
      <p>
        <a href={`${LIST}${may.score ? "?mine=1" : ""}`}>返回质检列表</a>
      </p>
      <div className="sb-qc">
        <CallFacts />
        <section className="sb-section" aria-labelledby="qc-work-title">
          <h2 id="qc-work-title" className="sb-section-title">
            质检
          </h2>
          {may.score ? (
            <ScoreForm
              callId={row.callId}
              form={form}
              refusal={refusalOf(result, "score")}
              lockedUntil={row.lockedAt === null ? null : row.lockedAt + QC_LOCK_MINUTES * 60_000}
            />
          ) : may.heldByOther ? (
            <Notice tone="info">该通话由 {row.inspectorName ?? "其他质检员"} 质检中。</Notice>
          ) : may.unchecked ? (
            <Notice tone="info">该通话尚未质检。{user.role === "agent" ? "" : "可在列表中勾选后领取。"}</Notice>
          ) : null}

          {appeal ? (
            <AppealView appeal={appeal} decide={may.decide} current={row} evaluation={evaluation} refusal={refusalOf(result, "decide")} />
          ) : may.appeal ? (
            <AppealForm refusal={refusalOf(result, "appeal")} />
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
                    {formatDateTime(h.at)} {h.actorName}（{h.action}）：{h.summary}
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

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
