import { getFormProps, getInputProps, useForm, type SubmissionResult } from "@conform-to/react";
import { getZodConstraint } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { z } from "zod";
import { WEEKDAYS, labelOf } from "#contracts/codes";
import {
  DISPATCH_DAYS,
  FESTIVAL_DAYS_MAX,
  FESTIVAL_NAME_MAX,
  type Festival,
  type TaskDispatch,
  type WorkingDay,
} from "#contracts/robot-resources";
import { CodeSelect, namedChoices } from "#app/components/code-select";
import { ConfirmStep } from "#app/components/confirm";
import { CsrfInput } from "#app/components/csrf-input";
import { EditDeleteActions } from "#app/components/row-actions";
import { DataTable } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice } from "#app/components/filters";
import { Field, FormErrors, firstError, inputClass } from "#app/components/form-field";
import { Screen } from "#app/components/screen";
import type { RouteHandle } from "#app/lib/handle";
import { ROBOT_RESOURCE_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { attempt, parseIntent, rejectForm } from "#app/server/forms.server";
import { parseListQuery } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import { selectCampaigns } from "#app/services/outbound.server";
import {
  deleteFestival,
  getTaskDispatch,
  getWorkingWeek,
  listFestivals,
  saveFestival,
  saveWorkingWeek,
} from "#app/services/robot-resources.server";
import { FestivalFormSchema, INTENT_SCHEMAS, WorkingFormSchema } from "./schema";

const SCREEN = "/robot/calendar";
const title = ROBOT_RESOURCE_TITLES.calendar;
export const handle: RouteHandle = { title };

const QuerySchema = z.object({
  festival: z.union([z.literal("new"), z.coerce.number().int().positive()]).optional(),
  campaign: z.coerce.number().int().positive().optional(),
});

export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const query = parseListQuery(request, QuerySchema) as z.infer<typeof QuerySchema>;
  const [days, festivals, campaigns, dispatch] = await Promise.all([
    getWorkingWeek(caller),
    listFestivals(caller),
    selectCampaigns(caller),
    query.campaign ? getTaskDispatch(caller, query.campaign) : null,
  ]);
  const editing = typeof query.festival === "number" ? (festivals.find((f) => f.id === query.festival) ?? null) : null;
  if (typeof query.festival === "number" && !editing) throw data({ message: "节假日不存在", status: 404, what: title }, { status: 404 });
  return { query, days, festivals, editing, campaigns, dispatch };
}

export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  const { submission } = parseIntent(form, INTENT_SCHEMAS, title);
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const { caller } = access;
  switch (input.intent) {
    case "working.save": {
      const done = await attempt(() => saveWorkingWeek(caller, input.days));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(SCREEN, "工作日历已保存");
    }
    case "festival.save": {
      const { intent: _intent, id, ...festival } = input;
      const done = await attempt(() => saveFestival(caller, id ?? null, festival));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(SCREEN, `节假日「${done.value.name}」已保存`);
    }
    case "festival.delete": {
      if (!input.confirmed)
        return data({ confirm: { fields: { intent: input.intent, id: String(input.id) }, name: input.name ?? String(input.id) } });
      const done = await attempt(() => deleteFestival(caller, input.id));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return redirectWithToast(SCREEN, "节假日已删除");
    }
  }
}

