import { useCallback, useEffect, useReducer, useRef, useState, type KeyboardEvent } from "react";
import { useAuthenticityToken } from "remix-utils/csrf/react";
import {
  CHAT_EVENT,
  ChatAddPayloadSchema,
  ChatBusinessRecordSchema,
  ChatClosePayloadSchema,
  ChatDialogSchema,
  ChatSessionSchema,
  ChatUpdatePayloadSchema,
  MAX_MESSAGE_LENGTH,
  MESSAGE_EMPTY,
  MESSAGE_TOO_LONG,
  type ChatBusinessRecord,
  type ChatSession,
  type ChatSessionSummary,
  type QuickReply,
} from "#contracts/chat";
import { CALL_RESULTS, CHAT_BUSINESS_CATEGORIES } from "#contracts/codes";
import type { RealtimeNotification } from "#contracts/events";
import { CodeSelect } from "#app/components/code-select";
import {
  DRAFTS_KEY,
  PENDING_KEY,
  readDrafts,
  readPendingReplies,
  writeDrafts,
  writePendingReplies,
  type PendingReply,
} from "#app/client/chat-drafts";
import { formatDateTime, formatTime } from "#app/lib/chat-format";
import { maskPhone } from "#app/lib/format";
import {
  initialSessions,
  neighbourId,
  sessionsReducer,
  unreadCount,
  type SessionAction,
  type WorkbenchSession,
} from "#app/client/chat-sessions";
import { STREAM_STATUS_LABELS, useEventStream } from "#app/client/use-event-stream";
import type { WorkbenchAnswer } from "./actions";

type Props = { startId: number; sessions: ChatSession[]; waiting: ChatSessionSummary[]; quickReplies: QuickReply[]; title: string };

const ACTIONS_URL = "/textWorkBench/actions";
/** While the platform is unreachable, pending messages are retried this often (and when the network returns). */
const RETRY_MS = 3_000;

const toWorkbench = (session: ChatSession): WorkbenchSession => ({
  sessionId: session.sessionId,
  role: session.dialogs.at(-1)?.role ?? "user",
  dialogs: session.dialogs,
  isDot: false,
  customer: session.customer,
  createdAt: session.createdAt,
});

/** A client id for a message, also where crypto.randomUUID is missing (plain http). */
const newClientId = () =>
  typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

/** Posts one intent; null when the console could not be reached at all. */
async function post(csrf: string, fields: Record<string, string>): Promise<{ status: number; answer: WorkbenchAnswer } | null> {
  const body = new FormData();
  body.set("csrf", csrf);
  for (const [key, value] of Object.entries(fields)) body.set(key, value);
  let response: Response;
  try {
    response = await fetch(ACTIONS_URL, { method: "POST", body, headers: { Accept: "application/json" } });
  } catch {
    return null;
  }
  // The session ended: the action redirected to sign-in.
  if (response.redirected) {
    window.location.reload();
    return null;
  }
  try {
    return { status: response.status, answer: (await response.json()) as WorkbenchAnswer };
  } catch {
    return { status: response.status, answer: { ok: false, error: "操作失败，请稍后重试" } };
  }
}

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

const pendingLine = (reply: PendingReply) => ({
  id: `pending-${reply.clientId}`,
  role: "agent" as const,
  content: reply.content,
  at: reply.at,
  clientId: reply.clientId,
  pending: true,
});

/**
 * Messages leave in order, one at a time. When the console or the platform cannot be reached the
 * message stays pending and is sent again (with the same client id, so it is stored once) after
 * a pause, when the network returns, or when the event stream reconnects. Pending messages are
 * kept in the tab's storage, so a reload sends them too.
 */
