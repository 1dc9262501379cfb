// Opt-in: `npm run bench -- --only=cluster` (BENCH_PORT_BASE moves its ports). Starts `npm run
// cluster` (scripts/cluster.mjs: PostgreSQL, two platform processes, two consoles, HAProxy) on its
// own ports (PORTS.cluster … +6) and DATA_DIR, the demo's simulators off, adds CLUSTER.agents bench
// agents to its database, and stops it at the end. Two figures:
// - event latency: the agents signed in, half on each console (straight to its port), each with the
//   voice workbench's event stream open (relayed from whichever platform process HAProxy gives it).
//   This process publishes through the platform's own bus on the cluster's database, as a third
//   platform process would (insert, NOTIFY), each event stamped as it is handed to the bus; latency
//   is that stamp to the moment the agent's stream delivers it;
// - revocation: an agent signed out on console 1, and the time from the sign-out's post to
//   console 2 refusing the cookie (its home page sends to sign-in), each platform process refusing
//   the session's token (401) and the stream open on console 2 ending; CLUSTER.revocations trials.
import { createDecipheriv, createHash, randomBytes } from "node:crypto";
import { setMaxListeners } from "node:events";
import { loadavg } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { openDatabase } from "#upstream/db";
import { createNotificationBus } from "#upstream/notifications/bus";
import { addBenchAccounts } from "../accounts.ts";
import { benchAgent, CLUSTER, PORTS, TARGETS } from "../config.mjs";
import { inputsOf, mergeCookies, signIn, waitForHealth } from "../lib/http.mjs";
import { startNode, stop } from "../lib/processes.mjs";
import { followWorkbench, inBatches, percentile } from "../lib/streams.mjs";

const now = () => performance.timeOrigin + performance.now();
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(" ");
/** A check that does not hold within this long counts as never. */
const GIVE_UP_MS = 5_000;

export async function cluster({ quick, tmp, log }) {
  const base = PORTS.cluster;
  const url = (port) => `http://127.0.0.1:${port}`;
  const consoles = [url(base + 2), url(base + 3)];
  const platforms = [url(base + 4), url(base + 5)];
  // The bench holds the consoles' secret, so it can read a session's platform token as they do.
  const secret = randomBytes(32).toString("hex");
  const env = { PORT: String(base), DATA_DIR: join(tmp, "cluster"), SESSION_SECRET: secret, COOKIE_SECURE: "0", LOG_LEVEL: "warn" };
  const quiet = { AGENT_SIMULATOR: "0", CHAT_SIMULATOR: "0", CTI_SIMULATED_TRAFFIC: "0", DIALER_SPEED: "0" };
  const child = startNode("cluster", ["scripts/cluster.mjs"], { ...env, ...quiet }, log);
  try {
    for (const server of [...platforms, ...consoles]) await waitForHealth(server, 240_000);
    const database = await openDatabase({ databaseUrl: `postgres://postgres@127.0.0.1:${base + 6}/postgres` });
    try {
      await addBenchAccounts(database.db, { agents: CLUSTER.agents, supervisors: 0 });
      const loadBefore = load();
      const latency = await eventLatency(database.db, consoles, quick ? 1 : CLUSTER.rounds);
      const revocation = await revocations(consoles, platforms, secret);
      const note = `load average (1, 5, 15 min) ${loadBefore} before, ${load()} after; 2 cores shared`;
      return [latency, revocation].map((row) => ({ ...row, note: `${row.note}; ${note}` }));
    } finally {
      await database.close();
    }
  } finally {
    await stop(child);
  }
}

