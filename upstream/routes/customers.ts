import { Readable } from "node:stream";
import { readFile } from "node:fs/promises";
import multipart from "@fastify/multipart";
import type { FastifyPluginAsync, FastifyReply } from "fastify";
import { z } from "zod";
import { CUSTOMER_PROPERTY_TYPES, labelOf, SMS_TEMPLATE_STATES } from "#contracts/codes";
import { CallFilterSchema, type CallRecordPage } from "#contracts/contact";
import {
  BUILT_IN_COLUMNS,
  CAMPAIGN_GROUP_MAX,
  CONTACT_BULK_MAX,
  ContactCallHistoryQuerySchema,
  ContactDeleteSchema,
  ContactGroupInputSchema,
  ContactImportMappedSchema,
  ContactInputSchema,
  ContactListQuerySchema,
  ContactOutboundSchema,
  CustomerPropertyInputSchema,
  SMS_GROUP_MAX,
  SmsOutboxQuerySchema,
  SmsSendSchema,
  SmsTemplateInputSchema,
  SmsTemplateQuerySchema,
  SmsTemplateReviewSchema,
  fillTemplate,
  smsCount,
  type ContactGroup,
  type ContactImportResult,
  type ContactImportUpload,
  type ContactOutboundResult,
  type CustomerContact,
  type CustomerProperty,
  type SmsSendResult,
  type SmsTemplate,
} from "#contracts/customers";
import { csvLine, readRows } from "#upstream/domain/contact-file";
import { CONTACT_FILE_LIMIT } from "#contracts/uploads";
import { HttpError, ok, parseInput, readSpreadsheetUpload, spreadsheetMultipart } from "#upstream/http";
import { requireRole, requireUser } from "#upstream/plugins/auth";
import { actorOf, changeAs, writeAudit } from "#upstream/repositories/audit-log";
import { listCallRecords } from "#upstream/repositories/call-records";
import { importContacts as importIntoCampaign } from "#upstream/repositories/contact-imports";
import {
  CustomerRefused,
  contactsFor,
  createGroup,
  createProperty,
  deleteContacts,
  deleteGroup,
  deleteProperty,
  exportContacts,
  findContact,
  findGroup,
  listContacts,
  listGroups,
  listProperties,
  reorderProperty,
  saveContact,
  setPropertyValid,
  updateGroup,
  updateProperty,
} from "#upstream/repositories/customers";
import {
  describeUpload,
  importBelongs,
  importContacts,
  importErrorRows,
  importUpload,
  stageUpload,
} from "#upstream/repositories/customer-imports";
import { listOutbox, queueSms } from "#upstream/repositories/sms-outbox";
import {
  createTemplate,
  deleteTemplate,
  findTemplate,
  listTemplates,
  requireTemplate,
  reviewTemplate,
  updateTemplate,
} from "#upstream/repositories/sms-templates";

export const CUSTOMER_ADMIN_ONLY = "仅管理员可以维护客户资料";
const IdParamsSchema = z.object({ id: z.coerce.number().int().positive().max(2_147_483_647) });
const PropertyListParamsSchema = z.object({
  tenantId: z.string().max(40),
  filter: z.enum(["all", "valid"], { message: "筛选条件只能是 all 或 valid" }),
});
const ReorderParamsSchema = IdParamsSchema.extend({ action: z.enum(["up", "down"], { message: "只能上移（up）或下移（down）" }) });
const ValidParamsSchema = IdParamsSchema.extend({
  valid: z.enum(["0", "1", "true", "false"], { message: "有效标记只能是 0 或 1" }).transform((v) => v === "1" || v === "true"),
});
const ErrorExportQuerySchema = z.object({ importId: z.coerce.number().int().positive().max(2_147_483_647) });
const ExportBodySchema = ContactListQuerySchema.pick({ keyword: true, groupId: true, values: true });

