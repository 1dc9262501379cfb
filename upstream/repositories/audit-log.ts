import { sql } from "kysely";
import type { AuditEntry, AuditListQuery } from "#contracts/audit";
import type { Db, Trx } from "#upstream/db";
import { keysetPage } from "./keyset";

/** Who made a change: the signed-in user of the request (null for the platform itself). */
export type Actor = { id: number | null; name: string; tenantId: number };

export type AuditWrite = {
  action: string;
  target: { type: string; id?: string | number | null };
  summary: string;
  reason?: string | null;
  detail?: Record<string, unknown> | null;
};

/** A change and its audit row in one transaction: `work` makes the change and says what the row is. */
export async function withAudit<T>(db: Db, actor: Actor, work: (trx: Trx) => Promise<{ result: T; audit: AuditWrite | null }>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const { result, audit } = await work(trx);
    if (audit) await writeAudit(trx, actor, audit);
    return result;
  });
}

/**
 * The one writer of the audit log. Call it inside the change's transaction, so a change and its
 * row are written together or not at all.
 */
export async function writeAudit(db: Trx, actor: Actor, entry: AuditWrite): Promise<void> {
  await db
    .insertInto("audit_log")
    .values({
      tenant_id: actor.tenantId,
      actor_user_id: actor.id,
      actor_name: actor.name,
      action: entry.action,
      target_type: entry.target.type,
      target_id: entry.target.id === undefined || entry.target.id === null ? null : String(entry.target.id),
      summary: entry.summary,
      reason: entry.reason?.trim() || null,
      detail: entry.detail ? JSON.stringify(entry.detail) : null,
    })
    .execute();
}

/** The actor of a signed-in request. */
export const actorOf = (user: { id: number; realName: string; tenantId: number }): Actor => ({
  id: user.id,
  name: user.realName,
  tenantId: user.tenantId,
});

/**
 * A signed-in user's change and its audit row in one transaction: the routes' one way to change
 * (the route checks the role first; a `Refused` thrown by `work` reaches the error plugin).
 */
export const changeAs = <T>(
  db: Db,
  user: { id: number; realName: string; tenantId: number },
  work: (trx: Trx) => Promise<{ result: T; audit: AuditWrite | null }>,
) => withAudit(db, actorOf(user), work);

/** A page of the tenant's audit log, newest first, filtered. */
export async function listAudit(
  db: Db,
  tenantId: number,
  query: AuditListQuery,
): Promise<{ list: AuditEntry[]; total: number; estimated?: true }> {
  let base = db.selectFrom("audit_log").where("tenant_id", "=", tenantId);
  if (query.action) base = base.where("action", "=", query.action);
  if (query.targetType) base = base.where("target_type", "=", query.targetType);
  if (query.actorId) base = base.where("actor_user_id", "=", query.actorId);
  if (query.from) base = base.where("created_at", ">=", new Date(query.from));
  if (query.to) base = base.where("created_at", "<", new Date(query.to));
  if (query.keyword) {
    const like = `%${query.keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    base = base.where((eb) => eb.or([eb("summary", "like", like), eb("target_id", "=", query.keyword!), eb("reason", "like", like)]));
  }
  const page = await keysetPage(
    db,
    base,
    (q) =>
      q.select(["id", "created_at", "actor_user_id", "actor_name", "action", "target_type", "target_id", "summary", "reason", "detail"]),
    "audit_log.id",
    query,
  );
  return {
    ...page,
    list: page.list.map((row) => ({
      id: Number(row.id),
      at: row.created_at.toISOString(),
      actorId: row.actor_user_id,
      actorName: row.actor_name,
      action: row.action,
      targetType: row.target_type,
      targetId: row.target_id,
      summary: row.summary,
      reason: row.reason,
      detail: row.detail,
    })),
  };
}

/** How many audit rows an action has in a tenant (tests and the bench use it). */
export async function countAudit(db: Db, tenantId: number, action: string): Promise<number> {
  const row = await db
    .selectFrom("audit_log")
    .select(sql<number>`count(*)`.as("n"))
    .where("tenant_id", "=", tenantId)
    .where("action", "=", action)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