async function eventLatency(db, consoles, rounds) {
  const usernames = Array.from({ length: CLUSTER.agents }, (_, i) => benchAgent(i));
  const signingIn = performance.now();
  const cookies = await inBatches(usernames, 8, (username, i) => signIn(consoles[i % 2], username));
  const signInSeconds = (performance.now() - signingIn) / 1000;
  const latencies = [];
  const abort = new AbortController();
  // Every stream listens for the one abort (Node warns past 1,500 listeners).
  setMaxListeners(0, abort.signal);
  let connected = 0;
  let reconnects = 0;
  const streams = [];
  const failures = [];
  // Opened fifty at a time, each batch once it is open, as a floor's agents arrive: 2,000 opened at
  // once waited on the platform's check of each session beyond the console's timeout (502).
  await inBatches(
    cookies,
    50,
    (cookie, i) =>
      new Promise((resolve) => {
        const stream = followWorkbench(consoles[i % 2], cookie, {
          signal: abort.signal,
          opened: () => resolve(connected++),
          received: (notification, at) => latencies.push(at - notification.payload.sentAt),
          reconnected: () => reconnects++,
        });
        stream.catch((error) => resolve(failures.push(error)));
        streams.push(stream);
      }),
  );

  const { published: expected, publishing } = await publishRounds(db, rounds);
  const until = Date.now() + 15_000;
  while (latencies.length < expected && Date.now() < until) await sleep(50);
  abort.abort();
  await Promise.allSettled(streams);

  const sorted = [...latencies].sort((a, b) => a - b);
  const p99 = percentile(sorted, 99);
  return {
    figure: `event latency bus → console stream, ${connected} agents connected (half on each console): p50 / p99 / max`,
    value: sorted.length ? `${percentile(sorted, 50).toFixed(1)} / ${p99.toFixed(1)} / ${sorted.at(-1).toFixed(1)} ms` : "none received",
    target: `p99 ≤ ${TARGETS.clusterEventP99Ms} ms`,
    met: connected === usernames.length && sorted.length === expected && p99 <= TARGETS.clusterEventP99Ms,
    command: `npm run bench -- --only=cluster (bench/sections/cluster.mjs: ${CLUSTER.agents} agents × ${rounds} events, 1 per agent per ${CLUSTER.eventPeriodMs / 1000} s)`,
    note: `${sorted.length} of ${expected} events received, ${reconnects} reconnects; a publish (lock, insert, commit, its NOTIFY heard back) took p50 / p99 ${publishing}${failures.length ? `; ${failures.length} streams failed: ${failures[0].message}` : ""}; ${usernames.length} sign-ins took ${signInSeconds.toFixed(0)} s`,
  };
}

/**
 * One event per bench agent per CLUSTER.eventPeriodMs, spread evenly, `rounds` times, through the
 * platform's bus. Answers how many were published and how long a publish took (p50 / p99).
 */
async function publishRounds(db, rounds) {
  const bus = createNotificationBus(db);
  // Listening, as every platform process does: a publish is delivered by its own NOTIFY, not a read.
  const stopListening = await bus.listenAcrossProcesses();
  const users = await db.selectFrom("users").select(["id", "tenant_id"]).where("user_name", "like", "bench-agent-%").execute();
  const step = CLUSTER.eventPeriodMs / users.length;
  const start = performance.now();
  const pending = [];
  const durations = [];
  let failed = 0;
  for (let round = 0; round < rounds; round++) {
    for (const [i, user] of users.entries()) {
      const wait = start + (round * users.length + i) * step - performance.now();
      if (wait > 1) await sleep(wait);
      const audience = { tenantId: user.tenant_id, userId: user.id };
      const sentAt = now();
      pending.push(
        bus.publish(audience, "cti.bench", { sentAt, round }).then(
          () => durations.push(now() - sentAt),
          () => failed++,
        ),
      );
    }
  }
  await Promise.all(pending);
  await stopListening();
  durations.sort((a, b) => a - b);
  const publishing = durations.length ? `${percentile(durations, 50).toFixed(1)} / ${percentile(durations, 99).toFixed(1)} ms` : "none";
  return { published: users.length * rounds - failed, publishing };
}

