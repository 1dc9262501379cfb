import type { Db } from "#upstream/db";
import { SALES_QUEUE } from "./sales-team";

/**
 * The demo's inspectors: the supervisor may inspect the voice group and the sales team (the
 * administrator inspects everything without a grant), so the queue has work on a fresh start.
 */
export async function seedInspection(db: Db): Promise<void> {
  const demo = await db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow();
  const users = await db.selectFrom("users").select(["id", "user_name"]).where("tenant_id", "=", demo.id).execute();
  const idOf = (name: string) => users.find((u) => u.user_name === name)?.id;
  const supervisor = idOf("supervisor");
  if (supervisor === undefined) return;
  await db
    .insertInto("inspection_access")
    .values(
      ["demo-voice", SALES_QUEUE].map((value) => ({
        tenant_id: demo.id,
        user_id: supervisor,
        scope: "queue" as const,
        value,
        granted_by: idOf("admin") ?? null,
      })),
    )
    .execute();
}
