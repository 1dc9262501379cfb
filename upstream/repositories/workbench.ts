import { sql } from "kysely";
import type { TodayCall } from "#contracts/cti";
import type { BusinessRecord, BusinessRecordFilter, ConclusionRequest, Contact, WorkOrderInfo } from "#contracts/workbench";
import type { Db } from "#upstream/db";
import { startOfCstDay } from "#common/china-time";
import { readableBy, type CallReader } from "./call-records";
import { likePattern, recordGap } from "./knowledge";

/** Repositories of the voice workbench: every read and write scoped to the caller's tenant. */

export async function findContactsByPhone(db: Db, tenantId: number, phone: string): Promise<Contact[]> {
  const rows = await db
    .selectFrom("crm_contacts")
    .select(["id", "name", "phone", "gender", "company", "address", "remark", "tags"])
    .where("tenant_id", "=", tenantId)
    .where("phone", "=", phone)
    .orderBy("id")
    .limit(20)
    .execute();
  return rows;
}

export async function findFlow(db: Db, tenantId: number, id: number) {
  return db
    .selectFrom("robot_flows")
    .select(["id", "name", "service_script"])
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .executeTakeFirst();
}

const businessRecordColumns = [
  "b.id",
  "b.cti_call_id",
  "b.phone",
  "b.call_result",
  "b.intent",
  "b.remark",
  "b.fields",
  "b.work_order_id",
  "b.created_at",
  "u.real_name",
  "r.id as call_id",
] as const;

type BusinessRow = {
  id: number;
  cti_call_id: string;
  phone: string;
  call_result: number;
  intent: string | null;
  remark: string;
  fields: Record<string, string>;
  work_order_id: number | null;
  created_at: Date;
  real_name: string | null;
  call_id: number | null;
};

const toBusinessRecord = (row: BusinessRow): BusinessRecord => ({
  id: row.id,
  ctiCallId: row.cti_call_id,
  phone: row.phone,
  callResult: row.call_result,
  intent: row.intent,
  remark: row.remark,
  fields: row.fields,
  agentName: row.real_name ?? "",
  workOrderId: row.work_order_id,
  createdAt: row.created_at.toISOString(),
  callId: row.call_id,
});

/** Business records with their call's record (none while the call is still on) and their agent. */
function businessRecords(db: Db, tenantId: number) {
  return db
    .selectFrom("business_records as b")
    .leftJoin("call_records as r", (join) => join.onRef("r.cti_call_id", "=", "b.cti_call_id").onRef("r.tenant_id", "=", "b.tenant_id"))
    .leftJoin("users as u", "u.id", "b.agent_user_id")
    .select(businessRecordColumns)
    .where("b.tenant_id", "=", tenantId);
}

/** Business records of inbound calls, newest first; `agentUserId` limits them to one agent's. */
export async function listInboundBusinessRecords(
  db: Db,
  tenantId: number,
  filter: BusinessRecordFilter & { agentUserId?: number },
): Promise<{ list: BusinessRecord[]; total: number }> {
  let query = db
    .selectFrom("business_records as b")
    .innerJoin("call_records as r", (join) => join.onRef("r.cti_call_id", "=", "b.cti_call_id").onRef("r.tenant_id", "=", "b.tenant_id"))
    .where("b.tenant_id", "=", tenantId)
    .where("r.direction", "=", "inbound");
  if (filter.agentUserId !== undefined) query = query.where("b.agent_user_id", "=", filter.agentUserId);
  if (filter.phone) query = query.where("b.phone", "=", filter.phone);
  if (filter.callResult !== undefined) query = query.where("b.call_result", "=", filter.callResult);
  const [rows, count] = await Promise.all([
    query
      .leftJoin("users as u", "u.id", "b.agent_user_id")
      .select(businessRecordColumns)
      .orderBy("b.created_at", "desc")
      .orderBy("b.id", "desc")
      .limit(filter.pageSize)
      .offset((filter.pageNo - 1) * filter.pageSize)
      .execute(),
    query.select(sql<number>`count(*)`.as("n")).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toBusinessRecord), total: Number(count.n) };
}