async function revocations(consoles, platforms, secret) {
  const [a, b] = consoles;
  const trials = [];
  for (let i = 0; i < CLUSTER.revocations; i++) trials.push(await revocationTrial(a, b, platforms, secret, benchAgent(i)));
  const parts = ["console 2 page", "platform 1 token", "platform 2 token", "console 2 stream"];
  const everywhere = trials.map((times) => Math.max(...times)).sort((x, y) => x - y);
  const spread = (values) => {
    const sorted = [...values].sort((x, y) => x - y);
    return `${percentile(sorted, 50).toFixed(0)} / ${sorted.at(-1).toFixed(0)}`;
  };
  return {
    figure: `revocation: sign-out posted on console 1 → refused on console 2, both platform processes and console 2's open stream: p50 / max of ${trials.length}`,
    value: `${spread(everywhere)} ms`,
    target: "≤ 1,000 ms",
    met: everywhere.at(-1) <= 1_000,
    command: `npm run bench -- --only=cluster (bench/sections/cluster.mjs: ${CLUSTER.revocations} sign-outs)`,
    note: `p50 / max each (ms): ${parts.map((part, j) => `${part} ${spread(trials.map((times) => times[j]))}`).join(", ")}; a check is retried at once until it holds (given up after ${GIVE_UP_MS} ms)`,
  };
}

/**
 * One agent signed in on console `a`, its session warmed on `b` and both platform processes (each
 * keeps it), a stream open on `b`; then signed out on `a`. Answers, in ms from the sign-out's post:
 * `b`'s page refusing, each platform refusing the token, `b`'s stream ending.
 */
async function revocationTrial(a, b, platforms, secret, username) {
  const cookie = await signIn(a, username);
  const token = tokenOf(cookie, secret);
  // Status and where it sends, the body left unread (a check runs hundreds of times a trial).
  const ask = async (address, headers) => {
    const response = await fetch(address, { redirect: "manual", headers });
    await response.body?.cancel();
    return { status: response.status, location: response.headers.get("location") ?? "" };
  };
  const home = (base) => ask(`${base}/`, { Cookie: cookie });
  const tokenRead = (platform) => ask(`${platform}/config/global/mqconfig`, { Authorization: `Bearer ${token}` });
  if ((await home(b)).status !== 200) throw new Error(`console 2 did not open ${username}'s home`);
  for (const platform of platforms) if ((await tokenRead(platform)).status !== 200) throw new Error(`${platform} refused a live token`);
  const left = new AbortController();
  const stream = await fetch(`${b}/workBench/events`, { headers: { Cookie: cookie }, signal: left.signal });
  const streamEnded = (async () => {
    for await (const chunk of stream.body) void chunk;
    return now();
  })().catch(() => Infinity);
  await sleep(500); // the console's relay has opened the platform's stream behind it

  const page = await fetch(`${a}/`, { headers: { Cookie: cookie } });
  const form = new URLSearchParams({ csrf: inputsOf(await page.text()).get("csrf") ?? "" });
  const headers = { Cookie: mergeCookies(cookie, page), "Content-Type": "application/x-www-form-urlencoded" };
  const signedOut = now();
  const signOut = fetch(`${a}/user/logout`, { method: "POST", redirect: "manual", headers, body: form });
  const refused = async (check) => {
    while (now() - signedOut < GIVE_UP_MS) if (await check()) return now() - signedOut;
    return Infinity;
  };
  const times = await Promise.all([
    refused(async () => (await home(b)).location.startsWith("/user/login")),
    ...platforms.map((platform) => refused(async () => (await tokenRead(platform)).status === 401)),
    Promise.race([streamEnded.then((at) => at - signedOut), sleep(GIVE_UP_MS).then(() => Infinity)]),
  ]);
  left.abort();
  const answer = await signOut;
  if (answer.status !== 302) throw new Error(`signing ${username} out answered ${answer.status}`);
  return times;
}

/** The platform token in a console's session cookie, opened as app/server/session.server.ts seals it. */
function tokenOf(cookie, secret) {
  const value = decodeURIComponent(cookie.match(/(?:^|; )sb_session=([^;]+)/)[1]);
  const { sealed } = JSON.parse(Buffer.from(value.slice(0, value.lastIndexOf(".")), "base64").toString("utf8"));
  const bytes = Buffer.from(sealed, "base64url");
  const key = createHash("sha256").update(`sb_session:${secret}`).digest();
  const decipher = createDecipheriv("aes-256-gcm", key, bytes.subarray(0, 12));
  decipher.setAuthTag(bytes.subarray(12, 28));
  return JSON.parse(Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8")).token;
}
