import { sql } from "kysely";
import type { Campaign, CampaignListQuery, CampaignSave, CampaignSummary } from "#contracts/outbound";
import type { Db } from "#upstream/db";
import type { Campaign as CampaignRow } from "#upstream/db/schema";
import { BatchStatus, CampaignState, campaignMove, campaignStateEffects, IllegalTransition } from "#upstream/domain/dialer-states";
import { moveBatch, moveCallsInBulk, ROBOT_DIALLED_TYPES } from "./dialing";
import { labelOf, CAMPAIGN_STATES } from "#contracts/codes";
import { CHOICE_REFUSALS, checkCampaignChoices } from "./campaign-choices";
import { Refused } from "#upstream/domain/refused";

type Counts = { batch_count: number; call_total: number; call_done: number };

function toSummary(row: CampaignRow & Counts): CampaignSummary {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    taskType: row.task_type,
    cycle: row.cycle,
    state: row.state,
    ratio: row.ratio,
    callingListName: row.calling_list_name,
    batchCount: row.batch_count,
    callTotal: row.call_total,
    callDone: row.call_done,
    createdAt: row.created_at.toISOString(),
  };
}

function toCampaign(row: CampaignRow & Counts): Campaign {
  return {
    ...toSummary(row),
    robotId: row.robot_instance_id,
    instanceName: row.instance_name,
    flowId: row.flow_id,
    flowVersionName: row.flow_version_name,
    queueName: row.queue_name,
    callerNumber: row.caller_number,
    transTemplateId: row.trans_template_id,
    windows: row.windows,
    startDate: row.start_date,
    endDate: row.end_date,
    maxAttempts: row.max_attempts,
  };
}

/** Campaign rows with their batch and call counts (kept per batch, so no scan of the calls). */
function campaignsWithCounts(db: Db, tenantId: number) {
  return db
    .selectFrom("campaigns as c")
    .selectAll("c")
    .select([
      sql<number>`(select count(*)::int from task_batches b where b.campaign_id = c.id)`.as("batch_count"),
      sql<number>`(select coalesce(sum(b.total), 0)::int from task_batches b where b.campaign_id = c.id)`.as("call_total"),
      // Calls no longer waiting or dialling, from the per-status counts the database keeps (migration 064).
      sql<number>`(select coalesce(sum(k.calls), 0)::int from task_batches b join task_batch_call_counts k on k.batch_id = b.id where b.campaign_id = c.id and k.status not in (0, 1))`.as(
        "call_done",
      ),
    ])
    .where("c.tenant_id", "=", tenantId);
}

export async function listCampaigns(db: Db, tenantId: number, query: CampaignListQuery & { types?: number[] }) {
  let base = db.selectFrom("campaigns").where("tenant_id", "=", tenantId);
  if (query.name) base = base.where("name", "like", `%${query.name.replace(/[\\%_]/g, "\\$&")}%`);
  if (query.state !== undefined) base = base.where("state", "=", query.state);
  if (query.type !== undefined) base = base.where("type", "=", query.type);
  if (query.types) base = base.where("type", "in", query.types);
  const [ids, count] = await Promise.all([
    base
      .select("id")
      .orderBy("id", "desc")
      .limit(query.pageSize)
      .offset((query.pageNo - 1) * query.pageSize)
      .execute(),
    base.select(sql<number>`count(*)::int`.as("n")).executeTakeFirstOrThrow(),
  ]);
  if (ids.length === 0) return { list: [], total: count.n };
  const rows = await campaignsWithCounts(db, tenantId)
    .where(
      "c.id",
      "in",
      ids.map((r) => r.id),
    )
    .orderBy("c.id", "desc")
    .execute();
  return { list: rows.map(toSummary), total: count.n };
}

export async function findCampaign(db: Db, tenantId: number, id: number): Promise<Campaign | undefined> {
  const row = await campaignsWithCounts(db, tenantId).where("c.id", "=", id).executeTakeFirst();
  return row && toCampaign(row);
}

export async function campaignOptions(db: Db, tenantId: number, types?: number[]) {
  let query = db.selectFrom("campaigns").select(["id", "name", "type", "state"]).where("tenant_id", "=", tenantId);
  if (types && types.length > 0) query = query.where("type", "in", types);
  return query.orderBy("id", "desc").limit(500).execute();
}

export async function countCampaignsNamed(db: Db, tenantId: number, name: string, exceptId?: number): Promise<number> {
  let query = db
    .selectFrom("campaigns")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("tenant_id", "=", tenantId)
    .where("name", "=", name.trim());
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  return (await query.executeTakeFirstOrThrow()).n;
}

export class CampaignRefused extends Refused {}

