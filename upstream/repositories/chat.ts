import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import type {
  ChatBusinessRecord,
  ChatCustomer,
  ChatDialog,
  ChatRole,
  ChatSession,
  ChatSessionSummary,
  ChatState,
  QuickReply,
} from "#contracts/chat";
import type { Db } from "#upstream/db";
import { WorkType } from "#upstream/domain/work-type";

/**
 * Chat sessions, messages, business records and quick-reply knowledge nodes. Every read and
 * write is scoped to a tenant; an agent (`ownerId`) sees only what is assigned to it or waiting.
 */

export type ChatScope = { tenantId: number; ownerId?: number };
export type SessionRow = { id: number; tenant_id: number; session_key: string; state: ChatState; agent_user_id: number | null };

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function summaries(db: Db, scope: ChatScope) {
  let query = db
    .selectFrom("chat_sessions as s")
    .leftJoin("users as u", "u.id", "s.agent_user_id")
    .where("s.tenant_id", "=", scope.tenantId)
    .select([
      "s.id",
      "s.session_key",
      "s.state",
      "s.queue_name",
      "s.agent_user_id",
      "s.customer_name",
      "s.customer_phone",
      "s.customer_channel",
      "s.customer_region",
      "s.created_at",
      "s.closed_at",
      "u.real_name as agent_name",
      (eb) =>
        eb
          .selectFrom("chat_messages as m")
          .whereRef("m.session_id", "=", "s.id")
          .select(sql<number>`count(*)::int`.as("n"))
          .as("message_count"),
      (eb) =>
        eb
          .selectFrom("chat_messages as m")
          .whereRef("m.session_id", "=", "s.id")
          .orderBy("m.id", "desc")
          .limit(1)
          .select("m.content")
          .as("last_message"),
    ]);
  if (scope.ownerId !== undefined) {
    const owner = scope.ownerId;
    query = query.where((eb) => eb.or([eb("s.agent_user_id", "=", owner), eb("s.state", "=", "waiting")]));
  }
  return query;
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaries>["executeTakeFirstOrThrow"]>>;

const toSummary = (row: SummaryRow): ChatSessionSummary => ({
  sessionId: row.session_key,
  state: row.state,
  queueName: row.queue_name,
  agentName: row.agent_name ?? null,
  customer: { name: row.customer_name, phone: row.customer_phone, channel: row.customer_channel, region: row.customer_region },
  createdAt: row.created_at.toISOString(),
  closedAt: row.closed_at?.toISOString() ?? null,
  messageCount: Number(row.message_count ?? 0),
  lastMessage: row.last_message ?? null,
});

export async function listSessions(
  db: Db,
  scope: ChatScope,
  query: { states: ChatState[]; keyword?: string; pageNo: number; pageSize: number },
): Promise<{ list: ChatSessionSummary[]; total: number }> {
  let base = summaries(db, scope);
  if (query.states.length > 0) base = base.where("s.state", "in", query.states);
  if (query.keyword) {
    const like = `%${escapeLike(query.keyword)}%`;
    base = base.where((eb) =>
      eb.or([eb("s.customer_name", "like", like), eb("s.customer_phone", "like", like), eb("s.session_key", "=", query.keyword!)]),
    );
  }
  const [rows, count] = await Promise.all([
    base
      .orderBy("s.created_at", "desc")
      .orderBy("s.id", "desc")
      .limit(query.pageSize)
      .offset((query.pageNo - 1) * query.pageSize)
      .execute(),
    base
      .clearSelect()
      .select(sql<number>`count(*)::int`.as("total"))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toSummary), total: Number(count.total) };
}

/** A session the scope may see, by its public id; undefined for unknown or foreign ones. */
export async function findSession(db: Db, scope: ChatScope, sessionKey: string): Promise<SessionRow | undefined> {
  let query = db
    .selectFrom("chat_sessions")
    .select(["id", "tenant_id", "session_key", "state", "agent_user_id"])
    .where("tenant_id", "=", scope.tenantId)
    .where("session_key", "=", sessionKey);
  if (scope.ownerId !== undefined) {
    const owner = scope.ownerId;
    query = query.where((eb) => eb.or([eb("agent_user_id", "=", owner), eb("state", "=", "waiting")]));
  }
  return query.executeTakeFirst();
}

const toDialog = (row: { id: number; role: ChatRole; content: string; created_at: Date; client_id: string | null }): ChatDialog => ({
  id: String(row.id),
  role: row.role,
  content: row.content,
  at: row.created_at.toISOString(),
  clientId: row.client_id,
});

export async function sessionDetail(db: Db, scope: ChatScope, sessionKey: string): Promise<ChatSession | undefined> {
  const row = await summaries(db, scope).where("s.session_key", "=", sessionKey).executeTakeFirst();
  if (!row) return undefined;
  const [dialogs, record, workOrder] = await Promise.all([
    db
      .selectFrom("chat_messages")
      .select(["id", "role", "content", "created_at", "client_id"])
      .where("session_id", "=", row.id)
      .orderBy("id")
      .execute(),
    businessRecords(db, scope.tenantId).where("r.session_id", "=", row.id).executeTakeFirst(),
    // The chat's work order (the first made), so the workbench shows it again after a reload.
    db
      .selectFrom("work_order_records")
      .select(["id", "number", "title", "content"])
      .where("tenant_id", "=", scope.tenantId)
      .where("chat_session_id", "=", row.id)
      .orderBy("id")
      .limit(1)
      .executeTakeFirst(),
  ]);
  return {
    ...toSummary(row),
    dialogs: dialogs.map(toDialog),
    businessRecord: record ? toBusinessRecord(record) : null,
    workOrder: workOrder ?? null,
  };
}

/** The text agent of the queue with the fewest active sessions, or none. */
export async function pickAgent(db: Db, tenantId: number, queueName: string): Promise<number | undefined> {
  const row = await db
    .selectFrom("users as u")
    .leftJoin("chat_sessions as s", (join) => join.onRef("s.agent_user_id", "=", "u.id").on("s.state", "=", "active"))
    .where("u.tenant_id", "=", tenantId)
    .where("u.work_type", "=", WorkType.text)
    .where("u.default_queue_name", "=", queueName)
    .groupBy("u.id")
    .select(["u.id", sql<number>`count(s.id)::int`.as("load")])
    .orderBy("load")
    .orderBy("u.id")
    .executeTakeFirst();
  return row?.id;
}

export async function insertSession(
  db: Db,
  values: { tenantId: number; queueName: string; customer: ChatCustomer; agentUserId: number | undefined },
): Promise<string> {
  const sessionKey = `cs_${randomBytes(8).toString("hex")}`;
  await db
    .insertInto("chat_sessions")
    .values({
      tenant_id: values.tenantId,
      session_key: sessionKey,
      queue_name: values.queueName,
      state: values.agentUserId === undefined ? "waiting" : "active",
      agent_user_id: values.agentUserId ?? null,
      customer_name: values.customer.name,
      customer_phone: values.customer.phone,
      customer_channel: values.customer.channel,
      customer_region: values.customer.region,
    })
    .execute();
  return sessionKey;
}

/** Stores a message once: a resend with the same client id answers the stored one (`created` false). */
export async function insertMessage(
  db: Db,
  session: SessionRow,
  role: ChatRole,
  content: string,
  clientId?: string,
): Promise<{ dialog: ChatDialog; created: boolean }> {
  const inserted = await db
    .insertInto("chat_messages")
    .values({ tenant_id: session.tenant_id, session_id: session.id, role, content, client_id: clientId ?? null })
    .onConflict((oc) => oc.columns(["session_id", "client_id"]).doNothing())
    .returning(["id", "role", "content", "created_at", "client_id"])
    .executeTakeFirst();
  if (inserted) return { dialog: toDialog(inserted), created: true };
  const existing = await db
    .selectFrom("chat_messages")
    .select(["id", "role", "content", "created_at", "client_id"])
    .where("session_id", "=", session.id)
    .where("client_id", "=", clientId ?? null)
    .executeTakeFirstOrThrow();
  return { dialog: toDialog(existing), created: false };
}

/** Assigns a waiting session to the agent; false when someone else has it. */
export async function assignSession(db: Db, session: SessionRow, agentUserId: number): Promise<boolean> {
  const result = await db
    .updateTable("chat_sessions")
    .set({ state: "active", agent_user_id: agentUserId })
    .where("id", "=", session.id)
    .where((eb) => eb.or([eb("state", "=", "waiting"), eb.and([eb("state", "=", "active"), eb("agent_user_id", "=", agentUserId)])]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Closes a session; false when it was closed already. */
export async function closeSession(db: Db, session: SessionRow): Promise<boolean> {
  const result = await db
    .updateTable("chat_sessions")
    .set({ state: "closed", closed_at: new Date() })
    .where("id", "=", session.id)
    .where("state", "!=", "closed")
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Every text agent with its queue, across tenants (the simulator sends customers to them). */
export async function textAgents(db: Db): Promise<Array<{ id: number; tenant_id: number; default_queue_name: string }>> {
  return db.selectFrom("users").select(["id", "tenant_id", "default_queue_name"]).where("work_type", "=", WorkType.text).execute();
}

/** Whether an agent still has a chat waiting or active (their work type may not change under it). */
export async function hasOpenSession(db: Db, tenantId: number, agentUserId: number): Promise<boolean> {
  const open = await db
    .selectFrom("chat_sessions")
    .select("id")
    .where("tenant_id", "=", tenantId)
    .where("agent_user_id", "=", agentUserId)
    .where("state", "!=", "closed")
    .executeTakeFirst();
  return open !== undefined;
}

/** Active sessions, of one tenant or all (the simulator's customers keep writing in them). */
export async function activeSessions(db: Db, tenantId?: number): Promise<SessionRow[]> {
  let query = db
    .selectFrom("chat_sessions")
    .select(["id", "tenant_id", "session_key", "state", "agent_user_id"])
    .where("state", "=", "active");
  if (tenantId !== undefined) query = query.where("tenant_id", "=", tenantId);
  return query.execute();
}

function businessRecords(db: Db, tenantId: number) {
  return db
    .selectFrom("chat_business_records as r")
    .innerJoin("chat_sessions as s", "s.id", "r.session_id")
    .leftJoin("users as u", "u.id", "r.agent_user_id")
    .where("r.tenant_id", "=", tenantId)
    .select(["s.session_key", "s.customer_name", "r.category", "r.result", "r.remark", "r.updated_at", "u.real_name as agent_name"]);
}

type RecordRow = Awaited<ReturnType<ReturnType<typeof businessRecords>["executeTakeFirstOrThrow"]>>;
const toBusinessRecord = (row: RecordRow): ChatBusinessRecord => ({
  sessionId: row.session_key,
  category: row.category,
  result: row.result,
  remark: row.remark,
  updatedAt: row.updated_at.toISOString(),
  agentName: row.agent_name ?? null,
  customerName: row.customer_name,
});

export async function saveBusinessRecord(
  db: Db,
  session: SessionRow,
  agentUserId: number,
  record: { category: string; result: number; remark: string },
): Promise<ChatBusinessRecord> {
  const values = { ...record, agent_user_id: agentUserId, updated_at: new Date() };
  await db
    .insertInto("chat_business_records")
    .values({ session_id: session.id, tenant_id: session.tenant_id, ...values })
    .onConflict((oc) => oc.column("session_id").doUpdateSet(values))
    .execute();
  return toBusinessRecord(await businessRecords(db, session.tenant_id).where("r.session_id", "=", session.id).executeTakeFirstOrThrow());
}

export async function listBusinessRecords(
  db: Db,
  scope: ChatScope,
  query: { keyword?: string; pageNo: number; pageSize: number },
): Promise<{ list: ChatBusinessRecord[]; total: number }> {
  let base = businessRecords(db, scope.tenantId);
  if (scope.ownerId !== undefined) base = base.where("r.agent_user_id", "=", scope.ownerId);
  if (query.keyword) base = base.where("s.customer_name", "like", `%${escapeLike(query.keyword)}%`);
  const [rows, count] = await Promise.all([
    base
      .orderBy("r.updated_at", "desc")
      .limit(query.pageSize)
      .offset((query.pageNo - 1) * query.pageSize)
      .execute(),
    base
      .clearSelect()
      .select(sql<number>`count(*)::int`.as("total"))
      .executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toBusinessRecord), total: Number(count.total) };
}

/** The quick replies: the tenant's enabled knowledge nodes (decision 017), most used first. */
export async function listQuickReplies(db: Db, tenantId: number): Promise<QuickReply[]> {
  return db
    .selectFrom("knowledge_nodes")
    .select(["id", "title", "content"])
    .where("tenant_id", "=", tenantId)
    .where("state", "=", 1)
    .orderBy("usage_count", "desc")
    .orderBy("id")
    .limit(200)
    .execute();
}
