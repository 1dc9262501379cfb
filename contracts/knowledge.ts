import { z } from "zod";
import { codesOf, KNOWLEDGE_STATES } from "./codes";
import { envelope, page, PaginationSchema } from "./envelope";

/**
 * The knowledge base (`/config/knowledge`, decision 017): groups, their nodes (a question,
 * its answer — the quick-reply text — labels and a state), the tenant's labels, each node's uses
 * and the searches agents made that found nothing.
 */

export const KNOWLEDGE_NAME_MAX = 30;
export const KNOWLEDGE_QUESTION_MAX = 200;
export const KNOWLEDGE_ANSWER_MAX = 2000;
export const KNOWLEDGE_LABEL_MAX = 20;
export const KNOWLEDGE_LABELS_PER_NODE = 10;
/** The columns of an import file, in this order; the first row is the header. */
export const KNOWLEDGE_IMPORT_COLUMNS = ["问题", "答案", "标签", "状态"] as const;

const states = codesOf(KNOWLEDGE_STATES) as [number, ...number[]];

export const KnowledgeGroupSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  nodeCount: z.number().int(),
  enabledCount: z.number().int(),
});
export type KnowledgeGroup = z.infer<typeof KnowledgeGroupSchema>;
/** GET /config/knowledge/group/agent */
export const KnowledgeGroupListResponseSchema = envelope(page(KnowledgeGroupSchema));
export const KnowledgeGroupResponseSchema = envelope(KnowledgeGroupSchema);
/** DELETE /config/knowledge/group/{id} */
export const KnowledgeGroupDeletedResponseSchema = envelope(z.object({ id: z.number().int() }));

/** POST /config/knowledge/group, PUT /config/knowledge/group/{id} */
export const KnowledgeGroupInputSchema = z.object({
  name: z
    .string({ required_error: "请输入分组名称" })
    .trim()
    .min(1, "请输入分组名称")
    .max(KNOWLEDGE_NAME_MAX, `分组名称不能超过${KNOWLEDGE_NAME_MAX}个字符`),
});

export const KnowledgeLabelNameSchema = z
  .string()
  .trim()
  .min(1, "标签不能为空")
  .max(KNOWLEDGE_LABEL_MAX, `标签不能超过${KNOWLEDGE_LABEL_MAX}个字符`);

/** Labels as typed in one box: separated by commas, 、, semicolons or spaces. */
export function splitLabels(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[,，、;；\s]+/)
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
}

/** POST /config/knowledge/node, PUT /config/knowledge/node/{id} */
export const KnowledgeNodeInputSchema = z.object({
  groupId: z.coerce.number({ invalid_type_error: "请选择分组" }).int().positive("请选择分组"),
  question: z
    .string({ required_error: "请输入问题" })
    .trim()
    .min(1, "请输入问题")
    .max(KNOWLEDGE_QUESTION_MAX, `问题不能超过${KNOWLEDGE_QUESTION_MAX}个字符`),
  answer: z
    .string({ required_error: "请输入答案" })
    .trim()
    .min(1, "请输入答案")
    .max(KNOWLEDGE_ANSWER_MAX, `答案不能超过${KNOWLEDGE_ANSWER_MAX}个字符`),
  labels: z.array(KnowledgeLabelNameSchema).max(KNOWLEDGE_LABELS_PER_NODE, `标签不能超过${KNOWLEDGE_LABELS_PER_NODE}个`).default([]),
  state: z.coerce
    .number()
    .int()
    .refine((n) => states.includes(n), "状态无效")
    .default(1),
});
export type KnowledgeNodeInput = z.infer<typeof KnowledgeNodeInputSchema>;

export const KnowledgeNodeSchema = z.object({
  id: z.number().int(),
  groupId: z.number().int(),
  groupName: z.string(),
  question: z.string(),
  answer: z.string(),
  labels: z.array(z.string()),
  state: z.number().int(),
  usageCount: z.number().int(),
  updatedAt: z.string(),
});
export type KnowledgeNode = z.infer<typeof KnowledgeNodeSchema>;
export const KnowledgeNodeResponseSchema = envelope(KnowledgeNodeSchema);

/** GET /config/knowledge/node/agent?groupId=&keyword=&state=&pageNo=&pageSize= */
export const KnowledgeNodeQuerySchema = PaginationSchema.extend({
  groupId: z.coerce.number().int().positive().optional(),
  keyword: z.string().trim().max(50, "关键词不能超过50个字符").optional(),
  state: z.coerce
    .number()
    .int()
    .refine((n) => states.includes(n), "状态无效")
    .optional(),
});
export type KnowledgeNodeQuery = z.infer<typeof KnowledgeNodeQuerySchema>;
export const KnowledgeNodePageResponseSchema = envelope(page(KnowledgeNodeSchema));

/** POST /config/knowledge/node/batch/delete */
export const KnowledgeBatchDeleteSchema = z.object({
  ids: z
    .array(z.coerce.number().int().positive(), { required_error: "请选择要删除的知识" })
    .min(1, "请选择要删除的知识")
    .max(500, "一次最多删除500条"),
});
export const KnowledgeBatchDeleteResponseSchema = envelope(z.object({ deleted: z.number().int() }));

/** GET /config/knowledge/node/count/{groupId} */
export const KnowledgeCountResponseSchema = envelope(z.object({ total: z.number().int(), enabled: z.number().int() }));

/** POST /config/knowledge/node/createBatch (multipart: groupId, then file) */
export const KnowledgeImportResultSchema = z.object({
  accepted: z.number().int(),
  rejected: z.number().int(),
  errors: z.array(z.object({ row: z.number().int(), message: z.string() })),
});
export type KnowledgeImportResult = z.infer<typeof KnowledgeImportResultSchema>;
export const KnowledgeImportResponseSchema = envelope(KnowledgeImportResultSchema);
/** Rows an import reads at most, and the errors it reports at most. */
export const KNOWLEDGE_IMPORT_MAX_ROWS = 5000;
export const KNOWLEDGE_IMPORT_MAX_ERRORS = 100;

/** PUT /config/knowledge/node/{id}/usage */
export const KnowledgeUsageResponseSchema = envelope(z.object({ id: z.number().int(), usageCount: z.number().int() }));

export const KnowledgeLabelSchema = z.object({ id: z.number().int(), name: z.string(), nodeCount: z.number().int() });
export type KnowledgeLabel = z.infer<typeof KnowledgeLabelSchema>;
/** GET /config/knowledge/label */
export const KnowledgeLabelListResponseSchema = envelope(page(KnowledgeLabelSchema));
export const KnowledgeLabelResponseSchema = envelope(KnowledgeLabelSchema);
/** POST /config/knowledge/label */
export const KnowledgeLabelInputSchema = z.object({ name: KnowledgeLabelNameSchema });

/** GET /config/knowledge/gap — what agents searched for and found nothing, most often first. */
export const KnowledgeGapSchema = z.object({ keyword: z.string(), times: z.number().int(), lastAt: z.string() });
export type KnowledgeGap = z.infer<typeof KnowledgeGapSchema>;
export const KnowledgeGapListResponseSchema = envelope(page(KnowledgeGapSchema));
export const KnowledgeGapQuerySchema = PaginationSchema;