function useOutbox(
  csrf: string,
  loaded: readonly ChatSession[],
  dispatch: (action: SessionAction) => void,
  onRefused: (item: PendingReply, error: string) => void,
) {
  const queue = useRef<PendingReply[]>([]);
  const busy = useRef(false);
  const retry = useRef<ReturnType<typeof setTimeout>>();
  const [unreachable, setUnreachable] = useState(false);
  const refused = useRef(onRefused);
  refused.current = onRefused;
  const keep = () => store(PENDING_KEY, writePendingReplies(queue.current));

  const flush = useCallback(async () => {
    if (busy.current) return;
    busy.current = true;
    clearTimeout(retry.current);
    try {
      while (queue.current.length > 0) {
        const item = queue.current[0];
        const outcome = await post(csrf, { intent: "send", sessionId: item.sessionId, clientId: item.clientId, content: item.content });
        if (!outcome || outcome.status >= 500) {
          setUnreachable(true);
          retry.current = setTimeout(() => void flush(), RETRY_MS);
          return;
        }
        queue.current.shift();
        keep();
        const dialog = outcome.answer.ok ? ChatDialogSchema.safeParse(outcome.answer.result) : null;
        if (dialog?.success) dispatch({ type: "sent", sessionId: item.sessionId, dialog: dialog.data });
        else {
          dispatch({ type: "unsent", sessionId: item.sessionId, clientId: item.clientId });
          refused.current(item, outcome.answer.ok ? "发送失败，请重试" : outcome.answer.error);
        }
      }
      setUnreachable(false);
    } finally {
      busy.current = false;
    }
  }, [csrf, dispatch]);

  // After hydration (so the server's markup and the first client render agree): what a reload
  // interrupted is shown as pending again and sent.
  useEffect(() => {
    const open = loaded.map((s) => ({
      sessionId: s.sessionId,
      storedClientIds: s.dialogs.flatMap((d) => (d.clientId ? [d.clientId] : [])),
    }));
    const restored = readPendingReplies(stored(PENDING_KEY), open);
    for (const reply of restored) dispatch({ type: "update", sessionId: reply.sessionId, role: "agent", dialogs: [pendingLine(reply)] });
    const queued = new Set(queue.current.map((reply) => reply.clientId));
    queue.current = [...restored.filter((reply) => !queued.has(reply.clientId)), ...queue.current];
    keep();
    void flush();
    // Once per page load: what is stored belongs to the sessions the page was loaded with.
  }, []);

  useEffect(() => {
    const online = () => void flush();
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("online", online);
      clearTimeout(retry.current);
    };
  }, [flush]);

  const send = useCallback(
    (sessionId: string, content: string) => {
      const reply = { sessionId, clientId: newClientId(), content, at: new Date().toISOString() };
      dispatch({ type: "update", sessionId, role: "agent", dialogs: [pendingLine(reply)] });
      queue.current.push(reply);
      keep();
      void flush();
    },
    [dispatch, flush],
  );

  return { send, flush, unreachable };
}

