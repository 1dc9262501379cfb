import { sql } from "kysely";
import type { RobotInstance, RobotInstanceInput } from "#contracts/robot";
import { ACTIVE_BATCH, CampaignState } from "#upstream/domain/dialer-states";
import { findRobotInstance } from "./campaign-choices";
import type { Trx } from "#upstream/db";
import { FlowRefused, serviceVersion } from "./robot-flows";

/**
 * Changes to a tenant's robot instances (decision 019); reads are in campaign-choices.ts. A
 * foreign id is not found; refusals are FlowRefused with Chinese messages.
 */

const ROBOT_NOT_FOUND = "机器人不存在";
const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === "23505";

async function robot(db: Trx, tenantId: number, id: number): Promise<RobotInstance> {
  const found = await findRobotInstance(db, tenantId, id);
  if (!found) throw new FlowRefused(404, ROBOT_NOT_FOUND);
  return found;
}

async function checkFlow(db: Trx, tenantId: number, flowId: number | null) {
  if (flowId === null) return { name: null as string | null };
  const flow = await db
    .selectFrom("robot_flows")
    .select("id")
    .where("tenant_id", "=", tenantId)
    .where("id", "=", flowId)
    .executeTakeFirst();
  if (!flow) throw new FlowRefused(404, "所选流程不存在");
  return { name: (await serviceVersion(db, tenantId, flowId))?.name ?? null };
}

async function write<T>(work: () => Promise<T>, name: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw new FlowRefused(400, `机器人名称「${name}」已存在`);
    throw error;
  }
}

export async function updateRobot(
  db: Trx,
  tenantId: number,
  id: number,
  input: RobotInstanceInput,
): Promise<{ before: RobotInstance; after: RobotInstance }> {
  const before = await robot(db, tenantId, id);
  const version = await checkFlow(db, tenantId, input.flowId);
  if (input.callerNumber) {
    const number = await db
      .selectFrom("caller_id_numbers")
      .select("id")
      .where("tenant_id", "=", tenantId)
      .where("number", "=", input.callerNumber)
      .executeTakeFirst();
    if (!number) throw new FlowRefused(400, "所选主叫号码不存在，请重新选择");
  }
  if (input.lineId !== null) {
    const line = await db
      .selectFrom("robot_gateway_lines")
      .select("id")
      .where("tenant_id", "=", tenantId)
      .where("id", "=", input.lineId)
      .executeTakeFirst();
    if (!line) throw new FlowRefused(400, "所选线路不存在，请重新选择");
  }
  await write(
    () =>
      db
        .updateTable("robot_instances")
        .set({
          name: input.name,
          flow_id: input.flowId,
          flow_version_name: version.name,
          concurrency: input.concurrency,
          caller_number: input.callerNumber,
          speaker: input.speaker,
          line_id: input.lineId,
          follow_calendar: input.followCalendar,
        })
        .where("tenant_id", "=", tenantId)
        .where("id", "=", id)
        .execute(),
    input.name,
  );
  return { before, after: await robot(db, tenantId, id) };
}

/** The running campaigns (with a batch still calling) that use the robot. */
export async function campaignsUsing(db: Trx, tenantId: number, id: number): Promise<string[]> {
  const rows = await db
    .selectFrom("campaigns as c")
    .select("c.name")
    .where("c.tenant_id", "=", tenantId)
    .where("c.robot_instance_id", "=", id)
    .where("c.state", "=", CampaignState.running)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("task_batches as b")
          .select(sql`1`.as("one"))
          .whereRef("b.campaign_id", "=", "c.id")
          .where("b.status", "in", [...ACTIVE_BATCH]),
      ),
    )
    .orderBy("c.id")
    .execute();
  return rows.map((r) => r.name);
}

export async function deleteRobot(db: Trx, tenantId: number, id: number): Promise<RobotInstance> {
  const found = await robot(db, tenantId, id);
  const using = await campaignsUsing(db, tenantId, id);
  if (using.length > 0)
    throw new FlowRefused(409, `机器人「${found.name}」正被运行中的活动使用：${using.join("、")}，请先暂停或结束这些活动`);
  await db.deleteFrom("robot_instances").where("tenant_id", "=", tenantId).where("id", "=", id).execute();
  return found;
}

export async function allocateRobot(db: Trx, tenantId: number, id: number, queueName: string | null): Promise<RobotInstance> {
  await robot(db, tenantId, id);
  if (queueName) {
    const queue = await db
      .selectFrom("users")
      .select("id")
      .where("tenant_id", "=", tenantId)
      .where("default_queue_name", "=", queueName)
      .executeTakeFirst();
    if (!queue) throw new FlowRefused(400, "所选坐席队列不存在，请填写本租户已有的队列");
  }
  await db.updateTable("robot_instances").set({ queue_name: queueName }).where("tenant_id", "=", tenantId).where("id", "=", id).execute();
  return robot(db, tenantId, id);
}

export async function transferRobot(
  db: Trx,
  tenantId: number,
  id: number,
  flowId: number,
): Promise<{ before: RobotInstance; after: RobotInstance }> {
  const before = await robot(db, tenantId, id);
  const version = await checkFlow(db, tenantId, flowId);
  await db
    .updateTable("robot_instances")
    .set({ flow_id: flowId, flow_version_name: version.name })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .execute();
  return { before, after: await robot(db, tenantId, id) };
}

export async function copyRobot(db: Trx, tenantId: number, id: number, name: string): Promise<RobotInstance> {
  const from = await robot(db, tenantId, id);
  const row = await write(
    () =>
      db
        .insertInto("robot_instances")
        .values({
          tenant_id: tenantId,
          name,
          flow_id: from.flowId,
          flow_version_name: from.flowVersionName,
          concurrency: from.concurrency,
          queue_name: from.queueName,
          caller_number: from.callerNumber,
          speaker: from.speaker,
          line_id: from.lineId,
          follow_calendar: from.followCalendar,
        })
        .returning("id")
        .executeTakeFirstOrThrow(),
    name,
  );
  return robot(db, tenantId, row.id);
}
