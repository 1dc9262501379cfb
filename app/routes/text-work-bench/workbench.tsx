import { useCallback, useEffect, useReducer, useRef, useState } from "react";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import type {
  ChatAddPayload,
  ChatBusinessRecord,
  ChatClosePayload,
  ChatSession,
  ChatSessionSummary,
  ChatUpdatePayload,
  QuickReply,
} from "#contracts/chat";
import type { RealtimeNotification } from "#contracts/events";
import type { SupervisorNotice } from "#contracts/monitor";
import { CHAT_EVENT } from "#contracts/workbench-live";
import type { WorkOrderTemplate } from "#contracts/work-orders";
import { ConfirmDialog } from "#app/components/confirm-dialog";
import { WorkOrderCard, type LinkedWorkOrder } from "#app/components/work-order-form";
import { SupervisorNoticeBanner } from "#app/components/supervisor-notice";
import { DRAFTS_KEY, readDrafts, writeDrafts } from "#app/client/chat-drafts";
import { takeEarlyText } from "#app/client/early-input";
import { initialSessions, neighbourId, sessionsReducer, unreadCount, type WorkbenchSession } from "#app/client/chat-sessions";
import { postAction } from "#app/client/island";
import { STREAM_STATUS_LABELS, useEventStream } from "#app/client/use-event-stream";
import { formatTime } from "#app/lib/chat-format";
import { Conversation, REPLY_FIELD_ID } from "./conversation";
import { CHAT_ACTIONS, CHAT_EVENTS } from "./endpoints";
import { BusinessRecordForm, ContactCard } from "./side-panel";
import { useChatOutbox } from "./use-chat-outbox";

type Props = {
  startId: number;
  sessions: ChatSession[];
  waiting: ChatSessionSummary[];
  quickReplies: QuickReply[];
  title: string;
  workOrders: { mayCreate: boolean; templates: WorkOrderTemplate[]; recordBase: string | null };
};

const toWorkbench = (session: ChatSession): WorkbenchSession => ({
  sessionId: session.sessionId,
  role: session.dialogs.at(-1)?.role ?? "user",
  dialogs: session.dialogs,
  isDot: false,
  customer: session.customer,
  createdAt: session.createdAt,
});

/** Writes to the tab's storage; when it is full or refused, what is kept lives in the page only. */
function store(key: string, value: string) {
  try {
    window.sessionStorage.setItem(key, value);
  } catch {
    // Nothing more to do: the page still holds it.
  }
}

