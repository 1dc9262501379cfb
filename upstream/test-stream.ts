import { createSseParser, type RealtimeNotification, type SseFrame } from "#contracts/events";

/**
 * Reads a Server-Sent Events answer over real HTTP, collecting its frames (all of them, and the
 * notifications among them); answers once the first frame (a heartbeat: the stream is subscribed) came.
 */
export async function openSse(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const frames: SseFrame[] = [];
  const events: RealtimeNotification[] = [];
  const parse = createSseParser();
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const state = { ended: false };
  let ready!: () => void;
  const opened = new Promise<void>((resolve) => (ready = resolve));
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          state.ended = true;
          break;
        }
        for (const frame of parse(value)) {
          frames.push(frame);
          ready();
          if (frame.id) events.push(JSON.parse(frame.data) as RealtimeNotification);
        }
      }
    } catch {
      // aborted
    }
  })();
  await opened;
  return { response, frames, events, state, close: () => controller.abort() };
}

/** A user's event stream (GET /events/api/stream), from `lastEventId` when given. */
export function openStream(url: string, token: string, lastEventId?: number, query = "") {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (lastEventId !== undefined) headers["last-event-id"] = String(lastEventId);
  return openSse(`${url}/events/api/stream${query}`, headers);
}

/** Waits (polling every 20 ms) until `check` holds, for at most `withinMs`. */
export async function until(check: () => boolean | Promise<boolean>, what: string, withinMs = 5_000) {
  const deadline = Date.now() + withinMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
