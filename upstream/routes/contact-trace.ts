import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { TransCallQuerySchema } from "#contracts/outbound";
import { HttpError, ok, parseInput } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import { listHandoffs } from "#upstream/repositories/handoffs";
import { callRecordsOf, callTransitions, findCall } from "#upstream/repositories/task-calls";

const IdParams = z.object({ id: z.coerce.number().int().positive() });

/** The contact service's call trace queries: robot calls handed to humans, and one call's trace. */
export const contactTraceRoutes: FastifyPluginAsync = async (app) => {
  app.post("/contact/trans/call/query", async (request) => {
    const user = requireUser(request);
    return ok(await listHandoffs(app.db, user.tenantId, parseInput(TransCallQuerySchema, request.body)));
  });

  app.get("/contact/trace/call/query/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParams, request.params);
    const call = await findCall(app.db, user.tenantId, id);
    if (!call) throw new HttpError(404, "呼叫不存在");
    const [transitions, records] = await Promise.all([
      callTransitions(app.db, user.tenantId, id),
      callRecordsOf(app.db, user.tenantId, id),
    ]);
    return ok({ call, transitions, records });
  });
};