export async function findBusinessRecord(db: Db, tenantId: number, ctiCallId: string): Promise<BusinessRecord | undefined> {
  const row = await businessRecords(db, tenantId).where("b.cti_call_id", "=", ctiCallId).executeTakeFirst();
  return row && toBusinessRecord(row);
}

/**
 * Saves the agent's conclusion for a call, once per idempotency key: a retry with a key already
 * used answers the record it saved. A new key for the same call updates that call's record.
 */
/**
 * Saves an agent's conclusion of a call; null when the call is not this agent's to conclude
 * (another agent took it, or concluded it first while it was still on).
 */
export async function saveConclusion(
  db: Db,
  tenantId: number,
  agentUserId: number,
  input: ConclusionRequest,
): Promise<BusinessRecord | null> {
  return db.transaction().execute(async (trx) => {
    const replay = await businessRecords(trx, tenantId).where("b.idempotency_key", "=", input.idempotencyKey).executeTakeFirst();
    if (replay) return toBusinessRecord(replay);
    const call = await trx
      .selectFrom("call_records")
      .select(["phone", "agent_user_id"])
      .where("tenant_id", "=", tenantId)
      .where("cti_call_id", "=", input.ctiCallId)
      .forUpdate()
      .executeTakeFirst();
    const concluded = await trx
      .selectFrom("business_records")
      .select("agent_user_id")
      .where("tenant_id", "=", tenantId)
      .where("cti_call_id", "=", input.ctiCallId)
      .forUpdate()
      .executeTakeFirst();
    // A finished call is concluded by the agent who took it or who concluded it first; a call still
    // on (no record yet) by whoever concludes it first.
    const mine = (id: number | null | undefined) => id === agentUserId;
    if (call ? !mine(call.agent_user_id) && !mine(concluded?.agent_user_id) : concluded && !mine(concluded.agent_user_id)) return null;
    const values = {
      call_result: input.callResult,
      intent: input.intent,
      remark: input.remark,
      fields: JSON.stringify(input.fields),
      idempotency_key: input.idempotencyKey,
      agent_user_id: agentUserId,
      updated_at: new Date(),
    };
    await trx
      .insertInto("business_records")
      .values({ tenant_id: tenantId, cti_call_id: input.ctiCallId, phone: call?.phone ?? input.phone, ...values })
      .onConflict((oc) => oc.columns(["tenant_id", "cti_call_id"]).doUpdateSet(values))
      .execute();
    await trx
      .updateTable("call_records")
      .set({ conclusion: input.callResult, intent: input.intent })
      .where("tenant_id", "=", tenantId)
      .where("cti_call_id", "=", input.ctiCallId)
      .execute();
    const saved = await businessRecords(trx, tenantId).where("b.cti_call_id", "=", input.ctiCallId).executeTakeFirstOrThrow();
    return toBusinessRecord(saved);
  });
}

type WorkOrderRow = {
  id: number;
  number: string;
  title: string;
  content: string;
  follow_state: number;
  cti_call_id: string | null;
  created_at: Date;
};
const workOrderColumns = ["id", "number", "title", "content", "follow_state", "cti_call_id", "created_at"] as const;
const toWorkOrder = (row: WorkOrderRow): WorkOrderInfo => ({
  id: row.id,
  number: row.number,
  title: row.title,
  content: row.content,
  followState: row.follow_state,
  ctiCallId: row.cti_call_id,
  createdAt: row.created_at.toISOString(),
});

export async function findWorkOrder(db: Db, tenantId: number, id: number): Promise<WorkOrderInfo | undefined> {
  const row = await db
    .selectFrom("work_order_records")
    .select(workOrderColumns)
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .executeTakeFirst();
  return row && toWorkOrder(row);
}

/** Links a call to an existing work order of the tenant (the agent's new orders are created by work-orders.ts). */
export async function linkWorkOrder(
  db: Db,
  tenantId: number,
  input: { ctiCallId: string; workOrderId: number },
): Promise<WorkOrderInfo | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .updateTable("work_order_records")
      .set({ cti_call_id: input.ctiCallId, updated_at: new Date() })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", input.workOrderId)
      .returning(workOrderColumns)
      .executeTakeFirst();
    if (row) {
      await trx
        .updateTable("business_records")
        .set({ work_order_id: row.id })
        .where("tenant_id", "=", tenantId)
        .where("cti_call_id", "=", input.ctiCallId)
        .execute();
    }
    return row && toWorkOrder(row);
  });
}

