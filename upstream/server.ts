import path from "node:path";
import { buildApp } from "./app";
import { bridgeHandoffs } from "#upstream/simulators/handoff-bridge";
import { createChatService } from "#upstream/chat/service";
import { createChatSimulator } from "#upstream/chat/simulator";
import { openDatabase } from "#upstream/db";
import { migrateToLatest } from "#upstream/db/migrate";
import { startSimulatedTraffic } from "#upstream/cti/traffic";
import { keepStatistics } from "#upstream/db/statistics";
import { watchPresence } from "#upstream/monitor/presence";
import { seedDemo } from "#upstream/seed/demo";
import { createSmsCarrier } from "#upstream/simulators/sms-carrier";
import { startSalesTeam } from "#upstream/seed/sales-team";
import { readSettings } from "./settings";
import { platformLogger } from "#upstream/observability/http";
import { runOperations } from "#upstream/observability/operations";
import { readVoiceSettings } from "./voice/settings";

/**
 * The platform's process: open the database, migrate, seed the demo data unless SEED_DEMO=0,
 * listen, and close cleanly on SIGTERM/SIGINT. Run as `node build/upstream/server.mjs` or
 * `node --import tsx upstream/server.ts`.
 */
const settings = readSettings(process.env);
const database = await openDatabase(
  settings.databaseUrl ? { databaseUrl: settings.databaseUrl } : { dataDir: path.join(settings.dataDir, "pglite") },
);

try {
  await migrateToLatest(database.db);
  if (settings.seedDemo) await seedDemo(database.db);
} catch (error) {
  console.error("upstream: could not prepare the database:", error);
  await database.close();
  process.exit(1);
}

// JSON lines, one per request and notable event (LOG_LEVEL, default info; LOG_FILE).
const app = buildApp({
  db: database.db,
  clientId: settings.clientId,
  clientSecret: settings.clientSecret,
  logger: platformLogger(settings.logLevel),
  cti: { acwMs: settings.acwSeconds * 1_000, ringMs: settings.ringSeconds * 1_000 },
  simulatorControl: settings.simulatorControl,
  voice: readVoiceSettings(process.env),
});
const stopStatistics = await keepStatistics(database.db, (error) => app.log.error(error, "refreshing planner statistics failed"));
// Agents' phone states did not survive the last stop: tell the agents who were signed in.
await app.cti.signOutAfterRestart();
app.dialer.start({ speed: settings.dialerSpeed });
// Hand-offs ring at agents only when the dialer runs on its own clock: when tests drive it step
// by step (DIALER_SPEED=0), its hand-offs must not ring at agents other tests are driving.
if (settings.dialerSpeed > 0) bridgeHandoffs(app);
if (settings.simulatedTraffic) startSimulatedTraffic(app);

const chatSimulator = createChatSimulator(database.db, createChatService(database.db, app.notifications));
if (settings.chatSimulator) chatSimulator.start();
// The demo's sales team at work, so the monitor has a floor to watch.
const population = settings.agentSimulator ? await startSalesTeam(app) : null;

// The SMS outbox always moves: a message is never left "sent" without an answer.
const smsCarrier = createSmsCarrier(database.db);
smsCarrier.start();

// Notifications are replayable for an hour; older ones go. On PostgreSQL, other platform
// processes' notifications reach this one's streams.
const pruning = setInterval(
  () => void app.notifications.prune().catch((error) => app.log.error(error, "pruning notifications failed")),
  5 * 60_000,
);
const stopListening = await app.notifications.listenAcrossProcesses();
// Supervisors learn when an agent's client stops reporting (失联) or reports again.
const presence = watchPresence(app);
presence.start();
pruning.unref();

let operations: ReturnType<typeof runOperations> | undefined;
let closing = false;
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (closing) return;
  closing = true;
  try {
    await operations?.drain();
    chatSimulator.stop();
    await population?.stop();
    await smsCarrier.stop();
    await stopListening();
    await presence.stop();
    stopStatistics();
    await app.close();
    await database.close();
    console.log(`upstream: stopped (${signal})`);
  } catch (error) {
    console.error("upstream: error while stopping:", error);
    process.exitCode = 1;
  }
}
process.once("SIGTERM", (signal) => void shutdown(signal));
process.once("SIGINT", (signal) => void shutdown(signal));

try {
  const address = await app.listen({ port: settings.port, host: settings.host });
  const store = settings.databaseUrl ? "PostgreSQL" : `PGlite in ${path.join(settings.dataDir, "pglite")}`;
  console.log(`upstream: listening on ${address} (${store})`);
  operations = runOperations(app, database.db);
} catch (error) {
  console.error("upstream: could not listen:", error);
  await database.close();
  process.exit(1);
}