function sendCsv(reply: FastifyReply, fileName: string, rows: AsyncIterable<ReadonlyArray<string>>): FastifyReply {
  async function* lines() {
    yield "\uFEFF";
    for await (const row of rows) yield csvLine(row);
  }
  reply.header("Content-Type", "text/csv; charset=utf-8");
  reply.header("Content-Disposition", `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`);
  return reply.send(Readable.from(lines()));
}

/**
 * Customers and SMS (decision 020): properties, contacts, groups, imports and exports, SMS
 * templates with their review, sending and the outbox. Administrators change: the property and
 * template screens are theirs alone (decision 044); on 联系人, which agents share to read contacts and
 * send approved templates, each change checks the role. Each change writes its audit row in the same
 * transaction.
 */
export const customerRoutes: FastifyPluginAsync = async (app) => {
  await app.register(multipart, spreadsheetMultipart(CONTACT_FILE_LIMIT));

  // ---- properties ----

  // {tenantId} is the caller's own tenant whatever is written (another tenant's list is never served).
  app.get("/crm_v2/customer/property/list/:tenantId/:filter", async (request) => {
    const user = requireUser(request);
    const { filter } = parseInput(PropertyListParamsSchema, request.params);
    const list = await listProperties(app.db, user.tenantId, filter === "valid");
    return ok<{ list: CustomerProperty[]; total: number }>({ list, total: list.length });
  });

  app.post("/crm_v2/customer/property", async (request) => {
    const user = requireUser(request);
    const input = parseInput(CustomerPropertyInputSchema, request.body);
    return ok<CustomerProperty>(
      await changeAs(app.db, user, async (trx) => {
        const created = await createProperty(trx, user.tenantId, input);
        return {
          result: created,
          audit: {
            action: "customer.property.create",
            target: { type: "customerProperty", id: created.id },
            summary: `新建客户属性「${created.name}」（${labelOf(CUSTOMER_PROPERTY_TYPES, created.type)}）`,
          },
        };
      }),
    );
  });

  app.put("/crm_v2/customer/property/reorder/:id/:action", async (request) => {
    const user = requireUser(request);
    const { id, action } = parseInput(ReorderParamsSchema, request.params);
    await changeAs(app.db, user, async (trx) => {
      const { property, other } = await reorderProperty(trx, user.tenantId, id, action);
      return {
        result: null,
        audit: {
          action: "customer.property.reorder",
          target: { type: "customerProperty", id },
          summary: `客户属性「${property.name}」${action === "up" ? "上移" : "下移"}（与「${other.name}」交换）`,
        },
      };
    });
    const list = await listProperties(app.db, user.tenantId);
    return ok<{ list: CustomerProperty[]; total: number }>({ list, total: list.length });
  });

  app.put("/crm_v2/customer/property/valid/:id/:valid", async (request) => {
    const user = requireUser(request);
    const { id, valid } = parseInput(ValidParamsSchema, request.params);
    return ok<CustomerProperty>(
      await changeAs(app.db, user, async (trx) => {
        const saved = await setPropertyValid(trx, user.tenantId, id, valid);
        return {
          result: saved,
          audit: {
            action: "customer.property.valid",
            target: { type: "customerProperty", id },
            summary: `客户属性「${saved.name}」设为${valid ? "有效" : "无效"}`,
            detail: { valid },
          },
        };
      }),
    );
  });

  app.get("/crm_v2/customer/property/export/:x", async (request, reply) => {
    const user = requireUser(request);
    const list = await listProperties(app.db, user.tenantId);
    async function* rows() {
      yield ["顺序", "属性名称", "类型", "选项", "必填", "唯一", "有效"];
      for (const p of list)
        yield [
          String(p.position),
          p.name,
          labelOf(CUSTOMER_PROPERTY_TYPES, p.type),
          p.options.join("、"),
          p.required ? "是" : "否",
          p.unique ? "是" : "否",
          p.valid ? "是" : "否",
        ];
    }
    return sendCsv(reply, "客户属性.csv", rows());
  });

  app.put("/crm_v2/customer/property/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const input = parseInput(CustomerPropertyInputSchema, request.body);
    return ok<CustomerProperty>(
      await changeAs(app.db, user, async (trx) => {
        const { before, after } = await updateProperty(trx, user.tenantId, id, input);
        return {
          result: after,
          audit: {
            action: "customer.property.update",
            target: { type: "customerProperty", id },
            summary: `编辑客户属性「${after.name}」`,
            detail: { before },
          },
        };
      }),
    );
  });

  app.delete("/crm_v2/customer/property/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    await changeAs(app.db, user, async (trx) => {
      const property = await deleteProperty(trx, user.tenantId, id);
      return {
        result: null,
        audit: {
          action: "customer.property.delete",
          target: { type: "customerProperty", id },
          summary: `删除客户属性「${property.name}」及其所有值`,
        },
      };
    });
    return ok({ id });
  });

  // ---- contacts ----

  app.post("/crm_v2/contacts/v1/list", async (request) => {
    const user = requireUser(request);
    const query = parseInput(ContactListQuerySchema, request.body);
    return ok<{ list: CustomerContact[]; total: number; estimated?: true }>(await listContacts(app.db, user.tenantId, query));
  });

  app.post("/crm_v2/contacts/v1/import", async (request) => {
    const user = requireUser(request);
    requireRole(user, ["admin"], CUSTOMER_ADMIN_ONLY);
    const { file } = await readSpreadsheetUpload(request, CONTACT_FILE_LIMIT);
    const name = file.name.slice(0, 120);
    try {
      return ok<ContactImportResult>(
        await changeAs(app.db, user, async (trx) => {
          const result = await importContacts(trx, user.tenantId, name, readRows(file, file.name));
          return {
            result,
            audit: {
              action: "contact.import",
              target: { type: "contact" },
              summary: `导入联系人「${name}」：新增 ${result.created}，更新 ${result.updated}，失败 ${result.rejected}`,
              detail: { importId: result.importId, created: result.created, updated: result.updated, rejected: result.rejected },
            },
          };
        }),
      );
    } finally {
      await file.remove();
    }
  });

  // The import with a mapping step: the file is kept and its columns answered, then imported as mapped.
  app.post("/crm_v2/contacts/v1/import/upload", async (request) => {
    const user = requireUser(request);
    requireRole(user, ["admin"], CUSTOMER_ADMIN_ONLY);
    const { file } = await readSpreadsheetUpload(request, CONTACT_FILE_LIMIT);
    // Kept in the database until its mapping is chosen (any platform instance may take the next step).
    const content = await readFile(file.path).finally(() => file.remove());
    return ok<ContactImportUpload>(
      await changeAs(app.db, user, async (trx) => ({
        result: await stageUpload(trx, user.tenantId, file.name.slice(0, 120), content),
        audit: null,
      })),
    );
  });

  app.get("/crm_v2/contacts/v1/import/upload/:id", async (request) => {
    const user = requireUser(request);
    requireRole(user, ["admin"], CUSTOMER_ADMIN_ONLY);
    const { id } = parseInput(IdParamsSchema, request.params);
    return ok<ContactImportUpload>(
      await changeAs(app.db, user, async (trx) => ({ result: await describeUpload(trx, user.tenantId, id), audit: null })),
    );
  });

  app.post("/crm_v2/contacts/v1/import/mapped", async (request) => {
    const user = requireUser(request);
    requireRole(user, ["admin"], CUSTOMER_ADMIN_ONLY);
    const { uploadId, mapping } = parseInput(ContactImportMappedSchema, request.body);
    return ok<ContactImportResult>(
      await changeAs(app.db, user, async (trx) => {
        const { fileName, result } = await importUpload(trx, user.tenantId, uploadId, mapping);
        return {
          result,
          audit: {
            action: "contact.import",
            target: { type: "contact" },
            summary: `导入联系人「${fileName}」（按所选列对应）：新增 ${result.created}，更新 ${result.updated}，失败 ${result.rejected}`,
            detail: { importId: result.importId, created: result.created, updated: result.updated, rejected: result.rejected, mapping },
          },
        };
      }),
    );
  });

  app.get("/crm_v2/contacts/v1/errorexport", async (request, reply) => {
    const user = requireUser(request);
    requireRole(user, ["admin"], CUSTOMER_ADMIN_ONLY);
    const { importId } = parseInput(ErrorExportQuerySchema, request.query);
    if (!(await importBelongs(app.db, user.tenantId, importId))) throw new HttpError(404, "导入记录不存在");
    return sendCsv(reply, `联系人导入失败行-${importId}.csv`, importErrorRows(app.db, importId));
  });

  app.post("/crm_v2/contacts/v1/export", async (request, reply) => {
    const user = requireUser(request);
    requireRole(user, ["admin"], CUSTOMER_ADMIN_ONLY);
    const query = parseInput(ExportBodySchema, request.body);
    return sendCsv(reply, "联系人.csv", exportContacts(app.db, user.tenantId, query));
  });

  app.post("/crm_v2/contacts/v1/delete", async (request) => {
    const user = requireUser(request);
    requireRole(user, ["admin"], CUSTOMER_ADMIN_ONLY);
    const { ids } = parseInput(ContactDeleteSchema, request.body);
    return ok(
      await changeAs(app.db, user, async (trx) => {
        const { rows, missing } = await deleteContacts(trx, user.tenantId, [...new Set(ids)]);
        if (rows.length === 0) throw new CustomerRefused(404, "联系人不存在");
        return {
          result: { deleted: rows.length, missing },
          audit: {
            action: "contact.delete",
            target: { type: "contact", id: rows.length === 1 ? rows[0].id : null },
            summary: `删除联系人 ${rows.length} 个：${rows
              .slice(0, 5)
              .map((r) => `「${r.name || r.phone}」`)
              .join("")}${rows.length > 5 ? " 等" : ""}`,
            detail: { ids: rows.map((r) => r.id) },
          },
        };
      }),
    );
  });

  app.post("/crm_v2/contacts/v1/outbound", async (request) => {
    const user = requireUser(request);
    requireRole(user, ["admin"], CUSTOMER_ADMIN_ONLY);
    const { campaignId, ids, groupId } = parseInput(ContactOutboundSchema, request.body);
    const group = groupId ? await findGroup(app.db, user.tenantId, groupId) : undefined;
    if (groupId && !group) throw new HttpError(404, "分组不存在");
    const contacts = await contactsFor(app.db, user.tenantId, { ids, groupId }, CAMPAIGN_GROUP_MAX);
    if (contacts.length === 0) throw new HttpError(404, group ? `分组「${group.name}」没有联系人` : "联系人不存在");
    const properties = await listProperties(app.db, user.tenantId, true);
    // The contacts become a campaign list, as an uploaded file would: same checks (blacklist, duplicates).
    async function* rows() {
      yield [BUILT_IN_COLUMNS.phone, BUILT_IN_COLUMNS.name, ...properties.map((p) => p.name)];
      for (const c of contacts)
        yield [
          c.phone,
          c.name,
          ...properties.map((p) => {
            const v = c.properties[String(p.id)];
            return Array.isArray(v) ? v.join("、") : (v ?? "");
          }),
        ];
    }
    // The batch is named after its source, so the campaign's batch list says where it came from.
    const source = group ? `联系人分组「${group.name}」` : "客户联系人";
    const outcome = await importIntoCampaign(app.db, user.tenantId, campaignId, source, rows(), app.dialer.clock.now());
    await writeAudit(app.db, actorOf(user), {
      action: "contact.outbound",
      target: { type: "campaign", id: campaignId },
      summary: `联系人转入活动 ${campaignId}：成功 ${outcome.accepted} 个，失败 ${outcome.rejected} 个`,
      detail: { batchId: outcome.batchId, groupId: groupId ?? null, count: contacts.length },
    });
    return ok<ContactOutboundResult>({
      importId: outcome.importId,
      batchId: outcome.batchId,
      accepted: outcome.accepted,
      rejected: outcome.rejected,
      errors: outcome.errors.map((e) => ({ phone: e.phone, name: e.customerName, reason: e.reason })),
    });
  });

  // A contact's calls across campaigns and inbound (agents: their own calls, as their call history).
  app.get("/crm_v2/contacts/v1/callhistroy", async (request) => {
    const user = requireUser(request);
    const { id, pageNo, pageSize } = parseInput(ContactCallHistoryQuerySchema, request.query);
    const contact = await findContact(app.db, user.tenantId, id);
    if (!contact) throw new HttpError(404, "联系人不存在");
    const filter = CallFilterSchema.parse({ pageNo, pageSize, phone: contact.phone });
    const scope = user.role === "agent" ? { agentUserId: user.id } : {};
    return ok<CallRecordPage>(await listCallRecords(app.db, user.tenantId, scope, filter));
  });

  app.post("/crm_v2/contacts/v1", async (request) => {
    const user = requireUser(request);
    requireRole(user, ["admin"], CUSTOMER_ADMIN_ONLY);
    const input = parseInput(ContactInputSchema, request.body);
    return ok<CustomerContact>(
      await changeAs(app.db, user, async (trx) => {
        const saved = await saveContact(trx, user.tenantId, null, input);
        return {
          result: saved,
          audit: {
            action: "contact.update",
            target: { type: "contact", id: saved.id },
            summary: `新建联系人「${saved.name || saved.phone}」`,
          },
        };
      }),
    );
  });

  app.get("/crm_v2/contacts/v1/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const contact = await findContact(app.db, user.tenantId, id);
    if (!contact) throw new HttpError(404, "联系人不存在");
    return ok<CustomerContact>(contact);
  });

  app.put("/crm_v2/contacts/v1/:id", async (request) => {
    const user = requireUser(request);
    requireRole(user, ["admin"], CUSTOMER_ADMIN_ONLY);
    const { id } = parseInput(IdParamsSchema, request.params);
    const input = parseInput(ContactInputSchema, request.body);
    return ok<CustomerContact>(
      await changeAs(app.db, user, async (trx) => {
        const before = await findContact(trx, user.tenantId, id);
        const saved = await saveContact(trx, user.tenantId, id, input);
        return {
          result: saved,
          audit: {
            action: "contact.update",
            target: { type: "contact", id },
            summary: `编辑联系人「${saved.name || saved.phone}」`,
            detail: { before: before && { name: before.name, phone: before.phone, values: before.values } },
          },
        };
      }),
    );
  });

  // ---- groups ----

  app.get("/crm_v2/groups/v1/list", async (request) => {
    const user = requireUser(request);
    const list = await listGroups(app.db, user.tenantId);
    return ok<{ list: ContactGroup[]; total: number }>({ list, total: list.length });
  });

  app.post("/crm_v2/groups/v1", async (request) => {
    const user = requireUser(request);
    requireRole(user, ["admin"], CUSTOMER_ADMIN_ONLY);
    const { name, addIds } = parseInput(ContactGroupInputSchema, request.body);
    if (!name) throw new HttpError(400, "请输入分组名称");
    return ok<ContactGroup>(
      await changeAs(app.db, user, async (trx) => {
        const group = await createGroup(trx, user.tenantId, name, addIds);
        return {
          result: group,
          audit: {
            action: "contact.group.create",
            target: { type: "contactGroup", id: group.id },
            summary: `新建联系人分组「${name}」（${group.memberCount} 人）`,
          },
        };
      }),
    );
  });

  app.put("/crm_v2/groups/v1/:id", async (request) => {
    const user = requireUser(request);
    requireRole(user, ["admin"], CUSTOMER_ADMIN_ONLY);
    const { id } = parseInput(IdParamsSchema, request.params);
    const input = parseInput(ContactGroupInputSchema, request.body);
    return ok(
      await changeAs(app.db, user, async (trx) => {
        const { before, after, added, removed } = await updateGroup(trx, user.tenantId, id, input);
        return {
          result: { ...after, added, removed },
          audit: {
            action: "contact.group.update",
            target: { type: "contactGroup", id },
            summary: `联系人分组「${after.name}」${before.name !== after.name ? `（原「${before.name}」）` : ""}：加入 ${added} 人，移出 ${removed} 人`,
          },
        };
      }),
    );
  });

  app.delete("/crm_v2/groups/v1/:id", async (request) => {
    const user = requireUser(request);
    requireRole(user, ["admin"], CUSTOMER_ADMIN_ONLY);
    const { id } = parseInput(IdParamsSchema, request.params);
    await changeAs(app.db, user, async (trx) => {
      const group = await deleteGroup(trx, user.tenantId, id);
      return {
        result: null,
        audit: {
          action: "contact.group.delete",
          target: { type: "contactGroup", id },
          summary: `删除联系人分组「${group.name}」（联系人保留）`,
        },
      };
    });
    return ok({ id });
  });

  // ---- SMS templates ----

  // The templates a user may send: the tenant's approved ones.
  app.get("/sms/api/sms/customer/template", async (request) => {
    const user = requireUser(request);
    const page = await listTemplates(app.db, user.tenantId, { state: "approved", pageNo: 1, pageSize: 100 });
    return ok<{ list: SmsTemplate[]; total: number }>(page);
  });

  app.get("/sms/api/sms/template/list", async (request) => {
    const user = requireUser(request);
    const query = parseInput(SmsTemplateQuerySchema, request.query);
    return ok<{ list: SmsTemplate[]; total: number }>(await listTemplates(app.db, user.tenantId, query));
  });

  app.get("/sms/api/sms/outbox", async (request) => {
    const user = requireUser(request);
    const query = parseInput(SmsOutboxQuerySchema, request.query);
    return ok(await listOutbox(app.db, { ...query, tenantId: user.tenantId }));
  });

  app.get("/sms/api/sms/template/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const template = await findTemplate(app.db, user.tenantId, id);
    if (!template) throw new HttpError(404, "短信模板不存在");
    return ok<SmsTemplate>(template);
  });

  app.post("/sms/api/sms/template", async (request) => {
    const user = requireUser(request);
    const input = parseInput(SmsTemplateInputSchema, request.body);
    return ok<SmsTemplate>(
      await changeAs(app.db, user, async (trx) => {
        const created = await createTemplate(trx, user.tenantId, input);
        return {
          result: created,
          audit: {
            action: "sms.template.create",
            target: { type: "smsTemplate", id: created.id },
            summary: `新建短信模板「${created.name}」（待审核）`,
            detail: { from: null, to: "pending" },
          },
        };
      }),
    );
  });

  app.put("/sms/api/sms/template/:id/review", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const { state, reason } = parseInput(SmsTemplateReviewSchema, request.body);
    return ok<SmsTemplate>(
      await changeAs(app.db, user, async (trx) => {
        const { before, after } = await reviewTemplate(trx, user.tenantId, id, state, reason);
        return {
          result: after,
          audit: {
            action: "sms.template.review",
            target: { type: "smsTemplate", id },
            summary: `短信模板「${after.name}」审核：${labelOf(SMS_TEMPLATE_STATES, before.state)} → ${labelOf(SMS_TEMPLATE_STATES, after.state)}`,
            reason: reason || null,
            detail: { from: before.state, to: after.state },
          },
        };
      }),
    );
  });

  app.put("/sms/api/sms/template/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const input = parseInput(SmsTemplateInputSchema, request.body);
    return ok<SmsTemplate>(
      await changeAs(app.db, user, async (trx) => {
        const { before, after } = await updateTemplate(trx, user.tenantId, id, input);
        return {
          result: after,
          audit: {
            action: "sms.template.update",
            target: { type: "smsTemplate", id },
            summary: `编辑短信模板「${after.name}」：${labelOf(SMS_TEMPLATE_STATES, before.state)} → 待审核`,
            detail: {
              from: before.state,
              to: "pending",
              before: { name: before.name, signature: before.signature, content: before.content },
            },
          },
        };
      }),
    );
  });

  app.delete("/sms/api/sms/template/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    await changeAs(app.db, user, async (trx) => {
      const template = await deleteTemplate(trx, user.tenantId, id);
      return {
        result: null,
        audit: { action: "sms.template.delete", target: { type: "smsTemplate", id }, summary: `删除短信模板「${template.name}」` },
      };
    });
    return ok({ id });
  });

  // ---- sending ----

  /**
   * An approved template to a selection or a group: each contact's variables filled from its
   * values; a contact missing one is not sent to and says why. `preview` answers the texts only.
   */
  app.post("/msg/api/sms/send", async (request) => {
    const user = requireUser(request);
    const { templateId, ids, groupId, preview } = parseInput(SmsSendSchema, request.body);
    if (user.role !== "admin" && groupId) throw new HttpError(403, "坐席只能向勾选的联系人发送短信");
    return ok<SmsSendResult>(
      await changeAs(app.db, user, async (trx) => {
        const template = await requireTemplate(trx, user.tenantId, templateId);
        if (template.state !== "approved")
          throw new CustomerRefused(400, `模板「${template.name}」${labelOf(SMS_TEMPLATE_STATES, template.state)}，审核通过后才能发送`);
        if (groupId && !(await findGroup(trx, user.tenantId, groupId))) throw new CustomerRefused(404, "分组不存在");
        const contacts = await contactsFor(trx, user.tenantId, { ids, groupId }, groupId ? SMS_GROUP_MAX : CONTACT_BULK_MAX);
        if (contacts.length === 0) throw new CustomerRefused(404, "联系人不存在");
        const properties = await listProperties(trx, user.tenantId, true);
        const result: SmsSendResult = { queued: 0, rejected: [], preview: [] };
        for (const c of contacts) {
          const values: Record<string, string> = { [BUILT_IN_COLUMNS.name]: c.name, [BUILT_IN_COLUMNS.phone]: c.phone };
          for (const p of properties) {
            const v = c.properties[String(p.id)];
            if (v !== undefined) values[p.name] = Array.isArray(v) ? v.join("、") : v;
          }
          const { text, missing } = fillTemplate(template.content, values);
          if (missing.length > 0) {
            result.rejected.push({ contactId: c.id, phone: c.phone, reason: `缺少 ${missing.map((m) => `「${m}」`).join("")} 的值` });
            continue;
          }
          if (preview) {
            if (result.preview.length < 5)
              result.preview.push({ contactId: c.id, phone: c.phone, text, ...smsCount(text, template.signature) });
            continue;
          }
          await queueSms(trx, {
            tenantId: user.tenantId,
            phone: c.phone,
            content: text,
            signature: template.signature,
            kind: "message",
            createdBy: user.id,
            templateId: template.id,
          });
          result.queued++;
        }
        return {
          result,
          audit: preview
            ? null
            : {
                action: "sms.send",
                target: { type: "smsTemplate", id: template.id },
                summary: `用模板「${template.name}」发送短信：${result.queued} 条，未发送 ${result.rejected.length} 条`,
                detail: { groupId: groupId ?? null, queued: result.queued, rejected: result.rejected.length },
              },
        };
      }),
    );
  });
};
