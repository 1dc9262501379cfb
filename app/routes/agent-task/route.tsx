import type { LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { BATCH_STATUSES } from "#contracts/codes";
import { requireAccess, requireMenuUrl } from "#app/server/access.server";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { CodeLabel } from "#app/components/code-tag";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { KeysetPageSchema, idParam, pagination, parseListQuery } from "#app/server/page-query.server";
import { SCREEN_TITLES } from "#app/lib/screens";
import { getTask } from "#app/services/outbound.server";
import { CallTable, CallStatusFilter } from "#app/components/outbound-calls";

const title = SCREEN_TITLES["/agentTask/:id?"];
export const handle: RouteHandle = { title };

const QuerySchema = KeysetPageSchema.extend({ status: z.coerce.number().int().min(0).max(7).optional() });

/** One task (batch) with my calls in it; without an id, my task list. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  // A task of 我的任务 (text agents have only 我的工单 under /agentTask).
  const access = requireMenuUrl(await requireAccess(request), "/agentTask/my");
  if (params.id === undefined) throw redirect("/agentTask/my");
  const query = parseListQuery(request, QuerySchema);
  const task = await getTask(access.caller, idParam(params.id), {
    ...pagination(query),
    after: query.after,
    before: query.before,
    isCalling: 0,
    callType: query.status ?? -1,
  });
  return { task, query };
}

export default function TaskPage() {
  const { task, query } = useLoaderData<typeof loader>();
  const { pathname, search } = useLocation();
  return (
    <Screen
      title={`${title}：${task.batch.name}`}
      actions={
        <a className="p-button p-button-outlined" href="/agentTask/my">
          返回我的任务
        </a>
      }
    >
      <dl className="sb-facts">
        <dt>活动</dt>
        <dd>{task.batch.campaignName}</dd>
        <dt>状态</dt>
        <dd>
          <CodeLabel table={BATCH_STATUSES} code={task.batch.status} />
        </dd>
      </dl>
      <CallStatusFilter status={query.status} size={query.size} />
      <CallTable caption="任务中的呼叫" calls={task.calls} pageNo={query.page} pageSize={query.size} pathname={pathname} search={search} />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
