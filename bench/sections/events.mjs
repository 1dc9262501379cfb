// Event latency at 200 connected agents: each bench agent signs in to the console and opens the
// voice workbench's event stream (/workBench/events, relayed from the platform); the platform
// publishes one event per agent per second through its real bus (bench/platform.ts), stamped with
// the moment it was handed to the bus; latency is that stamp to the moment the stream delivers it.
import { performance } from "node:perf_hooks";
import { benchAgent, EVENTS, TARGETS } from "../config.mjs";
import { signIn } from "../lib/http.mjs";
import { rssMb } from "../lib/processes.mjs";
import { followWorkbench, inBatches, percentile } from "../lib/streams.mjs";

export async function events({ consoleUrl, controlUrl, eventRounds, consoleProcess }) {
  const usernames = Array.from({ length: EVENTS.agents }, (_, i) => benchAgent(i));
  const signingIn = performance.now();
  const cookies = await inBatches(usernames, 8, (username) => signIn(consoleUrl, username));
  const signInSeconds = (performance.now() - signingIn) / 1000;
  const latencies = [];
  const abort = new AbortController();
  let connected = 0;
  let reconnects = 0;
  const follow = (cookie) =>
    followWorkbench(consoleUrl, cookie, {
      signal: abort.signal,
      opened: () => connected++,
      received: (notification, at) => latencies.push(at - notification.payload.sentAt),
      reconnected: () => reconnects++,
    });
  const streams = cookies.map(follow);
  const failures = [];
  for (const stream of streams) stream.catch((error) => failures.push(error));

  const deadline = Date.now() + 30_000;
  while (connected < usernames.length && Date.now() < deadline && failures.length === 0) await new Promise((r) => setTimeout(r, 50));
  const rssBefore = rssMb(consoleProcess.pid);
  const published = await (
    await fetch(`${controlUrl}/publish`, { method: "POST", body: JSON.stringify({ usernames, rounds: eventRounds, periodMs: 1_000 }) })
  ).json();
  const expected = published.published;
  const until = Date.now() + 15_000;
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
      note: `${sorted.length} of ${expected} events received, ${reconnects} reconnects${failures.length ? `; ${failures.length} streams failed: ${failures[0].message}` : ""}; ${usernames.length} sign-ins took ${signInSeconds.toFixed(0)} s; console RSS ${rssBefore.toFixed(0)} → ${rssAfter.toFixed(0)} MB`,
    },
  ];
}
