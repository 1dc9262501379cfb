import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import type { CallQualityReport, PhoneAgentSchema, PhoneSnapshot, TodayCall } from "#contracts/cti";
import {
  AsrEntrySchema,
  CALL_ACTIONS,
  CallQualityReportSchema,
  CONSULT_STEPS,
  ConsultRequestSchema,
  DIAL_OUTCOME_CODES,
  DialRequestSchema,
  DtmfRequestSchema,
  SimulatedOfferSchema,
  StateCommandSchema,
  TransferRequestSchema,
} from "#contracts/cti";
import { HttpError, ok, parseInput } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import { markPoorQuality } from "#upstream/repositories/call-records";
import { findUserIdByName } from "#upstream/repositories/users";
import { listTodayCalls } from "#upstream/repositories/workbench";

/** Parses a body, failing with the contract's own Chinese message. */
const ActionParamsSchema = z.object({ action: z.enum(CALL_ACTIONS) });
const ConsultStepParamsSchema = z.object({ step: z.enum(CONSULT_STEPS) });

/** The CTI service (`/cti/api`): the agent's phone state and call control (decision 007). */
export const ctiRoutes: FastifyPluginAsync = async (app) => {
  const caller = (request: Parameters<typeof requireUser>[0]) => {
    const user = requireUser(request);
    return { id: user.id, tenantId: user.tenantId };
  };

  app.get("/cti/api/agent", async (request) => ok<PhoneSnapshot>(await app.cti.status(caller(request))));

  app.post("/cti/api/agent/state", async (request) => {
    const body = parseInput(StateCommandSchema, request.body);
    const command = body.command === "notReady" ? { type: body.command, reason: body.reason } : { type: body.command };
    return ok<PhoneSnapshot>(await app.cti.command(caller(request), command));
  });

  app.get("/cti/api/agents", async (request) => ok<Array<z.infer<typeof PhoneAgentSchema>>>(await app.cti.colleagues(caller(request))));

  app.get("/cti/api/agent/calls/today", async (request) => {
    const user = requireUser(request);
    return ok<{ list: TodayCall[]; total: number }>(await listTodayCalls(app.db, user.tenantId, user.id));
  });

  app.post("/cti/api/call/dial", async (request) => {
    const { phone } = parseInput(DialRequestSchema, request.body);
    return ok<PhoneSnapshot>(await app.cti.dial(caller(request), phone));
  });
  app.post("/cti/api/call/transfer", async (request) => {
    const { target, to } = parseInput(TransferRequestSchema, request.body);
    return ok<PhoneSnapshot>(await app.cti.transfer(caller(request), { kind: target, to }));
  });
  app.post("/cti/api/call/consult", async (request) => {
    const { agentId } = parseInput(ConsultRequestSchema, request.body);
    return ok<PhoneSnapshot>(await app.cti.consult(caller(request), agentId));
  });
  app.post("/cti/api/call/consult/:step", async (request) => {
    const { step } = parseInput(ConsultStepParamsSchema, request.params);
    return ok<PhoneSnapshot>(await app.cti.consultStep(caller(request), step));
  });
  app.post("/cti/api/call/dtmf", async (request) => {
    const { digits } = parseInput(DtmfRequestSchema, request.body);
    return ok<PhoneSnapshot>(await app.cti.dtmf(caller(request), digits));
  });
  // Marks the caller's own finished call as poor for supervisors: a call of another agent or tenant is not found.
  app.post("/cti/api/call/quality", async (request) => {
    const user = requireUser(request);
    const report = parseInput(CallQualityReportSchema, request.body);
    const marked = await markPoorQuality(app.db, user.tenantId, user.id, report);
    if (!marked) throw new HttpError(404, "通话记录不存在");
    return ok<CallQualityReport>(report);
  });
  // Registered after the named verbs above, which take precedence as static paths.
  app.post("/cti/api/call/:action", async (request) => {
    const { action } = parseInput(ActionParamsSchema, request.params);
    return ok<PhoneSnapshot>(await app.cti.callAction(caller(request), action));
  });
};

const CallParamsSchema = z.object({ ctiCallId: z.string().min(1) });

/**
 * Simulator control (`/cti/simulator`): registered only when SIMULATOR_CONTROL=1 (tests, demos).
 * It acts in the caller's tenant: a call arriving, the robot or customer speaking, the customer
 * hanging up, the outcome of the next manual dial.
 */
export const ctiSimulatorRoutes: FastifyPluginAsync = async (app) => {
  app.post("/cti/simulator/offer", async (request) => {
    const user = requireUser(request);
    const { agentUserName, ...input } = parseInput(SimulatedOfferSchema, request.body);
    const forUserId = agentUserName === undefined ? undefined : await findUserIdByName(app.db, user.tenantId, agentUserName);
    if (agentUserName !== undefined && forUserId === undefined) throw new HttpError(404, "坐席不存在");
    const queueName = input.queueName ?? (await app.cti.status({ id: forUserId ?? user.id, tenantId: user.tenantId })).agent.queueName;
    const call = input.transcript?.length
      ? await app.cti.offerRobotHandoff(user.tenantId, { ...input, queueName, forUserId })
      : await app.cti.offerInbound(user.tenantId, { ...input, queueName, forUserId });
    return ok({ ctiCallId: call.ctiCallId });
  });

  app.post("/cti/simulator/call/:ctiCallId/asr", async (request) => {
    const user = requireUser(request);
    const { ctiCallId } = parseInput(CallParamsSchema, request.params);
    await app.cti.addAsr(user.tenantId, ctiCallId, parseInput(AsrEntrySchema, request.body));
    return ok({ ctiCallId });
  });

  app.post("/cti/simulator/call/:ctiCallId/hangup", async (request) => {
    const user = requireUser(request);
    const { ctiCallId } = parseInput(CallParamsSchema, request.params);
    await app.cti.customerHangup(user.tenantId, ctiCallId);
    return ok({ ctiCallId });
  });

  app.post("/cti/simulator/dial-outcome", async (request) => {
    const user = requireUser(request);
    const { outcome } = parseInput(z.object({ outcome: z.enum(DIAL_OUTCOME_CODES) }), request.body);
    app.cti.setNextDialOutcome(user.tenantId, outcome);
    return ok({ outcome });
  });
};
