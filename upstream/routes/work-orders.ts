import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { WORK_ORDER_STATES, WORK_ORDER_TEMPLATE_STATUSES, labelOf } from "#contracts/codes";
import {
  WorkOrderFollowInputSchema,
  WorkOrderFollowParamsSchema,
  WorkOrderReceiveInputSchema,
  WorkOrderRecordInputSchema,
  WorkOrderRecordQuerySchema,
  WorkOrderTemplateInputSchema,
  WorkOrderTemplateListQuerySchema,
  WorkOrderTemplateStatusParamsSchema,
  type WorkOrderDetail,
  type WorkOrderRecord,
  type WorkOrderTemplate,
} from "#contracts/work-orders";
import { WorkOrderChatRequestSchema } from "#contracts/workbench";
import { HttpError, ok, parseInput } from "#upstream/http";
import { findSession } from "#upstream/repositories/chat";
import { requireUser, requireWorkOrderCreator } from "#upstream/plugins/auth";
import { changeAs } from "#upstream/repositories/audit-log";
import {
  createRecordAudited,
  deleteTemplate,
  findRecord,
  findTemplate,
  followRecord,
  listRecords,
  listTemplates,
  peekNumber,
  receiveRecord,
  saveTemplate,
  setTemplateStatus,
  workOrderActor,
} from "#upstream/repositories/work-orders";

const IdParamsSchema = z.object({ id: z.coerce.number().int().positive() });

const actorFor = workOrderActor;

/**
 * Work orders (`/config/workorder`, decision 021). The screens that make or read work orders read
 * the templates (the workbench builds its form from the enabled ones); only administrators change
 * them (工单模板 is theirs, decision 044). Records: agents see and follow their own (owned or created), supervisors and
 * administrators all of the tenant's. Every change writes an audit row in its transaction.
 */
