import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { AuthenticityTokenInput } from "remix-utils/csrf/react";
import { z } from "zod";
import { BATCH_STATUSES, CALL_STATUSES, HANGUP_PARTIES } from "#contracts/codes";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { CallStatusFilter, CallTable } from "#app/components/outbound-calls";
import { Notice } from "#app/components/filters";
import { CodeLabel } from "#app/components/code-tag";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { KeysetPageSchema, idParam, pagination, parseListQuery } from "#app/server/page-query.server";
import { CAMPAIGN_TITLES } from "#app/lib/screens";
import { getTask, recoverTask } from "#app/services/outbound.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { redirectWithToast } from "#app/server/toast.server";
import { firstError } from "#app/components/form-field";
import { TransitionList } from "./transitions";

export const handle: RouteHandle = { title: CAMPAIGN_TITLES.batch };

const QuerySchema = KeysetPageSchema.extend({ status: z.coerce.number().int().min(0).max(7).optional() });

export async function loader({ request, params }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  const campaignId = idParam(params.id);
  const batchId = idParam(params.batchId);
  const query = parseListQuery(request, QuerySchema);
  // One call brings the batch, its page of calls and its history.
  const { transitions = [], ...task } = await getTask(access.caller, batchId, {
    ...pagination(query),
    after: query.after,
    before: query.before,
    isCalling: 0,
    callType: query.status ?? -1,
    history: true,
  });
  // A batch reached through another campaign's URL is not found there.
  if (task.batch.campaignId !== campaignId) throw data({ message: "批次不存在", status: 404, what: "获取批次" }, { status: 404 });
  return {
    task,
    transitions: transitions.filter((t) => t.taskCallId === null),
    callMoves: transitions.filter((t) => t.taskCallId !== null).slice(0, 50),
    query,
  };
}

/** The batch page's one action: recover a paused or failed batch. */
const ActionSchema = z.object({ intent: z.literal("recover") });

export async function action({ request, params }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const campaignId = idParam(params.id);
  const batchId = idParam(params.batchId);
  const submission = parseWithZod(form, { schema: ActionSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const recovered = await attempt(() => recoverTask(access.caller, batchId));
  if (!recovered.ok) return rejectForm(submission, { formErrors: [recovered.message] }, recovered.status);
  return redirectWithToast(`/campaign/${campaignId}/batch/${batchId}`, "批次已恢复");
}

export default function BatchPage() {
  const { task, transitions, callMoves, query } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  const { batch, calls } = task;
  return (
    <Screen
      title={`${CAMPAIGN_TITLES.batch}：${batch.name}`}
      actions={
        <a className="p-button p-button-outlined" href={`/campaign/${batch.campaignId}`}>
          返回活动
        </a>
      }
    >
      <dl className="sb-facts">
        <dt>活动</dt>
        <dd>{batch.campaignName}</dd>
        <dt>批次状态</dt>
        <dd data-testid="batch-status">
          <CodeLabel table={BATCH_STATUSES} code={batch.status} />
        </dd>
        <dt>名单数</dt>
        <dd>{batch.total}</dd>
        <dt>待呼/呼叫中</dt>
        <dd>{batch.open}</dd>
      </dl>
      {batch.status === 3 || batch.status === 14 ? (
        <form method="post">
          <AuthenticityTokenInput name="csrf" />
          <input type="hidden" name="intent" value="recover" />
          <button type="submit" className="p-button">
            恢复批次
          </button>
        </form>
      ) : null}
      {refused ? <Notice tone="error">{firstError(refused)}</Notice> : null}

      <section aria-labelledby="calls-title" className="sb-section">
        <h2 id="calls-title" className="sb-section-title">
          呼叫
        </h2>
        <CallStatusFilter status={query.status} size={query.size} />
        <CallTable caption="呼叫" calls={calls} pageNo={query.page} pageSize={query.size} pathname={pathname} search={search} />
        <p className="sb-hint">挂机方：{HANGUP_PARTIES.map((h) => `${h.code} ${h.label}`).join("；")}</p>
      </section>

      <section aria-labelledby="history-title" className="sb-section">
        <h2 id="history-title" className="sb-section-title">
          批次状态历史
        </h2>
        <TransitionList caption="批次状态历史" transitions={transitions} table={BATCH_STATUSES} />
      </section>
      <section aria-labelledby="call-history-title" className="sb-section">
        <h2 id="call-history-title" className="sb-section-title">
          最近的呼叫状态变化
        </h2>
        <TransitionList caption="呼叫状态变化" transitions={callMoves} table={CALL_STATUSES} withPhone />
      </section>
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