function stored(key: string): string | null {
  try {
    return window.sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

/**
 * The text workbench island: the agent's sessions, the open conversation, the customer and the
 * business record. Notifications (`chat.*`) arrive on the event stream; actions go to the
 * workbench's endpoint (app/client/island.ts); replies go through the chat's outbox.
 */
export function TextWorkbench({ startId, sessions: loaded, waiting: loadedWaiting, quickReplies, title, workOrders }: Props) {
  const csrf = useAuthenticityToken();
  const [state, dispatch] = useReducer(sessionsReducer, loaded, (sessions) => initialSessions(sessions.map(toWorkbench)));
  const [records, setRecords] = useState<Record<string, ChatBusinessRecord | null>>(() =>
    Object.fromEntries(loaded.map((s) => [s.sessionId, s.businessRecord])),
  );
  const [waiting, setWaiting] = useState(loadedWaiting);
  // Each chat's work order: made before (the platform says) or in this visit; the form only for chats without one.
  const [orders, setOrders] = useState<Record<string, LinkedWorkOrder | null>>(() =>
    Object.fromEntries(loaded.map((s) => [s.sessionId, s.workOrder])),
  );
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState("");
  const [supervisorNotice, setSupervisorNotice] = useState<SupervisorNotice | null>(null);

  // Drafts survive a reload of the tab: saved on every change once the stored ones are restored
  // (after hydration, so the server's markup and the first client render agree).
  const draftsRestored = useRef(false);
  useEffect(() => {
    if (draftsRestored.current) store(DRAFTS_KEY, writeDrafts(drafts));
  }, [drafts]);
  useEffect(() => {
    const openIds = loaded.map((session) => session.sessionId);
    // A reply typed while the page was still loading is the draft of the chat open then (the first).
    const early = takeEarlyText(document.querySelector<HTMLTextAreaElement>(`#${REPLY_FIELD_ID}`));
    const typedEarly = early && openIds[0] ? { [openIds[0]]: early } : {};
    setDrafts((typed) => ({ ...readDrafts(stored(DRAFTS_KEY), openIds), ...typedEarly, ...typed }));
    draftsRestored.current = true;
  }, [loaded]);

  const setDraft = (sessionId: string, text: string) => setDrafts((all) => ({ ...all, [sessionId]: text }));
  const setError = (sessionId: string, text: string) => setErrors((all) => ({ ...all, [sessionId]: text }));

  const outbox = useChatOutbox(csrf, loaded, dispatch, (item, error) => {
    // A refused message comes back to the reply box, with the reason.
    setDraft(item.sessionId, item.content);
    setError(item.sessionId, error);
  });

  const addSession = (session: ChatSession) => {
    setRecords((all) => ({ ...all, [session.sessionId]: session.businessRecord }));
    setOrders((all) => ({ ...all, [session.sessionId]: session.workOrder }));
    dispatch({ type: "add", session: toWorkbench(session) });
  };

  // Payloads come as the console checked them (shownToChatAgent): the island loads no schema.
  const onNotification = (event: RealtimeNotification) => {
    if (event.type === CHAT_EVENT.add) addSession((event.payload as ChatAddPayload).session);
    else if (event.type === CHAT_EVENT.update) dispatch({ type: "update", ...(event.payload as ChatUpdatePayload) });
    else if (event.type === CHAT_EVENT.supervisor) setSupervisorNotice(event.payload as SupervisorNotice);
    else if (event.type === CHAT_EVENT.close) dispatch({ type: "close", sessionId: (event.payload as ChatClosePayload).sessionId });
  };
  const status = useEventStream(CHAT_EVENTS, startId, onNotification);

  // Back online: what waited goes out.
  const { flush } = outbox;
  useEffect(() => {
    if (status === "open") flush();
  }, [status, flush]);

  // Spec: the unread count in the page title.
  const unread = unreadCount(state);
  useEffect(() => {
    const base = document.title.replace(/^\(\d+\) /, "");
    document.title = unread > 0 ? `(${unread}) ${base}` : base;
  }, [unread]);

  const { settle } = outbox;
  const closeSession = useCallback(
    async (sessionId: string) => {
      if (!(await settle(sessionId))) return setError(sessionId, "结束会话失败：还有回复未发出，请恢复连接后重试");
      const answer = await postAction(CHAT_ACTIONS, csrf, "close", { sessionId });
      if (answer.ok) dispatch({ type: "close", sessionId });
      else setError(sessionId, answer.status === 0 ? "结束会话失败：暂时无法连接，请稍后重试" : answer.error);
    },
    [csrf, settle],
  );

  // Knowledge statistics: best effort, never in the agent's way.
  const countQuickReply = useCallback(
    (reply: QuickReply) => void postAction(CHAT_ACTIONS, csrf, "useReply", { id: String(reply.id) }),
    [csrf],
  );
  const reportNoMatch = useCallback((keyword: string) => void postAction(CHAT_ACTIONS, csrf, "noReply", { keyword }), [csrf]);

  const joinSession = async (sessionId: string) => {
    const answer = await postAction<ChatSession>(CHAT_ACTIONS, csrf, "join", { sessionId });
    if (answer.ok) {
      addSession(answer.result);
      setWaiting((list) => list.filter((s) => s.sessionId !== sessionId));
    } else setNotice(answer.status === 0 ? "接入会话失败，请稍后重试" : answer.error);
  };

  // Ending a session with a reply still being typed, or with no business record saved, is asked
  // first: the agent may have pressed Alt+E for the wrong session.
  const [ending, setEnding] = useState<{ sessionId: string; unsent: number; unrecorded: boolean } | null>(null);
  const requestClose = useCallback(
    (sessionId: string) => {
      const unsent = (drafts[sessionId] ?? "").trim().length;
      const unrecorded = !records[sessionId];
      if (unsent === 0 && !unrecorded) void closeSession(sessionId);
      else setEnding({ sessionId, unsent, unrecorded });
    },
    [drafts, records, closeSession],
  );

  // Keyboard shortcuts: Alt+↑/↓ move between sessions, Alt+E ends the open one.
  const openId = state.openId;
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.code === "ArrowDown" || event.code === "ArrowUp") {
        const next = neighbourId(state, event.code === "ArrowDown" ? 1 : -1);
        if (next) dispatch({ type: "open", sessionId: next });
      } else if (event.code === "KeyE" && openId) requestClose(openId);
      else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [state, openId, requestClose]);

  const open = state.sessions.find((s) => s.sessionId === state.openId) ?? null;

  return (
    <div className="sb-chat">
      <div className="sb-chat-status">
        <span role="status">实时连接：{STREAM_STATUS_LABELS[status]}</span>
        {outbox.unreachable ? <span className="sb-chat-warning">暂时无法连接平台，待发送的消息将在恢复后自动发送</span> : null}
        <span className="sb-chat-shortcuts">快捷键：Alt+↑ / Alt+↓ 切换会话，Alt+E 结束当前会话，输入 / 搜索快捷回复</span>
      </div>
      <SupervisorNoticeBanner notice={supervisorNotice} onDismiss={() => setSupervisorNotice(null)} />
      {notice ? (
        <p className="sb-message p-message-error" role="alert">
          {notice}
        </p>
      ) : null}
      <div className="sb-chat-grid">
        <nav className="sb-chat-sessions" aria-label="会话列表">
          <h2 className="sb-chat-heading">当前会话（{state.sessions.length}）</h2>
          {state.sessions.length === 0 ? <p className="sb-chat-empty">暂无会话，新的客户消息会自动出现在这里</p> : null}
          <ul>
            {state.sessions.map((session) => {
              const last = session.dialogs.at(-1);
              return (
                <li key={session.sessionId}>
                  <button
                    type="button"
                    className={`sb-chat-session${session.sessionId === state.openId ? " is-open" : ""}`}
                    aria-current={session.sessionId === state.openId ? "true" : undefined}
                    onClick={() => dispatch({ type: "open", sessionId: session.sessionId })}
                  >
                    <span className="sb-chat-session-name">
                      {session.customer.name}
                      {session.isDot ? (
                        <>
                          <span className="p-badge p-badge-dot p-badge-danger" aria-hidden="true" />
                          <span className="p-hidden-accessible">（有未读消息）</span>
                        </>
                      ) : null}
                    </span>
                    <span className="sb-chat-session-last">{last?.content ?? ""}</span>
                    {last ? <time dateTime={last.at}>{formatTime(last.at)}</time> : null}
                  </button>
                </li>
              );
            })}
          </ul>
          {waiting.length > 0 ? (
            <>
              <h2 className="sb-chat-heading">排队中（{waiting.length}）</h2>
              <ul>
                {waiting.map((session) => (
                  <li key={session.sessionId} className="sb-chat-waiting">
                    <span>{session.customer.name}</span>
                    <button
                      type="button"
                      className="p-button p-button-sm p-button-outlined"
                      onClick={() => void joinSession(session.sessionId)}
                    >
                      接入
                    </button>
                  </li>
                ))}
              </ul>
            </>
          ) : null}
        </nav>

        {open ? (
          <>
            <Conversation
              key={open.sessionId}
              session={open}
              quickReplies={quickReplies}
              draft={drafts[open.sessionId] ?? ""}
              error={errors[open.sessionId] ?? ""}
              onDraft={(text) => setDraft(open.sessionId, text)}
              onError={(text) => setError(open.sessionId, text)}
              onSend={(content) => outbox.send(open.sessionId, content)}
              onClose={() => requestClose(open.sessionId)}
              onQuickReply={countQuickReply}
              onNoMatch={reportNoMatch}
            />
            <aside className="sb-chat-side" aria-label="客户信息">
              <ContactCard session={open} />
              <BusinessRecordForm
                key={open.sessionId}
                csrf={csrf}
                sessionId={open.sessionId}
                record={records[open.sessionId] ?? null}
                onSaved={(record) => setRecords((all) => ({ ...all, [record.sessionId]: record }))}
              />
              {workOrders.mayCreate ? (
                <WorkOrderCard
                  key={`work-order-${open.sessionId}`}
                  endpoint={CHAT_ACTIONS}
                  link={{ sessionId: open.sessionId }}
                  linked={orders[open.sessionId] ?? null}
                  templates={workOrders.templates}
                  recordBase={workOrders.recordBase}
                  onCreated={(order) => setOrders((all) => ({ ...all, [open.sessionId]: order }))}
                />
              ) : null}
            </aside>
          </>
        ) : (
          <p className="sb-chat-placeholder">请从会话列表中选择一个会话</p>
        )}
      </div>
      <p className="p-hidden-accessible" aria-live="polite">
        {unread > 0 ? `${title}：${unread} 个会话有未读消息` : ""}
      </p>
      <ConfirmDialog
        open={ending !== null}
        title="结束会话"
        confirmLabel="结束会话"
        onConfirm={() => {
          if (ending) void closeSession(ending.sessionId);
          setEnding(null);
        }}
        onCancel={() => setEnding(null)}
      >
        {ending?.unsent ? <p>回复框中还有 {ending.unsent} 个字未发送，结束后将无法发送。</p> : null}
        {ending?.unrecorded ? <p>本会话尚未保存业务记录。</p> : null}
        <p>确定结束与 {state.sessions.find((s) => s.sessionId === ending?.sessionId)?.customer.name ?? "该客户"} 的会话吗？</p>
      </ConfirmDialog>
    </div>
  );
}
