import type { FastifyPluginAsync } from "fastify";
import { AuditListQuerySchema } from "#contracts/audit";
import { ok, parseInput } from "#upstream/http";
import { requireRole, requireUser } from "#upstream/plugins/auth";
import { listAudit } from "#upstream/repositories/audit-log";

/** The audit log (`/audit/api`, decision 012): administrators read their tenant's. */
export const auditRoutes: FastifyPluginAsync = async (app) => {
  app.post("/audit/api/log/list", async (request) => {
    const user = requireRole(requireUser(request), ["admin"], "仅管理员可以查看操作日志");
    return ok(await listAudit(app.db, user.tenantId, parseInput(AuditListQuerySchema, request.body)));
  });
};
