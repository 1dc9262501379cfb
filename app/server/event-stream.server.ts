import type { z } from "zod";
import { eventFrame, formatSse, HEARTBEAT_EVENT, type RealtimeNotification, type StreamScope } from "#contracts/events";
import type { Access } from "./access.server";
import { streamNotifications } from "#app/services/events.server";
import { eventStreamsOpen, log, withRequest } from "#app/services/observability.server";
import { pathLabel } from "#common/observability/metrics";
import { onDrain } from "./operations.server";

const HEARTBEAT_MS = 15_000;
/** Tells the browser how soon to reconnect after the stream ends. */
const RETRY_MS = 2_000;
/** A draining console's hint: reconnect soon (to the console that replaces it), after the last id seen. */
const DRAIN_RETRY_MS = 1_000;

/**
 * What an island's stream relays: notification types starting with one of `topics`, of a scope;
 * `shown` gives what the browser may see of each (null: nothing).
 */
export type StreamOf = {
  topics: readonly string[];
  scope?: StreamScope;
  shown?: (notification: RealtimeNotification) => RealtimeNotification | null;
};

/**
 * A stream's `shown` that checks each notification's payload with its type's schema: the parsed
 * payload goes on, a malformed one does not; a type without a schema goes on as it is (the island
 * reads none). The island reading the stream takes payloads as they come and loads no schema
 * (decision 054).
 */
export function checkedPayloads(schemas: Readonly<Record<string, z.ZodTypeAny>>) {
  const byType = new Map(Object.entries(schemas));
  return (notification: RealtimeNotification): RealtimeNotification | null => {
    const schema = byType.get(notification.type);
    if (!schema) return notification;
    const parsed = schema.safeParse(notification.payload);
    return parsed.success ? { ...notification, payload: parsed.data } : null;
  };
}

/**
 * The browser's event stream for an island: the platform's notifications of this user (or of the
 * tenant, for a supervisor's `scope`) whose type starts with one of `topics`, as Server-Sent Events, with the browser's Last-Event-ID (or
 * `?lastEventId=`, for a client that reopens the stream itself) passed on so missed events replay.
 * Heartbeats every 15 s let the client notice a dead connection (a sleeping laptop).
 */
export function eventStreamResponse(request: Request, access: Access, { topics, scope, shown = (n) => n }: StreamOf): Response {
  const lastEventId = request.headers.get("Last-Event-ID") ?? new URL(request.url).searchParams.get("lastEventId") ?? undefined;
  const upstream = new AbortController();
  request.signal.addEventListener("abort", () => upstream.abort());
  const encoder = new TextEncoder();
  let heartbeat: ReturnType<typeof setInterval> | undefined;
  const kind = pathLabel(new URL(request.url).pathname);
  let ended = false;
  let unregister = () => {};
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    unregister();
    eventStreamsOpen.dec({ kind });
  };

  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const write = (text: string) => controller.enqueue(encoder.encode(text));
      eventStreamsOpen.inc({ kind });
      unregister = onDrain(() => {
        write(formatSse({ event: HEARTBEAT_EVENT, data: "", retry: DRAIN_RETRY_MS }));
        upstream.abort();
      });
      write(formatSse({ event: HEARTBEAT_EVENT, data: "", retry: RETRY_MS }));
      heartbeat = setInterval(() => write(formatSse({ event: HEARTBEAT_EVENT, data: "" })), HEARTBEAT_MS);
      try {
        const notifications = streamNotifications(access.caller, { lastEventId: lastEventId || undefined, signal: upstream.signal, scope });
        for await (const notification of notifications) {
          if (!topics.some((topic) => notification.type.startsWith(topic))) continue;
          const visible = shown(notification);
          if (visible) write(eventFrame(visible));
        }
      } catch (error) {
        // The platform went away or the browser left: end the stream; the browser reconnects.
        if (!upstream.signal.aborted) log.warn(withRequest({ event: "event stream ended", kind, err: error }));
      } finally {
        end();
        try {
          controller.close();
        } catch {
          // already closed by the browser leaving
        }
      }
    },
    cancel() {
      end();
      upstream.abort();
    },
  });

  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform keeps the compression middleware from buffering the stream.
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}
