import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { BrandKeySchema, type AgentConfig, type CustomerSchema, type LogoSchema } from "#contracts/config";
import { StreamScopeSchema, type MqConfigSchema } from "#contracts/events";
import { brandLogo } from "#upstream/domain/logos";
import { EVENT_RETENTION_SECONDS, HEARTBEAT_MS, subscriptionOf } from "#upstream/notifications/bus";
import { HttpError, ok, parseInput } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import { listCallerIdNumbers } from "#upstream/repositories/campaign-choices";
import { listQueues } from "#upstream/repositories/monitor";
import { findTenant } from "#upstream/repositories/tenants";
import { findUserInTenant } from "#upstream/repositories/users";

type Logo = z.infer<typeof LogoSchema>;
type MqConfig = z.infer<typeof MqConfigSchema>;
type Customer = z.infer<typeof CustomerSchema>;

const IdParamsSchema = z.object({ id: z.coerce.number().int().positive() });
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
