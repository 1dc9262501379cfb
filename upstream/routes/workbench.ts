import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import {
  AutoAnswerRequestSchema,
  BusinessRecordFilterSchema,
  ConclusionRequestSchema,
  WorkOrderCallRequestSchema,
  type BusinessRecord,
  type Contact,
  type WorkOrderInfo,
} from "#contracts/workbench";
import { HttpError, ok, parseInput } from "#upstream/http";
import { requireUser, requireWorkOrderCreator } from "#upstream/plugins/auth";
import {
  findBusinessRecord,
  findContactsByPhone,
  findFlow,
  findWorkOrder,
  linkWorkOrder,
  listInboundBusinessRecords,
  listDialogs,
  satisfactionToday,
  saveConclusion,
  searchKnowledge,
} from "#upstream/repositories/workbench";
import { createRecordAudited, workOrderActor } from "#upstream/repositories/work-orders";
import { callReaderOf } from "#upstream/repositories/call-records";

const IdParamsSchema = z.object({ id: z.coerce.number().int().positive() });
const PhoneParamsSchema = z.object({ phone: z.string().trim().min(1).max(32) });
const CallParamsSchema = z.object({ prevCtiCallId: z.string().min(1).max(100) });

/**
 * The workbench calls of spec §7 that the voice workbench owns (endpoints.md "V"), across the
 * crm_v2, robot, config, outbound, analysis and contact services. Every read is the caller's tenant.
 */
export const workbenchRoutes: FastifyPluginAsync = async (app) => {
  app.get("/crm_v2/contactsByPhone/:phone", async (request) => {
    const user = requireUser(request);
    const { phone } = parseInput(PhoneParamsSchema, request.params);
    const list = await findContactsByPhone(app.db, user.tenantId, phone);
    return ok<{ list: Contact[]; total: number }>({ list, total: list.length });
  });

  app.get("/robot/api/flow/:id/service", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const flow = await findFlow(app.db, user.tenantId, id);
    if (!flow) throw new HttpError(404, "流程不存在");
    return ok({ flowId: flow.id, flowName: flow.name, steps: flow.service_script });
  });

  app.get("/config/business/record/list", async (request) => {
    const user = requireUser(request);
    const filter = parseInput(BusinessRecordFilterSchema, request.query);
    const own = user.role === "agent" ? { agentUserId: user.id } : {};
    return ok<{ list: BusinessRecord[]; total: number }>(await listInboundBusinessRecords(app.db, user.tenantId, { ...filter, ...own }));
  });

  app.get("/config/business/record/:prevCtiCallId", async (request) => {
    const user = requireUser(request);
    const { prevCtiCallId } = parseInput(CallParamsSchema, request.params);
    const record = await findBusinessRecord(app.db, user.tenantId, prevCtiCallId);
    if (!record) throw new HttpError(404, "业务记录不存在");
    return ok<BusinessRecord>(record);
  });

  app.get("/config/workorder/record/info/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const order = await findWorkOrder(app.db, user.tenantId, id);
    if (!order) throw new HttpError(404, "工单不存在");
    return ok<WorkOrderInfo>(order);
  });

  app.get("/config/knowledge/node/platform", async (request) => {
    const user = requireUser(request);
    const { keyword } = parseInput(z.object({ keyword: z.string().trim().max(50).default("") }), request.query);
    const list = await searchKnowledge(app.db, user.tenantId, keyword);
    return ok({ list, total: list.length });
  });

  app.get("/outbound/business/needCall", async (request) => {
    const user = requireUser(request);
    const row = await app.db
      .selectFrom("task_calls")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("tenant_id", "=", user.tenantId)
      .where("agent_user_id", "=", user.id)
      .where("status", "=", 0)
      .executeTakeFirstOrThrow();
    return ok({ count: Number(row.n) });
  });

  app.get("/outbound/business/campaignState/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const campaign = await app.db
      .selectFrom("campaigns")
      .select(["id", "name", "type", "state"])
      .where("tenant_id", "=", user.tenantId)
      .where("id", "=", id)
      .executeTakeFirst();
    if (!campaign) throw new HttpError(404, "活动不存在");
    return ok(campaign);
  });

  app.get("/analysis/satisfaction/agent/today", async (request) => {
    const user = requireUser(request);
    return ok(await satisfactionToday(app.db, user.tenantId, user.id));
  });

  app.get("/contact/campaign/dialog/list", async (request) => {
    const user = requireUser(request);
    const { ctiCallId } = parseInput(z.object({ ctiCallId: z.string().min(1).max(100) }), request.query);
    const list = await listDialogs(app.db, callReaderOf(user), ctiCallId);
    return ok({ list, total: list.length });
  });

  app.post("/contact/call/conclusion", async (request) => {
    const user = requireUser(request);
    const header = request.headers["idempotency-key"];
    const body = { ...(request.body as object), ...(typeof header === "string" ? { idempotencyKey: header } : {}) };
    const input = parseInput(ConclusionRequestSchema, body);
    // A console that shows numbers masked need not send one: a call still on has it in the switch.
    const phone = input.phone || (app.cti.phoneOfCall(user.tenantId, input.ctiCallId) ?? "");
    const saved = await saveConclusion(app.db, user.tenantId, user.id, { ...input, phone });
    if (!saved) throw new HttpError(403, "该通话的业务记录由其他坐席填写，无权修改");
    await app.cti.resultSaved(user.tenantId, user.id, saved.ctiCallId);
    return ok<BusinessRecord>(saved);
  });

  app.put("/config/workorder/record/call", async (request) => {
    const user = requireUser(request);
    const input = parseInput(WorkOrderCallRequestSchema, request.body);
    if ("workOrderId" in input) {
      const order = await linkWorkOrder(app.db, user.tenantId, input);
      if (!order) throw new HttpError(404, "工单不存在");
      return ok<WorkOrderInfo>(order);
    }
    requireWorkOrderCreator(request);
    const record = await createRecordAudited(app.db, workOrderActor(user), input);
    return ok<WorkOrderInfo>((await findWorkOrder(app.db, user.tenantId, record.id))!);
  });

  app.put("/config/agent/auto/answer", async (request) => {
    const user = requireUser(request);
    const { autoAnswer } = parseInput(AutoAnswerRequestSchema, request.body);
    await app.cti.setAutoAnswer({ id: user.id, tenantId: user.tenantId }, autoAnswer);
    return ok({ autoAnswer });
  });
};
