import { AgentEventSchema, createSseParser, MqConfigResponseSchema, type AgentEvent } from "#contracts/events";
import { call, requireData, send, type Caller } from "./upstream.server";

/**
 * The caller's real-time events from the platform (GET /events/api/stream), replaying
 * everything after `lastEventId` first. Ends when the platform closes the stream or `signal` aborts.
 */
export async function* streamAgentEvents(
  caller: Caller,
  { lastEventId, signal }: { lastEventId?: string; signal: AbortSignal },
): AsyncGenerator<AgentEvent> {
  const response = await send({
    path: "/events/api/stream",
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
        const event = AgentEventSchema.safeParse(JSON.parse(frame.data));
        if (event.success) yield event.data;
      }
    }
  } finally {
    response.body.destroy();
  }
}

/** Where a page rendered now should start its event stream (GET /config/global/mqconfig). */
export async function getRealtimeStart(caller: Caller): Promise<number> {
  const answer = await call({ path: "/config/global/mqconfig", schema: MqConfigResponseSchema, what: "获取实时通道配置", caller });
  return requireData(answer, "获取实时通道配置").lastEventId;
}
