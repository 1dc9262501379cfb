import { z } from "zod";
import { envelope } from "./envelope";

/**
 * Real-time events for one user (the agent's phone bar and chat), numbered so that a client
 * that reconnects with the last id it saw receives every event it missed, once, in order.
 * Types are namespaced by the service that publishes them: `cti.*` (voice), `chat.*` (text).
 */
export const AgentEventSchema = z.object({
  id: z.number().int().positive(),
  type: z.string().min(1),
  at: z.string(),
  payload: z.unknown(),
});
export type AgentEvent = z.infer<typeof AgentEventSchema>;

/**
 * GET /config/global/mqconfig — where and how the real-time channel runs, and the caller's
 * newest event id: a page rendered now starts its stream there, so nothing published between
 * rendering and connecting is missed.
 */
export const MqConfigSchema = z.object({
  streamPath: z.string(),
  heartbeatMs: z.number().int().positive(),
  retentionSeconds: z.number().int().positive(),
  lastEventId: z.number().int().nonnegative(),
});
export const MqConfigResponseSchema = envelope(MqConfigSchema);

/** The event name of keep-alive frames: they carry no id, so they never move the replay point. */
export const HEARTBEAT_EVENT = "heartbeat";

/** One Server-Sent Events frame (WHATWG HTML §9.2). */
export type SseFrame = { id?: string; event?: string; data: string; retry?: number };

export function formatSse(frame: SseFrame): string {
  let out = "";
  if (frame.id !== undefined) out += `id: ${frame.id}\n`;
  if (frame.event !== undefined) out += `event: ${frame.event}\n`;
  if (frame.retry !== undefined) out += `retry: ${frame.retry}\n`;
  for (const line of frame.data.split(/\r\n|\r|\n/)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/**
 * The frame of an agent event: its id is the replay point; it is an unnamed message (the type
 * travels inside) so a browser's EventSource hands every event to one `onmessage`.
 */
export function eventFrame(event: AgentEvent): string {
  return formatSse({ id: String(event.id), data: JSON.stringify(event) });
}

/**
 * Incremental parser: feed it chunks as they arrive, get whole frames back. Comments (lines
 * starting with ':') are dropped; a frame without data is dropped, as browsers do.
 */
export function createSseParser() {
  let buffer = "";
  return function push(chunk: string): SseFrame[] {
    buffer += chunk;
    const frames: SseFrame[] = [];
    let boundary: RegExpExecArray | null;
    const separator = /\r\n\r\n|\n\n|\r\r/;
    while ((boundary = separator.exec(buffer))) {
      const block = buffer.slice(0, boundary.index);
      buffer = buffer.slice(boundary.index + boundary[0].length);
      const frame: SseFrame = { data: "" };
      const data: string[] = [];
      for (const line of block.split(/\r\n|\r|\n/)) {
        if (line === "" || line.startsWith(":")) continue;
        const colon = line.indexOf(":");
        const field = colon === -1 ? line : line.slice(0, colon);
        const value = colon === -1 ? "" : line.slice(colon + 1).replace(/^ /, "");
        if (field === "data") data.push(value);
        else if (field === "id") frame.id = value;
        else if (field === "event") frame.event = value;
        else if (field === "retry" && /^\d+$/.test(value)) frame.retry = Number(value);
      }
      if (data.length === 0) continue;
      frame.data = data.join("\n");
      frames.push(frame);
    }
    return frames;
  };
}