export function TextWorkbench({ startId, sessions: loaded, waiting: loadedWaiting, quickReplies, title }: Props) {
  const csrf = useAuthenticityToken();
  const [state, dispatch] = useReducer(sessionsReducer, loaded, (sessions) => initialSessions(sessions.map(toWorkbench)));
  const [records, setRecords] = useState<Record<string, ChatBusinessRecord | null>>(() =>
    Object.fromEntries(loaded.map((s) => [s.sessionId, s.businessRecord])),
  );
  const [waiting, setWaiting] = useState(loadedWaiting);
  const [drafts, setDrafts] = useState<Record<string, string>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState("");

  // Drafts survive a reload of the tab: saved on every change once the stored ones are restored
  // (after hydration, so the server's markup and the first client render agree).
  const draftsRestored = useRef(false);
  useEffect(() => {
    if (draftsRestored.current) store(DRAFTS_KEY, writeDrafts(drafts));
  }, [drafts]);
  useEffect(() => {
    const openIds = loaded.map((session) => session.sessionId);
    setDrafts((typed) => ({ ...readDrafts(stored(DRAFTS_KEY), openIds), ...typed }));
    draftsRestored.current = true;
  }, [loaded]);

  const setDraft = (sessionId: string, text: string) => setDrafts((all) => ({ ...all, [sessionId]: text }));
  const setError = (sessionId: string, text: string) => setErrors((all) => ({ ...all, [sessionId]: text }));

  const outbox = useOutbox(csrf, loaded, dispatch, (item, error) => {
    // A refused message comes back to the reply box, with the reason.
    setDraft(item.sessionId, item.content);
    setError(item.sessionId, error);
  });

  const addSession = (session: ChatSession) => {
    setRecords((all) => ({ ...all, [session.sessionId]: session.businessRecord }));
    dispatch({ type: "add", session: toWorkbench(session) });
  };

  const onEvent = (event: RealtimeNotification) => {
    if (event.type === CHAT_EVENT.add) {
      const payload = ChatAddPayloadSchema.safeParse(event.payload);
      if (payload.success) addSession(payload.data.session);
    } else if (event.type === CHAT_EVENT.update) {
      const payload = ChatUpdatePayloadSchema.safeParse(event.payload);
      if (payload.success) dispatch({ type: "update", ...payload.data });
    } else if (event.type === CHAT_EVENT.close) {
      const payload = ChatClosePayloadSchema.safeParse(event.payload);
      if (payload.success) dispatch({ type: "close", sessionId: payload.data.sessionId });
    }
  };
  const status = useEventStream("/textWorkBench/events", startId, onEvent);

  // Back online: what waited goes out.
  const { flush } = outbox;
  useEffect(() => {
    if (status === "open") void flush();
  }, [status, flush]);

  // Spec: the unread count in the page title.
  const unread = unreadCount(state);
  useEffect(() => {
    const base = document.title.replace(/^\(\d+\) /, "");
    document.title = unread > 0 ? `(${unread}) ${base}` : base;
  }, [unread]);

  const closeSession = useCallback(
    async (sessionId: string) => {
      const outcome = await post(csrf, { intent: "close", sessionId });
      if (outcome?.answer.ok) dispatch({ type: "close", sessionId });
      else setError(sessionId, outcome?.answer.ok === false ? outcome.answer.error : "结束会话失败：暂时无法连接，请稍后重试");
    },
    [csrf],
  );

  const joinSession = async (sessionId: string) => {
    const outcome = await post(csrf, { intent: "join", sessionId });
    const session = outcome?.answer.ok ? ChatSessionSchema.safeParse(outcome.answer.result) : null;
    if (session?.success) {
      addSession(session.data);
      setWaiting((list) => list.filter((s) => s.sessionId !== sessionId));
    } else setNotice(outcome?.answer.ok === false ? outcome.answer.error : "接入会话失败，请稍后重试");
  };

  // Keyboard shortcuts: Alt+↑/↓ move between sessions, Alt+E ends the open one.
  const openId = state.openId;
  useEffect(() => {
    const onKey = (event: globalThis.KeyboardEvent) => {
      if (!event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.code === "ArrowDown" || event.code === "ArrowUp") {
        const next = neighbourId(state, event.code === "ArrowDown" ? 1 : -1);
        if (next) dispatch({ type: "open", sessionId: next });
      } else if (event.code === "KeyE" && openId) void closeSession(openId);
      else return;
      event.preventDefault();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [state, openId, closeSession]);

  const open = state.sessions.find((s) => s.sessionId === state.openId) ?? null;

  return (
    <div className="sb-chat">
      <div className="sb-chat-status">
        <span role="status">实时连接：{STREAM_STATUS_LABELS[status]}</span>
        {outbox.unreachable ? <span className="sb-chat-warning">暂时无法连接平台，待发送的消息将在恢复后自动发送</span> : null}
        <span className="sb-chat-shortcuts">快捷键：Alt+↑ / Alt+↓ 切换会话，Alt+E 结束当前会话，输入 / 搜索快捷回复</span>
      </div>
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
              onClose={() => void closeSession(open.sessionId)}
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
            </aside>
          </>
        ) : (
          <p className="sb-chat-placeholder">请选择左侧的会话</p>
        )}
      </div>
      <p className="p-hidden-accessible" aria-live="polite">
        {unread > 0 ? `${title}：${unread} 个会话有未读消息` : ""}
      </p>
    </div>
  );
}

