import type { FastifyInstance } from "fastify";
import { NOT_READY_REASONS, codesOf } from "#contracts/codes";
import { RECORDING_OF, RECORDINGS } from "#upstream/domain/recordings";

/**
 * A simulated floor of voice agents working a queue, so that a demo's monitor is alive and the
 * bench can drive hundreds of agents through the platform's real CTI service: agents sign in,
 * go ready, take the calls that customers place in the queue, talk, wrap up, take breaks, and now
 * and then one's browser stops reporting (失联) for a while. Every step goes through the same CTI
 * service the workbench uses, so every state change reaches supervisors as a real one does.
 */
export type PopulationOptions = {
  tenantId: number;
  userIds: readonly number[];
  queueName: string;
  /** How often each agent is looked at. */
  tickMs?: number;
  /** Calls placed per ready agent per tick (a busy queue is around 0.1). */
  callsPerReadyAgent?: number;
  /**
   * How long a customer talks once answered: by default exactly as long as the recording the call
   * is kept with, so a call's 通话时长 and its recording's length agree.
   */
  talkMs?: number;
  /** The chance, per agent per tick, of a break from ready. */
  breakChance?: number;
  random?: () => number;
};

type Plan = { next: number; lost: number };

export function createAgentPopulation(app: FastifyInstance, options: PopulationOptions) {
  const { tenantId, queueName } = options;
  const tickMs = options.tickMs ?? 1_000;
  const random = options.random ?? Math.random;
  const callsPerReady = options.callsPerReadyAgent ?? 0.08;
  const breakChance = options.breakChance ?? 0.01;
  const talkMs = options.talkMs ?? RECORDINGS[RECORDING_OF.inbound].durationMs;
  const reasons = codesOf(NOT_READY_REASONS);
  const plans = new Map<number, Plan>(options.userIds.map((id) => [id, { next: 0, lost: 0 }]));
  /** A duration of `min` to `max` ticks from now, in ms. */
  const after = (now: number, min: number, max: number) => now + (min + random() * (max - min)) * tickMs;
  let timer: ReturnType<typeof setInterval> | undefined;
  let running: Promise<void> | null = null;
  let ticks = 0;

  async function step(userId: number, plan: Plan, now: number): Promise<void> {
    const caller = { id: userId, tenantId };
    const { agent, call } = await app.cti.status(caller);
    if (plan.next > now) return;
    switch (agent.state) {
      case "SIGNED_OUT":
        await app.cti.command(caller, { type: "signIn" });
        plan.next = after(now, 2, 8);
        break;
      case "NOT_READY":
      case "ACW":
        await app.cti.command(caller, { type: "ready" });
        break;
      case "READY":
        if (random() < breakChance) {
          await app.cti.command(caller, { type: "notReady", reason: reasons[Math.floor(random() * reasons.length)] });
          plan.next = after(now, 20, 90);
        }
        break;
      case "RINGING":
        await app.cti.callAction(caller, "answer");
        // Ended at the tick nearest the talk's end (half a tick early, so a late timer does not add one).
        plan.next = now + talkMs - tickMs / 2;
        break;
      case "TALKING":
      case "HOLD":
        if (call) await app.cti.customerHangup(tenantId, call.ctiCallId);
        plan.next = after(now, 3, 12);
        break;
    }
  }

  async function tick(now = Date.now()): Promise<void> {
    ticks += 1;
    let ready = 0;
    for (const [userId, plan] of plans) {
      await step(userId, plan, now);
      if ((await app.cti.status({ id: userId, tenantId })).agent.state === "READY") ready += 1;
    }
    // Customers call in proportion to the agents ready to take them.
    const calls = Math.floor(ready * callsPerReady + random());
    for (let i = 0; i < calls; i++) {
      await app.cti.offerInbound(tenantId, { phone: `1${String(3_000_000_000 + Math.floor(random() * 999_999_999))}`, queueName });
    }
    // Every ten ticks each client reports, except one now and then whose network drops a while.
    if (ticks % 10 === 1) {
      for (const [userId, plan] of plans) {
        if (plan.lost > now) continue;
        if (random() < 0.02) plan.lost = after(now, 60, 180);
        else await app.notifications.touchPresence({ id: userId, tenantId }, new Date(now));
      }
    }
  }

  return {
    tick,
    start() {
      timer ??= setInterval(() => {
        running ??= tick()
          .catch((error) => app.log.error(error, "agent population step failed"))
          .finally(() => (running = null));
      }, tickMs);
      timer.unref();
    },
    async stop() {
      clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
export type AgentPopulation = ReturnType<typeof createAgentPopulation>;
