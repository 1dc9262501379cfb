import { z } from "zod";
import {
  KnowledgeGroupInputSchema,
  KnowledgeNodeInputSchema,
  KNOWLEDGE_LABEL_MAX,
  KNOWLEDGE_LABELS_PER_NODE,
  splitLabels,
} from "#contracts/knowledge";

const id = (message: string) => z.coerce.number({ required_error: message, invalid_type_error: message }).int().positive(message);

export const GroupCreateSchema = KnowledgeGroupInputSchema.extend({ intent: z.literal("group.create") });
export const GroupRenameSchema = KnowledgeGroupInputSchema.extend({ intent: z.literal("group.rename"), groupId: id("请选择分组") });
export const GroupDeleteSchema = z.object({
  intent: z.literal("group.delete"),
  groupId: id("请选择分组"),
  confirmed: z.literal("1").optional(),
});

/** The node form: labels typed in one box, separated by commas, 、 or spaces. */
export const NodeFormSchema = KnowledgeNodeInputSchema.omit({ labels: true }).extend({
  intent: z.literal("node.save"),
  id: z.coerce.number().int().positive().optional(),
  groupId: id("请选择分组"),
  labels: z
    .string()
    .max(KNOWLEDGE_LABELS_PER_NODE * (KNOWLEDGE_LABEL_MAX + 1), "标签过长")
    .optional()
    .transform((text) => splitLabels(text ?? ""))
    .pipe(
      z
        .array(z.string().max(KNOWLEDGE_LABEL_MAX, `每个标签不能超过${KNOWLEDGE_LABEL_MAX}个字符`))
        .max(KNOWLEDGE_LABELS_PER_NODE, `标签不能超过${KNOWLEDGE_LABELS_PER_NODE}个`),
    ),
});

export const NodeStateSchema = z.object({ intent: z.literal("node.state"), id: id("知识不存在"), state: z.coerce.number().int() });
export const NodeDeleteSchema = z.object({
  intent: z.literal("node.delete"),
  id: id("知识不存在"),
  question: z.string().max(200).optional(),
  confirmed: z.literal("1").optional(),
});
export const NodeBatchDeleteSchema = z.object({
  intent: z.literal("node.batchDelete"),
  ids: z
    .array(z.coerce.number().int().positive(), { required_error: "请先勾选要删除的知识" })
    .min(1, "请先勾选要删除的知识")
    .max(500, "一次最多删除500条"),
  confirmed: z.literal("1").optional(),
});
export const NodeImportSchema = z.object({ intent: z.literal("node.import"), groupId: id("请选择导入到哪个分组") });

export const INTENT_SCHEMAS = {
  "group.create": GroupCreateSchema,
  "group.rename": GroupRenameSchema,
  "group.delete": GroupDeleteSchema,
  "node.save": NodeFormSchema,
  "node.state": NodeStateSchema,
  "node.delete": NodeDeleteSchema,
  "node.batchDelete": NodeBatchDeleteSchema,
  "node.import": NodeImportSchema,
} as const;
export type Intent = keyof typeof INTENT_SCHEMAS;