function Conversation(props: {
  session: WorkbenchSession;
  quickReplies: QuickReply[];
  draft: string;
  error: string;
  onDraft: (text: string) => void;
  onError: (text: string) => void;
  onSend: (content: string) => void;
  onClose: () => void;
}) {
  const { session } = props;
  const log = useRef<HTMLOListElement>(null);
  useEffect(() => {
    log.current?.scrollTo({ top: log.current.scrollHeight });
  }, [session.dialogs.length]);

  return (
    <section className="sb-chat-conversation" aria-labelledby="sb-chat-with">
      <header className="sb-chat-conversation-header">
        <h2 id="sb-chat-with">与 {session.customer.name} 的会话</h2>
        <button type="button" className="p-button p-button-sm p-button-danger p-button-outlined" onClick={props.onClose} title="Alt+E">
          结束会话
        </button>
      </header>
      <ol ref={log} className="sb-chat-log" aria-label="消息记录">
        {session.dialogs.map((dialog) => (
          <li key={dialog.clientId ?? dialog.id} className={`sb-chat-line is-${dialog.role}${dialog.pending ? " is-pending" : ""}`}>
            <span className="sb-chat-who">{dialog.role === "user" ? session.customer.name : dialog.role === "agent" ? "我" : "系统"}</span>
            <p>{dialog.content}</p>
            <span className="sb-chat-meta">
              <time dateTime={dialog.at}>{formatTime(dialog.at)}</time>
              {dialog.pending ? <span className="sb-chat-pending">待发送</span> : null}
            </span>
          </li>
        ))}
      </ol>
      <ReplyBox {...props} />
    </section>
  );
}

/** The reply box: Enter sends, Shift+Enter is a new line, '/' searches the quick replies. */
function ReplyBox({ draft, error, quickReplies, onDraft, onError, onSend }: Parameters<typeof Conversation>[0]) {
  const box = useRef<HTMLTextAreaElement>(null);
  const [active, setActive] = useState(0);
  const searching = draft.startsWith("/");
  const query = draft.slice(1).trim();
  const matches = searching
    ? quickReplies.filter((reply) => !query || reply.title.includes(query) || reply.content.includes(query)).slice(0, 8)
    : [];

  const pick = (reply: QuickReply) => {
    onDraft(reply.content);
    onError("");
    box.current?.focus();
  };

  const submit = () => {
    if (draft.trim().length === 0) return onError(MESSAGE_EMPTY);
    if (draft.length > MAX_MESSAGE_LENGTH) return onError(MESSAGE_TOO_LONG);
    onError("");
    onSend(draft);
    onDraft("");
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return; // an input method is still composing
    if (matches.length > 0) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setActive((index) => (index + step + matches.length) % matches.length);
        return;
      }
      if (event.key === "Enter" && !event.shiftKey) {
        event.preventDefault();
        pick(matches[Math.min(active, matches.length - 1)]);
        return;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        onDraft("");
        return;
      }
    }
    if (event.key === "Enter" && !event.shiftKey && !event.altKey) {
      event.preventDefault();
      submit();
    }
  };

  return (
    <form
      className="sb-chat-reply"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      {matches.length > 0 ? (
        <ul className="p-listbox-list sb-chat-quick" role="listbox" aria-label="快捷回复">
          {matches.map((reply, index) => (
            <li
              key={reply.id}
              role="option"
              aria-selected={index === Math.min(active, matches.length - 1)}
              className={`p-listbox-item${index === Math.min(active, matches.length - 1) ? " p-highlight" : ""}`}
              onMouseDown={(event) => {
                event.preventDefault();
                pick(reply);
              }}
            >
              <strong>{reply.title}</strong> {reply.content}
            </li>
          ))}
        </ul>
      ) : null}
      <label htmlFor="sb-chat-reply-text">回复内容</label>
      <textarea
        id="sb-chat-reply-text"
        ref={box}
        className={`p-inputtextarea p-inputtext p-component${error ? " p-invalid" : ""}`}
        rows={3}
        value={draft}
        placeholder="输入回复，回车发送，Shift+回车换行，输入 / 搜索快捷回复"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? "sb-chat-reply-error" : "sb-chat-reply-count"}
        onChange={(event) => {
          onDraft(event.target.value);
          setActive(0);
          if (error) onError("");
        }}
        onKeyDown={onKeyDown}
        autoFocus
      />
      <div className="sb-chat-reply-footer">
        {error ? (
          <span id="sb-chat-reply-error" className="p-error" role="alert">
            {error}
          </span>
        ) : null}
        <span id="sb-chat-reply-count" className={`sb-chat-count${draft.length > MAX_MESSAGE_LENGTH ? " p-error" : ""}`}>
          {draft.length}/{MAX_MESSAGE_LENGTH}
        </span>
        <button type="submit" className="p-button p-button-sm">
          发送
        </button>
      </div>
    </form>
  );
}

