import type { Kysely } from "kysely";

// Decision 029. A flow version carries its own input parameters and output states
// (`params`, JSON {input, state}), edited on a draft and immutable once published like its nodes;
// null means the version predates them: its parameters are the flow's rows of flow_params
// (migration 010), which the seeded flows keep. A hand-off records the queue it goes to: the one
// the flow's 转人工 node names, else the robot's, else the campaign's.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("robot_flow_versions").addColumn("params", "jsonb").execute();
  await db.schema.alterTable("handoffs").addColumn("queue_name", "text").execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("handoffs").dropColumn("queue_name").execute();
  await db.schema.alterTable("robot_flow_versions").dropColumn("params").execute();
}
