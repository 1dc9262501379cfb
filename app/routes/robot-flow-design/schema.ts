import { z } from "zod";
import { FlowNodeKeySchema, FlowNodeSchema, type FlowNode } from "#contracts/robot";

/** Rows a node form offers (more routes than this: save, and the form offers empty rows again). */
export const INTENT_ROWS = 4;
export const BRANCH_ROWS = 3;

const text = z.string().trim().optional().default("");

/** Every form of the page names the draft it was read from: its id and updated-at (a stale one is refused, 409). */
const EditedShape = {
  versionId: z.coerce.number().int().positive(),
  updatedAt: z.string().min(1).max(40),
};

/** One node as its form posts it: flat fields, routes as numbered rows (empty rows are ignored). */
export const NodeFormSchema = z
  .object({
    intent: z.literal("node.save"),
    ...EditedShape,
    key: FlowNodeKeySchema,
    type: text,
    name: text,
    prompt: text,
    next: text,
    otherNext: text,
    queueName: text,
    ...Object.fromEntries(
      Array.from({ length: INTENT_ROWS }, (_, i) => [
        [`intent${i}`, text],
        [`keywords${i}`, text],
        [`intentNext${i}`, text],
      ]).flat(),
    ),
    ...Object.fromEntries(
      Array.from({ length: BRANCH_ROWS }, (_, i) => [
        [`variable${i}`, text],
        [`value${i}`, text],
        [`branchNext${i}`, text],
      ]).flat(),
    ),
  })
  .transform((form, ctx): { intent: "node.save"; versionId: number; updatedAt: string; node: FlowNode } => {
    const row = form as unknown as Record<string, string>;
    const node = FlowNodeSchema.safeParse({
      key: form.key,
      type: form.type,
      name: form.name,
      prompt: form.prompt,
      next: form.next,
      otherNext: form.otherNext,
      queueName: form.type === "transfer" && form.queueName ? form.queueName : undefined,
      intents: Array.from({ length: INTENT_ROWS }, (_, i) => i)
        .filter((i) => row[`intent${i}`])
        .map((i) => ({
          intent: row[`intent${i}`],
          keywords: row[`keywords${i}`].split(/[,，、\s]+/).filter(Boolean),
          next: row[`intentNext${i}`],
        })),
      branches: Array.from({ length: BRANCH_ROWS }, (_, i) => i)
        .filter((i) => row[`variable${i}`])
        .map((i) => ({ variable: row[`variable${i}`], value: row[`value${i}`], next: row[`branchNext${i}`] })),
    });
    if (!node.success) {
      for (const issue of node.error.issues) {
        const [first, index, field] = issue.path;
        const path =
          first === "intents"
            ? [field === "keywords" ? `keywords${index}` : `intent${index}`]
            : first === "branches"
              ? [`variable${index}`]
              : [String(first)];
        ctx.addIssue({ code: "custom", path, message: issue.message });
      }
      return z.NEVER;
    }
    return { intent: "node.save", versionId: form.versionId, updatedAt: form.updatedAt, node: node.data };
  });

export const NodeAddSchema = z.object({
  intent: z.literal("node.add"),
  ...EditedShape,
  key: FlowNodeKeySchema,
  type: FlowNodeSchema.shape.type,
  name: FlowNodeSchema.shape.name,
});

export const NodeDeleteSchema = z.object({
  intent: z.literal("node.delete"),
  ...EditedShape,
  key: FlowNodeKeySchema,
  confirmed: z.literal("1").optional(),
});

export const NodeFirstSchema = z.object({
  intent: z.literal("node.first"),
  ...EditedShape,
  key: FlowNodeKeySchema,
});

export const DESIGN_SCHEMAS = {
  "node.save": NodeFormSchema,
  "node.add": NodeAddSchema,
  "node.delete": NodeDeleteSchema,
  "node.first": NodeFirstSchema,
} as const;
export type DesignIntent = keyof typeof DESIGN_SCHEMAS;
