// Event latency at 200 connected agents: each bench agent signs in to the console and opens the
// voice workbench's event stream (/workBench/events, relayed from the platform); the platform
// publishes one event per agent per second through its real bus (bench/platform.ts), stamped with
// the moment it was handed to the bus; latency is that stamp to the moment the stream delivers it.
import { performance } from "node:perf_hooks";
import { createSseParser } from "../../contracts/events.ts";
import { EVENTS, TARGETS } from "../config.mjs";
import { signIn } from "../lib/http.mjs";
import { rssMb } from "../lib/processes.mjs";

const benchAgent = (i) => `bench-agent-${String(i + 1).padStart(3, "0")}`;
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

async function inBatches(items, size, work) {
  const out = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(work))));
  return out;
}

export async function events({ consoleUrl, controlUrl, eventRounds, consoleProcess }) {
  const usernames = Array.from({ length: EVENTS.agents }, (_, i) => benchAgent(i));
  const signingIn = performance.now();
  const cookies = await inBatches(usernames, 8, (username) => signIn(consoleUrl, username));
  const signInSeconds = (performance.now() - signingIn) / 1000;
  const latencies = [];
  const abort = new AbortController();
  let connected = 0;
  const streams = cookies.map(async (cookie) => {
    const response = await fetch(`${consoleUrl}/workBench/events`, { headers: { Cookie: cookie }, signal: abort.signal });
    if (response.status !== 200) throw new Error(`event stream answered ${response.status}`);
    const parse = createSseParser();
    let first = true;
    try {
      for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
        const now = performance.timeOrigin + performance.now();
        if (first) {
          first = false;
          connected++;
        }
        for (const frame of parse(chunk)) if (frame.id) latencies.push(now - JSON.parse(frame.data).payload.sentAt);
      }
    } catch (error) {
      if (!abort.signal.aborted) throw error;
    }
  });
  const failures = [];
  for (const stream of streams) stream.catch((error) => failures.push(error));

  const deadline = Date.now() + 30_000;
  while (connected < usernames.length && Date.now() < deadline && failures.length === 0) await new Promise((r) => setTimeout(r, 50));
  // The relay subscribes upstream right after its first heartbeat.
  await new Promise((r) => setTimeout(r, 1_000));
  const rssBefore = rssMb(consoleProcess.pid);
  const published = await (
    await fetch(`${controlUrl}/publish`, { method: "POST", body: JSON.stringify({ usernames, rounds: eventRounds, periodMs: 1_000 }) })
  ).json();
  const expected = published.published;
  const until = Date.now() + 10_000;
  while (latencies.length < expected && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
  const rssAfter = rssMb(consoleProcess.pid);
  abort.abort();
  await Promise.allSettled(streams);

  const sorted = [...latencies].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  const command = `npm run bench (bench/sections/events.mjs: ${EVENTS.agents} agents × ${eventRounds} events, 1 per agent per s)`;
  return [
    {
      figure: `event latency platform → console stream, ${connected} agents connected: p50 / p99 / max`,
      value: sorted.length ? `${p50.toFixed(1)} / ${p99.toFixed(1)} / ${sorted.at(-1).toFixed(1)} ms` : "none received",
      target: `p99 ≤ ${TARGETS.eventP99Ms} ms`,
      met: connected === usernames.length && sorted.length === expected && p99 <= TARGETS.eventP99Ms,
      command,
      note: `${sorted.length} of ${expected} events received${failures.length ? `; ${failures.length} streams failed: ${failures[0].message}` : ""}; ${usernames.length} sign-ins took ${signInSeconds.toFixed(0)} s; console RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MB`,
    },
  ];
}
