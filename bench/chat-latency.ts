// Chat latency under load: N text-agent event streams connected to ONE console process, a
// customer writing through the platform, and the time from the customer's POST until each
// stream has the message (as the agent's browser would receive it).
//
//   npm run build && node --import tsx bench/chat-latency.ts [agents=200] [messages=1000] [perSecond=40]
//
// Starts its own platform (PGlite, fresh data dir with N text agents added to the demo tenant's
// queue) and console on PORT/UPSTREAM_PORT (default 3142/3143), the simulator under control.
// Each agent gets one customer; messages go to customers in turn, and each reaches one stream.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSseParser } from "#contracts/events";
import { openDatabase } from "#upstream/db";
import { migrateToLatest } from "#upstream/db/migrate";
import { seedDemo } from "#upstream/seed/demo";

const agents = Number(process.argv[2] ?? 200);
const messages = Number(process.argv[3] ?? 1000);
/** Customers writing per second across the floor (200 agents × 3 customers, a line every ~16 s ≈ 40). */
const perSecond = Number(process.argv[4] ?? 40);
const intervalMs = 1000 / perSecond;
const port = Number(process.env.PORT ?? 3142);
const upstreamPort = Number(process.env.UPSTREAM_PORT ?? 3143);
const consoleUrl = `http://127.0.0.1:${port}`;
const platformUrl = `http://127.0.0.1:${upstreamPort}`;
const secret = "bench-only-session-secret";
const root = new URL("..", import.meta.url).pathname;

// N text agents in the demo queue, written before the platform starts (it seeds only an empty database).
const dataDir = mkdtempSync(join(tmpdir(), "switchboard-bench-"));
{
  const database = await openDatabase({ dataDir: join(dataDir, "pglite") });
  await migrateToLatest(database.db);
  await seedDemo(database.db);
  const chat = await database.db.selectFrom("users").selectAll().where("user_name", "=", "chat").executeTakeFirstOrThrow();
  await database.db
    .insertInto("users")
    .values(
      Array.from({ length: agents }, (_, i) => ({
        tenant_id: chat.tenant_id,
        user_name: `bench-agent-${i}`,
        real_name: `压测坐席${i}`,
        password_hash: chat.password_hash,
        role: chat.role,
        work_type: chat.work_type,
        agent_id: String(90000 + i),
        default_queue_name: chat.default_queue_name,
      })),
    )
    .execute();
  await database.close();
}

const server: ChildProcess = spawn(process.execPath, [join(root, "scripts/start.mjs")], {
  cwd: root,
  stdio: ["ignore", "ignore", "inherit"],
  env: {
    ...process.env,
    PORT: String(port),
    UPSTREAM_PORT: String(upstreamPort),
    DATA_DIR: dataDir,
    SESSION_SECRET: secret,
    COOKIE_SECURE: "0",
    CHAT_SIMULATOR: "0",
    SIMULATOR_CONTROL: "1",
  },
});
const stop = () => server.kill("SIGTERM");
process.on("exit", stop);

async function waitFor(url: string) {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not start`);
}
await waitFor(consoleUrl);

// A signed-in console session, made the way the console makes one.
process.env.UPSTREAM_URL = platformUrl;
process.env.SESSION_SECRET = secret;
process.env.COOKIE_SECURE = "0";
const { signIn } = await import("#app/server/auth.server");
const { commitSignedIn } = await import("#app/server/session.server");
const cookies: string[] = [];
for (let i = 0; i < agents; i++) {
  cookies.push(
    (await commitSignedIn(new Request(`${consoleUrl}/`), await signIn(`bench-agent-${i}`, "Switchboard@2026", null))).split(";")[0],
  );
}

const token = (
  (await (
    await fetch(`${platformUrl}/uaa/oauth/token`, {
      method: "POST",
      headers: {
        Authorization: `Basic ${Buffer.from("web-console:web-console-secret").toString("base64")}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ grant_type: "password", username: "chat", password: "Switchboard@2026" }),
    })
  ).json()) as { access_token: string }
).access_token;
const platform = (path: string, body: object) =>
  fetch(`${platformUrl}${path}`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: JSON.stringify(body),
  }).then((r) => r.json() as Promise<{ data: { sessionId: string; agentName: string | null } }>);

const sentAt = new Map<string, number>();
const latencies: number[] = [];
let connected = 0;
const streams = new AbortController();

async function agentStream(cookie: string) {
  const response = await fetch(`${consoleUrl}/textWorkBench/events`, { headers: { Cookie: cookie }, signal: streams.signal });
  if (!response.ok || !response.body) throw new Error(`stream refused: ${response.status}`);
  const parse = createSseParser();
  let first = true;
  const decoder = new TextDecoder();
  for await (const bytes of response.body as unknown as AsyncIterable<Uint8Array>) {
    const chunk = decoder.decode(bytes, { stream: true });
    const now = performance.now();
    for (const frame of parse(chunk)) {
      if (first) {
        first = false;
        connected++;
      }
      if (!frame.id) continue;
      const event = JSON.parse(frame.data) as { type: string; payload: { dialogs?: Array<{ content: string }> } };
      const tag = event.payload.dialogs?.[0]?.content;
      const start = tag ? sentAt.get(tag) : undefined;
      if (event.type === "chat.session.update" && start !== undefined) latencies.push(now - start);
    }
  }
}

const running = cookies.map((cookie) => agentStream(cookie).catch((error) => streams.signal.aborted || console.error(error)));
while (connected < agents) await new Promise((r) => setTimeout(r, 50));
console.log(`${agents} agent streams connected to one console process`);

// One customer per agent (each goes to the least busy agent of the queue).
const sessions: string[] = [];
// The demo's own text agent (刘洋) is in the queue too, without a stream: its customer is left out.
for (let i = 0; i < agents + 1; i++) {
  const { sessionId, agentName } = (await platform("/chat/simulator/customers", { content: "开始" })).data;
  if (agentName?.startsWith("压测坐席")) sessions.push(sessionId);
}
// Customers write in turn, several at a time, as a busy floor would.
for (let i = 0; i < messages; i++) {
  const tag = `m-${i}`;
  sentAt.set(tag, performance.now());
  void platform(`/chat/simulator/sessions/${sessions[i % sessions.length]}/messages`, { content: tag });
  await new Promise((r) => setTimeout(r, intervalMs));
}
const expected = messages;
const deadline = Date.now() + 10_000;
while (latencies.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));

latencies.sort((a, b) => a - b);
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
console.log(
  `deliveries ${latencies.length}/${expected}; customer POST -> agent stream: p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, p99 ${at(0.99)} ms, max ${latencies.at(-1)?.toFixed(1)} ms`,
);
streams.abort();
await Promise.allSettled(running);
stop();
process.exit(latencies.length === expected ? 0 : 1);
