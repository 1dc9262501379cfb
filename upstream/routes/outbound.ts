import { Readable } from "node:stream";
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { z } from "zod";
import { AGENT_DIALLED_CAMPAIGN_TYPES, CALL_STATUSES, CAMPAIGN_STATES, CAMPAIGN_TYPES, hangupPartyLabel, labelOf } from "#contracts/codes";
import { csvLine } from "#upstream/domain/contact-file";
import {
  CampaignListQuerySchema,
  CampaignSaveSchema,
  CampaignSelectSchema,
  ChangeStateSchema,
  CheckContactSchema,
  DataListQuerySchema,
  DistributeSchema,
  ExportErrorQuerySchema,
  PreviewDialSchema,
  PreviewNextSchema,
  PreviewSkipSchema,
  RatioSchema,
  SchedulerCheckQuerySchema,
  SimulatorTickSchema,
  TaskGetQuerySchema,
  TaskListQuerySchema,
  TaskRecoverSchema,
  TaskSaveSchema,
  normaliseMobile,
  type Campaign,
  type TaskCall,
} from "#contracts/outbound";
import { writeAudit, actorOf } from "#upstream/repositories/audit-log";
import { HttpError, ok, parseInput } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import type { AuthUser } from "#upstream/repositories/users";
import {
  campaignOptions,
  changeCampaignState,
  countCampaignsNamed,
  findCampaign,
  listCampaigns,
  saveCampaign,
  schedulerRefusal,
  setRatio,
} from "#upstream/repositories/campaigns";
import { failStalledImports, importBelongs, importErrors, isBlacklisted, listImports } from "#upstream/repositories/contact-imports";
import {
  startPreviewDial,
  ownWaitingCall,
  distributeContacts,
  skipPreview,
  takeNextPreview,
  unassignedCount,
} from "#upstream/repositories/preview-lists";
import { batchTransitions, findBatch, listBatches, recoverBatch, saveBatch } from "#upstream/repositories/task-batches";
import { allCalls, batchWithCalls, callRecordsOf, findCall, listCalls } from "#upstream/repositories/task-calls";
import { findTransTemplate, listTransTemplates } from "#upstream/repositories/transfer-templates";
import { cstDate } from "#upstream/domain/dialer-states";

const IdParams = z.object({ id: z.coerce.number().int().positive() });
const CampaignIdQuery = z.object({ campaignId: z.coerce.number().int().positive() });
const NameCountQuery = z.object({ name: z.string().trim().min(1).max(64), id: z.coerce.number().int().positive().optional() });
const TaskGetParams = z.object({
  id: z.coerce.number().int().positive(),
  isCalling: z.coerce.number().int().min(0).max(1),
  callType: z.coerce.number().int(),
});
const BeforeCallParams = z.object({ batchId: z.coerce.number().int().positive(), taskId: z.coerce.number().int().positive() });
const TemplatesParams = z.object({ agentId: z.coerce.number().int().positive(), type: z.coerce.number().int() });

export async function requireCampaign(app: { db: Parameters<typeof findCampaign>[0] }, user: AuthUser, id: number): Promise<Campaign> {
  const campaign = await findCampaign(app.db, user.tenantId, id);
  if (!campaign) throw new HttpError(404, "活动不存在");
  return campaign;
}

/** Streams CSV lines produced chunk by chunk, with a BOM so spreadsheet programs read UTF-8. */
export function sendCsv(reply: FastifyReply, fileName: string, lines: AsyncIterable<string>): FastifyReply {
  async function* withBom() {
    yield "\uFEFF";
    yield* lines;
  }
  reply.header("Content-Type", "text/csv; charset=utf-8");
  reply.header("Content-Disposition", `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`);
  return reply.send(Readable.from(withBom()));
}

async function* callLines(calls: AsyncIterable<TaskCall[]>) {
  yield csvLine(["手机号码", "客户姓名", "批次", "呼叫状态", "挂机方", "呼叫次数", "坐席", "跳过原因"]);
  for await (const chunk of calls) {
    yield chunk
      .map((c) =>
        csvLine([
          c.phone,
          c.customerName,
          c.batchId,
          labelOf(CALL_STATUSES, c.status),
          c.hangupParty === null ? "" : hangupPartyLabel(c.hangupParty),
          c.attempts,
          c.agentName,
          c.skipReason,
        ]),
      )
      .join("");
  }
}

