import type { FastifyInstance } from "fastify";
import type { AsrEntry } from "#contracts/cti";
import { isRecordingName } from "#upstream/domain/recordings";
import type { Handoff } from "./dialer";

/**
 * Collaborative campaigns (type 2): the dialer's interested customers ring at a ready voice
 * agent of the campaign's queue, with the robot's conversation so far, and an agent answering
 * marks the hand-off handed (decisions 006 and 007 describe the two ends of this seam).
 */
export function bridgeHandoffs(app: FastifyInstance) {
  const offered = new Map<string, { tenantId: number; handoffId: number }>();

  app.cti.onAnswered(({ ctiCallId, agentUserId }) => {
    const handoff = offered.get(ctiCallId);
    if (!handoff) return;
    offered.delete(ctiCallId);
    void app.dialer
      .acceptHandoff(handoff.tenantId, handoff.handoffId, agentUserId)
      .catch((error) => app.log.error(error, "accepting a hand-off failed"));
  });

  /** Offers one hand-off to the CTI; the call it becomes, or null when the hand-off is unknown. */
  async function offer(handoff: Handoff) {
    const row = await app.db
      .selectFrom("handoffs")
      .innerJoin("campaigns", "campaigns.id", "handoffs.campaign_id")
      .leftJoin("call_records", (join) =>
        join.onRef("call_records.id", "=", "handoffs.call_record_id").onRef("call_records.tenant_id", "=", "handoffs.tenant_id"),
      )
      .select(["handoffs.call_record_id", "campaigns.flow_id", "call_records.recording"])
      // The queue the dialer chose (the flow's transfer node, the robot's or the campaign's; decision 029).
      .select((eb) => eb.fn.coalesce("handoffs.queue_name", "campaigns.queue_name").as("queue_name"))
      .where("handoffs.id", "=", handoff.id)
      .where("handoffs.tenant_id", "=", handoff.tenantId)
      .executeTakeFirst();
    if (!row) return null;
    // The robot's part only: the agent's is still to come.
    const lines =
      row.call_record_id === null
        ? []
        : await app.db
            .selectFrom("call_dialogs")
            .select(["seq", "this_role", "nlu_result", "content", "gender"])
            .where("call_record_id", "=", row.call_record_id)
            .where("tenant_id", "=", handoff.tenantId)
            .where("dialog_type", "=", 1)
            .orderBy("seq")
            .execute();
    const transcript: AsrEntry[] = lines.map((line) => ({
      segmentId: line.seq,
      thisRole: line.this_role,
      nluResult: line.nlu_result,
      dialogContent: line.content,
      gender: line.gender,
    }));
    const call = await app.cti.offerRobotHandoff(handoff.tenantId, {
      phone: handoff.phone,
      queueName: row.queue_name,
      flowId: row.flow_id,
      campaignId: handoff.campaignId,
      transcript,
      // The agent's leg keeps the robot call's recording and intent, so the two agree.
      robotCall: isRecordingName(row.recording) ? { recording: row.recording, intent: handoff.intent } : undefined,
    });
    offered.set(call.ctiCallId, { tenantId: handoff.tenantId, handoffId: handoff.id });
    return call;
  }

  app.dialer.onHandoff((handoff) => void offer(handoff).catch((error) => app.log.error(error, "offering a hand-off failed")));
  // A hand-off nobody took in time: the customer, still waiting or ringing at an agent, hangs up.
  app.dialer.onHandoffLost(({ id, tenantId }) => {
    const entry = [...offered].find(([, handoff]) => handoff.handoffId === id && handoff.tenantId === tenantId);
    if (!entry) return;
    offered.delete(entry[0]);
    void app.cti.customerHangup(tenantId, entry[0]).catch((error) => app.log.error(error, "ending a lost hand-off failed"));
  });
  return { offer };
}