export async function saveCampaign(db: Db, tenantId: number, userId: number, input: CampaignSave): Promise<number> {
  if ((await countCampaignsNamed(db, tenantId, input.name, input.id)) > 0) throw new CampaignRefused(400, "活动名称已存在");
  if (input.startDate && input.endDate && input.endDate < input.startDate) throw new CampaignRefused(400, "结束日期不能早于开始日期");
  const choices = await checkCampaignChoices(db, tenantId, input);
  if ("refused" in choices) throw new CampaignRefused(400, CHOICE_REFUSALS[choices.refused]);
  const { robot } = choices;
  const values = {
    name: input.name,
    type: input.type,
    task_type: input.taskType,
    cycle: input.cycle,
    ratio: input.ratio,
    calling_list_name: input.callingListName,
    robot_instance_id: robot?.id ?? null,
    instance_name: robot?.name ?? null,
    flow_id: robot?.flowId ?? null,
    flow_version_name: robot?.flowVersionName ?? null,
    queue_name: input.queueName,
    caller_number: input.callerNumber,
    trans_template_id: input.transTemplateId,
    windows: JSON.stringify(input.windows),
    start_date: input.startDate,
    end_date: input.endDate,
    max_attempts: input.maxAttempts,
  };
  if (input.id === undefined) {
    const row = await db
      .insertInto("campaigns")
      .values({ ...values, tenant_id: tenantId, created_by: userId })
      .returning("id")
      .executeTakeFirstOrThrow();
    return row.id;
  }
  const row = await db
    .updateTable("campaigns")
    .set({ ...values, updated_at: new Date() })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", input.id)
    .returning("id")
    .executeTakeFirst();
  if (!row) throw new CampaignRefused(404, "活动不存在");
  return row.id;
}

export async function setRatio(db: Db, tenantId: number, id: number, ratio: number): Promise<boolean> {
  const row = await db
    .updateTable("campaigns")
    .set({ ratio, updated_at: new Date() })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .returning("id")
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * The scheduler's check before a state change (spec §4: "preceded by a scheduler check"): null
 * when the change may happen, otherwise why not, in Chinese.
 */
export async function schedulerRefusal(db: Db, campaign: Campaign, to: number, today: string): Promise<string | null> {
  try {
    campaignMove(campaign.state, to);
  } catch (error) {
    if (!(error instanceof IllegalTransition)) throw error;
    return `活动当前状态为“${labelOf(CAMPAIGN_STATES, campaign.state)}”，不能变更为“${labelOf(CAMPAIGN_STATES, to)}”`;
  }
  if (to !== CampaignState.running) return null;
  if (campaign.endDate && campaign.endDate < today) return "活动已过结束日期，不能启动";
  if (campaign.windows.length === 0) return "活动未设置外呼时段，不能启动";
  if (ROBOT_DIALLED_TYPES.includes(campaign.type) && !campaign.instanceName) return "活动未配置机器人，不能启动";
  if (campaign.type !== 1 && !campaign.queueName) return "活动未配置坐席队列，不能启动";
  if (campaign.state === CampaignState.notStarted) {
    const waiting = await db
      .selectFrom("task_batches")
      .select(sql<number>`count(*)::int`.as("n"))
      .where("campaign_id", "=", campaign.id)
      .where("status", "in", [BatchStatus.preparing, BatchStatus.prepareFailed])
      .where("total", ">", 0)
      .executeTakeFirstOrThrow();
    if (waiting.n === 0) return "活动尚未导入名单，不能启动";
  }
  return null;
}

/** Applies a checked state change and its effect on the batches and calls, in one transaction. */
export async function changeCampaignState(db: Db, campaign: Campaign, to: number, at: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const updated = await trx
      .updateTable("campaigns")
      .set({ state: campaignMove(campaign.state, to), updated_at: at })
      .where("id", "=", campaign.id)
      .where("state", "=", campaign.state)
      .returning("id")
      .executeTakeFirst();
    if (!updated) throw new CampaignRefused(400, "活动状态已被他人修改，请刷新后重试");
    const effects = campaignStateEffects(to);
    if (!effects) return;
    const batches = await trx
      .selectFrom("task_batches")
      .select(["id", "tenant_id", "status"])
      .where("campaign_id", "=", campaign.id)
      .where("status", "in", [...effects.batchesFrom])
      .forUpdate()
      .execute();
    const reason = `活动${labelOf(CAMPAIGN_STATES, to)}`;
    for (const batch of batches) await moveBatch(trx, batch, effects.batchTo, reason, at);
    if (effects.callTo !== null)
      await moveCallsInBulk(
        trx,
        batches.map((b) => b.id),
        effects.callsFrom,
        effects.callTo,
        reason,
        at,
      );
  });
}