/** The outbound service: campaigns, their batches ("tasks") and calls, agents' preview lists. */
export const outboundRoutes: FastifyPluginAsync<{ simulatorControl?: boolean }> = async (app, options) => {
  const now = () => app.dialer.clock.now();

  // ---- campaigns ----

  app.post("/outbound/campaigns/list", async (request) => {
    const user = requireUser(request);
    return ok(await listCampaigns(app.db, user.tenantId, parseInput(CampaignListQuerySchema, request.body)));
  });

  app.post("/outbound/campaign/manage/list", async (request) => {
    const user = requireUser(request);
    return ok(await listCampaigns(app.db, user.tenantId, parseInput(CampaignListQuerySchema, request.body)));
  });

  app.post("/outbound/inbound/campaign/list", async (request) => {
    const user = requireUser(request);
    return ok(await listCampaigns(app.db, user.tenantId, { ...parseInput(CampaignListQuerySchema, request.body), type: 20 }));
  });

  app.post("/outbound/inbound/task/list", async (request) => {
    const user = requireUser(request);
    return ok(await listBatches(app.db, user.tenantId, { ...parseInput(TaskListQuerySchema, request.body), campaignTypes: [20] }));
  });

  app.post("/outbound/campaign/select", async (request) => {
    const user = requireUser(request);
    const { types } = parseInput(CampaignSelectSchema, request.body);
    return ok(await campaignOptions(app.db, user.tenantId, types));
  });

  app.get("/outbound/campaign/init", async (request) => {
    const user = requireUser(request);
    const [queues, lists] = await Promise.all([
      app.db.selectFrom("users").select("default_queue_name").distinct().where("tenant_id", "=", user.tenantId).execute(),
      app.db
        .selectFrom("campaigns")
        .select("calling_list_name")
        .distinct()
        .where("tenant_id", "=", user.tenantId)
        .where("calling_list_name", "is not", null)
        .execute(),
    ]);
    return ok({
      queues: queues.map((q) => q.default_queue_name).sort(),
      callingListNames: lists.map((l) => l.calling_list_name ?? "").sort(),
    });
  });

  app.get("/outbound/campaign/name/count", async (request) => {
    const user = requireUser(request);
    const { name, id } = parseInput(NameCountQuery, request.query);
    return ok({ count: await countCampaignsNamed(app.db, user.tenantId, name, id) });
  });

  app.get("/outbound/campaign/callingListName", async (request) => {
    const user = requireUser(request);
    const rows = await app.db
      .selectFrom("campaigns")
      .select("calling_list_name")
      .distinct()
      .where("tenant_id", "=", user.tenantId)
      .where("calling_list_name", "is not", null)
      .execute();
    return ok(rows.map((r) => r.calling_list_name ?? "").sort());
  });

  app.post("/outbound/campaign/save", async (request) => {
    const user = requireUser(request);
    const input = parseInput(CampaignSaveSchema, request.body);
    const id = await saveCampaign(app.db, user.tenantId, user.id, input);
    await writeAudit(app.db, actorOf(user), {
      action: input.id === undefined ? "campaign.create" : "campaign.update",
      target: { type: "campaign", id },
      summary: `活动「${input.name}」：${input.id === undefined ? "新建" : "编辑"}（${labelOf(CAMPAIGN_TYPES, input.type)}）`,
      detail: { campaign: input },
    });
    return ok({ id });
  });

  app.get("/outbound/campaign/scheduler/check", async (request) => {
    const user = requireUser(request);
    const { campaignId, state } = parseInput(SchedulerCheckQuerySchema, request.query);
    const campaign = await requireCampaign(app, user, campaignId);
    const reason = await schedulerRefusal(app.db, campaign, state, cstDate(now()));
    return ok({ allowed: reason === null, reason });
  });

  app.put("/outbound/campaign/change/state", async (request) => {
    const user = requireUser(request);
    const { campaignId, state } = parseInput(ChangeStateSchema, request.body);
    const campaign = await requireCampaign(app, user, campaignId);
    const reason = await schedulerRefusal(app.db, campaign, state, cstDate(now()));
    if (reason) throw new HttpError(400, reason);
    await changeCampaignState(app.db, campaign, state, now());
    await writeAudit(app.db, actorOf(user), {
      action: "campaign.state",
      target: { type: "campaign", id: campaignId },
      summary: `活动「${campaign.name}」：${labelOf(CAMPAIGN_STATES, campaign.state)} → ${labelOf(CAMPAIGN_STATES, state)}`,
      detail: { from: campaign.state, to: state },
    });
    return ok({ id: campaignId });
  });

  app.get("/outbound/campaign/ratio", async (request) => {
    const user = requireUser(request);
    const { campaignId } = parseInput(CampaignIdQuery, request.query);
    const campaign = await requireCampaign(app, user, campaignId);
    return ok({ campaignId, ratio: campaign.ratio });
  });

  app.put("/outbound/campaign/ratio", async (request) => {
    const user = requireUser(request);
    const { campaignId, ratio } = parseInput(RatioSchema, request.body);
    const campaign = await requireCampaign(app, user, campaignId);
    if (!(await setRatio(app.db, user.tenantId, campaignId, ratio))) throw new HttpError(404, "活动不存在");
    await writeAudit(app.db, actorOf(user), {
      action: "campaign.ratio",
      target: { type: "campaign", id: campaignId },
      summary: `活动「${campaign.name}」：外呼比例 ${campaign.ratio} → ${ratio}`,
      detail: { from: campaign.ratio, to: ratio },
    });
    return ok({ campaignId, ratio });
  });

  app.post("/outbound/campaign/checkcontact", async (request) => {
    const user = requireUser(request);
    const { campaignId, phone } = parseInput(CheckContactSchema, request.body);
    await requireCampaign(app, user, campaignId);
    const mobile = normaliseMobile(phone);
    if (!mobile) return ok({ valid: false, inCampaign: false, blacklisted: false, reason: "手机号码格式不正确" });
    const [inCampaign, blacklisted] = await Promise.all([
      app.db.selectFrom("task_calls").select("id").where("campaign_id", "=", campaignId).where("phone", "=", mobile).executeTakeFirst(),
      isBlacklisted(app.db, user.tenantId, mobile),
    ]);
    const reason = inCampaign ? "号码已在活动名单中" : blacklisted ? "号码在黑名单中" : null;
    return ok({ valid: true, inCampaign: inCampaign !== undefined, blacklisted, reason });
  });

  app.post("/outbound/campaign/data/list", async (request) => {
    const user = requireUser(request);
    const query = parseInput(DataListQuerySchema, request.body);
    return ok(await listCalls(app.db, user.tenantId, { ...query, agentUserId: query.mine ? user.id : undefined }));
  });

  app.post("/outbound/campaign/data/export", async (request, reply) => {
    const user = requireUser(request);
    const query = parseInput(DataListQuerySchema, request.body);
    if (query.campaignId !== undefined) await requireCampaign(app, user, query.campaignId);
    const calls = allCalls(app.db, user.tenantId, { ...query, agentUserId: query.mine ? user.id : undefined });
    return sendCsv(reply, `campaign-${query.campaignId ?? "all"}-data.csv`, callLines(calls));
  });

  app.get("/outbound/campaign/export/error", async (request, reply) => {
    const user = requireUser(request);
    const { campaignId, importId } = parseInput(ExportErrorQuerySchema, request.query);
    if (!(await importBelongs(app.db, user.tenantId, campaignId, importId))) throw new HttpError(404, "导入记录不存在");
    async function* lines() {
      yield csvLine(["行号", "手机号码", "客户姓名", "原因"]);
      for await (const chunk of importErrors(app.db, importId))
        yield chunk.map((r) => csvLine([r.row_no, r.phone, r.customer_name, r.reason])).join("");
    }
    return sendCsv(reply, `import-${importId}-errors.csv`, lines());
  });

  app.get("/outbound/campaign/imports", async (request) => {
    const user = requireUser(request);
    const { campaignId } = parseInput(CampaignIdQuery, request.query);
    await requireCampaign(app, user, campaignId);
    await failStalledImports(app.db, user.tenantId, campaignId);
    return ok(await listImports(app.db, user.tenantId, campaignId));
  });

  // Declared after the fixed paths above; Fastify prefers static segments anyway.
  app.get("/outbound/campaign/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParams, request.params);
    return ok(await requireCampaign(app, user, id));
  });

  // ---- batches ("tasks") ----

  app.post("/outbound/task/list", async (request) => {
    const user = requireUser(request);
    return ok(await listBatches(app.db, user.tenantId, parseInput(TaskListQuerySchema, request.body)));
  });

  app.post("/outbound/task/list/agent", async (request) => {
    const user = requireUser(request);
    return ok(await listBatches(app.db, user.tenantId, { ...parseInput(TaskListQuerySchema, request.body), agentUserId: user.id }));
  });

  app.post("/outbound/task/save", async (request) => {
    const user = requireUser(request);
    const id = await saveBatch(app.db, user.tenantId, parseInput(TaskSaveSchema, request.body), now());
    if (id === undefined) throw new HttpError(404, "活动或批次不存在");
    return ok({ id });
  });

  app.post("/outbound/task/recover", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(TaskRecoverSchema, request.body);
    const outcome = await recoverBatch(app.db, user.tenantId, id, now());
    if (outcome === "not-found") throw new HttpError(404, "批次不存在");
    if (outcome === "refused") throw new HttpError(400, "只有已暂停或准备失败的批次可以恢复");
    await writeAudit(app.db, actorOf(user), { action: "batch.recover", target: { type: "batch", id }, summary: `批次 ${id}：恢复` });
    return ok({ id });
  });

  app.get("/outbound/task/trace/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParams, request.params);
    const batch = await findBatch(app.db, user.tenantId, id);
    if (!batch) throw new HttpError(404, "批次不存在");
    return ok({ batch, transitions: await batchTransitions(app.db, user.tenantId, id) });
  });

  app.get("/outbound/task/get/:id/:isCalling/:callType", async (request) => {
    const user = requireUser(request);
    const { id, isCalling, callType } = parseInput(TaskGetParams, request.params);
    const { history, ...pagination } = parseInput(TaskGetQuerySchema, request.query);
    const task = await batchWithCalls(app.db, user.tenantId, id, {
      ...pagination,
      statuses: isCalling === 1 ? [0, 1] : undefined,
      status: callType >= 0 ? callType : undefined,
      // Agents see their own calls of a task; administrators and supervisors all of them.
      agentUserId: user.role === "agent" ? user.id : undefined,
    });
    if (!task) throw new HttpError(404, "批次不存在");
    return ok(history === "1" ? { ...task, transitions: await batchTransitions(app.db, user.tenantId, id) } : task);
  });

  app.get("/outbound/agentend/beforecall/:batchId/:taskId", async (request) => {
    const user = requireUser(request);
    const { batchId, taskId } = parseInput(BeforeCallParams, request.params);
    const call = await findCall(app.db, user.tenantId, taskId);
    if (!call || call.batchId !== batchId) throw new HttpError(404, "任务不存在");
    const campaign = await requireCampaign(app, user, call.campaignId);
    // An agent opens the contacts given to them and those of their queue's campaigns, no colleague's others.
    if (user.role === "agent" && call.agentUserId !== user.id) {
      const agent = await app.db.selectFrom("users").select("default_queue_name").where("id", "=", user.id).executeTakeFirstOrThrow();
      if (campaign.queueName !== agent.default_queue_name) throw new HttpError(404, "任务不存在");
    }
    return ok({
      call,
      campaign: { id: campaign.id, name: campaign.name, type: campaign.type, state: campaign.state },
      records: await callRecordsOf(app.db, user.tenantId, taskId),
    });
  });

  // ---- transfer templates ----

  app.get("/outbound/trans/template/get/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParams, request.params);
    const template = await findTransTemplate(app.db, user.tenantId, id);
    if (!template) throw new HttpError(404, "转接模板不存在");
    return ok(template);
  });

  app.get("/outbound/transTemplates/:agentId/:type", async (request) => {
    const user = requireUser(request);
    const { agentId, type } = parseInput(TemplatesParams, request.params);
    return ok(await listTransTemplates(app.db, user.tenantId, agentId, type > 0 ? type : undefined));
  });

  // ---- agents' preview lists and data distribution ----

  app.post("/outbound/preview/next", async (request) => {
    const user = requireUser(request);
    const { campaignId } = parseInput(PreviewNextSchema, request.body);
    return ok(await takeNextPreview(app.db, user.tenantId, user.id, campaignId, now()));
  });

  // The call goes out through the agent's phone and rings like any call (cti/service.ts dial).
  app.post("/outbound/preview/dial", async (request) => {
    const user = requireUser(request);
    const { taskCallId } = parseInput(PreviewDialSchema, request.body);
    if (!(await ownWaitingCall(app.db, user.tenantId, user.id, taskCallId))) throw new HttpError(404, "该联系人不在您的待呼列表中");
    const phoneState = (await app.cti.status({ id: user.id, tenantId: user.tenantId })).agent.state;
    if (phoneState === "SIGNED_OUT") throw new HttpError(400, "请先在语音工作台签入后再拨打");
    if (!["READY", "NOT_READY", "ACW"].includes(phoneState)) throw new HttpError(400, "当前正在通话中，请结束后再拨打");
    const contact = await startPreviewDial(app.db, user.tenantId, user.id, taskCallId, now());
    if (!contact) throw new HttpError(404, "该联系人不在您的待呼列表中");
    const { record } = contact;
    await app.cti.dial({ id: user.id, tenantId: user.tenantId }, contact.phone, {
      campaignId: contact.campaign_id,
      taskCallId: contact.id,
      batchId: contact.batch_id,
      campaignType: record.campaign_type,
      userData: record.user_data,
    });
    return ok({ id: taskCallId });
  });

  app.post("/outbound/preview/skip", async (request) => {
    const user = requireUser(request);
    const { taskCallId, reason } = parseInput(PreviewSkipSchema, request.body);
    if (!(await skipPreview(app.db, user.tenantId, user.id, taskCallId, reason, now())))
      throw new HttpError(404, "该联系人不在您的待呼列表中");
    return ok({ id: taskCallId });
  });

  app.get("/outbound/preview/unassigned", async (request) => {
    const user = requireUser(request);
    const { campaignId } = parseInput(CampaignIdQuery, request.query);
    await requireCampaign(app, user, campaignId);
    return ok({ unassigned: await unassignedCount(app.db, user.tenantId, campaignId) });
  });

  app.post("/outbound/preview/distribute", async (request) => {
    const user = requireUser(request);
    const input = parseInput(DistributeSchema, request.body);
    const campaign = await requireCampaign(app, user, input.campaignId);
    if (!AGENT_DIALLED_CAMPAIGN_TYPES.includes(campaign.type)) throw new HttpError(400, "只有人工外呼活动可以分配数据");
    const agents = await app.db
      .selectFrom("users")
      .select("id")
      .where("tenant_id", "=", user.tenantId)
      .where(
        "id",
        "in",
        input.agents.map((a) => a.userId),
      )
      .execute();
    if (agents.length !== new Set(input.agents.map((a) => a.userId)).size) throw new HttpError(400, "坐席不存在");
    if (input.mode === "count" && input.agents.every((a) => !a.count)) throw new HttpError(400, "请填写分配数量");
    const assigned = await distributeContacts(app.db, user.tenantId, input.campaignId, input.mode, input.agents, now());
    await writeAudit(app.db, actorOf(user), {
      action: "campaign.distribute",
      target: { type: "campaign", id: input.campaignId },
      summary: `活动「${campaign.name}」：分配 ${assigned} 条数据给 ${input.agents.length} 名坐席`,
      detail: { mode: input.mode, agents: input.agents, assigned },
    });
    return ok({ assigned });
  });

  // ---- the simulator's clock, for end-to-end tests only (never registered in production) ----

  if (options.simulatorControl) {
    app.post("/outbound/simulator/tick", async (request) => {
      requireUser(request);
      const { minutes, times } = parseInput(SimulatorTickSchema, request.body);
      for (let i = 0; i < times; i++) await app.dialer.tick(app.dialer.clock.advance(minutes * 60_000));
      return ok({ now: now().toISOString() });
    });
  }
};
