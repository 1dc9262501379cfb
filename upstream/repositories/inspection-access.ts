import { sql } from "kysely";
import { type QcAccess } from "#contracts/inspection";
import type { Trx } from "#upstream/db";
import { writeAudit, type Actor } from "./audit-log";
import { tenantQueues } from "./monitor";
import { InspectionRefused } from "./inspection";

/** Quality inspection's access: which queues and campaigns each inspector (a supervisor or administrator) may inspect. */

export async function listAccess(db: Trx, tenantId: number, userId?: number): Promise<QcAccess[]> {
  let q = db
    .selectFrom("inspection_access as g")
    .innerJoin("users as u", "u.id", "g.user_id")
    .leftJoin("users as b", "b.id", "g.granted_by")
    .leftJoin("campaigns as c", (join) =>
      join
        .on("g.scope", "=", "campaign")
        .on(sql`c.id::text`, "=", sql.ref("g.value"))
        .onRef("c.tenant_id", "=", "g.tenant_id"),
    )
    .select([
      "g.id",
      "g.user_id",
      "u.real_name",
      "g.scope",
      "g.value",
      "c.name as campaign_name",
      "b.real_name as granted_by_name",
      "g.created_at",
    ])
    .where("g.tenant_id", "=", tenantId)
    .orderBy("u.real_name")
    .orderBy("g.id");
  if (userId !== undefined) q = q.where("g.user_id", "=", userId);
  return (await q.execute()).map((r) => ({
    id: r.id,
    userId: r.user_id,
    userName: r.real_name,
    scope: r.scope,
    value: r.value,
    valueLabel: r.scope === "campaign" ? (r.campaign_name ?? `活动 ${r.value}`) : r.value,
    grantedBy: r.granted_by_name ?? "系统",
    grantedAt: r.created_at.getTime(),
  }));
}

/** Who may be given access or calls: the tenant's supervisors and administrators. */
export async function listInspectors(db: Trx, tenantId: number) {
  return (
    await db
      .selectFrom("users")
      .select(["id", "real_name", "role"])
      .where("tenant_id", "=", tenantId)
      .where("role", "in", ["admin", "supervisor"])
      .orderBy("id")
      .execute()
  ).map((u) => ({ id: u.id, name: u.real_name, role: u.role }));
}

export async function listCampaignChoices(db: Trx, tenantId: number) {
  return db.selectFrom("campaigns").select(["id", "name"]).where("tenant_id", "=", tenantId).orderBy("id").execute();
}

export async function grantAccess(
  trx: Trx,
  tenantId: number,
  actor: Actor,
  input: { userId: number; scope: "queue" | "campaign"; value: string },
): Promise<QcAccess> {
  const inspector = (await listInspectors(trx, tenantId)).find((u) => u.id === input.userId);
  if (!inspector) throw new InspectionRefused(404, "质检员不存在，只能授权给主管或管理员");
  let label = input.value;
  if (input.scope === "campaign") {
    const campaign = (await listCampaignChoices(trx, tenantId)).find((c) => String(c.id) === input.value);
    if (!campaign) throw new InspectionRefused(404, "外呼活动不存在");
    label = campaign.name;
  } else if (!(await tenantQueues(trx, tenantId)).includes(input.value)) {
    throw new InspectionRefused(404, "坐席组不存在");
  }
  const inserted = await trx
    .insertInto("inspection_access")
    .values({ tenant_id: tenantId, user_id: input.userId, scope: input.scope, value: input.value, granted_by: actor.id })
    .onConflict((oc) => oc.constraint("inspection_access_grant_key").doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) throw new InspectionRefused(400, `${inspector.name} 已有该权限`);
  await writeAudit(trx, actor, {
    action: "inspection.access.grant",
    target: { type: "inspectionAccess", id: inserted.id },
    summary: `授予 ${inspector.name} 质检「${label}」的权限`,
    detail: { userId: input.userId, scope: input.scope, value: input.value },
  });
  return (await listAccess(trx, tenantId)).find((a) => a.id === inserted.id)!;
}

export async function revokeAccess(trx: Trx, tenantId: number, actor: Actor, id: number, reason?: string): Promise<void> {
  const grant = (await listAccess(trx, tenantId)).find((a) => a.id === id);
  if (!grant) throw new InspectionRefused(404, "授权不存在");
  await trx.deleteFrom("inspection_access").where("tenant_id", "=", tenantId).where("id", "=", id).execute();
  await writeAudit(trx, actor, {
    action: "inspection.access.revoke",
    target: { type: "inspectionAccess", id },
    summary: `收回 ${grant.userName} 质检「${grant.valueLabel}」的权限`,
    reason,
    detail: { userId: grant.userId, scope: grant.scope, value: grant.value },
  });
}
