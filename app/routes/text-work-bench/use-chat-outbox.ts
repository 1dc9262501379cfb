import { useCallback, useEffect, useRef, useState } from "react";
import type { ChatDialog, ChatSession } from "#contracts/chat";
import { PENDING_KEY } from "#app/client/chat-drafts";
import type { SessionAction } from "#app/client/chat-sessions";
import { isRetryable, postAction } from "#app/client/island";
import { createOutbox, type Outbox } from "#app/client/outbox";
import { CHAT_ACTIONS } from "./endpoints";

/** A reply sent but not yet stored by the platform; resent with its client id, it is stored once. */
export type PendingReply = { sessionId: string; clientId: string; content: string; at: string };

/** A client id for a message, also where crypto.randomUUID is missing (plain http). */
const newClientId = () =>
  typeof crypto !== "undefined" && "randomUUID" in crypto
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;

export const pendingLine = (reply: PendingReply) => ({
  id: `pending-${reply.clientId}`,
  role: "agent" as const,
  content: reply.content,
  at: reply.at,
  clientId: reply.clientId,
  pending: true,
});

/**
 * The chat's outbox (app/client/outbox.ts, ordered, in the tab's sessionStorage): replies leave
 * in order, one at a time. When the console or the platform cannot be reached a reply stays
 * pending and is sent again with the same client id (stored once) after a pause, when the network
 * returns, or when the event stream reconnects; a reload sends it too. A refused reply goes back
 * to its reply box with the reason.
 */
export function useChatOutbox(
  csrf: string,
  loaded: readonly ChatSession[],
  dispatch: (action: SessionAction) => void,
  onRefused: (reply: PendingReply, error: string) => void,
) {
  const outbox = useRef<Outbox<PendingReply> | null>(null);
  const [unreachable, setUnreachable] = useState(false);
  const refused = useRef(onRefused);
  refused.current = onRefused;
  const first = useRef({ csrf, loaded, dispatch });

  // After hydration (the storage is the browser's): what a reload interrupted is shown as pending
  // again and sent. Once per page load: what is stored belongs to the sessions loaded with it.
  useEffect(() => {
    const { csrf, loaded, dispatch } = first.current;
    const box = createOutbox<PendingReply>({
      storage: window.sessionStorage,
      storageKey: PENDING_KEY,
      ordered: true,
      newKey: newClientId,
      async send({ payload: reply }) {
        // The console answers the dialog as the platform's contract says it is (no schema here).
        const answer = await postAction<ChatDialog>(CHAT_ACTIONS, csrf, "send", reply);
        if (!answer.ok && isRetryable(answer)) return { kind: "retry", message: answer.error };
        if (answer.ok) {
          dispatch({ type: "sent", sessionId: reply.sessionId, dialog: answer.result });
          return { kind: "saved" };
        }
        dispatch({ type: "unsent", sessionId: reply.sessionId, clientId: reply.clientId });
        refused.current(reply, answer.error);
        return { kind: "refused", message: answer.error };
      },
    });
    const stored = new Map(loaded.map((s) => [s.sessionId, new Set(s.dialogs.flatMap((d) => (d.clientId ? [d.clientId] : [])))]));
    // Replies of sessions closed meanwhile, or that the platform stored before the reload, go.
    box.drop(({ payload }) => {
      const storedIds = stored.get(payload.sessionId);
      return !storedIds || storedIds.has(payload.clientId);
    });
    for (const { payload } of box.items())
      dispatch({ type: "update", sessionId: payload.sessionId, role: "agent", dialogs: [pendingLine(payload)] });
    // A refused reply is back in its reply box: the outbox forgets it.
    const unsubscribe = box.subscribe((items) => {
      if (items.some((item) => item.state === "failed")) box.drop((item) => item.state === "failed");
      else setUnreachable(box.waiting());
    });
    outbox.current = box;
    void box.flush();
    const timer = setInterval(() => void box.flush(), 1_000);
    const online = () => void box.flush(true);
    window.addEventListener("online", online);
    return () => {
      unsubscribe();
      clearInterval(timer);
      window.removeEventListener("online", online);
    };
  }, []);

  const send = useCallback(
    (sessionId: string, content: string) => {
      const reply = { sessionId, clientId: newClientId(), content, at: new Date().toISOString() };
      dispatch({ type: "update", sessionId, role: "agent", dialogs: [pendingLine(reply)] });
      outbox.current?.add(reply, reply.clientId);
      void outbox.current?.flush();
    },
    [dispatch],
  );

  /** Sends what waits now (the event stream is back). */
  const flush = useCallback(() => void outbox.current?.flush(true), []);

  /**
   * Sends a chat's waiting replies now; whether none is left. A chat ends only after its replies:
   * the platform refuses a reply to an ended chat, so one still waiting would be lost.
   */
  const settle = useCallback(async (sessionId: string) => {
    const box = outbox.current;
    const waiting = () => !!box?.items().some((item) => item.payload.sessionId === sessionId && item.state !== "saved");
    // Twice: a pass already under way may have started before the newest reply.
    for (let pass = 0; pass < 2 && waiting(); pass++) await box?.flush(true);
    return !waiting();
  }, []);

  return { send, flush, settle, unreachable };
}
