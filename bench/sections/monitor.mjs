// The live monitor at scale: the platform's agent population works a floor of MONITOR.agents
// simulated agents (sign-in, ready, calls offered by a steady stream of customers and by bursts,
// talk, after-call work, breaks) through the real CTI service; MONITOR.supervisors signed-in
// supervisors each follow the console's monitor stream (/monitor/agent/events). Latency is a
// state change's `at` (stamped by the platform's database as it is published) to the moment a
// supervisor's stream delivers it; then the snapshot page under load, and the console's CPU while
// twenty supervisors sit idle with nothing changing.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { createSseParser } from "../../contracts/events.ts";
import { benchSupervisor, MONITOR, TARGETS } from "../config.mjs";
import { signIn } from "../lib/http.mjs";
import { cpuMs, warmLoad } from "../lib/processes.mjs";
import { percentile } from "../lib/streams.mjs";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

export async function monitor({ consoleUrl, controlUrl, quick, warmUp, consoleProcess, tmp }) {
  const agents = quick ? MONITOR.quickAgents : MONITOR.agents;
  const seconds = quick ? MONITOR.quickSeconds : MONITOR.seconds;
  const floor = (body) => fetch(`${controlUrl}/floor`, { method: "POST", body: JSON.stringify(body) }).then((r) => r.json());
  const cookies = [];
  for (let i = 0; i < MONITOR.supervisors; i++) cookies.push(await signIn(consoleUrl, benchSupervisor(i)));

  const latencies = [];
  let measuring = false;
  let delivered = 0;
  const abort = new AbortController();
  let connected = 0;
  const follow = async (cookie) => {
    const parse = createSseParser();
    const response = await fetch(`${consoleUrl}/monitor/agent/events`, { headers: { Cookie: cookie }, signal: abort.signal });
    if (response.status !== 200) throw new Error(`monitor stream answered ${response.status}`);
    connected++;
    try {
      for await (const chunk of response.body.pipeThrough(new TextDecoderStream())) {
        const now = performance.timeOrigin + performance.now();
        for (const frame of parse(chunk)) {
          if (!frame.id) continue;
          delivered++;
          const notification = JSON.parse(frame.data);
          if (measuring && notification.type === "monitor.agent") latencies.push(now - Date.parse(notification.at));
        }
      }
    } catch (error) {
      if (!abort.signal.aborted) throw error;
    }
  };
  const streams = cookies.map(follow);
  const failures = [];
  for (const stream of streams) stream.catch((error) => failures.push(error));
  while (connected < cookies.length && failures.length === 0) await sleep(50);

  // The floor signs in and settles, then is measured while it works, with a wave of customers
  // every 15 s (a burst of a tenth of the floor's size in calls).
  await floor({ agents });
  await sleep(10_000);
  measuring = true;
  const started = Date.now();
  while (Date.now() - started < seconds * 1_000) {
    await sleep(15_000);
    await floor({ burst: Math.ceil(agents / 10) });
  }
  measuring = false;
  const measuredSeconds = (Date.now() - started) / 1_000;

  // The snapshot page while the floor still works, with where the platform's time went meanwhile
  // (bench/platform-profile.ts): the snapshot's requests, its statements, the database's.
  const control = (path) => fetch(`${controlUrl}${path}`, { method: "POST" }).then((r) => r.json());
  // The console's CPU for relaying the streams alone (no page), to tell it from the page's own.
  const relayStart = cpuMs(consoleProcess.pid);
  await sleep(5_000);
  const relayPercent = (cpuMs(consoleProcess.pid) - relayStart) / 50;
  await control("/profile/reset");
  const page = await warmLoad(
    // Two at a time: twenty supervisors reloading now and then, not hammering the page.
    { url: `${consoleUrl}/monitor/agent`, connections: 2, seconds: quick ? 5 : 15, headers: { Cookie: cookies[0] } },
    consoleProcess.pid,
    warmUp,
  );
  const profile = await control("/profile");
  writeFileSync(join(tmp, "monitor-profile.json"), JSON.stringify(profile, null, 2));
  process.stdout.write(`(the platform's statements while the page was loaded: ${join(tmp, "monitor-profile.json")}) `);
  const snapshot = profile.routes.find((r) => r.route === "/analysis/monitor/agent");

  // Idle: nothing changes, the supervisors stay connected; the console's CPU over the period.
  await floor({ stop: true });
  await sleep(3_000);
  const idleStart = cpuMs(consoleProcess.pid);
  await sleep(MONITOR.idleSeconds * 1_000);
  const idleCpuPercent = ((cpuMs(consoleProcess.pid) - idleStart) / (MONITOR.idleSeconds * 1_000)) * 100;
  abort.abort();
  await Promise.allSettled(streams);
  if (failures.length > 0) throw failures[0];

  const sorted = [...latencies].sort((a, b) => a - b);
  const p50 = percentile(sorted, 50);
  const p99 = percentile(sorted, 99);
  const command = `npm run bench${quick ? " -- --quick" : ""} (section monitor)`;
  const changesPerSecond = sorted.length / MONITOR.supervisors / measuredSeconds;
  return [
    {
      figure: `state change → supervisor's screen, p50 / p99 (${agents} agents, ${MONITOR.supervisors} supervisors)`,
      value: `${p50?.toFixed(0)} / ${p99?.toFixed(0)} ms (${sorted.length} deliveries, ${changesPerSecond.toFixed(1)} changes/s, ${delivered} frames)`,
      target: `p99 ≤ ${TARGETS.monitorP99Ms} ms (aim ${TARGETS.monitorAimMs} ms)`,
      met: p99 !== undefined && p99 <= TARGETS.monitorP99Ms,
      command,
      note: "Latency from the platform's publish time (database clock) to the stream's delivery in the bench process; bursts of calls every 15 s.",
    },
    {
      figure: "monitor snapshot page /monitor/agent, p50 / p99",
      value: `${page.p50} / ${page.p99} ms (${page.rps.toFixed(0)} req/s, ${page.errors} errors)`,
      target: `≤ ${TARGETS.monitorPageP99Ms} ms`,
      met: page.p99 <= TARGETS.monitorPageP99Ms && page.errors === 0,
      command: page.command,
      note:
        `While the floor works; console CPU ${page.cpuPerRequest?.toFixed(2)} ms per page (relaying the 20 streams alone: ${relayPercent.toFixed(1)} % of a core). Platform meanwhile: ` +
        `snapshot request p50 ${snapshot?.p50} / p99 ${snapshot?.p99} ms (its statements ${snapshot?.dbP50} / ${snapshot?.dbP99} ms), ` +
        `database busy ${profile.busyPercent} % (${profile.perSecond} statements/s), event loop delay p99 ${profile.eventLoopMs.p99} / max ${profile.eventLoopMs.max} ms.`,
    },
    {
      figure: `console CPU, monitor idle with ${MONITOR.supervisors} supervisors connected`,
      value: `${idleCpuPercent.toFixed(2)} % of one core`,
      target: "stated",
      command,
      note: `Over ${MONITOR.idleSeconds} s with nothing changing: heartbeats only.`,
    },
  ];
}
