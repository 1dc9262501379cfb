import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { Festival } from "#contracts/robot-resources";
import { EditDeleteActions } from "#app/components/row-actions";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { DeleteStep, rowFormOpen, rowRefusalMessage } from "#app/components/row-editing";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { ROBOT_RESOURCE_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { parseIntent, rejectForm } from "#app/server/forms.server";
import { parseListQuery } from "#app/server/page-query.server";
import { changeFestival, loadCalendar, saveWorkingWeekForm, type Posted } from "./calendar.server";
import { DispatchPreview } from "./dispatch-preview";
import { FestivalForm } from "./festival-form";
import { CalendarQuerySchema, INTENT_SCHEMAS, SCREEN, type CalendarQuery } from "./schema";
import { WorkingWeekForm } from "./working-week-form";

const title = ROBOT_RESOURCE_TITLES.calendar;
export const handle: RouteHandle = { title };

/** The robots' calendar (decision 030): the hours they call each weekday, the festivals they do not, a campaign's days ahead. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  return loadCalendar(caller, parseListQuery(request, CalendarQuerySchema) as CalendarQuery, title);
}

export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const { submission } = parseIntent(form, INTENT_SCHEMAS, title);
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const posted: Posted = {
    caller: access.caller,
    fail: (done) => rejectForm(submission, { formErrors: [done.message] }, done.status),
  };
  switch (input.intent) {
    case "working.save":
      return saveWorkingWeekForm(posted, input);
    case "festival.save":
    case "festival.delete":
      return changeFestival(posted, input);
  }
}

export default function RobotCalendar() {
  const { query, days, festivals, editing, campaigns, dispatch } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const rowError = rowRefusalMessage(result, ["working.save", "festival.save"]);

  return (
    <Screen title={title}>
      <DeleteStep result={result} title="删除节假日" message={(name) => `确定删除节假日「${name}」吗？删除后这些日期按工作日历拨打。`} />
      <WorkingWeekForm days={days} result={result} />

      <section aria-labelledby="festival-title" className="sb-section">
        <h2 id="festival-title" className="sb-section-title">
          节假日（机器人不拨打）
        </h2>
        {rowFormOpen(query.festival !== undefined, result, ["festival.save"]) ? (
          <FestivalForm editing={editing} result={result} />
        ) : (
          <p>
            <a className="p-button" href={`${SCREEN}?festival=new`}>
              新建节假日
            </a>
          </p>
        )}
        {rowError ? <Notice tone="error">{rowError}</Notice> : null}
        <DataTable<Festival>
          caption="节假日列表"
          rowKey="id"
          emptyMessage="暂无节假日"
          config={{
            list: festivals,
            total: festivals.length,
            eleItem: [
              { prop: "name", label: "名称", render: (f) => <strong>{f.name}</strong> },
              { prop: "startDate", label: "开始日期" },
              { prop: "endDate", label: "结束日期" },
              { prop: "days", label: "天数" },
              {
                prop: "id",
                label: "操作",
                render: (f) => (
                  <EditDeleteActions editHref={`${SCREEN}?festival=${f.id}`} intent="festival.delete" id={f.id} name={f.name} />
                ),
              },
            ],
          }}
        />
      </section>
      <DispatchPreview campaigns={campaigns} chosen={query.campaign} dispatch={dispatch} />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
