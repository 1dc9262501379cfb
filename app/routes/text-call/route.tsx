import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ChatStateSchema, type ChatSessionSummary } from "../../../contracts/chat";
import { CHAT_STATES, labelOf } from "../../../contracts/codes";
import { requireAccess } from "../../access.server";
import { CodeSelect } from "../../components/code-select";
import { GeneralErrorBoundary } from "../../components/error-boundary";
import { Screen } from "../../components/screen";
import { formatDateTime } from "../../lib/chat-format";
import { maskPhone } from "../../lib/format";
import type { RouteHandle } from "../../lib/handle";
import { SCREEN_TITLES } from "../../lib/screens";
import { listChatSessions } from "../../services/chat.server";
import { ListResults, readListQuery, type Column } from "./chat-table";

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
  { label: "客户", cell: (s) => s.customer.name },
  { label: "手机号", cell: (s) => maskPhone(s.customer.phone) },
  { label: "渠道", cell: (s) => s.customer.channel },
  { label: "坐席", cell: (s) => s.agentName ?? "—" },
  { label: "状态", cell: (s) => labelOf(CHAT_STATES, s.state) },
  { label: "消息数", cell: (s) => s.messageCount },
  { label: "开始时间", cell: (s) => formatDateTime(s.createdAt), minWidth: "11rem" },
  { label: "结束时间", cell: (s) => (s.closedAt ? formatDateTime(s.closedAt) : "—"), minWidth: "11rem" },
  { label: "操作", cell: (s) => <a href={`/text/call/${encodeURIComponent(s.sessionId)}`}>查看会话</a> },
];

export default function Page() {
  const { page, query, problem, url } = useLoaderData<typeof loader>();
  return (
    <Screen title={title}>
      <form method="get" className="sb-filters" aria-label="筛选">
        <CodeSelect id="chat-state" name="state" label="状态" table={CHAT_STATES} defaultValue={query.state} empty="全部" />
        <div className="sb-field">
          <label htmlFor="chat-keyword">客户姓名或手机号</label>
          <input id="chat-keyword" name="keyword" defaultValue={query.keyword} maxLength={50} className="p-inputtext" />
        </div>
        <input type="hidden" name="pageSize" value={query.pageSize} />
        <button type="submit" className="p-button p-button-sm">
          查询
        </button>
      </form>
      <ListResults url={url} problem={problem} page={page} query={query} columns={columns} rowKey={(s) => s.sessionId} empty="暂无会话记录" />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
