import type { z } from "zod";
import { AUDIT_ACTIONS, QUALITY_CHECK_STATUSES, labelOf } from "#contracts/codes";
import type { InspectionScore } from "#contracts/inspection";
import type { ScoreAnswer } from "#contracts/inspection-scoring";
import { maskedForBrowser } from "#app/lib/call-detail";
import type { Access } from "#app/server/access.server";
import { attempt, type rejectForm } from "#app/server/forms.server";
import { redirectWithToast } from "#app/server/toast.server";
import {
  appealInspection,
  decideAppeal,
  getActiveScoreForm,
  getCallbacksAndCustomer,
  getInspection,
  getInspectionCall,
  nextInspection,
  scoreInspection,
} from "#app/services/inspection.server";
import type { Caller } from "#app/services/upstream.server";
import type { SCORE_SCHEMAS } from "./schema.server";
import { LIST, postedAnswers } from "./scoring";

type Input<I extends keyof typeof SCORE_SCHEMAS> = z.infer<(typeof SCORE_SCHEMAS)[I]>;
/** What every change needs: who posts, about which call, and the refusal of the form posted (everything typed kept). */
export type Posted = { caller: Caller; callId: number; refuse: (message: string, status?: number) => ReturnType<typeof rejectForm> };

/**
 * The page: the call's inspection and its recording and dialogue, its callbacks and customer, and
 * for an inspector the tenant's active scoring form. The page hydrates, so its data is in the
 * page: numbers and dialogue go masked, as shown.
 */
export async function loadScoring({ caller, user }: Access, callId: number) {
  const [inspection, call, form] = await Promise.all([
    getInspection(caller, callId),
    getInspectionCall(caller, callId),
    // Only an inspector holding the call's lock scores it with the form; an agent never does.
    user.role === "agent" ? null : getActiveScoreForm(caller),
  ]);
  const { callbacks, customer } = await getCallbacksAndCustomer(caller, callId, inspection.row.ctiCallId);
  return {
    inspection: {
      ...inspection,
      row: maskedForBrowser(inspection.row),
      // Labelled here: the audit log's table of actions would otherwise load into the page.
      history: inspection.history.map((entry) => ({ ...entry, action: labelOf(AUDIT_ACTIONS, entry.action, entry.action) })),
    },
    call: maskedForBrowser(call),
    form,
    callbacks: callbacks.map(maskedForBrowser),
    customer: maskedForBrowser(customer),
    user: { id: user.id, role: user.role },
  };
}

/**
 * The lock holder's score, then this call again or (save-and-next) the next in their queue. With
 * an active scoring form, each item's answer is checked here first (errors name the items,
 * everything typed kept), then by the platform against the same form.
 */
export async function saveScore({ caller, callId, refuse }: Posted, input: Input<"score">) {
  const form = await getActiveScoreForm(caller);
  let evaluation: InspectionScore["evaluation"];
  if (form) {
    const posted = postedAnswers(form.items, input);
    if (!posted.ok) return refuse(posted.message);
    evaluation = { formId: input.formId ?? form.id, answers: posted.answers };
  }
  const { checkResult, influence, remark = "" } = input;
  const done = await attempt(() => scoreInspection(caller, { callId, checkResult, influence, remark, evaluation }));
  if (!done.ok) return refuse(done.message, done.status);
  const saved = `已保存：${labelOf(QUALITY_CHECK_STATUSES, checkResult)}`;
  if (input.next !== "1") return redirectWithToast(`${LIST}/${callId}`, saved);
  const next = await attempt(() => nextInspection(caller, callId));
  if (next.ok && next.value) return redirectWithToast(`${LIST}/${next.value.callId}`, `${saved}，已打开下一条`);
  return redirectWithToast(`${LIST}?mine=1`, `${saved}。您的质检队列已完成`);
}

/** The agent's one appeal of the call's result. */
export async function fileAppeal({ caller, callId, refuse }: Posted, input: Input<"appeal">) {
  const done = await attempt(() => appealInspection(caller, callId, input.reason));
  if (!done.ok) return refuse(done.message, done.status);
  return redirectWithToast(`${LIST}/${callId}`, "申诉已提交，等待质检员处理");
}

/**
 * An inspector's decision on a pending appeal. Accepting re-scores a call scored with a form on
 * the items it was scored on (decision 033): checked here first, each wrong item named with
 * everything kept, then by the platform.
 */
export async function decideOnAppeal({ caller, callId, refuse }: Posted, input: Input<"decide">) {
  let evaluation: { answers: ScoreAnswer[] } | undefined;
  if (input.decision === "accepted") {
    const scored = (await getInspection(caller, callId)).evaluation;
    if (scored) {
      const posted = postedAnswers(scored.items, input);
      if (!posted.ok) return refuse(posted.message);
      evaluation = { answers: posted.answers };
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
  if (!done.ok) return refuse(done.message, done.status);
  return redirectWithToast(`${LIST}/${callId}`, done.value.state === "accepted" ? "申诉已通过，结果已更正" : "申诉已驳回");
}