function ContactCard({ session }: { session: WorkbenchSession }) {
  const { customer } = session;
  return (
    <section className="sb-chat-card" aria-labelledby="sb-chat-card-title">
      <h2 id="sb-chat-card-title" className="sb-chat-heading">
        客户名片
      </h2>
      <dl>
        <dt>姓名</dt>
        <dd>{customer.name}</dd>
        <dt>手机号</dt>
        <dd>{maskPhone(customer.phone)}</dd>
        <dt>来源渠道</dt>
        <dd>{customer.channel}</dd>
        <dt>所在地区</dt>
        <dd>{customer.region}</dd>
        <dt>会话开始</dt>
        <dd>
          <time dateTime={session.createdAt}>{formatDateTime(session.createdAt)}</time>
        </dd>
      </dl>
    </section>
  );
}

function BusinessRecordForm(props: {
  csrf: string;
  sessionId: string;
  record: ChatBusinessRecord | null;
  onSaved: (record: ChatBusinessRecord) => void;
}) {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [saving, setSaving] = useState(false);

  return (
    <form
      className="sb-chat-record sb-form"
      aria-labelledby="sb-chat-record-title"
      onSubmit={async (event) => {
        event.preventDefault();
        const form = new FormData(event.currentTarget);
        setSaving(true);
        const outcome = await post(props.csrf, {
          intent: "record",
          sessionId: props.sessionId,
          category: String(form.get("category") ?? ""),
          result: String(form.get("result") ?? ""),
          remark: String(form.get("remark") ?? ""),
        });
        setSaving(false);
        const saved = outcome?.answer.ok ? ChatBusinessRecordSchema.safeParse(outcome.answer.result) : null;
        if (saved?.success) {
          props.onSaved(saved.data);
          setMessage({ ok: true, text: "业务记录已保存" });
        } else setMessage({ ok: false, text: outcome?.answer.ok === false ? outcome.answer.error : "保存失败：暂时无法连接，请稍后重试" });
      }}
    >
      <h2 id="sb-chat-record-title" className="sb-chat-heading">
        业务记录
      </h2>
      <CodeSelect
        id="sb-record-category"
        name="category"
        label="业务类型"
        table={CHAT_BUSINESS_CATEGORIES}
        defaultValue={props.record?.category ?? ""}
        empty="请选择"
        required
      />
      <CodeSelect
        id="sb-record-result"
        name="result"
        label="处理结果"
        table={CALL_RESULTS}
        defaultValue={String(props.record?.result ?? 0)}
      />
      <div className="sb-field">
        <label htmlFor="sb-record-remark">备注</label>
        <textarea
          id="sb-record-remark"
          name="remark"
          className="p-inputtextarea p-inputtext"
          rows={3}
          maxLength={500}
          defaultValue={props.record?.remark ?? ""}
        />
      </div>
      {message ? (
        <p className={message.ok ? "sb-chat-saved" : "p-error"} role={message.ok ? "status" : "alert"}>
          {message.text}
        </p>
      ) : null}
      <button type="submit" className="p-button p-button-sm" disabled={saving}>
        保存业务记录
      </button>
    </form>
  );
}
