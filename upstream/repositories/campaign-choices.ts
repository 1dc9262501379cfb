import { sql } from "kysely";
import type { RobotInstance, RobotInstanceListQuery } from "#contracts/robot";
import type { Db, Trx } from "#upstream/db";
import { ACTIVE_BATCH, CampaignState } from "#upstream/domain/dialer-states";
import { findTransTemplate } from "./transfer-templates";

/** What a campaign may choose: the tenant's robot instances, caller-id numbers, transfer templates and queues. */

export async function listRobotInstances(db: Db, tenantId: number, query: RobotInstanceListQuery) {
  const like = query.name ? `%${query.name.replace(/[\\%_]/g, "\\$&")}%` : undefined;
  let count = db.selectFrom("robot_instances").where("tenant_id", "=", tenantId);
  let rows = robotRows(db, tenantId);
  if (like) {
    count = count.where("name", "like", like);
    rows = rows.where("r.name", "like", like);
  }
  if (query.flowId !== undefined) {
    count = count.where("flow_id", "=", query.flowId);
    rows = rows.where("r.flow_id", "=", query.flowId);
  }
  if (query.id !== undefined) {
    count = count.where("id", "=", query.id);
    rows = rows.where("r.id", "=", query.id);
  }
  const [list, total] = await Promise.all([
    rows
      .orderBy("r.id")
      .limit(query.pageSize)
      .offset((query.pageNo - 1) * query.pageSize)
      .execute(),
    count.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { list: list.map(toRobot), total: Number(total.n) };
}

export async function findRobotInstance(db: Trx, tenantId: number, id: number): Promise<RobotInstance | undefined> {
  const row = await robotRows(db, tenantId).where("r.id", "=", id).executeTakeFirst();
  return row && toRobot(row);
}

/** The tenant's robots, each with its flow (the tenant's own only) and whether that flow has a version in service. */
function robotRows(db: Trx, tenantId: number) {
  return db
    .selectFrom("robot_instances as r")
    .leftJoin("robot_flows as f", (join) => join.onRef("f.id", "=", "r.flow_id").onRef("f.tenant_id", "=", "r.tenant_id"))
    .leftJoin("robot_gateway_lines as l", (join) => join.onRef("l.id", "=", "r.line_id").onRef("l.tenant_id", "=", "r.tenant_id"))
    .where("r.tenant_id", "=", tenantId)
    .select([
      "r.id",
      "r.name",
      "r.flow_id",
      "r.flow_version_name",
      "r.concurrency",
      "r.queue_name",
      "r.caller_number",
      "r.speaker",
      "r.line_id",
      "r.follow_calendar",
      "l.name as line_name",
      "f.name as flow_name",
      "f.service_version_id",
      // The campaigns using it, and whether each is calling now (deleting the robot is then refused).
      sql<RobotInstance["campaigns"] | null>`(
        SELECT json_agg(json_build_object(
                 'id', c.id,
                 'name', c.name,
                 'calling', c.state = ${CampaignState.running} AND EXISTS (
                   SELECT 1 FROM task_batches b
                   WHERE b.campaign_id = c.id AND b.status IN (${sql.join([...ACTIVE_BATCH])})
                 )
               ) ORDER BY c.id)
        FROM campaigns c
        WHERE c.tenant_id = r.tenant_id AND c.robot_instance_id = r.id
      )`.as("campaigns"),
    ]);
}

type RobotRow = {
  id: number;
  name: string;
  flow_id: number | null;
  flow_version_name: string | null;
  concurrency: number;
  queue_name: string | null;
  caller_number: string | null;
  speaker: string | null;
  line_id: number | null;
  follow_calendar: boolean;
  line_name: string | null;
  flow_name: string | null;
  service_version_id: number | null;
  campaigns: RobotInstance["campaigns"] | string | null;
};

function toRobot(row: RobotRow): RobotInstance {
  return {
    id: row.id,
    name: row.name,
    flowId: row.flow_id,
    flowVersionName: row.flow_version_name,
    flowName: row.flow_name,
    published: row.service_version_id !== null,
    concurrency: row.concurrency,
    queueName: row.queue_name,
    callerNumber: row.caller_number,
    speaker: row.speaker,
    lineId: row.line_name === null ? null : row.line_id,
    lineName: row.line_name,
    followCalendar: row.follow_calendar,
    // json_agg may come back as text, depending on the driver's parsers.
    campaigns: (typeof row.campaigns === "string" ? (JSON.parse(row.campaigns) as RobotInstance["campaigns"]) : row.campaigns) ?? [],
  };
}

export async function listCallerIdNumbers(db: Db, tenantId: number) {
  return db.selectFrom("caller_id_numbers").select(["id", "number"]).where("tenant_id", "=", tenantId).orderBy("id").execute();
}

/** Messages of a choice that is not the tenant's (unknown, or another tenant's). */
export const CHOICE_REFUSALS = {
  robotId: "所选机器人不存在，请重新选择",
  robotUnpublished: "所选机器人的流程尚未发布，请先在机器人流程中发布一个版本",
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
  // A campaign runs only a published flow (decision 019).
  if (robot && !robot.published) return { refused: "robotUnpublished" };
  if (number === undefined) return { refused: "callerNumber" };
  if (template === undefined) return { refused: "transTemplateId" };
  if (queue === undefined) return { refused: "queueName" };
  return { robot };
}
