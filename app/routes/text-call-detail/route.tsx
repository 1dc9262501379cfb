import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { CALL_RESULTS, CHAT_BUSINESS_CATEGORIES, CHAT_STATES, labelOf } from "#contracts/codes";
import { requireAccess } from "#app/server/access.server";
import { GeneralErrorBoundary } from "#app/components/error-boundary";
import { Screen } from "#app/components/screen";
import { formatDateTime, formatTime } from "#app/lib/chat-format";
import { maskPhone } from "#app/lib/format";
import type { RouteHandle } from "#app/lib/handle";
import { getChatSession } from "#app/services/chat.server";

const title = "会话详情";
export const handle: RouteHandle = { title };

/** One whole conversation of the chat records (no JavaScript); unknown or foreign ids are a 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { caller } = await requireAccess(request);
  const id = params.id ?? "";
  if (!/^[\w-]{1,64}$/.test(id)) throw data({ message: "会话不存在", status: 404, what: "获取会话" }, { status: 404 });
  return { session: await getChatSession(caller, id) };
}

export default function Page() {
  const { session } = useLoaderData<typeof loader>();
  const record = session.businessRecord;
  return (
    <Screen
      title={`${title}：${session.customer.name}`}
      actions={
        <a href="/text/call" className="p-button p-button-sm p-button-outlined">
          返回会话记录
        </a>
      }
    >
      <dl className="sb-facts">
        <div>
          <dt>客户</dt>
          <dd>{session.customer.name}</dd>
        </div>
        <div>
          <dt>手机号</dt>
          <dd>{maskPhone(session.customer.phone)}</dd>
        </div>
        <div>
          <dt>渠道</dt>
          <dd>{session.customer.channel}</dd>
        </div>
        <div>
          <dt>坐席</dt>
          <dd>{session.agentName ?? "—"}</dd>
        </div>
        <div>
          <dt>状态</dt>
          <dd>{labelOf(CHAT_STATES, session.state)}</dd>
        </div>
        <div>
          <dt>开始时间</dt>
          <dd>{formatDateTime(session.createdAt)}</dd>
        </div>
        <div>
          <dt>结束时间</dt>
          <dd>{session.closedAt ? formatDateTime(session.closedAt) : "—"}</dd>
        </div>
      </dl>
      <h2 className="sb-section-title">会话内容（{session.dialogs.length} 条）</h2>
      <ol className="sb-chat-transcript" aria-label="会话内容">
        {session.dialogs.map((dialog) => (
          <li key={dialog.id} className={`sb-chat-line is-${dialog.role}`}>
            <span className="sb-chat-who">
              {dialog.role === "user" ? session.customer.name : dialog.role === "agent" ? (session.agentName ?? "坐席") : "系统"}
            </span>
            <p>{dialog.content}</p>
            <span className="sb-chat-meta">
              <time dateTime={dialog.at}>{formatTime(dialog.at)}</time>
            </span>
          </li>
        ))}
      </ol>
      <h2 className="sb-section-title">业务记录</h2>
      {record ? (
        <dl className="sb-facts">
          <div>
            <dt>业务类型</dt>
            <dd>{labelOf(CHAT_BUSINESS_CATEGORIES, record.category)}</dd>
          </div>
          <div>
            <dt>处理结果</dt>
            <dd>{labelOf(CALL_RESULTS, record.result)}</dd>
          </div>
          <div>
            <dt>备注</dt>
            <dd>{record.remark || "—"}</dd>
          </div>
        </dl>
      ) : (
        <p>暂无业务记录</p>
      )}
    </Screen>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
