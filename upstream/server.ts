import path from "node:path";
import { buildApp } from "./app";
import { selfUrlOf, startOwnerDuties } from "#upstream/cluster/duties";
import { electOwner } from "#upstream/cluster/ownership";
import { openDatabase } from "#upstream/db";
import { migrateToLatest } from "#upstream/db/migrate";
import { keepStatistics } from "#upstream/db/statistics";
import { seedDemo } from "#upstream/seed/demo";
import { readSettings } from "./settings";
import { platformLogger } from "#upstream/observability/http";
import { runOperations } from "#upstream/observability/operations";
import { startTracing, stopTracing } from "#common/observability/tracing";
import { readVoiceSettings } from "./voice/settings";

/**
 * The platform's process: open the database, migrate, seed the demo data unless SEED_DEMO=0,
 * listen, and close cleanly on SIGTERM/SIGINT. Run as `node build/upstream/server.mjs` or
 * `node --import tsx upstream/server.ts`.
 */
const settings = readSettings(process.env);
// Traces when OTEL_EXPORTER_OTLP_ENDPOINT (or _TRACES_ENDPOINT) is set; before the database opens, whose SQL they include.
await startTracing("switchboard-platform");
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

// One process of a cluster on PostgreSQL owns the CTI and runs the simulators (decision 037); it
// stops at once if it loses the lock that makes it the owner, and is restarted.
const ownership = await electOwner(database.db, selfUrlOf(settings, process.env), (error) => {
  console.error("upstream: lost the CTI's ownership; stopping", error);
  process.exit(1);
});

// JSON lines, one per request and notable event (LOG_LEVEL, default info; LOG_FILE).
const app = buildApp({
  db: database.db,
  clientId: settings.clientId,
  clientSecret: settings.clientSecret,
  logger: platformLogger(settings.logLevel),
  cti: { acwMs: settings.acwSeconds * 1_000, ringMs: settings.ringSeconds * 1_000 },
  simulatorControl: settings.simulatorControl,
  voice: readVoiceSettings(process.env),
  ownership,
});
const stopStatistics = await keepStatistics(database.db, (error) => app.log.error(error, "refreshing planner statistics failed"));
let stopDuties: () => Promise<void> = async () => undefined;
await ownership.whenOwner(async () => {
  stopDuties = await startOwnerDuties(app, database.db, settings);
});

// Notifications are replayable for an hour; older ones go. On PostgreSQL, other platform
// processes' notifications reach this one's streams.
const pruning = setInterval(
  () => void app.notifications.prune().catch((error) => app.log.error(error, "pruning notifications failed")),
  5 * 60_000,
);
const stopListening = await app.notifications.listenAcrossProcesses();
pruning.unref();

let operations: ReturnType<typeof runOperations> | undefined;
let closing = false;
async function shutdown(signal: NodeJS.Signals): Promise<void> {
  if (closing) return;
  closing = true;
  try {
    await operations?.drain();
    await stopDuties();
    await stopListening();
    stopStatistics();
    // The CTI records the calls still on as it closes; then another process may own.
    await app.close();
    await ownership.stop();
    await database.close();
    await stopTracing();
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
