import { sql, type Updateable } from "kysely";
import type { TenantProfile } from "#contracts/account";
import type { Db, Trx } from "#upstream/db";
import type { NewTenant, Tenant, TenantsTable } from "#upstream/db/schema";

/** A database or a transaction on it (as repositories/dialing.ts, without importing it: no cycle). */
type TenantUpdate = Updateable<TenantsTable>;

export async function findTenant(db: Db, tenantId: number): Promise<Tenant | undefined> {
  return db.selectFrom("tenants").selectAll().where("id", "=", tenantId).executeTakeFirst();
}

export async function insertTenant(db: Trx, tenant: NewTenant): Promise<number> {
  const { id } = await db.insertInto("tenants").values(tenant).returning("id").executeTakeFirstOrThrow();
  return id;
}

export async function hasAnyTenant(db: Db): Promise<boolean> {
  const row = await db.selectFrom("tenants").select("id").limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Whether a company name is some tenant's already (letter case aside), other than `exceptTenantId`. */
export async function companyNameTaken(db: Trx, name: string, exceptTenantId?: number): Promise<boolean> {
  let query = db
    .selectFrom("tenants")
    .select("id")
    .where(sql<string>`lower(name)`, "=", name.trim().toLowerCase());
  if (exceptTenantId !== undefined) query = query.where("id", "<>", exceptTenantId);
  return (await query.limit(1).executeTakeFirst()) !== undefined;
}

export async function findTenantProfile(db: Db, tenantId: number): Promise<TenantProfile | undefined> {
  const row = await db
    .selectFrom("tenants")
    .select(["name", "industry", "contact_name", "contact_email", "address", "profile_completed_at"])
    .where("id", "=", tenantId)
    .executeTakeFirst();
  return (
    row && {
      companyName: row.name,
      industry: row.industry,
      contactName: row.contact_name,
      contactEmail: row.contact_email,
      address: row.address,
      completed: row.profile_completed_at !== null,
    }
  );
}

export async function updateTenantProfile(
  db: Trx,
  tenantId: number,
  profile: Pick<TenantUpdate, "name" | "industry" | "contact_name" | "contact_email" | "address" | "profile_completed_at">,
): Promise<void> {
  await db.updateTable("tenants").set(profile).where("id", "=", tenantId).execute();
}
