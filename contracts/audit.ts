import { z } from "zod";
import { envelope, page, PaginationSchema } from "./envelope";

/**
 * The audit log: one row per administrative or supervisor change (who, when, what, about which
 * record, why). The platform writes it; administrators read it (POST /audit/api/log/list).
 */
export const AuditEntrySchema = z.object({
  id: z.number().int().positive(),
  at: z.string(),
  actorId: z.number().int().nullable(),
  actorName: z.string(),
  /** AUDIT_ACTIONS */
  action: z.string(),
  /** AUDIT_TARGETS */
  targetType: z.string(),
  targetId: z.string().nullable(),
  /** What was changed, in the words an administrator reads ("活动「春季回访」：暂停"). */
  summary: z.string(),
  reason: z.string().nullable(),
  detail: z.record(z.unknown()).nullable(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

const idCursor = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);

/** Filters of the audit list; pages by keyset (`after`: the last id shown, `before`: the first). */
export const AuditListQuerySchema = PaginationSchema.extend({
  action: z.string().max(64).optional(),
  targetType: z.string().max(32).optional(),
  actorId: z.coerce.number().int().positive().optional(),
  /** Matches the summary, the target id or the reason. */
  keyword: z.string().trim().max(64).optional(),
  from: z.string().datetime({ offset: true }).optional(),
  to: z.string().datetime({ offset: true }).optional(),
  after: idCursor.optional(),
  before: idCursor.optional(),
});
export type AuditListQuery = z.infer<typeof AuditListQuerySchema>;

export const AuditPageSchema = page(AuditEntrySchema).extend({ estimated: z.boolean().optional() });
export const AuditPageResponseSchema = envelope(AuditPageSchema);
