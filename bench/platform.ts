import path from "node:path";
import { createServer } from "node:http";
import { performance } from "node:perf_hooks";
import { buildApp } from "#upstream/app";
import { openDatabase } from "#upstream/db";
import { migrateToLatest } from "#upstream/db/migrate";
import { keepStatistics } from "#upstream/db/statistics";
import { seedDemo } from "#upstream/seed/demo";
import { readSettings } from "#upstream/settings";
import { createAgentPopulation, type AgentPopulation } from "#upstream/simulators/agent-population";
import { readVoiceSettings } from "#upstream/voice/settings";
import { addBenchAccounts } from "./accounts";
import { MONITOR } from "./config.mjs";
import { createProfile } from "./platform-profile";

/**
 * The reference platform as `npm run bench` runs it: the same app as upstream/server.ts, plus
 * what only a benchmark needs, on this process alone (never in the product's app):
 * - BENCH_AGENTS voice agents `bench-agent-001`… in tenant `demo` (password of the demo accounts);
 * - on BENCH_CONTROL_PORT (loopback, outside the API and its auth): `/record` then `/recorded`,
 *   the platform calls one page view makes, so they can be replayed alone (upstream overhead);
 *   `/publish`, events published through the real bus, each stamped with the moment it was
 *   handed to the bus, at a steady rate (event latency);
 * - the voice section's run: real media when given the SIP servers' settings (VOICE_SIP_*, as
 *   scripts/voice-servers.mjs writes them), with SIMULATOR_CONTROL=1 to place calls.
 * Run as `node --import tsx bench/platform.ts` with UPSTREAM_PORT, BENCH_CONTROL_PORT and DATA_DIR.
 */
const settings = readSettings(process.env);
const profile = createProfile();
// The same store choice as upstream/server.ts: PostgreSQL through DATABASE_URL, else PGlite.
const database = await openDatabase({
  ...(settings.databaseUrl ? { databaseUrl: settings.databaseUrl } : { dataDir: path.join(settings.dataDir, "pglite") }),
  onStatement: profile.onStatement,
});
const db = database.db;
await migrateToLatest(db);
await seedDemo(db);

const agents = Number(process.env.BENCH_AGENTS ?? 0);
if (agents > 0) await addBenchAccounts(db, { agents, supervisors: MONITOR.supervisors });

const app = buildApp({
  db,
  clientId: settings.clientId,
  clientSecret: settings.clientSecret,
  logger: { level: "warn" },
  cti: { ringMs: settings.ringSeconds * 1_000 },
  simulatorControl: settings.simulatorControl,
  voice: readVoiceSettings(process.env),
});
// Planner statistics as upstream/server.ts keeps them.
await keepStatistics(db, (error) => app.log.error(error, "refreshing planner statistics failed"));

// The requests of the routes a section asks about (`/profile`), with their statements.
const PROFILED = new Set(["/analysis/monitor/agent", "/analysis/monitor/group", "/analysis/monitor/rules"]);
app.addHook("onRequest", (request, _reply, done) => (PROFILED.has(request.url) ? profile.inRequest(request, done) : done()));
app.addHook("onResponse", async (request, reply) => profile.leaveRequest(request, request.url, reply.elapsedTime));

type Recorded = { method: string; path: string; headers: Record<string, string>; body?: string };
let recording: Recorded[] | null = null;
app.addHook("preHandler", async (request) => {
  if (!recording) return;
  const headers: Record<string, string> = {};
  for (const name of ["authorization", "accesstoken", "customerid", "userid", "x-requested-with", "content-type"]) {
    const value = request.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  const body = request.body === undefined ? undefined : typeof request.body === "string" ? request.body : JSON.stringify(request.body);
  recording.push({ method: request.method, path: request.url, headers, body });
});

/** Publishes `rounds` events to each named user, spread evenly over `periodMs` per round. */
async function publish({ usernames, rounds, periodMs }: { usernames: string[]; rounds: number; periodMs: number }) {
  const users = await db.selectFrom("users").select(["id", "tenant_id"]).where("user_name", "in", usernames).execute();
  const step = periodMs / users.length;
  const pending: Promise<unknown>[] = [];
  const start = performance.now();
  let failed = 0;
  for (let round = 0; round < rounds; round++) {
    for (const [i, user] of users.entries()) {
      const wait = start + round * periodMs + i * step - performance.now();
      if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
      const sentAt = performance.timeOrigin + performance.now();
      pending.push(
        app.notifications.publish({ tenantId: user.tenant_id, userId: user.id }, "cti.bench", { sentAt, round }).catch(() => failed++),
      );
    }
  }
  await Promise.all(pending);
  return { users: users.length, published: users.length * rounds - failed, failed };
}

/**
 * The monitor's floor: the agent population over the first `agents` bench agents, on their own
 * queue; `burst` places that many calls at once (a wave of customers).
 */
let population: AgentPopulation | null = null;
async function floor(input: { agents?: number; stop?: boolean; burst?: number }) {
  const users = await db
    .selectFrom("users")
    .select(["id", "tenant_id"])
    .where("user_name", "like", "bench-agent-%")
    .orderBy("id")
    .execute();
  if (input.stop) {
    await population?.stop();
    population = null;
  } else if (input.burst) {
    for (let i = 0; i < input.burst; i++)
      await app.cti.offerInbound(users[0].tenant_id, { phone: `139${String(i).padStart(8, "0")}`, queueName: MONITOR.queue });
  } else if (!population) {
    const team = users.slice(0, input.agents ?? users.length);
    population = createAgentPopulation(app, {
      tenantId: team[0].tenant_id,
      userIds: team.map((u) => u.id),
      queueName: MONITOR.queue,
      breakChance: 0.01,
    });
    population.start();
  }
  return { agents: users.length, running: population !== null };
}

/** The control routes listen apart from the platform's API (and its auth), on loopback only. */
const control = createServer(async (request, response) => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const answer = (data: unknown) => response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(data));
  if (request.url === "/record") {
    recording = [];
    answer({ recording: true });
  } else if (request.url === "/recorded") {
    answer(recording ?? []);
    recording = null;
  } else if (request.url === "/publish") answer(await publish(JSON.parse(Buffer.concat(chunks).toString())));
  else if (request.url === "/floor") answer(await floor(JSON.parse(Buffer.concat(chunks).toString() || "{}")));
  else if (request.url === "/profile") answer(profile.read());
  else if (request.url === "/profile/reset") answer((profile.reset(), {}));
  else response.writeHead(404).end();
});

const shutdown = async () => {
  control.close();
  await population?.stop();
  await app.close();
  await database.close();
  process.exit(0);
};
process.once("SIGTERM", () => void shutdown());
process.once("SIGINT", () => void shutdown());

await app.listen({ port: settings.port, host: settings.host });
control.listen(Number(process.env.BENCH_CONTROL_PORT), "127.0.0.1");
console.log(`bench platform: listening on ${settings.port} (${agents} bench agents)`);
