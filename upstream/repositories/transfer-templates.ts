import type { Db } from "#upstream/db";

/** The agents' transfer templates: where a call may be transferred, by type. */

export async function listTransTemplates(db: Db, tenantId: number, agentUserId: number, type?: number) {
  let query = db
    .selectFrom("trans_templates")
    .select(["id", "name", "type", "target"])
    .where("tenant_id", "=", tenantId)
    .where((eb) => eb.or([eb("agent_user_id", "is", null), eb("agent_user_id", "=", agentUserId)]));
  if (type !== undefined) query = query.where("type", "=", type);
  return query.orderBy("id").execute();
}

export async function findTransTemplate(db: Db, tenantId: number, id: number) {
  return db
    .selectFrom("trans_templates")
    .select(["id", "name", "type", "target"])
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .executeTakeFirst();
}