export const workOrderRoutes: FastifyPluginAsync = async (app) => {
  // Templates
  app.post("/config/workorder/template/list", async (request) => {
    const user = requireUser(request);
    const { status } = parseInput(WorkOrderTemplateListQuerySchema, request.body ?? {});
    const list = await listTemplates(app.db, user.tenantId, status);
    return ok<{ list: WorkOrderTemplate[]; total: number }>({ list, total: list.length });
  });

  app.get("/config/workorder/template/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const template = await findTemplate(app.db, user.tenantId, id);
    if (!template) throw new HttpError(404, "工单模板不存在");
    return ok<WorkOrderTemplate>(template);
  });

  app.post("/config/workorder/template", async (request) => {
    const user = requireUser(request);
    const input = parseInput(WorkOrderTemplateInputSchema, request.body);
    const template = await changeAs(app.db, user, async (trx) => {
      const { template } = await saveTemplate(trx, user.tenantId, null, input);
      return {
        result: template,
        audit: {
          action: "workorder.template.create",
          target: { type: "workOrderTemplate", id: template.id },
          summary: `新建工单模板「${template.name}」（${template.fields.length} 个字段，时限 ${template.slaHours} 小时）`,
        },
      };
    });
    return ok<WorkOrderTemplate>(template);
  });

  app.put("/config/workorder/template/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const input = parseInput(WorkOrderTemplateInputSchema, request.body);
    const template = await changeAs(app.db, user, async (trx) => {
      const { template, before } = await saveTemplate(trx, user.tenantId, id, input);
      return {
        result: template,
        audit: {
          action: "workorder.template.update",
          target: { type: "workOrderTemplate", id },
          summary: `编辑工单模板「${template.name}」`,
          detail: { before: before && { name: before.name, slaHours: before.slaHours, fields: before.fields }, after: input },
        },
      };
    });
    return ok<WorkOrderTemplate>(template);
  });

  app.delete("/config/workorder/template/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    await changeAs(app.db, user, async (trx) => {
      const template = await deleteTemplate(trx, user.tenantId, id);
      return {
        result: null,
        audit: {
          action: "workorder.template.delete",
          target: { type: "workOrderTemplate", id },
          summary: `删除工单模板「${template.name}」`,
        },
      };
    });
    return ok({ id });
  });

  app.put("/config/workorder/template/:id/:status", async (request) => {
    const user = requireUser(request);
    const { id, status } = parseInput(WorkOrderTemplateStatusParamsSchema, request.params);
    const template = await changeAs(app.db, user, async (trx) => {
      const template = await setTemplateStatus(trx, user.tenantId, id, status);
      return {
        result: template,
        audit: {
          action: "workorder.template.status",
          target: { type: "workOrderTemplate", id },
          summary: `${labelOf(WORK_ORDER_TEMPLATE_STATUSES, status)}工单模板「${template.name}」`,
        },
      };
    });
    return ok<WorkOrderTemplate>(template);
  });

  // Records
  app.post("/config/workorder/record/list", async (request) => {
    const user = requireUser(request);
    const query = parseInput(WorkOrderRecordQuerySchema, request.body ?? {});
    return ok<{ list: WorkOrderRecord[]; total: number }>(await listRecords(app.db, actorFor(user), query));
  });

  app.get("/config/workorder/record/number", async (request) => {
    const user = requireUser(request);
    return ok({ number: await peekNumber(app.db, user.tenantId) });
  });

  app.get("/config/workorder/record/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    return ok<WorkOrderDetail>(await findRecord(app.db, actorFor(user), id));
  });

  app.post("/config/workorder/record", async (request) => {
    const user = requireWorkOrderCreator(request);
    const input = parseInput(WorkOrderRecordInputSchema, request.body);
    const record = await createRecordAudited(app.db, actorFor(user), input);
    return ok<WorkOrderRecord>(record);
  });

  // From the text workbench: a work order linked to one of the agent's chats (decision 026).
  app.put("/config/workorder/record/chat", async (request) => {
    const user = requireWorkOrderCreator(request);
    const { sessionId, ...input } = parseInput(WorkOrderChatRequestSchema, request.body);
    const session = await findSession(app.db, { tenantId: user.tenantId }, sessionId);
    // An agent links only a chat they serve (or served); another's, like another tenant's, is unknown.
    if (!session || (user.role === "agent" && session.agent_user_id !== user.id)) throw new HttpError(404, "会话不存在");
    const record = await createRecordAudited(app.db, actorFor(user), { ...input, chatSessionId: session.id });
    return ok<WorkOrderRecord>(record);
  });

  app.put("/config/workorder/record/follow/:id/:state", async (request) => {
    const user = requireUser(request);
    const { id, state } = parseInput(WorkOrderFollowParamsSchema, request.params);
    const { note } = parseInput(WorkOrderFollowInputSchema, request.body ?? {});
    const record = await changeAs(app.db, user, async (trx) => {
      const { record, from } = await followRecord(trx, actorFor(user), id, state, note);
      return {
        result: record,
        audit: {
          action: "workorder.record.follow",
          target: { type: "workOrder", id },
          summary: `工单 ${record.number}：${labelOf(WORK_ORDER_STATES, from)} → ${labelOf(WORK_ORDER_STATES, state)}`,
          reason: note,
          detail: { from, to: state },
        },
      };
    });
    return ok<WorkOrderRecord>(record);
  });

  app.put("/config/workorder/record/receive/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const input = parseInput(WorkOrderReceiveInputSchema, request.body ?? {});
    const record = await changeAs(app.db, user, async (trx) => {
      const { record, before, to, reassigned } = await receiveRecord(trx, actorFor(user), id, input);
      return {
        result: record,
        audit: {
          action: reassigned ? "workorder.record.reassign" : "workorder.record.receive",
          target: { type: "workOrder", id },
          summary: reassigned ? `工单 ${record.number} 转派：${before ?? "无人"} → ${to}` : `接收工单 ${record.number}`,
          reason: input.note || null,
          detail: { from: before, to },
        },
      };
    });
    return ok<WorkOrderRecord>(record);
  });
};
