import { sql } from "kysely";
import { MONITOR_RULE_KEYS, codesOf } from "#contracts/codes";
import { SERVICE_LEVEL_SECONDS, type MonitorAgentState, type MonitorRule } from "#contracts/monitor";
import type { Db, Trx } from "#upstream/db";
import { startOfCstDay } from "#common/china-time";
import { WorkType } from "#upstream/domain/work-type";

/**
 * The agents a supervisor watches: every agent account of the tenant, with when its client last
 * reported and, for a text agent, its active chats (oldest first). One statement: on PGlite every
 * statement of a snapshot waits its turn behind the floor's writes.
 */
export async function monitorRoster(db: Db, tenantId: number) {
  const rows = await db
    .selectFrom("users as u")
    .leftJoin("user_presence as p", "p.user_id", "u.id")
    .select(["u.id", "u.real_name", "u.agent_id", "u.work_type", "u.default_queue_name", "p.last_seen_at"])
    .select(
      sql<ActiveSessionJson[] | null>`CASE WHEN u.work_type = ${WorkType.text} THEN (
        SELECT coalesce(json_agg(json_build_object('session_key', s.session_key, 'customer_phone', s.customer_phone, 'created_at', s.created_at)
                                 ORDER BY s.created_at, s.id), '[]')
        FROM chat_sessions s WHERE s.tenant_id = u.tenant_id AND s.agent_user_id = u.id AND s.state = 'active') END`.as("active_chats"),
    )
    .where("u.tenant_id", "=", tenantId)
    .where("u.role", "=", "agent")
    .where("u.agent_id", "is not", null)
    .orderBy("u.agent_id")
    .execute();
  return rows.map(({ active_chats, ...row }) => ({
    ...row,
    chats: (active_chats ?? []).map((c): ActiveSession => ({ ...c, created_at: new Date(c.created_at) })),
  }));
}
export type RosterRow = Awaited<ReturnType<typeof monitorRoster>>[number];
type ActiveSessionJson = { session_key: string; customer_phone: string; created_at: string };

/** A text agent's live state from its roster row (its active chats read with it). */
export const textAgentStateOfRow = (row: RosterRow) => textAgentStateOf(row.id, row.default_queue_name, row.chats);

/** Handle time counts the talk, the hold and the after-call work of each handled call. */
const HANDLING_STATES = ["TALKING", "HOLD", "ACW"];

/** Today's figures per agent (China Standard Time): calls, chats, average handle time, satisfaction. */
export async function agentFiguresToday(db: Db, tenantId: number, now = new Date()) {
  const since = startOfCstDay(now);
  const [calls, chats, handling] = await Promise.all([
    db
      .selectFrom("call_records")
      .select([
        "agent_user_id",
        sql<number>`count(*)`.as("calls"),
        sql<number>`count(attach_data->>'satisfaction')`.as("rated"),
        sql<number>`count(*) filter (where (attach_data->>'satisfaction')::int >= 4)`.as("satisfied"),
      ])
      .where("tenant_id", "=", tenantId)
      .where("agent_user_id", "is not", null)
      .where("call_time", ">=", since)
      .groupBy("agent_user_id")
      .execute(),
    db
      .selectFrom("chat_sessions")
      .select(["agent_user_id", sql<number>`count(*)`.as("chats")])
      .where("tenant_id", "=", tenantId)
      .where("agent_user_id", "is not", null)
      .where("created_at", ">=", since)
      .groupBy("agent_user_id")
      .execute(),
    db
      .selectFrom("agent_state_log")
      .select([
        "user_id",
        sql<number>`sum(extract(epoch from (coalesce(ended_at, ${now}) - started_at)) * 1000)`.as("ms"),
        sql<number>`count(distinct cti_call_id)`.as("handled"),
      ])
      .where("tenant_id", "=", tenantId)
      .where("started_at", ">=", since)
      .where("state", "in", HANDLING_STATES)
      .groupBy("user_id")
      .execute(),
  ]);
  const figures = new Map<number, { calls: number; chats: number; averageHandleMs: number | null; satisfaction: number | null }>();
  const of = (userId: number) => {
    let entry = figures.get(userId);
    if (!entry) figures.set(userId, (entry = { calls: 0, chats: 0, averageHandleMs: null, satisfaction: null }));
    return entry;
  };
  for (const row of calls) {
    const entry = of(row.agent_user_id!);
    entry.calls = Number(row.calls);
    entry.satisfaction = Number(row.rated) > 0 ? Number(row.satisfied) / Number(row.rated) : null;
  }
  for (const row of chats) of(row.agent_user_id!).chats = Number(row.chats);
  for (const row of handling)
    if (Number(row.handled) > 0) of(row.user_id).averageHandleMs = Math.round(Number(row.ms) / Number(row.handled));
  return figures;
}

