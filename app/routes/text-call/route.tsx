import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ChatStateSchema, type ChatSessionSummary } from "#contracts/chat";
import { CHAT_STATES, labelOf } from "#contracts/codes";
import { requireAccess } from "#app/server/access.server";
import { CodeSelect } from "#app/components/code-select";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Screen } from "#app/components/screen";
import { FilterBar } from "#app/components/filters";
import { formatDateTime } from "#app/lib/chat-format";
import { maskPhone } from "#app/lib/format";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { listChatSessions } from "#app/services/chat.server";
import { ListResults, readListQuery, type Column } from "#app/components/chat-table";

const title = SCREEN_TITLES["/text/call"];
export const handle: RouteHandle = { title };

const FiltersSchema = {
  state: z.union([ChatStateSchema, z.literal("")]).default("closed"),
  keyword: z.string().trim().max(50).default(""),
};

/** Chat records: the tenant's (or, for an agent, its own) conversations, closed ones by default. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const url = new URL(request.url);
  const { query, problem } = readListQuery(url, FiltersSchema);
  const page = await listChatSessions(caller, {
    state: query.state ? [query.state] : [],
    keyword: query.keyword || undefined,
    pageNo: query.pageNo,
    pageSize: query.pageSize,
  });
  return { page, query, problem, url: request.url };
}

const columns: Column<ChatSessionSummary>[] = [
  { prop: "customer", label: "客户", render: (s) => s.customer.name },
  { prop: "customer", label: "手机号", render: (s) => maskPhone(s.customer.phone) },
  { prop: "customer", label: "渠道", render: (s) => s.customer.channel },
  { prop: "agentName", label: "坐席", render: (s) => s.agentName ?? "—" },
  { prop: "state", label: "状态", render: (s) => labelOf(CHAT_STATES, s.state) },
  { prop: "messageCount", label: "消息数" },
  { prop: "createdAt", label: "开始时间", render: (s) => formatDateTime(s.createdAt), minWidth: 176 },
  { prop: "closedAt", label: "结束时间", render: (s) => (s.closedAt ? formatDateTime(s.closedAt) : "—"), minWidth: 176 },
  { prop: "sessionId", label: "操作", render: (s) => <a href={`/text/call/${encodeURIComponent(s.sessionId)}`}>查看会话</a> },
];

export default function Page() {
  const { page, query, problem, url } = useLoaderData<typeof loader>();
  return (
    <Screen title={title}>
      <FilterBar label="筛选" resetHref="/text/call" size={query.pageSize}>
        <CodeSelect id="chat-state" name="state" label="状态" table={CHAT_STATES} defaultValue={query.state} empty="全部" />
        <div className="sb-field">
          <label htmlFor="chat-keyword">客户姓名或手机号</label>
          <input id="chat-keyword" name="keyword" defaultValue={query.keyword} maxLength={50} className="p-inputtext" />
        </div>
      </FilterBar>
      <ListResults
        url={url}
        problem={problem}
        page={page}
        query={query}
        columns={columns}
        caption="文本会话记录"
        rowKey="sessionId"
        empty="暂无会话记录"
      />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
