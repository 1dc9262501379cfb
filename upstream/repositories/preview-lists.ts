import { sql } from "kysely";
import { AGENT_DIALLED_CAMPAIGN_TYPES } from "#contracts/codes";
import type { TaskCall } from "#contracts/outbound";
import type { Db, Trx } from "#upstream/db";
import { BatchStatus, CallStatus } from "#upstream/domain/dialer-states";
import { moveCall, taskCallRecord } from "./dialing";
import { findCall } from "./task-calls";

/**
 * The agents' preview lists (manual campaigns): the next contact is taken, dialled or skipped by
 * its agent; an administrator distributes the unassigned contacts among agents.
 */

/**
 * The agent's current preview contact: the one already taken, or the next waiting contact of a
 * scheduling batch of a running manual campaign, assigned to them (to nobody else: row lock).
 */
export async function takeNextPreview(
  db: Db,
  tenantId: number,
  agentUserId: number,
  campaignId: number | undefined,
  at: Date,
): Promise<TaskCall | null> {
  const callId = await db.transaction().execute(async (trx) => {
    let candidates = trx
      .selectFrom("task_calls as t")
      .innerJoin("task_batches as b", "b.id", "t.batch_id")
      .innerJoin("campaigns as c", "c.id", "t.campaign_id")
      .select(["t.id", "t.agent_user_id"])
      .where("t.tenant_id", "=", tenantId)
      .where("t.status", "=", CallStatus.waiting)
      .where("b.status", "=", BatchStatus.scheduling)
      .where("c.state", "=", 1)
      .where("c.type", "in", AGENT_DIALLED_CAMPAIGN_TYPES)
      .where((eb) => eb.or([eb("t.agent_user_id", "=", agentUserId), eb("t.agent_user_id", "is", null)]));
    if (campaignId !== undefined) candidates = candidates.where("t.campaign_id", "=", campaignId);
    // Own contacts first (already taken or distributed to me), then the shared pool.
    const next = await candidates
      .orderBy(sql`t.agent_user_id is null`)
      .orderBy("t.id")
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!next) return null;
    if (next.agent_user_id === null)
      await trx.updateTable("task_calls").set({ agent_user_id: agentUserId, updated_at: at }).where("id", "=", next.id).execute();
    return next.id;
  });
  return callId === null ? null : ((await findCall(db, tenantId, callId)) ?? null);
}

/** An agent's preview contact still waiting to be called, or undefined when it is not theirs. */
export async function ownWaitingCall(db: Db, tenantId: number, agentUserId: number, taskCallId: number) {
  return db
    .selectFrom("task_calls as t")
    .innerJoin("campaigns as c", "c.id", "t.campaign_id")
    .select([
      "t.id",
      "t.tenant_id",
      "t.batch_id",
      "t.campaign_id",
      "t.status",
      "t.attempts",
      "t.phone",
      "t.user_data",
      "c.type as campaign_type",
      "c.queue_name",
    ])
    .where("t.tenant_id", "=", tenantId)
    .where("t.id", "=", taskCallId)
    .where("t.agent_user_id", "=", agentUserId)
    .where("t.status", "=", CallStatus.waiting)
    .executeTakeFirst();
}

/**
 * The agent dials their preview contact through the phone: the contact is being called
 * (呼叫中) until the call ends (`endTaskDial`). The contact, or undefined when it is not theirs.
 */
export async function startPreviewDial(db: Db, tenantId: number, agentUserId: number, taskCallId: number, at: Date) {
  const call = await ownWaitingCall(db, tenantId, agentUserId, taskCallId);
  if (!call) return undefined;
  await db.transaction().execute((trx) => moveCall(trx, call, CallStatus.dialling, "坐席拨打", at, { attempts: call.attempts + 1 }));
  return { ...call, record: taskCallRecord(call, "") };
}

/** A dialled contact's call ended: answered is 呼叫完成, otherwise 未接通, with who hung up. */
export async function endTaskDial(trx: Trx, tenantId: number, taskCallId: number, answered: boolean, hangupParty: number, at: Date) {
  const call = await trx
    .selectFrom("task_calls")
    .select(["id", "tenant_id", "batch_id", "status"])
    .where("tenant_id", "=", tenantId)
    .where("id", "=", taskCallId)
    .where("status", "=", CallStatus.dialling)
    .forUpdate()
    .executeTakeFirst();
  if (!call) return;
  await moveCall(trx, call, answered ? CallStatus.complete : CallStatus.notConnected, answered ? "通话结束" : "未接通", at, {
    hangup_party: hangupParty,
  });
}

/** The agent skips their preview contact with a reason: it counts as not connected (hung up by the agent). */
export async function skipPreview(
  db: Db,
  tenantId: number,
  agentUserId: number,
  taskCallId: number,
  reason: string,
  at: Date,
): Promise<boolean> {
  const call = await ownWaitingCall(db, tenantId, agentUserId, taskCallId);
  if (!call) return false;
  await db
    .transaction()
    .execute((trx) => moveCall(trx, call, CallStatus.notConnected, `坐席跳过：${reason}`, at, { hangup_party: 3, skip_reason: reason }));
  return true;
}

export async function unassignedCount(db: Db, tenantId: number, campaignId: number): Promise<number> {
  const row = await db
    .selectFrom("task_calls")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("tenant_id", "=", tenantId)
    .where("campaign_id", "=", campaignId)
    .where("status", "=", CallStatus.waiting)
    .where("agent_user_id", "is", null)
    .executeTakeFirstOrThrow();
  return row.n;
}

/**
 * Distributes a campaign's unassigned waiting contacts among agents: evenly (the remainder to
 * the first agents) or a given count each (in order, as far as contacts last).
 */
export async function distributeContacts(
  db: Db,
  tenantId: number,
  campaignId: number,
  mode: "even" | "count",
  agents: Array<{ userId: number; count?: number }>,
  at: Date,
): Promise<Array<{ userId: number; count: number }>> {
  return db.transaction().execute(async (trx) => {
    const pool = await trx
      .selectFrom("task_calls")
      .select("id")
      .where("tenant_id", "=", tenantId)
      .where("campaign_id", "=", campaignId)
      .where("status", "=", CallStatus.waiting)
      .where("agent_user_id", "is", null)
      .orderBy("id")
      .forUpdate()
      .execute();
    const shares =
      mode === "even"
        ? agents.map((_, i) => Math.floor(pool.length / agents.length) + (i < pool.length % agents.length ? 1 : 0))
        : agents.map((a) => a.count ?? 0);
    const assigned: Array<{ userId: number; count: number }> = [];
    let next = 0;
    for (const [i, agent] of agents.entries()) {
      const ids = pool.slice(next, next + shares[i]).map((r) => r.id);
      next += ids.length;
      for (let j = 0; j < ids.length; j += 5000) {
        await trx
          .updateTable("task_calls")
          .set({ agent_user_id: agent.userId, updated_at: at })
          .where("id", "in", ids.slice(j, j + 5000))
          .execute();
      }
      assigned.push({ userId: agent.userId, count: ids.length });
    }
    return assigned;
  });
}
