import type { RobotInstance } from "#contracts/robot";
import type { Db } from "#upstream/db";
import { findTransTemplate } from "./task-batches";

/** What a campaign may choose: the tenant's robot instances, caller-id numbers, transfer templates and queues. */

export async function listRobotInstances(db: Db, tenantId: number, query: { pageNo: number; pageSize: number; name?: string }) {
  let base = db.selectFrom("robot_instances").where("tenant_id", "=", tenantId);
  if (query.name) base = base.where("name", "like", `%${query.name.replace(/[\\%_]/g, "\\$&")}%`);
  const [rows, count] = await Promise.all([
    base
      .select(["id", "name", "flow_id", "flow_version_name"])
      .orderBy("id")
      .limit(query.pageSize)
      .offset((query.pageNo - 1) * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toRobot), total: Number(count.n) };
}

export async function findRobotInstance(db: Db, tenantId: number, id: number): Promise<RobotInstance | undefined> {
  const row = await db
    .selectFrom("robot_instances")
    .select(["id", "name", "flow_id", "flow_version_name"])
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row && toRobot(row);
}

function toRobot(row: { id: number; name: string; flow_id: number | null; flow_version_name: string | null }): RobotInstance {
  return { id: row.id, name: row.name, flowId: row.flow_id, flowVersionName: row.flow_version_name };
}

export async function listCallerIdNumbers(db: Db, tenantId: number) {
  return db.selectFrom("caller_id_numbers").select(["id", "number"]).where("tenant_id", "=", tenantId).orderBy("id").execute();
}

/** Messages of a choice that is not the tenant's (unknown, or another tenant's). */
export const CHOICE_REFUSALS = {
  robotId: "所选机器人不存在，请重新选择",
  callerNumber: "所选主叫号码不存在，请重新选择",
  transTemplateId: "所选转接模板不存在，请重新选择",
  queueName: "所选坐席队列不存在，请填写本租户已有的队列",
} as const;

/**
 * The robot a campaign runs (copied onto the campaign with its flow, for the dialer's call
 * records), or the first of the choices that is not the tenant's.
 */
export async function checkCampaignChoices(
  db: Db,
  tenantId: number,
  input: { robotId: number | null; callerNumber: string | null; transTemplateId: number | null; queueName?: string | null },
): Promise<{ robot: RobotInstance | null } | { refused: keyof typeof CHOICE_REFUSALS }> {
  const [robot, number, template, queue] = await Promise.all([
    input.robotId === null ? null : findRobotInstance(db, tenantId, input.robotId),
    input.callerNumber === null
      ? null
      : db
          .selectFrom("caller_id_numbers")
          .select("id")
          .where("tenant_id", "=", tenantId)
          .where("number", "=", input.callerNumber)
          .executeTakeFirst(),
    input.transTemplateId === null ? null : findTransTemplate(db, tenantId, input.transTemplateId),
    // A queue is the one its agents are in (users.default_queue_name).
    input.queueName
      ? db
          .selectFrom("users")
          .select("id")
          .where("tenant_id", "=", tenantId)
          .where("default_queue_name", "=", input.queueName)
          .executeTakeFirst()
      : null,
  ]);
  if (robot === undefined) return { refused: "robotId" };
  if (number === undefined) return { refused: "callerNumber" };
  if (template === undefined) return { refused: "transTemplateId" };
  if (queue === undefined) return { refused: "queueName" };
  return { robot };
}
