// A signed-in agent's workbench event stream as the page's EventSource keeps it open, and the
// percentiles the latency sections print.
import { createSseParser } from "../../contracts/events.ts";

/** The retry delay the console's stream announces (app/server/event-stream.server.ts). */
const RETRY_MS = 2_000;

export const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** `work` over `items`, `size` at a time (sign-ins: not thousands at once). */
export async function inBatches(items, size, work) {
  const out = [];
  for (let i = 0; i < items.length; i += size)
    out.push(...(await Promise.all(items.slice(i, i + size).map((item, j) => work(item, i + j)))));
  return out;
}

/**
 * Follows `cookie`'s /workBench/events on `consoleUrl` like the page's EventSource: the first
 * stream starts from the page's last event id (0: bench agents have none yet); when a stream ends
 * it is reopened after the server's retry delay with Last-Event-ID, so missed events are replayed
 * (and counted, late). Calls `opened()` once, on the first bytes, `received(notification, at)` for
 * each event (`at`: epoch ms when its chunk arrived) and `reconnected()` for each reopening.
 * Resolves once `signal` aborts; rejects on an answer other than 200.
 */
export async function followWorkbench(consoleUrl, cookie, { signal, opened = () => {}, received, reconnected = () => {} }) {
  const parse = createSseParser();
  let lastEventId = "0";
  let first = true;
  while (!signal.aborted) {
    try {
      const headers = { Cookie: cookie, "Last-Event-ID": lastEventId };
      const response = await fetch(`${consoleUrl}/workBench/events`, { headers, signal });
      if (response.status !== 200) throw new Error(`event stream answered ${response.status}`);
      for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
        const at = performance.timeOrigin + performance.now();
        if (first) {
          first = false;
          opened();
        }
        for (const frame of parse(chunk)) {
          if (!frame.id) continue;
          lastEventId = frame.id;
          received(JSON.parse(frame.data), at);
        }
      }
    } catch (error) {
      if (signal.aborted) return;
      if (!String(error?.message).includes("terminated")) throw error;
    }
    if (signal.aborted) return;
    reconnected();
    await new Promise((r) => setTimeout(r, RETRY_MS));
  }
}
