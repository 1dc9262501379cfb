import type { FastifyInstance } from "fastify";
import { MONITOR_NOTIFICATIONS, PRESENCE_TIMEOUT_MS } from "#contracts/monitor";
import { agentRows } from "./snapshot";

/**
 * Watches the agents' clients: when one stops reporting (its stream's heartbeats stop for
 * PRESENCE_TIMEOUT_MS) supervisors are told it is 失联, and when it reports again they are told
 * its state. Only a change is told, so the monitor's stream stays quiet while nothing changes.
 */
export function watchPresence(app: FastifyInstance, { everyMs = 10_000 }: { everyMs?: number } = {}) {
  /** What supervisors were last told per agent: lost or not. */
  const lost = new Map<number, boolean>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<void> | null = null;

  async function sweep(now = new Date()): Promise<void> {
    const since = new Date(now.getTime() - PRESENCE_TIMEOUT_MS * 2);
    // Tenants with someone seen lately: the others have nobody whose presence can change.
    const tenants = await app.db.selectFrom("user_presence").select("tenant_id").distinct().where("last_seen_at", ">=", since).execute();
    for (const { tenant_id: tenantId } of tenants) {
      for (const agent of await agentRows(app, tenantId, now, { figures: false })) {
        const isLost = agent.state === "LOST";
        if ((lost.get(agent.userId) ?? false) === isLost) continue;
        lost.set(agent.userId, isLost);
        const { name: _name, agentId: _agentId, workType: _workType, lastSeenAt: _seen, today: _today, ...state } = agent;
        await app.notifications.publish({ tenantId, supervisors: true, queueName: agent.queueName }, MONITOR_NOTIFICATIONS.agent, state);
      }
    }
  }

  return {
    sweep,
    start() {
      timer ??= setInterval(() => {
        running ??= sweep()
          .catch((error) => app.log.error(error, "watching presence failed"))
          .finally(() => (running = null));
      }, everyMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