/** Today's queue figures: answered and abandoned inbound calls, and how many were answered within the service level. */
export async function queueFiguresToday(db: Db, tenantId: number, now = new Date()) {
  const rows = await db
    .selectFrom("call_records")
    .select([
      "queue_name",
      sql<number>`count(*) filter (where is_answer = 1)`.as("answered"),
      sql<number>`count(*) filter (where is_answer = 0)`.as("abandoned"),
      sql<number>`count(*) filter (where is_answer = 1 and queue_wait_ms <= ${SERVICE_LEVEL_SECONDS * 1000})`.as("inTime"),
    ])
    .where("tenant_id", "=", tenantId)
    .where("direction", "=", "inbound")
    .where("queue_name", "is not", null)
    .where("call_time", ">=", startOfCstDay(now))
    .groupBy("queue_name")
    .execute();
  return new Map(
    rows.map((row) => [row.queue_name!, { answered: Number(row.answered), abandoned: Number(row.abandoned), inTime: Number(row.inTime) }]),
  );
}

/** The live state of a text agent: serving chats, or free for the next. */
export async function textAgentState(db: Db, tenantId: number, userId: number, queueName: string): Promise<MonitorAgentState> {
  const sessions = await db
    .selectFrom("chat_sessions")
    .select(["session_key", "customer_phone", "created_at"])
    .where("tenant_id", "=", tenantId)
    .where("state", "=", "active")
    .where("agent_user_id", "=", userId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return textAgentStateOf(userId, queueName, sessions);
}

type ActiveSession = { session_key: string; customer_phone: string; created_at: Date };

function textAgentStateOf(userId: number, queueName: string, sessions: readonly ActiveSession[]): MonitorAgentState {
  const first = sessions[0];
  return {
    userId,
    state: sessions.length > 0 ? "ON_CHAT" : "READY",
    reason: null,
    since: (first?.created_at ?? new Date()).toISOString(),
    queueName,
    work: first
      ? {
          kind: "chat",
          id: first.session_key,
          party: first.customer_phone,
          direction: "inbound",
          campaignId: null,
          campaignName: null,
          startedAt: first.created_at.toISOString(),
        }
      : null,
    chats: sessions.length,
    signOutPending: false,
  };
}

export const isTextAgent = (row: { work_type: number }) => row.work_type === WorkType.text;

/** The thresholds when a tenant has set none: warning, critical seconds. */
export const DEFAULT_RULES: Record<string, [number, number]> = {
  NOT_READY: [300, 900],
  ACW: [60, 180],
  TALKING: [600, 1200],
  RINGING: [15, 30],
  QUEUE_WAIT: [30, 90],
};

export async function monitorRules(db: Db, tenantId: number): Promise<MonitorRule[]> {
  const rows = await db.selectFrom("monitor_rules").selectAll().where("tenant_id", "=", tenantId).execute();
  return codesOf(MONITOR_RULE_KEYS).map((key) => {
    const row = rows.find((r) => r.rule_key === key);
    const [warningSeconds, criticalSeconds] = row ? [row.warning_seconds, row.critical_seconds] : DEFAULT_RULES[key];
    return { key, warningSeconds, criticalSeconds };
  });
}

export async function saveMonitorRules(db: Trx, tenantId: number, userId: number, rules: readonly MonitorRule[]): Promise<void> {
  for (const rule of rules) {
    await db
      .insertInto("monitor_rules")
      .values({
        tenant_id: tenantId,
        rule_key: rule.key,
        warning_seconds: rule.warningSeconds,
        critical_seconds: rule.criticalSeconds,
        updated_by: userId,
      })
      .onConflict((oc) =>
        oc.columns(["tenant_id", "rule_key"]).doUpdateSet({
          warning_seconds: rule.warningSeconds,
          critical_seconds: rule.criticalSeconds,
          updated_by: userId,
          updated_at: new Date(),
        }),
      )
      .execute();
  }
}

/**
 * The queues of a tenant, with how many agents each has: the queues of its users with an agent id
 * (an administrator or supervisor with one takes calls too); a user without one is in no queue.
 */
export async function listQueues(db: Trx, tenantId: number): Promise<Array<{ name: string; agents: number }>> {
  const rows = await db
    .selectFrom("users")
    .select(["default_queue_name", sql<number>`count(*)`.as("agents")])
    .where("tenant_id", "=", tenantId)
    .where("agent_id", "is not", null)
    .groupBy("default_queue_name")
    .orderBy("default_queue_name")
    .execute();
  return rows.map((row) => ({ name: row.default_queue_name, agents: Number(row.agents) }));
}

/** The names of a tenant's queues. */
export const tenantQueues = async (db: Trx, tenantId: number) => (await listQueues(db, tenantId)).map((q) => q.name);

/** Moves an agent to another queue; false when no such agent is in the tenant. */
export async function moveAgentQueue(db: Trx, tenantId: number, userId: number, queueName: string): Promise<boolean> {
  const result = await db
    .updateTable("users")
    .set({ default_queue_name: queueName })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", userId)
    .where("agent_id", "is not", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Every queue of a tenant with its ring timeout (`defaultRingSeconds` where none is set) and after-call work. */
export async function queueSettings(db: Db, tenantId: number, defaultRingSeconds: number) {
  const [queues, rows] = await Promise.all([
    listQueues(db, tenantId),
    db.selectFrom("queue_settings").select(["queue_name", "ring_seconds", "acw_auto_ready"]).where("tenant_id", "=", tenantId).execute(),
  ]);
  return queues.map((queue) => {
    const row = rows.find((r) => r.queue_name === queue.name);
    return {
      queueName: queue.name,
      agents: queue.agents,
      ringSeconds: row?.ring_seconds ?? defaultRingSeconds,
      acwAutoReady: row?.acw_auto_ready ?? true,
      isDefault: !row,
    };
  });
}

export async function saveQueueSettings(
  db: Trx,
  tenantId: number,
  userId: number,
  settings: ReadonlyArray<{ queueName: string; ringSeconds: number; acwAutoReady: boolean }>,
): Promise<void> {
  for (const setting of settings) {
    const values = { ring_seconds: setting.ringSeconds, acw_auto_ready: setting.acwAutoReady, updated_by: userId };
    await db
      .insertInto("queue_settings")
      .values({ tenant_id: tenantId, queue_name: setting.queueName, ...values })
      .onConflict((oc) => oc.columns(["tenant_id", "queue_name"]).doUpdateSet({ ...values, updated_at: new Date() }))
      .execute();
  }
}

/** Whether after-call work of this queue ends by itself (the default where none is set). */
export async function acwAutoReadyOf(db: Db, tenantId: number, queueName: string): Promise<boolean> {
  const row = await db
    .selectFrom("queue_settings")
    .select("acw_auto_ready")
    .where("tenant_id", "=", tenantId)
    .where("queue_name", "=", queueName)
    .executeTakeFirst();
  return row?.acw_auto_ready ?? true;
}

/** Whether the call's result (its business record) has been saved. */
export async function hasCallResult(db: Db, tenantId: number, ctiCallId: string): Promise<boolean> {
  const row = await db
    .selectFrom("business_records")
    .select("cti_call_id")
    .where("tenant_id", "=", tenantId)
    .where("cti_call_id", "=", ctiCallId)
    .executeTakeFirst();
  return row !== undefined;
}

/** How long a call of this queue rings at an agent (seconds), or undefined for the default. */
export async function ringSecondsOf(db: Db, tenantId: number, queueName: string | null): Promise<number | undefined> {
  if (queueName === null) return undefined;
  const row = await db
    .selectFrom("queue_settings")
    .select("ring_seconds")
    .where("tenant_id", "=", tenantId)
    .where("queue_name", "=", queueName)
    .executeTakeFirst();
  return row?.ring_seconds;
}
