import type { FastifyInstance } from "fastify";
import { createChatService } from "#upstream/chat/service";
import { createChatSimulator } from "#upstream/chat/simulator";
import { startSimulatedTraffic } from "#upstream/cti/traffic";
import type { Db } from "#upstream/db";
import { watchPresence } from "#upstream/monitor/presence";
import { startSalesTeam } from "#upstream/seed/sales-team";
import { bridgeHandoffs } from "#upstream/simulators/handoff-bridge";
import { createSmsCarrier } from "#upstream/simulators/sms-carrier";
import type { Settings } from "#upstream/settings";

/**
 * This process's URL as the other platform processes reach it (the CTI's owner is forwarded to):
 * PLATFORM_URL, or its own address and port (loopback when it listens on every address).
 */
export function selfUrlOf(settings: Pick<Settings, "host" | "port">, env: Record<string, string | undefined>): string {
  if (env.PLATFORM_URL) return env.PLATFORM_URL.replace(/\/$/, "");
  const host = ["0.0.0.0", "::", ""].includes(settings.host) ? "127.0.0.1" : settings.host;
  return `http://${host.includes(":") ? `[${host}]` : host}:${settings.port}`;
}

/** How often the owner says its calls are live: a call cut by its death is recorded as ended at most this long before. */
const LIVE_CALLS_HEARTBEAT_MS = 5_000;

/**
 * What the owner of a cluster does, once (decision 037): the CTI starts with every phone signed
 * out (the phones of a previous owner are gone, and their agents are told), the dialer runs, and
 * so do the simulators (hand-offs, inbound traffic, chat customers, the sales team, the SMS
 * carrier) and the presence watch, each of which would act twice if two processes ran it.
 * Answers the way to stop them.
 */
export async function startOwnerDuties(app: FastifyInstance, db: Db, settings: Settings): Promise<() => Promise<void>> {
  // The calls a process that died was holding are recorded (a graceful stop records its own);
  // while this one owns, its live calls are said to be live every few seconds.
  await app.cti.recordCutCalls();
  const heartbeat = setInterval(() => void app.cti.stillLive().catch(() => undefined), LIVE_CALLS_HEARTBEAT_MS);
  heartbeat.unref();
  // Agents' phone states did not survive the last stop (or the last owner): tell the agents who were signed in.
  await app.cti.signOutAfterRestart();
  app.dialer.start({ speed: settings.dialerSpeed });
  // Hand-offs ring at agents only when the dialer runs on its own clock: when tests drive it step
  // by step (DIALER_SPEED=0), its hand-offs must not ring at agents other tests are driving.
  if (settings.dialerSpeed > 0) bridgeHandoffs(app);
  const stopTraffic = settings.simulatedTraffic ? startSimulatedTraffic(app) : null;

  const chatSimulator = createChatSimulator(db, createChatService(db, app.notifications));
  if (settings.chatSimulator) chatSimulator.start();
  // The demo's sales team at work, so the monitor has a floor to watch.
  const population = settings.agentSimulator ? await startSalesTeam(app) : null;

  // The SMS outbox always moves: a message is never left "sent" without an answer.
  const smsCarrier = createSmsCarrier(db);
  smsCarrier.start();
  // Supervisors learn when an agent's client stops reporting (失联) or reports again.
  const presence = watchPresence(app);
  presence.start();

  return async () => {
    clearInterval(heartbeat);
    stopTraffic?.();
    await app.dialer.stop();
    chatSimulator.stop();
    await population?.stop();
    await smsCarrier.stop();
    await presence.stop();
  };
}
