// How fast the phone bar sees a new call: with N event streams open on one console process, the
// time from the platform being asked to offer a call until the console's /workBench/events stream
// delivers the agent's RINGING state (p99 ≤ 300 ms with 200 agents connected).
//
// Start a console and platform with the simulator's control routes first, e.g.
//   SIMULATOR_CONTROL=1 COOKIE_SECURE=0 PORT=3132 UPSTREAM_PORT=3133 DATA_DIR=$(mktemp -d) node scripts/start.mjs
// then: node bench/phone-ring.mjs [consoleUrl] [platformUrl] [streams] [calls]
const [consoleUrl = "http://127.0.0.1:3132", platformUrl = "http://127.0.0.1:3133", streamsArg = "200", callsArg = "100"] =
  process.argv.slice(2);
const STREAMS = Number(streamsArg);
const CALLS = Number(callsArg);
const PASSWORD = "Switchboard@2026";

/** Signs in through the console's own login form (CSRF token, honeypot), returning the cookie header. */
async function consoleCookie(username) {
  const page = await fetch(`${consoleUrl}/user/login`);
  const jar = new Map(
    page.headers
      .getSetCookie()
      .map((c) => c.split(";")[0].split("="))
      .map(([k, ...v]) => [k, v.join("=")]),
  );
  const html = await page.text();
  const form = new URLSearchParams();
  for (const [, tag] of html.matchAll(/<input([^>]*)>/g)) {
    const name = /name="([^"]*)"/.exec(tag)?.[1];
    if (name) form.set(name, /value="([^"]*)"/.exec(tag)?.[1]?.replaceAll("&amp;", "&") ?? "");
  }
  form.set("username", username);
  form.set("password", PASSWORD);
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const answer = await fetch(`${consoleUrl}/user/login`, { method: "POST", body: form, redirect: "manual", headers: { cookie: cookie() } });
  for (const c of answer.headers.getSetCookie()) {
    const [k, ...v] = c.split(";")[0].split("=");
    jar.set(k, v.join("="));
  }
  if (answer.status !== 302 && answer.status !== 303) throw new Error(`sign-in of ${username} failed: ${answer.status}`);
  return cookie();
}

async function platformToken(username) {
  const response = await fetch(`${platformUrl}/uaa/oauth/token`, {
    method: "POST",
    headers: {
      authorization: `Basic ${Buffer.from("web-console:web-console-secret").toString("base64")}`,
      "content-type": "application/x-www-form-urlencoded",
    },
    body: new URLSearchParams({ grant_type: "password", username, password: PASSWORD }),
  });
  return (await response.json()).access_token;
}

async function platform(token, path, body) {
  const response = await fetch(`${platformUrl}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body ?? {}),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return (await response.json()).data;
}

/** Opens the console's event stream; calls onEvent with each agent event. */
async function openStream(cookie, onEvent) {
  const response = await fetch(`${consoleUrl}/workBench/events`, { headers: { cookie, accept: "text/event-stream" } });
  if (!response.ok) throw new Error(`stream: ${response.status}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += value;
      let end;
      while ((end = buffer.indexOf("\n\n")) !== -1) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = frame
          .split("\n")
          .filter((l) => l.startsWith("data: "))
          .map((l) => l.slice(6))
          .join("\n");
        if (data && frame.includes("id: ")) onEvent(JSON.parse(data));
      }
    }
  })();
  return reader;
}

const [agentCookie, adminCookie, agentToken, adminToken] = await Promise.all([
  consoleCookie("agent"),
  consoleCookie("admin"),
  platformToken("agent"),
  platformToken("admin"),
]);
let waiting = null;
const streams = [await openStream(agentCookie, (event) => waiting?.(event))];
// The other connected agents: streams held open on the same console process (one account is
// enough: what costs is the open connection each, upstream and down; they see no events here).
for (let i = 1; i < STREAMS; i++) streams.push(await openStream(adminCookie, () => {}));
const next = (predicate) => new Promise((resolve) => (waiting = (event) => predicate(event) && resolve(event)));
const stateIs = (state) => (event) => event.type === "cti.state" && event.payload.agent.state === state;

await platform(agentToken, "/cti/api/agent/state", { command: "signIn" }).catch(() => {});
await platform(agentToken, "/cti/api/agent/state", { command: "ready" }).catch(() => {});
const latencies = [];
for (let i = 0; i < CALLS; i++) {
  const ringing = next(stateIs("RINGING"));
  const started = performance.now();
  const { ctiCallId } = await platform(adminToken, "/cti/simulator/offer", { phone: "13800138000", queueName: "demo-voice" });
  await ringing;
  latencies.push(performance.now() - started);
  const ready = next(stateIs("READY"));
  await platform(adminToken, `/cti/simulator/call/${ctiCallId}/hangup`);
  await ready;
}
latencies.sort((a, b) => a - b);
const pct = (p) => latencies[Math.min(latencies.length - 1, Math.ceil((p / 100) * latencies.length) - 1)].toFixed(1);
console.log(
  `phone ring latency with ${STREAMS} streams open, ${CALLS} calls: p50 ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms, max ${pct(100)} ms`,
);
for (const reader of streams) await reader.cancel().catch(() => {});
process.exit(0);
