import multipart from "@fastify/multipart";
import type { FastifyPluginAsync } from "fastify";
import { z } from "zod";
import { KNOWLEDGE_STATES, codesOf, labelOf } from "#contracts/codes";
import {
  KnowledgeBatchDeleteSchema,
  KnowledgeGapQuerySchema,
  KnowledgeGroupInputSchema,
  KnowledgeLabelInputSchema,
  KnowledgeNodeInputSchema,
  KnowledgeNodeQuerySchema,
  type KnowledgeGap,
  type KnowledgeGroup,
  type KnowledgeImportResult,
  type KnowledgeLabel,
  type KnowledgeNode,
} from "#contracts/knowledge";
import { readRows } from "#upstream/domain/contact-file";
import { KNOWLEDGE_FILE_LIMIT } from "#contracts/uploads";
import { HttpError, ok, parseInput, readSpreadsheetUpload, spreadsheetMultipart } from "#upstream/http";
import { requireUser } from "#upstream/plugins/auth";
import { changeAs } from "#upstream/repositories/audit-log";
import {
  KnowledgeRefused,
  countNodes,
  createGroup,
  createLabel,
  deleteGroup,
  deleteLabel,
  deleteNodes,
  findGroup,
  findLabel,
  findNode,
  importNodes,
  listGaps,
  listGroups,
  listLabels,
  listNodes,
  renameGroup,
  saveNode,
  setNodeState,
  useNode,
} from "#upstream/repositories/knowledge";

const IdParamsSchema = z.object({ id: z.coerce.number().int().positive() });
const StateParamsSchema = IdParamsSchema.extend({
  state: z.coerce
    .number()
    .int()
    .refine((n) => codesOf(KNOWLEDGE_STATES).includes(n), "状态无效"),
});
const ImportFieldsSchema = z.object({ groupId: z.coerce.number({ invalid_type_error: "请选择分组" }).int().positive("请选择分组") });

/**
 * The knowledge base (`/config/knowledge`, decision 017). The workbenches read what is published
 * and count a use; the administrators' 知识库配置 (decision 044) keeps it, and every change writes an
 * audit row in the same transaction.
 */
