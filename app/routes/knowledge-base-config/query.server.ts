import { z } from "zod";
import { KNOWLEDGE_STATES, codesOf } from "#contracts/codes";
import { pageParam, sizeParam } from "#app/server/page-query.server";

/** The screen's URL: the chosen group, the search, the page, and the node being edited ("new" or an id). */
export const KnowledgeScreenQuerySchema = z.object({
  group: z.coerce.number().int().positive().optional(),
  keyword: z.string().trim().max(50).optional(),
  state: z.coerce
    .number()
    .int()
    .refine((n) => codesOf(KNOWLEDGE_STATES).includes(n))
    .optional(),
  edit: z.union([z.literal("new"), z.coerce.number().int().positive()]).optional(),
  page: pageParam,
  size: sizeParam,
});
export type KnowledgeScreenQuery = z.infer<typeof KnowledgeScreenQuerySchema>;
