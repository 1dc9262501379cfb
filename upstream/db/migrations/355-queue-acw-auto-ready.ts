import type { Kysely } from "kysely";

// Per queue, whether after-call work ends by itself when its period is over (and the call's result
// is saved), or only when the agent says they are ready.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("queue_settings")
    .addColumn("acw_auto_ready", "boolean", (col) => col.notNull().defaultTo(true))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("queue_settings").dropColumn("acw_auto_ready").execute();
}
