import { useEffect, useRef, useState } from "react";
import type { RealtimeNotification } from "#contracts/events";
import { HEARTBEAT_EVENT, isNotification } from "#contracts/realtime";
import { createEventCursor } from "./event-cursor";

/** `static`: not started, the page as the server rendered it (so it stays without JavaScript). */
export type StreamStatus = "static" | "connecting" | "open" | "reconnecting" | "offline";

/** The stream's address resuming after `lastId`; `url` may carry a query of its own (the monitor's `?lines`). */
export const resumeUrl = (url: string, lastId: number | string) => `${url}${url.includes("?") ? "&" : "?"}lastEventId=${lastId}`;

/** Three missed heartbeats (15 s each) mean the connection is dead, e.g. after laptop sleep. */
const STALE_AFTER_MS = 45_000;
/** After this many failed reopenings in a row the session has likely ended: reload to sign in. */
const MAX_FAILED_OPENS = 4;

/**
 * Subscribes a hydrated workbench to its event stream (`url`, e.g. /workBench/events), starting
 * after `startId` (from the loader). Every event is handed to `onEvent` once, in order: the
 * browser resends Last-Event-ID on its own reconnects, and when this hook reopens the stream
 * itself (a dead connection, the network coming back) it passes the last id as `?lastEventId=`.
 */
export function useEventStream(url: string, startId: number, onEvent: (event: RealtimeNotification) => void): StreamStatus {
  const [status, setStatus] = useState<StreamStatus>("static");
  const handler = useRef(onEvent);
  handler.current = onEvent;

  useEffect(() => {
    setStatus("connecting");
    const cursor = createEventCursor(startId);
    let source: EventSource | null = null;
    let lastSign = Date.now();
    let failedOpens = 0;
    let reopenTimer: ReturnType<typeof setTimeout> | undefined;

    const open = () => {
      source?.close();
      const next = new EventSource(resumeUrl(url, cursor.lastId));
      source = next;
      next.onopen = () => {
        failedOpens = 0;
        lastSign = Date.now();
        setStatus("open");
      };
      next.onmessage = (message) => {
        lastSign = Date.now();
        const notification: unknown = JSON.parse(message.data);
        if (isNotification(notification) && cursor.accept(notification)) handler.current(notification);
      };
      next.addEventListener(HEARTBEAT_EVENT, () => (lastSign = Date.now()));
      next.onerror = () => {
        if (!navigator.onLine) return setStatus("offline");
        setStatus("reconnecting");
        // CLOSED: the browser gave up (an error page, a 403, a redirect to sign-in). Retry
        // ourselves; if that keeps failing, reload so an ended session goes to sign-in.
        if (next.readyState === EventSource.CLOSED) {
          failedOpens += 1;
          if (failedOpens >= MAX_FAILED_OPENS) return window.location.reload();
          clearTimeout(reopenTimer);
          reopenTimer = setTimeout(open, 1_000 * failedOpens);
        }
      };
    };

    const watchdog = setInterval(() => {
      if (Date.now() - lastSign > STALE_AFTER_MS) {
        setStatus("reconnecting");
        lastSign = Date.now();
        open();
      }
    }, 5_000);
    const online = () => open();
    // Offline, nothing arrives: close the stream now rather than trust a half-dead connection;
    // coming back online reopens it after the last event seen, so the gap is replayed.
    const offline = () => {
      source?.close();
      setStatus("offline");
    };
    window.addEventListener("online", online);
    window.addEventListener("offline", offline);
    open();

    return () => {
      clearInterval(watchdog);
      clearTimeout(reopenTimer);
      window.removeEventListener("online", online);
      window.removeEventListener("offline", offline);
      source?.close();
    };
  }, [url, startId]);

  return status;
}

export const STREAM_STATUS_LABELS: Record<StreamStatus, string> = {
  static: "未连接（刷新可查看最新）",
  connecting: "连接中",
  open: "已连接",
  reconnecting: "重新连接中",
  offline: "网络已断开",
};
