import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import type { QuickReply } from "#contracts/chat";
import { MAX_MESSAGE_LENGTH, MESSAGE_EMPTY, MESSAGE_TOO_LONG } from "#contracts/workbench-live";
import type { WorkbenchSession } from "#app/client/chat-sessions";
import { formatTime } from "#app/lib/chat-format";

/** The open session: its messages and the reply box. */
/** The reply box's id (the workbench reads what was typed in it before the page hydrated). */
export const REPLY_FIELD_ID = "sb-chat-reply-text";

export function Conversation(props: {
  session: WorkbenchSession;
  quickReplies: QuickReply[];
  draft: string;
  error: string;
  onDraft: (text: string) => void;
  onError: (text: string) => void;
  onSend: (content: string) => void;
  onClose: () => void;
  /** A quick reply was inserted (its knowledge node counts a use). */
  onQuickReply?: (reply: QuickReply) => void;
  /** The agent's '/' search has found nothing for a moment (a gap in the knowledge base). */
  onNoMatch?: (query: string) => void;
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
function ReplyBox({ draft, error, quickReplies, onDraft, onError, onSend, onQuickReply, onNoMatch }: Parameters<typeof Conversation>[0]) {
  const box = useRef<HTMLTextAreaElement>(null);
  const [active, setActive] = useState(0);
  // A chat opened again brings its draft back: the caret goes after it, where the agent goes on
  // typing (focused on mount, the box had it at the start, so what was typed went before the draft).
  useEffect(() => {
    const field = box.current;
    field?.setSelectionRange(field.value.length, field.value.length);
  }, []);
  const searching = draft.startsWith("/");
  const query = draft.slice(1).trim();
  const matches = searching
    ? quickReplies.filter((reply) => !query || reply.title.includes(query) || reply.content.includes(query)).slice(0, 8)
    : [];

  // A search that stays empty for a second is reported once: the editors see what agents miss.
  const reported = useRef(new Set<string>());
  const noMatch = searching && query.length > 0 && matches.length === 0;
  useEffect(() => {
    if (!noMatch || !onNoMatch || reported.current.has(query)) return;
    const timer = setTimeout(() => {
      reported.current.add(query);
      onNoMatch(query);
    }, 1000);
    return () => clearTimeout(timer);
  }, [noMatch, query, onNoMatch]);

  const pick = (reply: QuickReply) => {
    onQuickReply?.(reply);
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
      <label htmlFor={REPLY_FIELD_ID}>回复内容</label>
      <textarea
        id={REPLY_FIELD_ID}
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
