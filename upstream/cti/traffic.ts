import type { FastifyInstance } from "fastify";

const TICK_MS = 5_000;
const OFFER_EVERY_TICKS = 4;
const TALK_MS = 40_000;
const CUSTOMER_LINES = ["我想问一下我的账单", "上个月的费用好像多扣了", "好的，我明白了", "还有别的需要注意的吗", "谢谢你"];

/**
 * Demo traffic (CTI_SIMULATED_TRAFFIC=1): every 20 s each queue with a ready agent and nothing
 * waiting gets an inbound call from one of the tenant's contacts; customers speak every 5 s and
 * hang up after about 40 s. Tests drive calls step by step through the simulator routes instead.
 */
export function startSimulatedTraffic(app: FastifyInstance): () => void {
  let tick = 0;
  const timer = setInterval(() => void step().catch((error) => app.log.error(error, "simulated traffic failed")), TICK_MS);
  timer.unref();
  // Answers the stop: it may start after the app listens (a take-over, decision 037), when no hook can be added.
  return () => clearInterval(timer);

  async function step() {
    tick += 1;
    for (const call of app.cti.activeCalls()) {
      if (!call.answeredAt || call.origin === "manual") continue;
      if (Date.now() - Date.parse(call.answeredAt) > TALK_MS) {
        await app.cti.customerHangup(call.tenantId, call.ctiCallId);
        continue;
      }
      const line = CUSTOMER_LINES[call.transcript.length % CUSTOMER_LINES.length];
      const entry = { segmentId: call.transcript.length, thisRole: 3, nluResult: null, dialogContent: line, gender: -1 };
      await app.cti.addAsr(call.tenantId, call.ctiCallId, entry);
    }
    if (tick % OFFER_EVERY_TICKS !== 0) return;
    for (const { tenantId, queueName } of app.cti.idleQueues()) {
      const contact = await app.db
        .selectFrom("crm_contacts")
        .select(["phone"])
        .where("tenant_id", "=", tenantId)
        .orderBy("id")
        .offset(tick % 3)
        .limit(1)
        .executeTakeFirst();
      await app.cti.offerInbound(tenantId, { phone: contact?.phone ?? "13800000000", queueName });
    }
  }
}
