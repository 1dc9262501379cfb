import { sql } from "kysely";
import { TEXT_AGENT_WORK_TYPE } from "#contracts/codes";
import { type PerformanceQuery, type PerformanceRow } from "#contracts/inspection";
import type { Db } from "#upstream/db";
import type { Viewer } from "./inspection";

/** The agents' performance report: calls taken, after-call work, inspections and ratings for a period. */

/** Each agent's figures for a period (calls they took, their after-call work, inspections, ratings). */
export async function agentPerformance(db: Db, tenantId: number, viewer: Viewer, query: PerformanceQuery): Promise<PerformanceRow[]> {
  const from = query.startTime !== undefined ? new Date(query.startTime) : new Date(0);
  const to = query.endTime !== undefined ? new Date(query.endTime) : new Date("9999-12-31");
  let agents = db
    .selectFrom("users")
    .select(["id", "real_name", "default_queue_name"])
    .where("tenant_id", "=", tenantId)
    .where("role", "=", "agent");
  if (viewer.role === "agent") agents = agents.where("id", "=", viewer.id);
  if (query.queue) agents = agents.where("default_queue_name", "=", query.queue);
  if (query.workType !== undefined) {
    agents = agents.where("work_type", query.workType === TEXT_AGENT_WORK_TYPE ? "=" : "<>", TEXT_AGENT_WORK_TYPE);
  }
  const people = await agents.execute();
  if (people.length === 0) return [];
  const ids = people.map((p) => p.id);
  const calls = await db
    .selectFrom("call_records")
    .select([
      "agent_user_id",
      sql<number>`count(*)`.as("calls"),
      sql<number>`count(*) filter (where is_answer = 1)`.as("connected"),
      sql<number>`coalesce(sum(call_duration_ms) filter (where is_answer = 1), 0)`.as("talk"),
      sql<number>`count(*) filter (where conclusion = 1)`.as("succeeded"),
      sql<number>`count(*) filter (where conclusion = 2)`.as("failed"),
      sql<number>`count(*) filter (where qc_status in (0, 1, 3))`.as("inspected"),
      sql<number>`count(*) filter (where qc_status in (0, 1, 3) and coalesce(qc_influence, 0) >= 0)`.as("passed"),
      sql<number>`count(attach_data->>'satisfaction')`.as("rated"),
      sql<number>`count(*) filter (where (attach_data->>'satisfaction')::int >= 4)`.as("satisfied"),
    ])
    .where("tenant_id", "=", tenantId)
    .where("agent_user_id", "in", ids)
    .where("call_time", ">=", from)
    .where("call_time", "<=", to)
    .groupBy("agent_user_id")
    .execute();
  const acw = await db
    .selectFrom("agent_state_log")
    .select(["user_id", sql<number>`coalesce(sum(extract(epoch from (coalesce(ended_at, now()) - started_at)) * 1000), 0)`.as("ms")])
    .where("tenant_id", "=", tenantId)
    .where("user_id", "in", ids)
    .where("state", "=", "ACW")
    .where("started_at", ">=", from)
    .where("started_at", "<=", to)
    .groupBy("user_id")
    .execute();
  // A text agent's work: the chat sessions they served that began in the period, their replies in
  // them, and how long the sessions lasted (an open one up to now).
  const chats = await db
    .selectFrom("chat_sessions")
    .select([
      "agent_user_id",
      sql<number>`count(*)`.as("chats"),
      sql<number>`coalesce(sum(extract(epoch from (coalesce(closed_at, now()) - created_at)) * 1000), 0)`.as("ms"),
    ])
    .where("tenant_id", "=", tenantId)
    .where("agent_user_id", "in", ids)
    .where("created_at", ">=", from)
    .where("created_at", "<=", to)
    .groupBy("agent_user_id")
    .execute();
  const replies = await db
    .selectFrom("chat_messages")
    .innerJoin("chat_sessions", "chat_sessions.id", "chat_messages.session_id")
    .select(["chat_sessions.agent_user_id", sql<number>`count(*)`.as("replies")])
    .where("chat_sessions.tenant_id", "=", tenantId)
    .where("chat_sessions.agent_user_id", "in", ids)
    .where("chat_sessions.created_at", ">=", from)
    .where("chat_sessions.created_at", "<=", to)
    .where("chat_messages.role", "=", "agent")
    .groupBy("chat_sessions.agent_user_id")
    .execute();
  const byAgent = new Map(calls.map((c) => [c.agent_user_id, c]));
  const acwBy = new Map(acw.map((a) => [a.user_id, Math.round(Number(a.ms))]));
  const chatsBy = new Map(chats.map((c) => [c.agent_user_id, c]));
  const repliesBy = new Map(replies.map((r) => [r.agent_user_id, Number(r.replies)]));
  const list = people.map((p): PerformanceRow => {
    const c = byAgent.get(p.id);
    const n = (v: unknown) => Number(v ?? 0);
    const connected = n(c?.connected);
    const talkMs = n(c?.talk);
    const acwMs = acwBy.get(p.id) ?? 0;
    const inspected = n(c?.inspected);
    const rated = n(c?.rated);
    const chat = chatsBy.get(p.id);
    const chatCount = n(chat?.chats);
    const chatMs = Math.round(n(chat?.ms));
    return {
      agentId: p.id,
      agentName: p.real_name,
      queueName: p.default_queue_name,
      calls: n(c?.calls),
      connected,
      talkMs,
      avgHandleMs: connected > 0 ? Math.round((talkMs + acwMs) / connected) : 0,
      acwMs,
      succeeded: n(c?.succeeded),
      failed: n(c?.failed),
      inspected,
      passed: n(c?.passed),
      passRate: inspected > 0 ? Math.round((1000 * n(c?.passed)) / inspected) / 10 : null,
      satisfaction: rated > 0 ? Math.round((1000 * n(c?.satisfied)) / rated) / 10 : null,
      chats: chatCount,
      replies: repliesBy.get(p.id) ?? 0,
      chatMs,
      avgChatMs: chatCount > 0 ? Math.round(chatMs / chatCount) : 0,
    };
  });
  const sign = query.order === "asc" ? 1 : -1;
  return list.sort((a, b) => sign * ((a[query.sort] ?? -1) - (b[query.sort] ?? -1)) || a.agentId - b.agentId);
}
