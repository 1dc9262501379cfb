import type { ReactNode } from "react";
import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useActionData, useLoaderData, useLocation } from "@remix-run/react";
import {
  INTENT_LABELS,
  QC_APPEAL_STATES,
  QC_INFLUENCES,
  QUALITY_CHECK_STATUSES,
  RESULT_CODES,
  QC_CHECKING,
  TEXT_AGENT_WORK_TYPE,
  toneOf,
  type CodeTable,
} from "#contracts/codes";
import {
  INSPECTION_NOTIFICATIONS,
  QC_APPLY_LIMIT,
  QC_BULK_LIMIT,
  QC_LOCK_MINUTES,
  type InspectionPage,
  type InspectionRow,
  type QcBulkResult,
} from "#contracts/inspection";
import queueScript from "#app/client/inspection-queue.js?url";
import { STREAM_STATUS_LABELS } from "#app/client/use-event-stream";
import { CodeLabel } from "#app/components/code-tag";
import { ConfirmStep } from "#app/components/confirm";
import { CsrfInput } from "#app/components/csrf-input";
import { DataTable } from "#app/components/data-table";
import { EnhancementScript } from "#app/components/enhancement-script";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Notice, FilterBar } from "#app/components/filters";
import { firstError } from "#app/components/form-field";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import { formatDateTime, formatDuration, maskPhone } from "#app/lib/format";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { requireAccess, requireActionAccess } from "#app/server/access.server";
import { attempt, rejectForm } from "#app/server/forms.server";
import { parseListQuery } from "#app/server/page-query.server";
import { redirectWithToast } from "#app/server/toast.server";
import { listUsers } from "#app/services/crm.server";
import { getRealtimeStart } from "#app/services/events.server";
import {
  applyInspections,
  listInspectionAccess,
  listInspections,
  orderInspections,
  reallotInspections,
  recoverInspections,
} from "#app/services/inspection.server";
import { InspectionScreenQuerySchema, ListIntentSchema, filterProblem, platformQuery, type InspectionScreenQuery } from "./query.server";

const title = SCREEN_TITLES["/inspectionSuccess"];
export const handle: RouteHandle = { title };
const SCREEN = "/inspectionSuccess";

/**
 * The inspection list (decision 018): every call of the tenant with its quality-check status, for
 * inspectors (supervisors, administrators) to apply for, order, reallot and recover; an agent sees
 * only their own inspected calls. Filters are a GET form, pages are links, changes are POST forms:
 * no JavaScript. Each row opens the scoring view (/inspectionSuccess/{callId}).
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { caller, user } = await requireAccess(request);
  const query = parseListQuery(request, InspectionScreenQuerySchema);
  const problem = filterProblem(query);
  const inspector = user.role !== "agent";
  // The live queue's stream starts where the tenant's notifications are now, before the list is
  // read: a change in between arrives again and sets the row as it is (decision 033).
  // Without it (the events service failing) the page is what it is without JavaScript: not live.
  const startId = inspector ? await getRealtimeStart(caller, { scope: "tenant" }).catch(() => null) : null;
  const [page, agents, access] = await Promise.all([
    problem ? Promise.resolve<InspectionPage>({ list: [], total: 0 }) : listInspections(caller, platformQuery(query)),
    inspector
      ? listUsers(caller).then((users) =>
          users.list.filter((u) => u.role === "agent" && u.workType !== TEXT_AGENT_WORK_TYPE).map((u) => ({ id: u.id, name: u.realName })),
        )
      : Promise.resolve([]),
    inspector ? listInspectionAccess(caller) : Promise.resolve(null),
  ]);
  const rows = page.list;
  return data(
    {
      query,
      problem,
      page,
      inspector,
      userId: user.id,
      agents,
      inspectors: access?.inspectors ?? [],
      asOf: Date.now(),
      startId,
      cursors:
        rows.length > 0
          ? { first: `${rows[0].callTime}_${rows[0].callId}`, last: `${rows.at(-1)!.callTime}_${rows.at(-1)!.callId}` }
          : undefined,
    },
    { status: problem ? 400 : 200 },
  );
}

export async function action({ request }: ActionFunctionArgs) {
  const { access, form } = await requireActionAccess(request);
  if (access.user.role === "agent") throw data({ message: "仅质检员可以操作质检队列", status: 403, what: "质检" }, { status: 403 });
  const submission = parseWithZod(form, { schema: ListIntentSchema });
  if (submission.status !== "success") return rejectForm(submission);
  const input = submission.value;
  const { caller } = access;
  const back = new URL(request.url);
  const here = `${SCREEN}${back.search}`;
  switch (input.intent) {
    case "apply": {
      const done = await attempt(() => applyInspections(caller, { count: input.count }));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      if (done.value.done === 0) return rejectForm(submission, { formErrors: ["没有可领取的待质检通话（已接通、在您的质检范围内）"] });
      return redirectWithToast(`${SCREEN}?mine=1`, `已领取 ${done.value.done} 条通话，锁定${QC_LOCK_MINUTES}分钟`);
    }
    case "order": {
      const done = await attempt(() => orderInspections(caller, { ids: input.ids }));
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return data({ bulk: { what: "领取", ...done.value } });
    }
    case "reallot":
    case "recovery": {
      if (!input.confirmed) {
        const fields: Record<string, string | string[]> = { intent: input.intent, ids: input.ids.map(String), reason: input.reason ?? "" };
        if (input.intent === "reallot") fields.inspectorIds = input.inspectorIds.map(String);
        return data({
          confirm: {
            intent: input.intent,
            fields,
            count: input.ids.length,
            inspectors: input.intent === "reallot" ? input.inspectorIds.length : 0,
          },
        });
      }
      const done = await attempt(() =>
        input.intent === "reallot"
          ? reallotInspections(caller, { ids: input.ids, inspectorIds: input.inspectorIds, reason: input.reason ?? "" })
          : recoverInspections(caller, { ids: input.ids, reason: input.reason ?? "" }),
      );
      if (!done.ok) return rejectForm(submission, { formErrors: [done.message] }, done.status);
      return data({ bulk: { what: input.intent === "reallot" ? "改派" : "收回", ...done.value }, here });
    }
  }
}

function screenHref(query: Record<string, unknown>, change: Record<string, string | number | undefined> = {}) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, page: undefined, after: undefined, before: undefined, ...change })) {
    if (value === undefined || value === "" || (key === "size" && value === 20)) continue;
    params.set(key, String(value));
  }
  const search = params.toString();
  return search ? `${SCREEN}?${search}` : SCREEN;
}

/** The export link of the list as filtered now. */
function exportHref(search: string, format: "csv" | "xlsx") {
  const params = new URLSearchParams(search);
  for (const key of ["page", "size", "after", "before"]) params.delete(key);
  params.set("format", format);
  return `${SCREEN}/export?${params}`;
}

