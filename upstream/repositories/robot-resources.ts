import { sql } from "kysely";
import { FlowState, versionName } from "#contracts/flow-versions";
import type {
  Festival,
  FestivalInput,
  GatewayLine,
  RobotRegex,
  RobotRegexInput,
  RobotRegexListQuery,
  StoreItem,
  StoreQuery,
  WorkingDay,
} from "#contracts/robot-resources";
import { daysBetween } from "#contracts/robot-resources";
import type { Db, Trx } from "#upstream/db";
import type { Campaign } from "#upstream/db/schema";
import { CallStatus } from "#upstream/domain/dialer-states";
import { dispatchDays } from "#upstream/domain/dispatch-plan";
import { likePattern } from "./knowledge";
import { Refused } from "#upstream/domain/refused";

/** A refusal of a change (a name taken, an overlapping festival, another tenant's id), in Chinese. */
export class ResourceRefused extends Refused {}

export const REGEX_NOT_FOUND = "正则表达式不存在";
export const FESTIVAL_NOT_FOUND = "节假日不存在";
const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === "23505";

/* Regular expressions ------------------------------------------------------------------------- */

type RegexRow = { id: number; name: string; pattern: string; description: string; updated_by: string | null; updated_at: Date };
const toRegex = (row: RegexRow): RobotRegex => ({
  id: row.id,
  name: row.name,
  pattern: row.pattern,
  description: row.description,
  updatedBy: row.updated_by,
  updatedAt: row.updated_at.toISOString(),
});
const REGEX_COLUMNS = ["id", "name", "pattern", "description", "updated_by", "updated_at"] as const;

export async function listRegexes(db: Db, tenantId: number, query: RobotRegexListQuery): Promise<{ list: RobotRegex[]; total: number }> {
  let base = db.selectFrom("robot_regexes").where("tenant_id", "=", tenantId);
  if (query.name) base = base.where("name", "like", likePattern(query.name));
  const [rows, count] = await Promise.all([
    base
      .select(REGEX_COLUMNS)
      .orderBy("name")
      .orderBy("id")
      .limit(query.pageSize)
      .offset((query.pageNo - 1) * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toRegex), total: Number(count.n) };
}

export async function findRegex(db: Trx, tenantId: number, id: number): Promise<RobotRegex> {
  const row = await db
    .selectFrom("robot_regexes")
    .select(REGEX_COLUMNS)
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw new ResourceRefused(404, REGEX_NOT_FOUND);
  return toRegex(row);
}

const nameTaken = (name: string) => new ResourceRefused(400, `名称「${name}」已存在`);

export async function createRegex(trx: Trx, tenantId: number, actorName: string, input: RobotRegexInput): Promise<RobotRegex> {
  try {
    const row = await trx
      .insertInto("robot_regexes")
      .values({ tenant_id: tenantId, name: input.name, pattern: input.pattern, description: input.description, updated_by: actorName })
      .returning(REGEX_COLUMNS)
      .executeTakeFirstOrThrow();
    return toRegex(row);
  } catch (error) {
    throw isUniqueViolation(error) ? nameTaken(input.name) : error;
  }
}

export async function updateRegex(
  trx: Trx,
  tenantId: number,
  id: number,
  actorName: string,
  input: RobotRegexInput,
): Promise<{ before: RobotRegex; after: RobotRegex }> {
  const before = await findRegex(trx, tenantId, id);
  try {
    const row = await trx
      .updateTable("robot_regexes")
      .set({ name: input.name, pattern: input.pattern, description: input.description, updated_by: actorName, updated_at: sql`now()` })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", id)
      .returning(REGEX_COLUMNS)
      .executeTakeFirstOrThrow();
    return { before, after: toRegex(row) };
  } catch (error) {
    throw isUniqueViolation(error) ? nameTaken(input.name) : error;
  }
}

export async function deleteRegex(trx: Trx, tenantId: number, id: number): Promise<RobotRegex> {
  const gone = await findRegex(trx, tenantId, id);
  await trx.deleteFrom("robot_regexes").where("tenant_id", "=", tenantId).where("id", "=", id).execute();
  return gone;
}

/* The working calendar -------------------------------------------------------------------------- */

/** A tenant that never set its calendar calls on weekdays, 09:00–18:00. */
export const DEFAULT_WORKING_WEEK: WorkingDay[] = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({
  weekday,
  enabled: weekday <= 5,
  start: "09:00",
  end: "18:00",
}));

