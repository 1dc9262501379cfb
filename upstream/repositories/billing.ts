import type { Trx } from "#upstream/db";

/** A tenant's billing account, made when it has none; says whether this call made it. */
export async function ensureBillingAccount(db: Trx, tenantId: number): Promise<{ id: number; balanceCents: number; created: boolean }> {
  const inserted = await db
    .insertInto("billing_accounts")
    .values({ tenant_id: tenantId })
    .onConflict((oc) => oc.column("tenant_id").doNothing())
    .returning(["id", "balance_cents"])
    .executeTakeFirst();
  if (inserted) return { id: inserted.id, balanceCents: Number(inserted.balance_cents), created: true };
  const row = await db
    .selectFrom("billing_accounts")
    .select(["id", "balance_cents"])
    .where("tenant_id", "=", tenantId)
    .executeTakeFirstOrThrow();
  return { id: row.id, balanceCents: Number(row.balance_cents), created: false };
}