export default function InspectionList() {
  const { query, problem, page, inspector, userId, agents, inspectors, cursors, asOf, startId } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const { pathname, search } = useLocation();
  const refusal = result && "initialValue" in result ? result : undefined;
  const confirm = result && "confirm" in result ? result.confirm : undefined;
  const bulk: (QcBulkResult & { what: string }) | undefined = result && "bulk" in result ? result.bulk : undefined;
  const error = refusal ? firstError(refusal) : null;
  const typedReason = refusal ? String(refusal.initialValue?.reason ?? "") : "";
  // A refused bulk action keeps what was ticked: the rows and the inspectors.
  const typedIds = typedList(refusal?.initialValue?.ids);
  const typedInspectors = typedList(refusal?.initialValue?.inspectorIds);
  const invalid = (field: "start" | "minDuration") =>
    problem?.field === field ? { "aria-invalid": true, "aria-describedby": "qc-filter-problem" } : {};

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

      <FilterBar label="筛选质检通话" resetHref={SCREEN} size={query.size}>
        <div className="sb-field">
          <label htmlFor="qc-start">开始日期</label>
          <input id="qc-start" name="start" type="date" defaultValue={query.start ?? ""} className="p-inputtext" {...invalid("start")} />
        </div>
        <div className="sb-field">
          <label htmlFor="qc-end">结束日期</label>
          <input id="qc-end" name="end" type="date" defaultValue={query.end ?? ""} className="p-inputtext" />
        </div>
        <div className="sb-field">
          <label htmlFor="qc-status">质检状态</label>
          <select id="qc-status" name="qcStatus" defaultValue={query.qcStatus ?? ""} className="p-inputtext">
            <option value="">全部</option>
            {QUALITY_CHECK_STATUSES.map((s) => (
              <option key={s.code} value={s.code}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <div className="sb-field">
          <label htmlFor="qc-intent">意向标签</label>
          <select id="qc-intent" name="intent" defaultValue={query.intent ?? ""} className="p-inputtext">
            <option value="">全部</option>
            {INTENT_LABELS.map((s) => (
              <option key={s.code} value={s.code}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        <div className="sb-field">
          <label htmlFor="qc-result">通话结果</label>
          <select id="qc-result" name="callResult" defaultValue={query.callResult ?? ""} className="p-inputtext">
            <option value="">全部</option>
            {RESULT_CODES.map((s) => (
              <option key={s.code} value={s.code}>
                {s.code} {s.label}
              </option>
            ))}
          </select>
        </div>
        {inspector ? (
          <div className="sb-field">
            <label htmlFor="qc-agent">坐席</label>
            <select id="qc-agent" name="agentId" defaultValue={query.agentId ?? ""} className="p-inputtext">
              <option value="">全部</option>
              {agents.map((a) => (
                <option key={a.id} value={a.id}>
                  {a.name}
                </option>
              ))}
            </select>
          </div>
        ) : null}
        <div className="sb-field">
          <label htmlFor="qc-min">最短时长（秒）</label>
          <input
            id="qc-min"
            name="minDuration"
            type="number"
            min={0}
            max={86400}
            defaultValue={query.minDuration ?? ""}
            className="p-inputtext"
            {...invalid("minDuration")}
          />
        </div>
        <div className="sb-field">
          <label htmlFor="qc-max">最长时长（秒）</label>
          <input
            id="qc-max"
            name="maxDuration"
            type="number"
            min={0}
            max={86400}
            defaultValue={query.maxDuration ?? ""}
            className="p-inputtext"
          />
        </div>
        <div className="sb-field">
          <label htmlFor="qc-appeal">申诉</label>
          <select id="qc-appeal" name="appealState" defaultValue={query.appealState ?? ""} className="p-inputtext">
            <option value="">全部</option>
            {QC_APPEAL_STATES.map((s) => (
              <option key={s.code} value={s.code}>
                {s.label}
              </option>
            ))}
          </select>
        </div>
        {inspector ? (
          <div className="sb-field sb-field-check">
            <input id="qc-mine" name="mine" type="checkbox" value="1" defaultChecked={query.mine === "1"} />
            <label htmlFor="qc-mine">只看我质检中的</label>
          </div>
        ) : null}
      </FilterBar>

      {inspector ? (
        <div className="sb-inline-forms">
          <form method="post" className="sb-inline-forms" aria-label="领取质检">
            <CsrfInput />
            <input type="hidden" name="intent" value="apply" />
            <div className="sb-field">
              <label htmlFor="qc-count">领取数量（最多{QC_APPLY_LIMIT}条）</label>
              <input
                id="qc-count"
                name="count"
                type="number"
                min={1}
                max={QC_APPLY_LIMIT}
                required
                defaultValue={refusal?.initialValue?.intent === "apply" ? String(refusal.initialValue.count ?? "") : "10"}
                className="p-inputtext"
              />
            </div>
            <button type="submit" className="p-button">
              领取待质检
            </button>
          </form>
          <a className="p-button p-button-outlined" href={screenHref({}, { mine: 1 })}>
            我的质检队列
          </a>
        </div>
      ) : (
        <p className="sb-hint">这里是您通话的质检结果。对结果有异议时，打开通话可申诉一次。</p>
      )}

      {inspector ? (
        <form method="post" id="qc-bulk" className="sb-inline-forms" aria-label="批量操作所选通话">
          <CsrfInput />
          <fieldset className="sb-fieldset">
            <legend>改派给质检员（平均分配）</legend>
            {inspectors.map((i) => (
              <label key={i.id} className="sb-check">
                <input type="checkbox" name="inspectorIds" value={i.id} defaultChecked={typedInspectors.includes(String(i.id))} /> {i.name}
              </label>
            ))}
          </fieldset>
          <div className="sb-field">
            <label htmlFor="qc-reason">原因（选填）</label>
            <input id="qc-reason" name="reason" maxLength={200} defaultValue={typedReason} className="p-inputtext" />
          </div>
          <button type="submit" name="intent" value="order" className="p-button p-button-outlined">
            领取所选
          </button>
          <button type="submit" name="intent" value="reallot" className="p-button p-button-outlined">
            改派所选
          </button>
          <button type="submit" name="intent" value="recovery" className="p-button p-button-danger p-button-outlined">
            收回所选
          </button>
          <span className="sb-hint">一次最多 {QC_BULK_LIMIT} 条</span>
        </form>
      ) : null}

      <div data-qc-live={inspector && startId !== null ? liveConfig({ startId, userId, query }) : undefined}>
        <DataTable<InspectionRow>
          caption="质检通话列表"
          rowKey="callId"
          selectionForm={inspector ? "qc-bulk" : undefined}
          selected={typedIds}
          emptyMessage={problem ? problem.message : query.mine ? "您当前没有质检中的通话，可以先领取" : "没有符合条件的通话"}
          config={{
            list: page.list,
            total: page.total,
            attributes: { selection: inspector },
            eleItem: [
              { prop: "callTime", label: "呼叫时间", type: "datetime", minWidth: 150 },
              { prop: "phone", label: "电话号码", render: (r) => maskPhone(r.phone) },
              { prop: "agentName", label: "坐席", render: (r) => r.agentName ?? "—" },
              { prop: "campaignName", label: "活动", render: (r) => r.campaignName ?? "—" },
              { prop: "callDuration", label: "时长", render: (r) => formatDuration(r.callDuration) },
              { prop: "intent", label: "意向", render: (r) => (r.intent ? <CodeLabel table={INTENT_LABELS} code={r.intent} /> : "—") },
              {
                prop: "qcStatus",
                label: "质检状态",
                render: (r) => (
                  <Live call={r} field="status">
                    <CodeLabel table={QUALITY_CHECK_STATUSES} code={r.qcStatus} />
                  </Live>
                ),
              },
              {
                prop: "influence",
                label: "影响",
                render: (r) => (
                  <Live call={r} field="influence">
                    {r.influence === null ? "—" : <CodeLabel table={QC_INFLUENCES} code={r.influence} />}
                  </Live>
                ),
              },
              {
                prop: "score",
                label: "得分",
                render: (r) => (
                  <Live call={r} field="score">
                    {r.score === null ? "—" : r.score}
                  </Live>
                ),
              },
              {
                prop: "inspectorName",
                label: "质检员",
                render: (r) => (
                  <Live call={r} field="inspector">
                    {r.inspectorName ?? "—"}
                  </Live>
                ),
              },
              {
                prop: "appealState",
                label: "申诉",
                render: (r) => (
                  <Live call={r} field="appeal">
                    {r.appealState ? <CodeLabel table={QC_APPEAL_STATES} code={r.appealState} /> : "—"}
                  </Live>
                ),
              },
              {
                prop: "callId",
                label: "操作",
                render: (r) => {
                  const verb = r.qcStatus === QC_CHECKING && r.inspectorId === userId ? "质检" : "查看";
                  return (
                    <a href={`${SCREEN}/${r.callId}`} aria-label={`${verb}通话 ${r.callId}`} data-call={r.callId} data-qc="action">
                      {verb}
                    </a>
                  );
                },
              },
            ],
          }}
        />
        <Paginator
          total={page.total}
          estimated={page.estimated}
          pageNo={query.page}
          pageSize={query.size}
          pathname={pathname}
          search={search}
          cursors={cursors}
        />
        <p className="sb-hint">
          数据时间：<span data-qc="asOf">{formatDateTime(asOf)}</span>。领取的通话锁定 {QC_LOCK_MINUTES} 分钟，超时未提交自动退回待质检。
          {inspector ? <span data-qc="stream" role="status" /> : null}
        </p>
      </div>
      {inspector ? <EnhancementScript src={queueScript} /> : null}
    </Screen>
  );
}

/** A posted field's values (one value or several) as the form sent them back. */
const typedList = (value: unknown) => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]).map(String);

/** A cell the live queue's script updates in place (app/client/inspection-queue.js). */
function Live({ call, field, children }: { call: InspectionRow; field: string; children: ReactNode }) {
  return (
    <span data-call={call.callId} data-qc={field}>
      {children}
    </span>
  );
}

const tags = <C extends string | number>(table: CodeTable<C>) =>
  Object.fromEntries(table.map((c) => [c.code, [c.label, toneOf(table, c.code) === "none" ? "secondary" : toneOf(table, c.code)]]));

/**
 * What the live queue's script needs, in the markup (so no rule or text is written twice): where
 * its stream starts, whose queue it is, the filter on inspection state (a call entering or leaving
 * it reloads the list), and the labels and tones of the codes it shows.
 */
function liveConfig({ startId, userId, query }: { startId: number; userId: number; query: InspectionScreenQuery }) {
  return JSON.stringify({
    stream: `${SCREEN}/events`,
    type: INSPECTION_NOTIFICATIONS.calls,
    startId,
    userId,
    checking: QC_CHECKING,
    filter: { qcStatus: query.qcStatus ?? null, mine: query.mine === "1", appealState: query.appealState ?? null },
    status: tags(QUALITY_CHECK_STATUSES),
    influence: tags(QC_INFLUENCES),
    appeal: tags(QC_APPEAL_STATES),
    streamLabels: { ...STREAM_STATUS_LABELS, prefix: "实时更新：" },
    verbs: { score: "质检", view: "查看", call: "通话" },
  });
}

function BulkResults({ bulk }: { bulk: QcBulkResult & { what: string } }) {
  const failed = bulk.results.filter((r) => !r.ok);
  return (
    <Notice tone={failed.length > 0 ? "info" : "success"}>
      {bulk.what}完成：成功 {bulk.done} 条，失败 {bulk.failed} 条。
      {failed.length > 0 ? (
        <DataTable
          caption={`${bulk.what}失败的通话`}
          rowKey="callId"
          config={{
            list: failed,
            total: failed.length,
            eleItem: [
              { prop: "callId", label: "通话编号" },
              { prop: "message", label: "原因" },
            ],
          }}
        />
      ) : null}
    </Notice>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
