import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { WORK_TYPES, labelOf } from "#contracts/codes";
import {
  AgentListQuerySchema,
  AgentUpdateSchema,
  BrandKeySchema,
  type Agent,
  type AgentConfig,
  type CustomerSchema,
  type LogoSchema,
} from "#contracts/config";
import { StreamScopeSchema, type MqConfigSchema } from "#contracts/events";
import { brandLogo } from "#upstream/domain/logos";
import { EVENT_RETENTION_SECONDS, HEARTBEAT_MS, subscriptionOf } from "#upstream/notifications/bus";
import { HttpError, ok, parseInput } from "#upstream/http";
import { forgetCachedUser, forgetUserSessions, requireUser } from "#upstream/plugins/auth";
import { deleteUserAccessTokens } from "#upstream/repositories/access-tokens";
import { hasOpenSession } from "#upstream/repositories/chat";
import { WorkType } from "#upstream/domain/work-type";
import { AgentRefused, findAgent, listAgents, updateAgent } from "#upstream/repositories/agents";
import { actorOf, withAudit } from "#upstream/repositories/audit-log";
import { listCallerIdNumbers } from "#upstream/repositories/campaign-choices";
import { listQueues, tenantQueues } from "#upstream/repositories/monitor";
import { findTenant } from "#upstream/repositories/tenants";
import { findUserInTenant } from "#upstream/repositories/users";

type Logo = z.infer<typeof LogoSchema>;
type MqConfig = z.infer<typeof MqConfigSchema>;
type Customer = z.infer<typeof CustomerSchema>;

const IdParamsSchema = z.object({
  id: z.coerce.number({ invalid_type_error: "编号无效" }).int("编号无效").positive("编号无效").max(Number.MAX_SAFE_INTEGER, "编号无效"),
});
const agentText = (a: Agent) => `${labelOf(WORK_TYPES, a.workType)}，工号 ${a.agentId}，默认队列 ${a.defaultQueueName}`;

const LogoQuerySchema = z.object({ brand: BrandKeySchema.default("default") });

/** The configuration service (`/config`): branding, agent settings, the customer profile. */
export const configRoutes: FastifyPluginAsync = async (app) => {
  // Public: the login page shows the logo before anyone has a token.
  app.get("/config/logo", async (request) => {
    const { brand } = parseInput(LogoQuerySchema, request.query);
    return ok<Logo>({ brand, logo: brandLogo(brand) });
  });

  // The caller's own tenant only: another tenant's id is not found.
  app.get("/config/tenants/:id/callerIdNumbers", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    if (id !== user.tenantId) throw new HttpError(404, "租户不存在");
    return ok(await listCallerIdNumbers(app.db, user.tenantId));
  });

  app.get("/config/agents/detail/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const agent = await findUserInTenant(app.db, user.tenantId, id);
    if (!agent || agent.agent_id === null) throw new HttpError(404, "坐席不存在");
    return ok<AgentConfig>({
      agentId: agent.agent_id,
      workType: agent.work_type,
      defaultQueueName: agent.default_queue_name,
      autoAnswer: agent.auto_answer,
    });
  });

  // Agent administration (坐席配置, decision 031): whoever has the menu (decision 044), the caller's tenant only.
  app.get("/config/agents/list", async (request) => {
    const user = requireUser(request);
    return ok(await listAgents(app.db, user.tenantId, parseInput(AgentListQuerySchema, request.query)));
  });

  app.get("/config/agents/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    return ok<Agent>(await findAgent(app.db, user.tenantId, id));
  });

  app.put("/config/agents/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const { reason, ...change } = parseInput(AgentUpdateSchema, request.body);
    if (!(await tenantQueues(app.db, user.tenantId)).includes(change.defaultQueueName))
      throw new HttpError(400, "所选队列不存在，请重新选择");
    let typeChanged = false;
    const after: Agent = await withAudit(app.db, actorOf(user), async (trx) => {
      const { before, after } = await updateAgent(trx, user.tenantId, id, change);
      typeChanged = before.workType !== after.workType;
      if (typeChanged) {
        // The phone keeps a signed-in agent's work: their type changes once they have signed out.
        if (app.cti.phoneSignedIn(user.tenantId, id))
          throw new AgentRefused(400, `坐席「${before.realName}」已签入语音工作台，请先签出再修改类型`);
        // Nor under chats still open: their customers would wait on nobody.
        if (before.workType === WorkType.text && (await hasOpenSession(trx, user.tenantId, id)))
          throw new AgentRefused(400, `坐席「${before.realName}」还有未结束的会话，请先结束会话再修改类型`);
        // No call or chat is open, so the agent's sessions end with the change: they sign in again
        // to the workbench of their new type instead of keeping a menu of the old one.
        await deleteUserAccessTokens(trx, id);
      }
      return {
        result: after,
        audit: {
          action: "agent.config",
          target: { type: "agent", id: after.agentId },
          summary: `坐席 ${after.realName}：${agentText(before)} → ${agentText(after)}`,
          reason,
          detail: { before, after },
        },
      };
    });
    // The menu follows the work type (spec §5): what every process keeps of the agent is read again.
    if (typeChanged) await forgetUserSessions(app, id);
    else await forgetCachedUser(app, id);
    // Saved: a phone that cannot take the change now takes it at its next sign-in, so no failure here.
    await app.cti
      .reconfigureAgent(user.tenantId, id, { agentId: after.agentId, queueName: after.defaultQueueName })
      .catch((error: unknown) => request.log.error(error, "the phone did not take an agent's new configuration"));
    return ok<Agent>(after);
  });

  // Where the real-time channel runs (routes/events.ts), and where the caller's stream (or, with
  // scope=tenant, their tenant's) stands now.
  app.get("/config/global/mqconfig", async (request) => {
    const user = requireUser(request);
    const subscription = subscriptionOf(user, parseInput(StreamScopeSchema, request.query));
    return ok<MqConfig>({
      streamPath: "/events/api/stream",
      heartbeatMs: HEARTBEAT_MS,
      retentionSeconds: EVENT_RETENTION_SECONDS,
      lastEventId: await app.notifications.latestId(subscription),
    });
  });

  app.get("/config/queues/list", async (request) => {
    const user = requireUser(request);
    const list = await listQueues(app.db, user.tenantId);
    return ok({ list, total: list.length });
  });

  app.get("/config/api/customer", async (request) => {
    const user = requireUser(request);
    const tenant = await findTenant(app.db, user.tenantId);
    if (!tenant) throw new HttpError(404, "租户不存在");
    return ok<Customer>({ customerId: tenant.customer_id, tenantId: tenant.id, tenantCode: tenant.code, name: tenant.name });
  });
};
