import type { FastifyPluginAsync, FastifyRequest } from "fastify";
import { z } from "zod";
import {
  ChatBusinessRecordInputSchema,
  ChatBusinessRecordQuerySchema,
  ChatMessageInputSchema,
  ChatSessionQuerySchema,
  SimulatedCustomerInputSchema,
  SimulatedMessageInputSchema,
  type ChatBusinessRecord,
  type ChatDialog,
  type ChatSession,
  type ChatSessionSummary,
  type QuickReply,
} from "#contracts/chat";
import { createChatService } from "#upstream/chat/service";
import { simulatedCustomer } from "#upstream/chat/simulator";
import { ok, parseInput } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import { listBusinessRecords, listQuickReplies, listSessions, saveBusinessRecord, type ChatScope } from "#upstream/repositories/chat";
import { findUserInTenant } from "#upstream/repositories/users";

const SessionParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** Agents see their own sessions (and waiting ones); administrators and supervisors the tenant's. */
function scopeOf(request: FastifyRequest): ChatScope {
  const user = requireUser(request);
  return user.role === "agent" ? { tenantId: user.tenantId, ownerId: user.id } : { tenantId: user.tenantId };
}

const actorOf = (request: FastifyRequest) => {
  const user = requireUser(request);
  return { tenantId: user.tenantId, userId: user.id };
};

/** The chat service (`/chat`, spec §7; decision 008 for the calls spec.md does not list). */
export const chatRoutes: FastifyPluginAsync = async (app) => {
  const chat = createChatService(app.db, app.notifications);

  app.get("/chat/api/sessions", async (request) => {
    const query = parseInput(ChatSessionQuerySchema, request.query);
    const page = await listSessions(app.db, scopeOf(request), { ...query, states: query.state });
    return ok<{ list: ChatSessionSummary[]; total: number }>(page);
  });

  app.get("/chat/api/sessions/:id", async (request) => {
    const { id } = parseInput(SessionParamsSchema, request.params);
    return ok<ChatSession>(await chat.detail(scopeOf(request), id));
  });

  app.post("/chat/api/sessions/:id/join", async (request) => {
    const { id } = parseInput(SessionParamsSchema, request.params);
    return ok<ChatSession>(await chat.agentJoins(actorOf(request), id));
  });

  app.post("/chat/api/sessions/:id/close/agent", async (request) => {
    const { id } = parseInput(SessionParamsSchema, request.params);
    return ok<ChatSession>(await chat.agentCloses(actorOf(request), id));
  });

  app.post("/chat/api/sessions/:id/messages", async (request) => {
    const { id } = parseInput(SessionParamsSchema, request.params);
    const input = parseInput(ChatMessageInputSchema, request.body);
    return ok<ChatDialog>(await chat.agentSends(actorOf(request), id, input.content, input.clientId));
  });

  app.put("/chat/text/business/record", async (request) => {
    const { sessionId, ...record } = parseInput(ChatBusinessRecordInputSchema, request.body);
    const session = await chat.requireSession(scopeOf(request), sessionId);
    return ok<ChatBusinessRecord>(await saveBusinessRecord(app.db, session, actorOf(request).userId, record));
  });

  app.get("/chat/text/business/record", async (request) => {
    const query = parseInput(ChatBusinessRecordQuerySchema, request.query);
    return ok<{ list: ChatBusinessRecord[]; total: number }>(await listBusinessRecords(app.db, scopeOf(request), query));
  });

  app.get("/chat/api/quick-replies", async (request) => {
    return ok<{ list: QuickReply[] }>({ list: await listQuickReplies(app.db, requireUser(request).tenantId) });
  });
};

/**
 * Drives the customer side step by step (tests, demos): registered only when the platform runs
 * with SIMULATOR_CONTROL=1. Acts in the caller's tenant; a new customer joins the caller's queue.
 */
export const chatSimulatorRoutes: FastifyPluginAsync = async (app) => {
  const chat = createChatService(app.db, app.notifications);

  app.post("/chat/simulator/customers", async (request) => {
    const user = requireUser(request);
    const input = parseInput(SimulatedCustomerInputSchema, request.body);
    const queueName = input.queueName ?? (await findUserInTenant(app.db, user.tenantId, user.id))?.default_queue_name ?? "";
    const customer = { ...simulatedCustomer(), ...input.customer };
    return ok<ChatSession>(await chat.customerArrives(user.tenantId, { queueName, customer, content: input.content ?? "你好，在吗？" }));
  });

  app.post("/chat/simulator/sessions/:id/messages", async (request) => {
    const { id } = parseInput(SessionParamsSchema, request.params);
    const { content } = parseInput(SimulatedMessageInputSchema, request.body);
    return ok<ChatDialog>(await chat.customerWrites(requireUser(request).tenantId, id, content));
  });
};
