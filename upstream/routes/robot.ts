import type { FastifyPluginAsync } from "fastify";
import { FlowParamQuerySchema, FlowStateQuerySchema, RobotInstanceListQuerySchema, type FlowParamItem } from "#contracts/robot";
import { ok, parseInput } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import { listFlowParams } from "#upstream/repositories/call-records";
import { listRobotInstances } from "#upstream/repositories/campaign-choices";

/** The robot service: a flow's input parameters and output states (endpoints.md, R rows). */
export const robotRoutes: FastifyPluginAsync = async (app) => {
  app.post("/robot/api/robot/instance/list", async (request) => {
    const user = requireUser(request);
    return ok(await listRobotInstances(app.db, user.tenantId, parseInput(RobotInstanceListQuerySchema, request.body)));
  });

  app.get("/robot/api/flow/param", async (request) => {
    const user = requireUser(request);
    const query = parseInput(FlowParamQuerySchema, request.query);
    return ok<{ list: FlowParamItem[] }>({ list: await listFlowParams(app.db, user.tenantId, query.id, "input") });
  });

  app.get("/robot/api/flow/state", async (request) => {
    const user = requireUser(request);
    const query = parseInput(FlowStateQuerySchema, request.query);
    return ok<{ list: FlowParamItem[] }>({ list: await listFlowParams(app.db, user.tenantId, query.flowId, "state") });
  });
};
