import type { Db } from "#upstream/db";
import type { NewTenant, Tenant } from "#upstream/db/schema";

export async function findTenant(db: Db, tenantId: number): Promise<Tenant | undefined> {
  return db.selectFrom("tenants").selectAll().where("id", "=", tenantId).executeTakeFirst();
}

export async function insertTenant(db: Db, tenant: NewTenant): Promise<number> {
  const { id } = await db.insertInto("tenants").values(tenant).returning("id").executeTakeFirstOrThrow();
  return id;
}

export async function hasAnyTenant(db: Db): Promise<boolean> {
  const row = await db.selectFrom("tenants").select("id").limit(1).executeTakeFirst();
  return row !== undefined;
}