export async function readWorkingWeek(db: Trx, tenantId: number): Promise<WorkingDay[]> {
  const rows = await db
    .selectFrom("robot_working_days")
    .select(["weekday", "enabled", "start_time", "end_time"])
    .where("tenant_id", "=", tenantId)
    .execute();
  return DEFAULT_WORKING_WEEK.map((day) => {
    const row = rows.find((r) => r.weekday === day.weekday);
    return row ? { weekday: row.weekday, enabled: row.enabled, start: row.start_time, end: row.end_time } : day;
  });
}

export async function saveWorkingWeek(
  trx: Trx,
  tenantId: number,
  days: WorkingDay[],
): Promise<{ before: WorkingDay[]; after: WorkingDay[] }> {
  const before = await readWorkingWeek(trx, tenantId);
  await trx
    .insertInto("robot_working_days")
    .values(days.map((d) => ({ tenant_id: tenantId, weekday: d.weekday, enabled: d.enabled, start_time: d.start, end_time: d.end })))
    .onConflict((oc) =>
      oc.columns(["tenant_id", "weekday"]).doUpdateSet((eb) => ({
        enabled: eb.ref("excluded.enabled"),
        start_time: eb.ref("excluded.start_time"),
        end_time: eb.ref("excluded.end_time"),
      })),
    )
    .execute();
  return { before, after: await readWorkingWeek(trx, tenantId) };
}

/* Festivals ------------------------------------------------------------------------------------- */

const festivalColumns = [
  "id",
  "name",
  sql<string>`to_char(start_date, 'YYYY-MM-DD')`.as("start_date"),
  sql<string>`to_char(end_date, 'YYYY-MM-DD')`.as("end_date"),
] as const;
type FestivalRow = { id: number; name: string; start_date: string; end_date: string };
const toFestival = (row: FestivalRow): Festival => ({
  id: row.id,
  name: row.name,
  startDate: row.start_date,
  endDate: row.end_date,
  days: daysBetween(row.start_date, row.end_date),
});

export async function listFestivals(db: Db, tenantId: number, year?: number): Promise<{ list: Festival[]; total: number }> {
  let query = db.selectFrom("robot_festivals").select(festivalColumns).where("tenant_id", "=", tenantId);
  if (year)
    query = query
      .where("start_date", "<=", sql<string>`make_date(${year}, 12, 31)`)
      .where("end_date", ">=", sql<string>`make_date(${year}, 1, 1)`);
  const rows = await query.orderBy("start_date").orderBy("id").execute();
  return { list: rows.map(toFestival), total: rows.length };
}

async function findFestival(db: Trx, tenantId: number, id: number): Promise<Festival> {
  const row = await db
    .selectFrom("robot_festivals")
    .select(festivalColumns)
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) throw new ResourceRefused(404, FESTIVAL_NOT_FOUND);
  return toFestival(row);
}

/**
 * Refuses a range that shares a day with another festival of the tenant. The tenant's row is
 * locked first, so two administrators saving at once cannot both pass the check.
 */
async function refuseOverlap(trx: Trx, tenantId: number, input: FestivalInput, exceptId: number | null): Promise<void> {
  await trx.selectFrom("tenants").select("id").where("id", "=", tenantId).forUpdate().execute();
  let query = trx
    .selectFrom("robot_festivals")
    .select(festivalColumns)
    .where("tenant_id", "=", tenantId)
    .where("start_date", "<=", sql<string>`${input.endDate}::date`)
    .where("end_date", ">=", sql<string>`${input.startDate}::date`);
  if (exceptId !== null) query = query.where("id", "<>", exceptId);
  const clash = await query.orderBy("start_date").executeTakeFirst();
  if (clash) throw new ResourceRefused(409, `日期与节假日「${clash.name}」（${clash.start_date} 至 ${clash.end_date}）重叠，请调整日期`);
}