export const knowledgeRoutes: FastifyPluginAsync = async (app) => {
  await app.register(multipart, spreadsheetMultipart(KNOWLEDGE_FILE_LIMIT));

  // Groups
  app.get("/config/knowledge/group/agent", async (request) => {
    const user = requireUser(request);
    const list = await listGroups(app.db, user.tenantId);
    return ok<{ list: KnowledgeGroup[]; total: number }>({ list, total: list.length });
  });

  app.post("/config/knowledge/group", async (request) => {
    const user = requireUser(request);
    const { name } = parseInput(KnowledgeGroupInputSchema, request.body);
    const group = await changeAs(app.db, user, async (trx) => {
      const created = await createGroup(trx, user.tenantId, name);
      return {
        result: created,
        audit: { action: "knowledge.group.create", target: { type: "knowledgeGroup", id: created.id }, summary: `新建知识分组「${name}」` },
      };
    });
    return ok<KnowledgeGroup>(group);
  });

  app.put("/config/knowledge/group/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const { name } = parseInput(KnowledgeGroupInputSchema, request.body);
    await changeAs(app.db, user, async (trx) => {
      const before = await renameGroup(trx, user.tenantId, id, name);
      return {
        result: null,
        audit: {
          action: "knowledge.group.update",
          target: { type: "knowledgeGroup", id },
          summary: `知识分组「${before}」重命名为「${name}」`,
          detail: { before, after: name },
        },
      };
    });
    return ok<KnowledgeGroup>((await findGroup(app.db, user.tenantId, id))!);
  });

  app.delete("/config/knowledge/group/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    await changeAs(app.db, user, async (trx) => {
      const name = await deleteGroup(trx, user.tenantId, id);
      return {
        result: null,
        audit: { action: "knowledge.group.delete", target: { type: "knowledgeGroup", id }, summary: `删除知识分组「${name}」` },
      };
    });
    return ok({ id });
  });

  // Nodes
  app.get("/config/knowledge/node/agent", async (request) => {
    const user = requireUser(request);
    const query = parseInput(KnowledgeNodeQuerySchema, request.query);
    return ok<{ list: KnowledgeNode[]; total: number }>(await listNodes(app.db, user.tenantId, query));
  });

  app.post("/config/knowledge/node", async (request) => {
    const user = requireUser(request);
    const input = parseInput(KnowledgeNodeInputSchema, request.body);
    const node = await changeAs(app.db, user, async (trx) => {
      const saved = await saveNode(trx, user.tenantId, null, input);
      return {
        result: saved,
        audit: {
          action: "knowledge.node.create",
          target: { type: "knowledgeNode", id: saved.id },
          summary: `分组「${saved.groupName}」：新建知识「${saved.question}」`,
        },
      };
    });
    return ok<KnowledgeNode>(node);
  });

  // Fixed paths before `:id` ones of the same shape (Fastify prefers static segments anyway).
  app.post("/config/knowledge/node/batch/delete", async (request) => {
    const user = requireUser(request);
    const { ids } = parseInput(KnowledgeBatchDeleteSchema, request.body);
    const deleted = await changeAs(app.db, user, async (trx) => {
      const rows = await deleteNodes(trx, user.tenantId, [...new Set(ids)]);
      if (rows.length === 0) throw new KnowledgeRefused(404, "知识不存在");
      return {
        result: rows.length,
        audit: {
          action: "knowledge.node.delete",
          target: { type: "knowledgeNode", id: rows.length === 1 ? rows[0].id : null },
          summary: `批量删除知识 ${rows.length} 条：${rows
            .slice(0, 5)
            .map((r) => `「${r.title}」`)
            .join("")}${rows.length > 5 ? " 等" : ""}`,
          detail: { ids: rows.map((r) => r.id) },
        },
      };
    });
    return ok({ deleted });
  });

  app.get("/config/knowledge/node/count/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    if (!(await findGroup(app.db, user.tenantId, id))) throw new HttpError(404, "分组不存在");
    return ok(await countNodes(app.db, user.tenantId, id));
  });

  app.post("/config/knowledge/node/createBatch", async (request) => {
    const user = requireUser(request);
    const { fields, file: upload } = await readSpreadsheetUpload(request, KNOWLEDGE_FILE_LIMIT);
    try {
      const { groupId } = parseInput(ImportFieldsSchema, fields);
      const result = await changeAs(app.db, user, async (trx) => {
        const imported = await importNodes(trx, user.tenantId, groupId, readRows(upload, upload.name));
        const group = await findGroup(trx, user.tenantId, groupId);
        return {
          result: imported,
          audit: {
            action: "knowledge.node.import",
            target: { type: "knowledgeGroup", id: groupId },
            summary: `分组「${group?.name ?? groupId}」：导入「${upload.name.slice(0, 120)}」，成功 ${imported.accepted} 条，失败 ${imported.rejected} 条`,
            detail: { accepted: imported.accepted, rejected: imported.rejected },
          },
        };
      });
      return ok<KnowledgeImportResult>(result);
    } finally {
      await upload.remove();
    }
  });

  app.put("/config/knowledge/node/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const input = parseInput(KnowledgeNodeInputSchema, request.body);
    const node = await changeAs(app.db, user, async (trx) => {
      const before = await findNode(trx, user.tenantId, id);
      if (!before) throw new KnowledgeRefused(404, "知识不存在");
      const saved = await saveNode(trx, user.tenantId, id, input);
      return {
        result: saved,
        audit: {
          action: "knowledge.node.update",
          target: { type: "knowledgeNode", id },
          summary: `分组「${saved.groupName}」：编辑知识「${saved.question}」`,
          detail: {
            before: {
              question: before.question,
              answer: before.answer,
              labels: before.labels,
              state: before.state,
              groupId: before.groupId,
            },
          },
        },
      };
    });
    return ok<KnowledgeNode>(node);
  });

  app.delete("/config/knowledge/node/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    await changeAs(app.db, user, async (trx) => {
      const [row] = await deleteNodes(trx, user.tenantId, [id]);
      if (!row) throw new KnowledgeRefused(404, "知识不存在");
      return {
        result: null,
        audit: { action: "knowledge.node.delete", target: { type: "knowledgeNode", id }, summary: `删除知识「${row.title}」` },
      };
    });
    return ok({ deleted: 1 });
  });

  app.put("/config/knowledge/node/:id/state/:state", async (request) => {
    const user = requireUser(request);
    const { id, state } = parseInput(StateParamsSchema, request.params);
    const node = await changeAs(app.db, user, async (trx) => {
      const saved = await setNodeState(trx, user.tenantId, id, state);
      return {
        result: saved,
        audit: {
          action: "knowledge.node.state",
          target: { type: "knowledgeNode", id },
          summary: `${labelOf(KNOWLEDGE_STATES, state)}知识「${saved.question}」`,
          detail: { state },
        },
      };
    });
    return ok<KnowledgeNode>(node);
  });

  // An agent used the node (a quick reply inserted): counted, not audited.
  app.put("/config/knowledge/node/:id/usage", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    return ok(await useNode(app.db, user.tenantId, id));
  });

  // What agents searched for and found nothing (the knowledge to write next).
  app.get("/config/knowledge/gap", async (request) => {
    const user = requireUser(request);
    const query = parseInput(KnowledgeGapQuerySchema, request.query);
    return ok<{ list: KnowledgeGap[]; total: number }>(await listGaps(app.db, user.tenantId, query));
  });

  // Labels
  app.get("/config/knowledge/label", async (request) => {
    const user = requireUser(request);
    const list = await listLabels(app.db, user.tenantId);
    return ok<{ list: KnowledgeLabel[]; total: number }>({ list, total: list.length });
  });

  app.get("/config/knowledge/label/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const label = await findLabel(app.db, user.tenantId, id);
    if (!label) throw new HttpError(404, "标签不存在");
    return ok<KnowledgeLabel>(label);
  });

  app.post("/config/knowledge/label", async (request) => {
    const user = requireUser(request);
    const { name } = parseInput(KnowledgeLabelInputSchema, request.body);
    const label = await changeAs(app.db, user, async (trx) => {
      const created = await createLabel(trx, user.tenantId, name);
      return {
        result: created,
        audit: { action: "knowledge.label.create", target: { type: "knowledgeLabel", id: created.id }, summary: `新建知识标签「${name}」` },
      };
    });
    return ok<KnowledgeLabel>(label);
  });

  app.delete("/config/knowledge/label/:id", async (request) => {
    const user = requireUser(request);
    const { id } = parseInput(IdParamsSchema, request.params);
    const label = await changeAs(app.db, user, async (trx) => {
      const deleted = await deleteLabel(trx, user.tenantId, id);
      return {
        result: deleted,
        audit: {
          action: "knowledge.label.delete",
          target: { type: "knowledgeLabel", id },
          summary: `删除知识标签「${deleted.name}」（${deleted.nodeCount} 条知识取消该标签）`,
        },
      };
    });
    return ok<KnowledgeLabel>(label);
  });
};
