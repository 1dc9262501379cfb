import { z } from "zod";
import { FlowNodeKeySchema, FlowNodeSchema, type FlowNode } from "#contracts/robot";
import { nodeOfForm } from "./node-edits";

const text = z.string().trim().optional().default("");

/** Every form of the page names the draft it was read from: its id and updated-at (a stale one is refused, 409). */
const EditedShape = {
  versionId: z.coerce.number().int().positive(),
  updatedAt: z.string().min(1).max(40),
};

/** One node as its form posts it (`NodeFormValue`): flat fields, routes as rows, made a node by `nodeOfForm`. */
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
    intents: z.array(z.object({ intent: text, keywords: text, next: text })).default([]),
    branches: z.array(z.object({ variable: text, value: text, next: text })).default([]),
  })
  .transform((form, ctx): { intent: "node.save"; versionId: number; updatedAt: string; node: FlowNode } => {
    const read = nodeOfForm(form);
    if ("issues" in read) {
      for (const { path, message } of read.issues) ctx.addIssue({ code: "custom", path, message });
      return z.NEVER;
    }
    return { intent: "node.save", versionId: form.versionId, updatedAt: form.updatedAt, node: read.node };
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
