import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { QC_BULK_LIMIT, type QcBulkResult } from "#contracts/inspection";
import queueScript from "#app/client/inspection-queue.js?url";
import { ConfirmStep } from "#app/components/confirm";
import { EnhancementScript } from "#app/components/enhancement-script";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { firstError } from "#app/components/form-field";
import { refusalOf } from "#app/components/intent-form";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { rejectForm } from "#app/server/forms.server";
import { parseListQuery } from "#app/server/page-query.server";
import { InspectionFilters } from "./filters";
import { claimCalls, loadInspections, moveCalls, type Posted } from "./inspection.server";
import { InspectionScreenQuerySchema, ListIntentSchema } from "./query.server";
import { exportHref, SCREEN, typedList } from "./queue";
import { ApplyForm, BulkForm, bulkRefusal, BulkResults } from "./queue-forms";
import { QueueTable } from "./queue-table";

const title = SCREEN_TITLES[SCREEN];
export const handle: RouteHandle = { title };

/**
 * The inspection list (decision 018): every call of the tenant with its quality-check status, for
 * inspectors (supervisors, administrators) to apply for, order, reallot and recover; an agent sees
 * only their own inspected calls. Filters are a GET form, pages are links, changes are POST forms:
 * no JavaScript. Each row opens the scoring view (/inspectionSuccess/{callId}).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const access = await requireAccess(request);
  return loadInspections(access, parseListQuery(request, InspectionScreenQuerySchema));
}

export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  if (access.user.role === "agent") throw data({ message: "仅质检员可以操作质检队列", status: 403, what: "质检" }, { status: 403 });
  const submission = parseWithZod(form, { schema: ListIntentSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const posted: Posted = {
    caller: access.caller,
    search: new URL(request.url).search,
    fail: (message, status) => rejectForm(submission, { formErrors: [message] }, status),
  };
  switch (input.intent) {
    case "apply":
    case "order":
      return claimCalls(posted, input);
    case "reallot":
    case "recovery":
      return moveCalls(posted, input);
  }
}

export default function InspectionList() {
  const { query, problem, page, inspector, userId, agents, inspectors, cursors, asOf, startId } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  const refusal = refusalOf(result);
  const confirm = result && "confirm" in result ? result.confirm : undefined;
  const bulk: (QcBulkResult & { what: string }) | undefined = result && "bulk" in result ? result.bulk : undefined;
  const error = refusal ? firstError(refusal) : null;

  return (
    <Screen
      title={title}
      actions={
        <>
          <a className="p-button p-button-outlined" href={exportHref(search, "csv")} download>
            导出 CSV
          </a>
          <a className="p-button p-button-outlined" href={exportHref(search, "xlsx")} download>
            导出 XLSX
          </a>
        </>
      }
    >
      {confirm ? (
        <ConfirmStep
          title={confirm.intent === "reallot" ? "批量改派质检" : "批量收回质检"}
          fields={confirm.fields}
          confirmLabel={confirm.intent === "reallot" ? "确认改派" : "确认收回"}
          cancelHref={`${pathname}${search}`}
        >
          <p>
            {confirm.intent === "reallot"
              ? `将选中的 ${confirm.count} 条通话平均改派给 ${confirm.inspectors} 名质检员（每人相差不超过1条），已有的锁定会转给新的质检员。`
              : `将选中的 ${confirm.count} 条通话收回到待质检池，质检员未提交的结果将丢失。`}
            一次最多 {QC_BULK_LIMIT} 条，逐条给出结果。
          </p>
        </ConfirmStep>
      ) : null}
      {error ? <Notice tone="error">{error}</Notice> : null}
      {problem ? (
        <div id="qc-filter-problem">
          <Notice tone="error">{problem.message}</Notice>
        </div>
      ) : null}
      {bulk ? <BulkResults bulk={bulk} /> : null}

      <InspectionFilters query={query} inspector={inspector} agents={agents} problem={problem} />

      {inspector ? <ApplyForm result={result} /> : <p className="sb-hint">这里是您通话的质检结果。对结果有异议时，打开通话可申诉一次。</p>}

      {/* A refused bulk action keeps what was ticked: the rows and the inspectors. */}
      {inspector ? <BulkForm inspectors={inspectors} result={result} /> : null}

      <QueueTable
        page={page}
        query={query}
        inspector={inspector}
        userId={userId}
        startId={startId}
        selected={typedList(bulkRefusal(result)?.initialValue?.ids)}
        emptyMessage={problem ? problem.message : query.mine ? "您当前没有质检中的通话，可以先领取" : "没有符合条件的通话"}
        cursors={cursors}
        asOf={asOf}
      />
      {inspector ? <EnhancementScript src={queueScript} /> : null}
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
