import { flattenMenu, isPathAllowed } from "#app/lib/access";
import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import type { PerformanceRow } from "#contracts/inspection";
import { WORK_TYPES } from "#contracts/codes";
import { CodeSelect, FilterSelect, nameChoices } from "#app/components/code-select";
import { DataTable, type Column, type SortOrder } from "#app/components/data-table";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Paginator } from "#app/components/paginator";
import { Screen } from "#app/components/screen";
import { FilterBar } from "#app/components/filters";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { requireAccess } from "#app/server/access.server";
import { parseListQuery } from "#app/server/page-query.server";
import { agentPerformance } from "#app/services/inspection.server";
import { AchievementQuerySchema, performanceQuery } from "./query.server";

// Named as the caller's menu names it: 我的业绩 for an agent (their own row), 坐席业绩 for the team.
export const handle: RouteHandle = { title: (data) => (data as { title?: string } | undefined)?.title };

/**
 * Agent performance (decision 018): per agent for a period and group — calls, connected, talk
 * time, average handle time, after-call work, conclusions, inspection pass rate, satisfaction.
 * Sorted by column links, exported as CSV; each agent opens their inspected calls. An agent sees
 * only their own row; a text agent sees their chats instead of calls. No JavaScript.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const { caller, user, menu } = await requireAccess(request);
  const query = parseListQuery(request, AchievementQuerySchema);
  const { start, end, workType, chat, sort, body } = performanceQuery(query, user);
  const performance = await agentPerformance(caller, body);
  // A floor of hundreds of agents: the sorted rows a page at a time (a 500-row table took the
  // browser half a second of layout on a phone).
  const rows = performance.list.slice((query.page - 1) * query.size, query.page * query.size);
  const page = { ...performance, list: rows };
  // Each agent row opens their inspected calls, for those whose menu has the inspection list.
  const title = flattenMenu(menu).find((item) => item.url === "/achievement")?.name ?? SCREEN_TITLES["/achievement"];
  const agent = user.role === "agent";
  return {
    title,
    query: { ...query, sort },
    start,
    end,
    workType,
    page,
    agent,
    chat,
    canInspect: isPathAllowed("/inspectionSuccess", menu),
  };
}

const percent = (value: number | null) => (value === null ? "—" : `${value}%`);

/** A voice agent's figures: their calls, after-call work, conclusions, inspections and ratings. */
const VOICE_COLUMNS: Column<PerformanceRow>[] = [
  { prop: "calls", label: "通话量", sortable: true },
  { prop: "connected", label: "接通量", sortable: true },
  { prop: "talkMs", label: "通话时长", sortable: true, type: "second" },
  { prop: "avgHandleMs", label: "平均处理时长", sortable: true, type: "second" },
  { prop: "acwMs", label: "话后整理", sortable: true, type: "second" },
  { prop: "succeeded", label: "处理成功", sortable: true },
  { prop: "failed", label: "处理失败", sortable: true },
  { prop: "inspected", label: "已质检", sortable: true },
  { prop: "passRate", label: "质检合格率", sortable: true, render: (r) => percent(r.passRate) },
  { prop: "satisfaction", label: "满意度", sortable: true, render: (r) => percent(r.satisfaction) },
];
/** A text agent's figures: the chats they served, their replies, the chats' length. */
const CHAT_COLUMNS: Column<PerformanceRow>[] = [
  { prop: "chats", label: "会话量", sortable: true },
  { prop: "replies", label: "回复数", sortable: true },
  { prop: "chatMs", label: "会话时长", sortable: true, type: "second" },
  { prop: "avgChatMs", label: "平均会话时长", sortable: true, type: "second" },
];

export default function Achievement() {
  const { title, query, start, end, workType, page, agent, chat, canInspect } = useLoaderData<typeof loader>();
  const { pathname, search } = useLocation();
  const params = (change: Record<string, string>) => {
    const next = new URLSearchParams(search);
    next.delete("page"); // another sort or period starts again at page 1
    for (const [key, value] of Object.entries(change)) next.set(key, value);
    return next.toString();
  };
  const sortHref = (prop: string, order: SortOrder) => `/achievement?${params({ sort: prop, order })}`;
  const calls = (row: PerformanceRow) => `/inspectionSuccess?agentId=${row.agentId}&start=${start}&end=${end}`;

  return (
    <Screen
      title={title}
      actions={
        <a
          className="p-button p-button-outlined"
          href={`/achievement/export?${params({ start, end, workType: String(workType) })}`}
          download
        >
          导出 CSV
        </a>
      }
    >
      <FilterBar label="筛选业绩" resetHref="/achievement">
        <div className="sb-field">
          <label htmlFor="ach-start">开始日期</label>
          <input id="ach-start" name="start" type="date" required defaultValue={start} className="p-inputtext" />
        </div>
        <div className="sb-field">
          <label htmlFor="ach-end">结束日期</label>
          <input id="ach-end" name="end" type="date" required defaultValue={end} className="p-inputtext" />
        </div>
        {agent ? null : (
          <CodeSelect id="ach-work-type" name="workType" label="坐席类型" table={WORK_TYPES} defaultValue={String(workType)} />
        )}
        {agent ? null : <FilterSelect id="ach-queue" name="queue" label="坐席组" table={nameChoices(page.queues)} value={query.queue} />}
        <input type="hidden" name="sort" value={query.sort} />
        <input type="hidden" name="order" value={query.order} />
      </FilterBar>
      <div className="sb-dense-table">
        <DataTable<PerformanceRow>
          caption="坐席业绩"
          rowKey="agentId"
          emptyMessage="该时段没有坐席数据"
          sort={{ prop: query.sort, order: query.order }}
          sortHref={sortHref}
          config={{
            list: page.list,
            total: page.total,
            eleItem: [
              { prop: "agentName", label: "坐席", render: (r) => (canInspect ? <a href={calls(r)}>{r.agentName}</a> : r.agentName) },
              { prop: "queueName", label: "坐席组", type: "code" },
              ...(chat ? CHAT_COLUMNS : VOICE_COLUMNS),
            ],
          }}
        />
      </div>
      <Paginator total={page.total} pageNo={query.page} pageSize={query.size} pathname={pathname} search={search} />
      <p className="sb-hint">
        {chat
          ? `统计 ${start} 至 ${end} 开始的会话。会话时长从客户发起到会话结束；平均会话时长 = 会话时长 ÷ 会话量。`
          : `统计 ${start} 至 ${end}。平均处理时长 =（通话时长 + 话后整理）÷ 接通量；质检合格 = 影响不为负面；满意度 = 评价 4 分及以上的占比。`}
      </p>
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
