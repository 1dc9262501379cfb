import type { FastifyPluginAsync } from "fastify";
import { AuditListQuerySchema } from "#contracts/audit";
import { ok, parseInput } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import { listAudit } from "#upstream/repositories/audit-log";

/** The audit log (`/audit/api`, decision 012): administrators (操作日志, decision 044) read their tenant's. */
export const auditRoutes: FastifyPluginAsync = async (app) => {
  app.post("/audit/api/log/list", async (request) => {
    const user = requireUser(request);
    return ok(await listAudit(app.db, user.tenantId, parseInput(AuditListQuerySchema, request.body)));
  });
};
