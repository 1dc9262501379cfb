import type { FastifyPluginAsync } from "fastify";
import { ClientLogSchema, fitClientLog } from "#contracts/client-log";
import { ok, parseInput } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";

/**
 * `GET /api/log` (spec §7): a signed-in browser's log line, written to the platform's log with who
 * sent it. Nothing is stored in the database: it is for the operators reading the log.
 */
export const clientLogRoutes: FastifyPluginAsync = async (app) => {
  app.get("/api/log", async (request) => {
    const user = requireUser(request);
    const entry = fitClientLog(parseInput(ClientLogSchema, request.query));
    request.log[entry.level](
      { clientLog: { tenantId: user.tenantId, userId: user.id, page: entry.page, data: entry.data, dataDropped: entry.dataDropped } },
      `browser: ${entry.message}`,
    );
    return ok({ dataDropped: entry.dataDropped });
  });
};
