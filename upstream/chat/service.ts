import { CHAT_EVENT, type ChatCustomer, type ChatDialog, type ChatSession } from "#contracts/chat";
import { MONITOR_NOTIFICATIONS, type MonitorLine } from "#contracts/monitor";
import type { Db } from "#upstream/db";
import type { NotificationBus } from "#upstream/notifications/bus";
import { HttpError } from "#upstream/http";
import {
  assignSession,
  closeSession,
  findSession,
  insertMessage,
  insertSession,
  pickAgent,
  sessionDetail,
  type ChatScope,
  type SessionRow,
} from "#upstream/repositories/chat";
import { textAgentState } from "#upstream/repositories/monitor";

export type ChatActor = { tenantId: number; userId: number };

/**
 * What happens in a chat, for the routes and the simulator alike: each change is stored, then
 * published as a `chat.*` notification to the agent the session is assigned to, so the agent's
 * screen follows without asking (and a reconnecting screen replays what it missed); supervisors
 * are told of the agent's load (`monitor.agent`) and of every line (`monitor.line`, listening).
 */
export function createChatService(db: Db, notifications: NotificationBus) {
  const agentScope = (actor: ChatActor): ChatScope => ({ tenantId: actor.tenantId, ownerId: actor.userId });

  async function requireSession(scope: ChatScope, sessionKey: string): Promise<SessionRow> {
    const session = await findSession(db, scope, sessionKey);
    if (!session) throw new HttpError(404, "会话不存在");
    return session;
  }

  async function detail(scope: ChatScope, sessionKey: string): Promise<ChatSession> {
    const session = await sessionDetail(db, scope, sessionKey);
    if (!session) throw new HttpError(404, "会话不存在");
    return session;
  }

  /** Tells the tenant's supervisors how many chats a text agent now serves. */
  async function tellSupervisors(tenantId: number, userId: number) {
    const agent = await db
      .selectFrom("users")
      .select("default_queue_name")
      .where("tenant_id", "=", tenantId)
      .where("id", "=", userId)
      .executeTakeFirst();
    if (!agent) return;
    const state = await textAgentState(db, tenantId, userId, agent.default_queue_name);
    await notifications.publish({ tenantId, supervisors: true, queueName: agent.default_queue_name }, MONITOR_NOTIFICATIONS.agent, state);
  }

  async function publishDialog(session: SessionRow, dialog: ChatDialog) {
    if (session.state === "closed") return;
    const line: MonitorLine = {
      kind: "chat",
      id: session.session_key,
      role: dialog.role === "user" ? "customer" : dialog.role === "agent" ? "agent" : "system",
      content: dialog.content,
      at: dialog.at,
    };
    await notifications.publish({ tenantId: session.tenant_id, supervisors: true }, MONITOR_NOTIFICATIONS.line, line);
    if (session.agent_user_id === null || session.state !== "active") return;
    await notifications.publish({ tenantId: session.tenant_id, userId: session.agent_user_id }, CHAT_EVENT.update, {
      sessionId: session.session_key,
      role: dialog.role,
      dialogs: [dialog],
    });
  }

  return {
    requireSession,
    detail,

    /** A customer opens a chat in a queue: assigned to the least busy text agent, or waiting. */
    async customerArrives(tenantId: number, input: { queueName: string; customer: ChatCustomer; content: string }): Promise<ChatSession> {
      const agentUserId = await pickAgent(db, tenantId, input.queueName);
      const sessionKey = await insertSession(db, { tenantId, queueName: input.queueName, customer: input.customer, agentUserId });
      const scope = { tenantId };
      await insertMessage(db, await requireSession(scope, sessionKey), "user", input.content);
      const session = await detail(scope, sessionKey);
      if (agentUserId !== undefined) {
        await notifications.publish({ tenantId, userId: agentUserId }, CHAT_EVENT.add, { session });
        await tellSupervisors(tenantId, agentUserId);
      }
      return session;
    },

    /** The customer writes; a closed session takes no more. */
    async customerWrites(tenantId: number, sessionKey: string, content: string): Promise<ChatDialog> {
      const session = await requireSession({ tenantId }, sessionKey);
      if (session.state === "closed") throw new HttpError(400, "会话已结束");
      const { dialog } = await insertMessage(db, session, "user", content);
      await publishDialog(session, dialog);
      return dialog;
    },

    /** The agent answers in one of its active sessions; a resend with the same clientId is stored once. */
    async agentSends(actor: ChatActor, sessionKey: string, content: string, clientId?: string): Promise<ChatDialog> {
      const session = await requireSession(agentScope(actor), sessionKey);
      if (session.state !== "active" || session.agent_user_id !== actor.userId) throw new HttpError(400, "会话已结束，无法发送消息");
      const { dialog, created } = await insertMessage(db, session, "agent", content, clientId);
      // The agent's other screens show it too (a resend was shown already).
      if (created) await publishDialog(session, dialog);
      return dialog;
    },

    /** The agent takes a waiting session (joining one it already has is harmless). */
    async agentJoins(actor: ChatActor, sessionKey: string): Promise<ChatSession> {
      const session = await requireSession(agentScope(actor), sessionKey);
      if (session.state === "closed") throw new HttpError(400, "会话已结束");
      const wasWaiting = session.state === "waiting";
      if (!(await assignSession(db, session, actor.userId))) throw new HttpError(400, "会话已由其他坐席接入");
      const joined = await detail(agentScope(actor), sessionKey);
      if (wasWaiting) {
        await notifications.publish(actor, CHAT_EVENT.add, { session: joined });
        await tellSupervisors(actor.tenantId, actor.userId);
      }
      return joined;
    },

    /** The customer leaves (the simulator's, after their last line): the agent reads why, then the session closes. */
    async customerLeaves(tenantId: number, sessionKey: string): Promise<void> {
      const session = await requireSession({ tenantId }, sessionKey);
      if (session.state !== "active") return;
      const { dialog } = await insertMessage(db, session, "system", "客户已离开会话");
      await publishDialog(session, dialog);
      if (!(await closeSession(db, session)) || session.agent_user_id === null) return;
      await notifications.publish({ tenantId, userId: session.agent_user_id }, CHAT_EVENT.close, { sessionId: sessionKey });
      await tellSupervisors(tenantId, session.agent_user_id);
    },

    /** The agent closes a session: recorded as closed; closing it again is harmless. */
    async agentCloses(actor: ChatActor, sessionKey: string): Promise<ChatSession> {
      const session = await requireSession(agentScope(actor), sessionKey);
      if (session.state === "waiting") throw new HttpError(400, "会话尚未接入");
      if (await closeSession(db, session)) {
        await notifications.publish(actor, CHAT_EVENT.close, { sessionId: sessionKey });
        await tellSupervisors(actor.tenantId, actor.userId);
      }
      return detail(agentScope(actor), sessionKey);
    },
  };
}

export type ChatService = ReturnType<typeof createChatService>;