export async function createFestival(trx: Trx, tenantId: number, input: FestivalInput): Promise<Festival> {
  await refuseOverlap(trx, tenantId, input, null);
  const { id } = await trx
    .insertInto("robot_festivals")
    .values({ tenant_id: tenantId, name: input.name, start_date: input.startDate, end_date: input.endDate })
    .returning("id")
    .executeTakeFirstOrThrow();
  return findFestival(trx, tenantId, id);
}

export async function updateFestival(
  trx: Trx,
  tenantId: number,
  id: number,
  input: FestivalInput,
): Promise<{ before: Festival; after: Festival }> {
  const before = await findFestival(trx, tenantId, id);
  await refuseOverlap(trx, tenantId, input, id);
  await trx
    .updateTable("robot_festivals")
    .set({ name: input.name, start_date: input.startDate, end_date: input.endDate })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .execute();
  return { before, after: await findFestival(trx, tenantId, id) };
}

export async function deleteFestival(trx: Trx, tenantId: number, id: number): Promise<Festival> {
  const gone = await findFestival(trx, tenantId, id);
  await trx.deleteFrom("robot_festivals").where("tenant_id", "=", tenantId).where("id", "=", id).execute();
  return gone;
}

/* Gateway lines --------------------------------------------------------------------------------- */

/** The calls in progress (dialling) of the tenant's campaigns that have a robot, with the robot as `r`. */
function diallingRobotCalls(db: Trx, tenantId: number) {
  return db
    .selectFrom("task_calls as c")
    .innerJoin("campaigns as k", "k.id", "c.campaign_id")
    .innerJoin("robot_instances as r", (join) => join.onRef("r.id", "=", "k.robot_instance_id").onRef("r.tenant_id", "=", "k.tenant_id"))
    .where("k.tenant_id", "=", tenantId)
    .where("c.status", "=", CallStatus.dialling);
}

export async function listGatewayLines(db: Db, tenantId: number): Promise<GatewayLine[]> {
  const [lines, used] = await Promise.all([
    db
      .selectFrom("robot_gateway_lines")
      .select(["id", "name", "carrier", "prefix", "concurrency", "enabled"])
      .where("tenant_id", "=", tenantId)
      .orderBy("id")
      .execute(),
    diallingRobotCalls(db, tenantId)
      .select(["r.line_id", sql<string>`count(*)`.as("n")])
      .where("r.line_id", "is not", null)
      .groupBy("r.line_id")
      .execute(),
  ]);
  return lines.map((line) => ({ ...line, inUse: Number(used.find((u) => u.line_id === line.id)?.n ?? 0) }));
}

/**
 * How many more calls a campaign's robot may start now: its concurrency less its calls in progress
 * in every campaign it serves; null for a campaign without a robot. The robot's row is locked, so
 * two batches of one robot never both take the last place.
 */
export async function robotRoom(db: Trx, campaign: Pick<Campaign, "tenant_id" | "robot_instance_id">): Promise<number | null> {
  if (campaign.robot_instance_id === null) return null;
  const robot = await db
    .selectFrom("robot_instances")
    .select(["id", "concurrency"])
    .where("tenant_id", "=", campaign.tenant_id)
    .where("id", "=", campaign.robot_instance_id)
    .forUpdate()
    .executeTakeFirst();
  if (!robot) return null;
  const { n } = await diallingRobotCalls(db, campaign.tenant_id)
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("r.id", "=", robot.id)
    .executeTakeFirstOrThrow();
  return Math.max(0, robot.concurrency - Number(n));
}

/**
 * How many more calls a campaign may start now on its robot's gateway line (decision 031): the
 * line's capacity (none on a line that is 停用) less the calls in progress of every campaign whose
 * robot uses the line. Null when its robot has no line: the ratio alone decides. The line's row is
 * locked, so two dialers counting at once cannot both fill the same room.
 */
