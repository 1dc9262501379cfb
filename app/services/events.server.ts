import {
  createSseParser,
  MqConfigResponseSchema,
  RealtimeNotificationSchema,
  type RealtimeNotification,
  type StreamScope,
} from "#contracts/events";
import { call, requireData, send, type Caller } from "./upstream.server";

/** The query of a stream's scope (the caller's own notifications need none). */
const scopeQuery = (scope: StreamScope | undefined) => (scope?.scope === "tenant" ? { scope: "tenant", queue: scope.queue } : {});

/**
 * The caller's notifications from the platform (GET /events/api/stream), or their tenant's
 * (`scope: "tenant"`, supervisors), replaying everything after `lastEventId` first. Ends when the
 * platform closes the stream or `signal` aborts.
 */
export async function* streamNotifications(
  caller: Caller,
  { lastEventId, signal, scope }: { lastEventId?: string; signal: AbortSignal; scope?: StreamScope },
): AsyncGenerator<RealtimeNotification> {
  const response = await send({
    path: "/events/api/stream",
    query: scopeQuery(scope),
    what: "实时消息",
    caller,
    headers: lastEventId ? { "Last-Event-ID": lastEventId } : {},
    signal,
    longLived: true,
  });
  const parse = createSseParser();
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body) {
      for (const frame of parse(decoder.decode(chunk as Uint8Array, { stream: true }))) {
        if (frame.id === undefined) continue; // heartbeats: the console sends its own
        const notification = RealtimeNotificationSchema.safeParse(JSON.parse(frame.data));
        if (notification.success) yield notification.data;
      }
    }
  } finally {
    response.body.destroy();
  }
}

/** Where a page rendered now should start its stream (GET /config/global/mqconfig). */
export async function getRealtimeStart(caller: Caller, scope?: StreamScope): Promise<number> {
  const answer = await call({
    path: "/config/global/mqconfig",
    query: scopeQuery(scope),
    schema: MqConfigResponseSchema,
    what: "获取实时通道配置",
    caller,
  });
  return requireData(answer, "获取实时通道配置").lastEventId;
}