export default function RobotCalendar() {
  const { query, days, festivals, editing, campaigns, dispatch } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  const refusal = result && "initialValue" in result ? (result as SubmissionResult<string[]>) : undefined;
  const confirm = result && "confirm" in result ? result.confirm : undefined;
  const refusedIntent = refusal?.initialValue?.intent as string | undefined;
  const showFestivalForm = query.festival !== undefined || refusedIntent === "festival.save";
  const rowError = refusedIntent === "festival.delete" && refusal ? firstError(refusal) : null;

  return (
    <Screen title={title}>
      {confirm ? (
        <ConfirmStep title="删除节假日" fields={confirm.fields} confirmLabel="确认删除" cancelHref={`${pathname}${search}`}>
          <p>确定删除节假日「{confirm.name}」吗？删除后这些日期按工作日历拨打。</p>
        </ConfirmStep>
      ) : null}
      <WorkingWeekForm days={days} lastResult={refusedIntent === "working.save" ? refusal : undefined} />

      <section aria-labelledby="festival-title" className="sb-section">
        <h2 id="festival-title" className="sb-section-title">
          节假日（机器人不拨打）
        </h2>
        {showFestivalForm ? (
          <FestivalForm editing={editing} lastResult={refusedIntent === "festival.save" ? refusal : undefined} />
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

/** A campaign's calls over the next days as the calendars allow them (GET /task/api/dispatch/{id}). */
function DispatchPreview({
  campaigns,
  chosen,
  dispatch,
}: {
  campaigns: Array<{ id: number; name: string }>;
  chosen: number | undefined;
  dispatch: TaskDispatch | null;
}) {
  return (
    <section aria-labelledby="dispatch-title" className="sb-section">
      <h2 id="dispatch-title" className="sb-section-title">
        拨打时段预览（未来{DISPATCH_DAYS}天）
      </h2>
      <form method="get" className="sb-filters" aria-label="按外呼活动预览拨打时段">
        <CodeSelect
          id="dispatch-campaign"
          name="campaign"
          label="外呼活动"
          table={namedChoices(campaigns)}
          defaultValue={chosen === undefined ? "" : String(chosen)}
          empty="请选择"
          required
        />
        <div className="sb-filter-actions">
          <button type="submit" className="p-button">
            预览
          </button>
        </div>
      </form>
      {dispatch ? (
        <DataTable<TaskDispatch["days"][number]>
          caption={`「${dispatch.campaignName}」的拨打时段`}
          rowKey="date"
          emptyMessage="暂无"
          config={{
            list: dispatch.days,
            total: dispatch.days.length,
            eleItem: [
              { prop: "date", label: "日期" },
              { prop: "weekday", label: "星期", render: (d) => labelOf(WEEKDAYS, d.weekday) },
              {
                prop: "windows",
                label: "机器人拨打时段",
                render: (d) => (d.windows.length ? d.windows.map((w) => `${w.start}–${w.end}`).join("，") : `不拨打（${d.reason ?? ""}）`),
              },
            ],
          }}
        />
      ) : null}
    </section>
  );
}

function WorkingWeekForm({ days, lastResult }: { days: WorkingDay[]; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({
    id: "working-week",
    lastResult,
    constraint: getZodConstraint(WorkingFormSchema),
    shouldValidate: "onBlur",
    defaultValue: { days: days.map((d) => ({ ...d, weekday: String(d.weekday), enabled: d.enabled ? "on" : undefined })) },
  });
  const list = fields.days.getFieldList();
  return (
    <section aria-labelledby="working-title" className="sb-section">
      <h2 id="working-title" className="sb-section-title">
        工作时间（机器人只在这些时间拨打）
      </h2>
      <form method="post" {...getFormProps(form)}>
        <CsrfInput />
        <input type="hidden" name="intent" value="working.save" />
        <FormErrors id={form.errorId} errors={form.errors ?? fields.days.errors} />
        <div className="p-datatable p-component">
          <div className="p-datatable-wrapper">
            <table className="p-datatable-table" aria-label="每周工作时间">
              <thead className="p-datatable-thead">
                <tr>
                  <th scope="col">星期</th>
                  <th scope="col">拨打</th>
                  <th scope="col">开始时间</th>
                  <th scope="col">结束时间</th>
                </tr>
              </thead>
              <tbody className="p-datatable-tbody">
                {list.map((item, i) => {
                  const day = item.getFieldset();
                  const weekday = labelOf(WEEKDAYS, Number(day.weekday.initialValue ?? i + 1));
                  const error = day.start.errors?.[0] ?? day.end.errors?.[0];
                  return (
                    <tr key={item.key}>
                      <th scope="row">
                        {weekday}
                        <input type="hidden" name={day.weekday.name} value={day.weekday.initialValue ?? String(i + 1)} />
                      </th>
                      <td>
                        <input
                          {...getInputProps(day.enabled, { type: "checkbox" })}
                          aria-label={`${weekday}拨打`}
                          className="p-checkbox-input-native"
                        />
                      </td>
                      <td>
                        <input
                          {...getInputProps(day.start, { type: "time" })}
                          aria-label={`${weekday}开始时间`}
                          className={inputClass(day.start)}
                        />
                      </td>
                      <td>
                        <input
                          {...getInputProps(day.end, { type: "time" })}
                          aria-label={`${weekday}结束时间`}
                          className={inputClass(day.end)}
                        />
                        {error ? (
                          <small id={day.end.errorId} className="p-error">
                            {error}
                          </small>
                        ) : null}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </div>
        </div>
        <div className="sb-form-actions">
          <button type="submit" className="p-button">
            保存工作时间
          </button>
        </div>
      </form>
    </section>
  );
}

function FestivalForm({ editing, lastResult }: { editing: Festival | null; lastResult: SubmissionResult<string[]> | undefined }) {
  const [form, fields] = useForm({
    id: "festival",
    lastResult,
    constraint: getZodConstraint(FestivalFormSchema),
    shouldValidate: "onBlur",
    defaultValue: editing
      ? { id: String(editing.id), name: editing.name, startDate: editing.startDate, endDate: editing.endDate }
      : undefined,
  });
  const editingId = editing?.id ?? (lastResult?.initialValue?.id ? String(lastResult.initialValue.id) : undefined);
  return (
    <form method="post" {...getFormProps(form)} className="sb-form-grid" aria-label={editingId ? "编辑节假日" : "新建节假日"}>
      <CsrfInput />
      <input type="hidden" name="intent" value="festival.save" />
      {editingId ? <input type="hidden" name="id" value={editingId} /> : null}
      <FormErrors id={form.errorId} errors={form.errors} />
      <Field field={fields.name} label="节日名称">
        <input {...getInputProps(fields.name, { type: "text" })} maxLength={FESTIVAL_NAME_MAX} className={inputClass(fields.name)} />
      </Field>
      <Field field={fields.startDate} label="开始日期">
        <input {...getInputProps(fields.startDate, { type: "date" })} className={inputClass(fields.startDate)} />
      </Field>
      <Field field={fields.endDate} label="结束日期（含当天）">
        <input {...getInputProps(fields.endDate, { type: "date" })} className={inputClass(fields.endDate)} />
      </Field>
      <p className="sb-hint sb-kb-wide">节假日之间不能重叠；一个节日最长{FESTIVAL_DAYS_MAX}天。</p>
      <div className="sb-form-actions">
        <button type="submit" className="p-button">
          {editingId ? "保存节假日" : "添加节假日"}
        </button>
        <a className="p-button p-button-text" href={SCREEN}>
          取消
        </a>
      </div>
    </form>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
