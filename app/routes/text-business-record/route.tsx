import type { LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import type { ChatBusinessRecord } from "#contracts/chat";
import { CALL_RESULTS, CHAT_BUSINESS_CATEGORIES, labelOf } from "#contracts/codes";
import { requireAccess } from "#app/server/access.server";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Screen } from "#app/components/screen";
import { FilterBar } from "#app/components/filters";
import { formatDateTime } from "#app/lib/chat-format";
import type { RouteHandle } from "#app/lib/handle";
import { SCREEN_TITLES } from "#app/lib/screens";
import { listChatBusinessRecords } from "#app/services/chat.server";
import { ListResults, readListQuery, type Column } from "#app/components/chat-table";

const title = SCREEN_TITLES["/text/businessRecord"];
export const handle: RouteHandle = { title };

/** The business records agents saved for their chat sessions, newest first. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const url = new URL(request.url);
  const { query, problem } = readListQuery(url, { keyword: z.string().trim().max(50).default("") });
  const page = await listChatBusinessRecords(caller, {
    pageNo: query.pageNo,
    pageSize: query.pageSize,
    keyword: query.keyword || undefined,
  });
  return { page, query, problem, url: request.url };
}

const columns: Column<ChatBusinessRecord>[] = [
  { prop: "customerName", label: "客户" },
  { prop: "category", label: "业务类型", render: (r) => labelOf(CHAT_BUSINESS_CATEGORIES, r.category) },
  { prop: "result", label: "处理结果", render: (r) => labelOf(CALL_RESULTS, r.result) },
  { prop: "remark", label: "备注", render: (r) => r.remark || "—" },
  { prop: "agentName", label: "坐席", render: (r) => r.agentName ?? "—" },
  { prop: "updatedAt", label: "更新时间", render: (r) => formatDateTime(r.updatedAt), minWidth: 176 },
  { prop: "sessionId", label: "操作", render: (r) => <a href={`/text/call/${encodeURIComponent(r.sessionId)}`}>查看会话</a> },
];

export default function Page() {
  const { page, query, problem, url } = useLoaderData<typeof loader>();
  return (
    <Screen title={title}>
      <FilterBar label="筛选" resetHref="/text/businessRecord" size={query.pageSize}>
        <div className="sb-field">
          <label htmlFor="record-keyword">客户姓名</label>
          <input id="record-keyword" name="keyword" defaultValue={query.keyword} maxLength={50} className="p-inputtext" />
        </div>
      </FilterBar>
      <ListResults
        url={url}
        problem={problem}
        page={page}
        query={query}
        columns={columns}
        caption="文本业务记录"
        rowKey="sessionId"
        empty="暂无业务记录"
      />
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