/**
 * The enabled knowledge an agent looks up: question, answer or label holding the keyword. A search
 * that finds nothing is recorded as a gap for the knowledge editors (decision 017).
 */
export async function searchKnowledge(db: Db, tenantId: number, keyword: string) {
  let query = db
    .selectFrom("knowledge_nodes as n")
    .innerJoin("knowledge_groups as g", "g.id", "n.group_id")
    .select(["n.id", "n.title", "n.content", "g.name as group_name"])
    .where("n.tenant_id", "=", tenantId)
    .where("n.state", "=", 1);
  if (keyword) {
    const like = likePattern(keyword);
    query = query.where((eb) =>
      eb.or([eb("n.title", "like", like), eb("n.content", "like", like), eb(sql`array_to_string(n.labels, ' ')`, "like", like)]),
    );
  }
  const rows = await query.orderBy("n.usage_count", "desc").orderBy("n.id").limit(20).execute();
  if (keyword && rows.length === 0) await recordGap(db, tenantId, keyword);
  return rows.map((row) => ({ id: row.id, title: row.title, content: row.content, groupName: row.group_name }));
}

/** Today begins at midnight China Standard Time, the tenant's zone, whatever the machine's. */
const startOfToday = () => startOfCstDay();

export async function listTodayCalls(db: Db, tenantId: number, userId: number): Promise<{ list: TodayCall[]; total: number }> {
  const rows = await db
    .selectFrom("call_records")
    .select(["cti_call_id", "phone", "campaign_type", "call_time", "call_duration_ms", "is_answer", "conclusion"])
    .where("tenant_id", "=", tenantId)
    .where("agent_user_id", "=", userId)
    .where("call_time", ">=", startOfToday())
    .orderBy("call_time", "desc")
    .orderBy("id", "desc")
    .limit(50)
    .execute();
  const list = rows.map((row) => ({
    ctiCallId: row.cti_call_id,
    phone: row.phone,
    origin: row.campaign_type === 20 ? ("inbound" as const) : row.campaign_type === 2 ? ("handoff" as const) : ("manual" as const),
    callTime: row.call_time.toISOString(),
    callDuration: row.call_duration_ms,
    isAnswer: row.is_answer,
    conclusion: row.conclusion,
  }));
  return { list, total: list.length };
}

/** Survey answers (attach_data.satisfaction, 1–5; 4 and up is satisfied) on the agent's calls today. */
export async function satisfactionToday(db: Db, tenantId: number, userId: number) {
  const row = await db
    .selectFrom("call_records")
    .select([
      sql<number>`count(*)`.as("calls"),
      sql<number>`count(attach_data->>'satisfaction')`.as("rated"),
      sql<number>`count(*) filter (where (attach_data->>'satisfaction')::int >= 4)`.as("satisfied"),
    ])
    .where("tenant_id", "=", tenantId)
    .where("agent_user_id", "=", userId)
    .where("call_time", ">=", startOfToday())
    .executeTakeFirstOrThrow();
  return { calls: Number(row.calls), rated: Number(row.rated), satisfied: Number(row.satisfied) };
}

/** The dialogue lines of a call the reader may read (an agent: not a colleague's other calls). */
export async function listDialogs(db: Db, reader: CallReader, ctiCallId: string) {
  const rows = await db
    .selectFrom("call_dialogs as d")
    .select(["d.seq", "d.this_role", "d.nlu_result", "d.content", "d.gender"])
    .where(
      "d.call_record_id",
      "in",
      db.selectFrom("call_records").select("id").where(readableBy(reader)).where("cti_call_id", "=", ctiCallId),
    )
    .orderBy("d.seq")
    .execute();
  return rows.map((row) => ({
    segmentId: row.seq,
    thisRole: row.this_role,
    nluResult: row.nlu_result,
    dialogContent: row.content,
    gender: row.gender,
  }));
}
