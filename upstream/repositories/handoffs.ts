import { sql } from "kysely";
import type { Db } from "#upstream/db";
import { offset, type Page } from "./task-batches";

/** Robot calls handed off to agents: the list of them, by state. */

export async function listHandoffs(db: Db, tenantId: number, query: Page & { state?: string }) {
  let base = db.selectFrom("handoffs as h").where("h.tenant_id", "=", tenantId);
  if (query.state) base = base.where("h.state", "=", query.state as "waiting");
  const [rows, count] = await Promise.all([
    base
      .innerJoin("campaigns as c", "c.id", "h.campaign_id")
      .leftJoin("users as u", "u.id", "h.agent_user_id")
      .select([
        "h.id",
        "h.campaign_id",
        "c.name as campaign_name",
        "h.batch_id",
        "h.task_call_id",
        "h.phone",
        "h.intent",
        "h.state",
        "u.real_name as agent_name",
        "h.created_at",
      ])
      .orderBy("h.id", "desc")
      .limit(query.pageSize)
      .offset(offset(query))
      .execute(),
    base.select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map((r) => ({
      id: r.id,
      campaignId: r.campaign_id,
      campaignName: r.campaign_name,
      batchId: r.batch_id,
      taskCallId: r.task_call_id,
      phone: r.phone,
      intent: r.intent,
      state: r.state,
      agentName: r.agent_name,
      createdAt: r.created_at.toISOString(),
    })),
    total: count.n,
  };
}
