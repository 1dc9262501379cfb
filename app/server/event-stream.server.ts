import { eventFrame, formatSse, HEARTBEAT_EVENT } from "#contracts/events";
import type { Access } from "./access.server";
import { streamAgentEvents } from "#app/services/events.server";

const HEARTBEAT_MS = 15_000;
/** Tells the browser how soon to reconnect after the stream ends. */
const RETRY_MS = 2_000;

/**
 * The browser's event stream for a workbench: the platform's events of this user whose type
 * starts with `prefix`, as Server-Sent Events, with the browser's Last-Event-ID (or
 * `?lastEventId=`, for a client that reopens the stream itself) passed on so missed events replay.
 * Heartbeats every 15 s let the client notice a dead connection (a sleeping laptop).
 */
export function eventStreamResponse(request: Request, access: Access, prefix: "cti." | "chat."): Response {
  const lastEventId = request.headers.get("Last-Event-ID") ?? new URL(request.url).searchParams.get("lastEventId") ?? undefined;
  const upstream = new AbortController();
  request.signal.addEventListener("abort", () => upstream.abort());
  const encoder = new TextEncoder();
  let heartbeat: ReturnType<typeof setInterval> | undefined;

  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const write = (text: string) => controller.enqueue(encoder.encode(text));
      write(formatSse({ event: HEARTBEAT_EVENT, data: "", retry: RETRY_MS }));
      heartbeat = setInterval(() => write(formatSse({ event: HEARTBEAT_EVENT, data: "" })), HEARTBEAT_MS);
      try {
        for await (const event of streamAgentEvents(access.caller, { lastEventId: lastEventId || undefined, signal: upstream.signal })) {
          if (event.type.startsWith(prefix)) write(eventFrame(event));
        }
      } catch (error) {
        // The platform went away or the browser left: end the stream; the browser reconnects.
        if (!upstream.signal.aborted) console.error("[console] event stream ended", error);
      } finally {
        clearInterval(heartbeat);
        try {
          controller.close();
        } catch {
          // already closed by the browser leaving
        }
      }
    },
    cancel() {
      clearInterval(heartbeat);
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
