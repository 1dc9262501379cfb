import type { Kysely } from "kysely";

// A call whose audio was poor for a while, as the agent's softphone measured it (decision
// 046): how long the longest poor stretch lasted and which thresholds it crossed, e.g.
// {"seconds": 24, "issues": ["loss", "mos"]}. Null: nothing reported (a good call, or no softphone).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("call_records").addColumn("poor_quality", "jsonb").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("call_records").dropColumn("poor_quality").execute();
}