export async function lineRoom(db: Trx, campaign: Pick<Campaign, "tenant_id" | "robot_instance_id">): Promise<number | null> {
  if (campaign.robot_instance_id === null) return null;
  const line = await db
    .selectFrom("robot_instances as r")
    .innerJoin("robot_gateway_lines as l", (join) => join.onRef("l.id", "=", "r.line_id").onRef("l.tenant_id", "=", "r.tenant_id"))
    .select(["l.id", "l.concurrency", "l.enabled"])
    .where("r.tenant_id", "=", campaign.tenant_id)
    .where("r.id", "=", campaign.robot_instance_id)
    .forUpdate("l")
    .executeTakeFirst();
  if (!line) return null;
  if (!line.enabled) return 0;
  const { n } = await diallingRobotCalls(db, campaign.tenant_id)
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("r.line_id", "=", line.id)
    .executeTakeFirstOrThrow();
  return Math.max(0, line.concurrency - Number(n));
}

/* The store ------------------------------------------------------------------------------------- */

export async function listStore(db: Db, tenantId: number, query: StoreQuery): Promise<{ list: StoreItem[]; total: number }> {
  let base = db
    .selectFrom("robot_flow_versions as v")
    .innerJoin("robot_flows as f", "f.id", "v.flow_id")
    .where("v.tenant_id", "=", tenantId)
    .where("v.state", "=", FlowState.market);
  if (query.name) base = base.where("f.name", "like", likePattern(query.name));
  const [rows, count] = await Promise.all([
    base
      .select([
        "f.id as flow_id",
        "f.name",
        "f.description",
        "f.service_version_id",
        "v.id",
        "v.no",
        "v.published_at",
        sql<number>`jsonb_array_length(v.nodes)`.as("node_count"),
      ])
      .orderBy("v.published_at", (ob) => ob.desc().nullsLast())
      .orderBy("v.id", "desc")
      .limit(query.pageSize)
      .offset((query.pageNo - 1) * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map((row) => ({
      flowId: row.flow_id,
      flowName: row.name,
      description: row.description,
      versionId: row.id,
      version: versionName(row.no),
      nodeCount: Number(row.node_count),
      inService: row.service_version_id === row.id,
      publishedAt: row.published_at?.toISOString() ?? null,
    })),
    total: Number(count.n),
  };
}

/* A campaign's schedule, for its dispatch ----------------------------------------------------- */

export async function findCampaignSchedule(db: Db, tenantId: number, id: number) {
  const row = await db
    .selectFrom("campaigns")
    .select([
      "id",
      "name",
      "windows",
      sql<string | null>`start_date::text`.as("start_date"),
      sql<string | null>`end_date::text`.as("end_date"),
    ])
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row ? { id: row.id, name: row.name, windows: row.windows, startDate: row.start_date, endDate: row.end_date } : null;
}

/**
 * The day `date` (China time) of a campaign whose robot follows the working calendar (按工作日历外呼):
 * its windows cut to the working day's hours, or none and why (a festival, a resting weekday).
 * Null when its robot does not follow the calendar: the campaign's own windows decide alone.
 */
export async function calendarDayOf(db: Trx, campaign: Pick<Campaign, "tenant_id" | "robot_instance_id" | "windows">, date: string) {
  if (campaign.robot_instance_id === null) return null;
  const robot = await db
    .selectFrom("robot_instances")
    .select("follow_calendar")
    .where("tenant_id", "=", campaign.tenant_id)
    .where("id", "=", campaign.robot_instance_id)
    .executeTakeFirst();
  if (!robot?.follow_calendar) return null;
  const week = await readWorkingWeek(db, campaign.tenant_id);
  const festivals = await db
    .selectFrom("robot_festivals")
    .select(festivalColumns)
    .where("tenant_id", "=", campaign.tenant_id)
    .where("start_date", "<=", sql<string>`${date}::date`)
    .where("end_date", ">=", sql<string>`${date}::date`)
    .execute();
  return dispatchDays(date, 1, week, festivals.map(toFestival), { windows: campaign.windows, startDate: null, endDate: null })[0];
}
