import { sql } from "kysely";
import { WORK_ORDER_STATES, labelOf } from "#contracts/codes";
import {
  checkWorkOrderValues,
  isWorkOrderOpen,
  WORK_ORDER_PENDING,
  workOrderTransitionRefusal,
  type WorkOrderDetail,
  type WorkOrderField,
  type WorkOrderRecord,
  type WorkOrderRecordInput,
  type WorkOrderRecordQuery,
  type WorkOrderTemplate,
  type WorkOrderTemplateInput,
} from "#contracts/work-orders";
import type { Db, Trx } from "#upstream/db";
import { cstDate } from "#common/china-time";
import { writeAudit } from "./audit-log";
import { likePattern } from "./knowledge";
import { Refused } from "#upstream/domain/refused";

/**
 * Work-order templates and records of a tenant (decision 021). Every read and write is scoped by
 * the tenant; a foreign id is not found. Agents see only records they own or created.
 */

/** A change the work orders refuse, with its status and Chinese message. */
export class WorkOrderRefused extends Refused {}

/** Who acts: a signed-in user; agents are limited to their own records. */
export type WorkOrderActor = { id: number; name: string; tenantId: number; role: string };
export const workOrderActor = (user: { id: number; realName: string; tenantId: number; role: string }): WorkOrderActor => ({
  id: user.id,
  name: user.realName,
  tenantId: user.tenantId,
  role: user.role,
});
const limitedToOwn = (actor: WorkOrderActor) => actor.role === "agent";

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === "23505";
const DUPLICATE_TEMPLATE = "模板名称已存在";
const TEMPLATE_NOT_FOUND = "工单模板不存在";
const RECORD_NOT_FOUND = "工单不存在";

// ---------------------------------------------------------------------------------------------
// Templates
// ---------------------------------------------------------------------------------------------

function templateQuery(db: Trx, tenantId: number) {
  return db
    .selectFrom("work_order_templates as t")
    .select([
      "t.id",
      "t.name",
      "t.sla_hours",
      "t.status",
      "t.fields",
      "t.updated_at",
      (eb) =>
        eb
          .selectFrom("work_order_records as r")
          .select(sql<number>`count(*)::int`.as("n"))
          .whereRef("r.template_id", "=", "t.id")
          .where("r.tenant_id", "=", tenantId)
          .as("record_count"),
    ])
    .where("t.tenant_id", "=", tenantId);
}

type TemplateRow = Awaited<ReturnType<ReturnType<typeof templateQuery>["executeTakeFirstOrThrow"]>>;
const toTemplate = (row: TemplateRow): WorkOrderTemplate => ({
  id: row.id,
  name: row.name,
  slaHours: row.sla_hours,
  status: row.status,
  fields: row.fields ?? [],
  recordCount: Number(row.record_count ?? 0),
  updatedAt: new Date(row.updated_at).toISOString(),
});

export async function listTemplates(db: Db, tenantId: number, status?: number): Promise<WorkOrderTemplate[]> {
  let query = templateQuery(db, tenantId);
  if (status !== undefined) query = query.where("t.status", "=", status);
  const rows = await query.orderBy("t.id").limit(200).execute();
  return rows.map(toTemplate);
}

export async function findTemplate(db: Trx, tenantId: number, id: number): Promise<WorkOrderTemplate | undefined> {
  const row = await templateQuery(db, tenantId).where("t.id", "=", id).executeTakeFirst();
  return row && toTemplate(row);
}

/**
 * The fields to store: a field keeps its key when it is edited (records' values stay attached),
 * a new field gets the next free key.
 */
function keyFields(input: WorkOrderTemplateInput["fields"], before: readonly WorkOrderField[]): WorkOrderField[] {
  const known = new Set(before.map((f) => f.name));
  let next = Math.max(0, ...[...known].map((name) => Number(name.slice(1)) || 0)) + 1;
  const used = new Set<string>();
  return input.map((field) => {
    let name = field.name && known.has(field.name) && !used.has(field.name) ? field.name : `f${next++}`;
    while (used.has(name)) name = `f${next++}`;
    used.add(name);
    return { name, label: field.label, type: field.type, required: field.required, options: field.type === "choice" ? field.options : [] };
  });
}

/** Creates a template (id null, enabled) or replaces one's name, SLA and fields; returns it and what it was. */
export async function saveTemplate(
  db: Trx,
  tenantId: number,
  id: number | null,
  input: WorkOrderTemplateInput,
): Promise<{ template: WorkOrderTemplate; before: WorkOrderTemplate | null }> {
  const before = id === null ? null : ((await findTemplate(db, tenantId, id)) ?? null);
  if (id !== null && !before) throw new WorkOrderRefused(404, TEMPLATE_NOT_FOUND);
  let taken = db.selectFrom("work_order_templates").select("id").where("tenant_id", "=", tenantId).where("name", "=", input.name);
  if (id !== null) taken = taken.where("id", "<>", id);
  if (await taken.executeTakeFirst()) throw new WorkOrderRefused(400, DUPLICATE_TEMPLATE);
  const values = {
    name: input.name,
    sla_hours: input.slaHours,
    fields: JSON.stringify(keyFields(input.fields, before?.fields ?? [])),
    updated_at: new Date(),
  };
  try {
    const saved =
      id === null
        ? await db
            .insertInto("work_order_templates")
            .values({ tenant_id: tenantId, ...values })
            .returning("id")
            .executeTakeFirstOrThrow()
        : await db
            .updateTable("work_order_templates")
            .set(values)
            .where("tenant_id", "=", tenantId)
            .where("id", "=", id)
            .returning("id")
            .executeTakeFirstOrThrow();
    return { template: (await findTemplate(db, tenantId, saved.id))!, before };
  } catch (error) {
    if (isUniqueViolation(error)) throw new WorkOrderRefused(400, DUPLICATE_TEMPLATE);
    throw error;
  }
}

export async function setTemplateStatus(db: Trx, tenantId: number, id: number, status: number): Promise<WorkOrderTemplate> {
  const updated = await db
    .updateTable("work_order_templates")
    .set({ status, updated_at: new Date() })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .returning("id")
    .executeTakeFirst();
  if (!updated) throw new WorkOrderRefused(404, TEMPLATE_NOT_FOUND);
  return (await findTemplate(db, tenantId, id))!;
}

/** Deletes a template no record uses; one with records is refused (disable it instead). */
export async function deleteTemplate(db: Trx, tenantId: number, id: number): Promise<WorkOrderTemplate> {
  const template = await findTemplate(db, tenantId, id);
  if (!template) throw new WorkOrderRefused(404, TEMPLATE_NOT_FOUND);
  if (template.recordCount > 0) {
    throw new WorkOrderRefused(400, `模板「${template.name}」已有 ${template.recordCount} 条工单，不能删除，可以停用`);
  }
  await db.deleteFrom("work_order_templates").where("tenant_id", "=", tenantId).where("id", "=", id).execute();
  return template;
}

// ---------------------------------------------------------------------------------------------
// Numbers: GD + the day (China Standard Time) + the day's sequence, from a per-tenant counter.
// ---------------------------------------------------------------------------------------------

const today = () => cstDate(new Date()).replaceAll("-", "");
const formatNumber = (day: string, n: number) => `GD${day}${String(n).padStart(4, "0")}`;

/** The number the next record will get (nothing is reserved). */
export async function peekNumber(db: Db, tenantId: number): Promise<string> {
  const day = today();
  const row = await db
    .selectFrom("work_order_numbers")
    .select("last")
    .where("tenant_id", "=", tenantId)
    .where("day", "=", day)
    .executeTakeFirst();
  return formatNumber(day, (row?.last ?? 0) + 1);
}

/** Takes the next number; the row lock of the upsert keeps two records from sharing one. */
export async function takeNumber(db: Trx, tenantId: number): Promise<string> {
  const day = today();
  const row = await db
    .insertInto("work_order_numbers")
    .values({ tenant_id: tenantId, day, last: 1 })
    .onConflict((oc) => oc.columns(["tenant_id", "day"]).doUpdateSet({ last: sql`work_order_numbers.last + 1` }))
    .returning("last")
    .executeTakeFirstOrThrow();
  return formatNumber(day, row.last);
}

// ---------------------------------------------------------------------------------------------
// Records
// ---------------------------------------------------------------------------------------------

function recordQuery(db: Trx, tenantId: number) {
  return db
    .selectFrom("work_order_records as r")
    .leftJoin("work_order_templates as t", "t.id", "r.template_id")
    .leftJoin("users as o", "o.id", "r.owner_user_id")
    .leftJoin("users as c", "c.id", "r.created_by")
    .where("r.tenant_id", "=", tenantId);
}
const RECORD_COLUMNS = [
  "r.id",
  "r.number",
  "r.template_id",
  "t.name as template_name",
  "r.title",
  "r.content",
  "r.values",
  "r.follow_state",
  "r.cti_call_id",
  "r.owner_user_id",
  "o.real_name as owner_name",
  "r.created_by",
  "c.real_name as creator_name",
  "r.created_at",
  "r.updated_at",
  "r.due_at",
] as const;
type RecordRow = Awaited<ReturnType<ReturnType<ReturnType<typeof recordQuery>["select"]>["executeTakeFirstOrThrow"]>> & {
  id: number;
  number: string;
  template_id: number | null;
  template_name: string | null;
  title: string;
  content: string;
  values: Record<string, string>;
  follow_state: number;
  cti_call_id: string | null;
  owner_user_id: number | null;
  owner_name: string | null;
  created_by: number | null;
  creator_name: string | null;
  created_at: Date;
  updated_at: Date;
  due_at: Date | null;
};

const toRecord = (row: RecordRow, now = Date.now()): WorkOrderRecord => ({
  id: row.id,
  number: row.number,
  templateId: row.template_id,
  templateName: row.template_name,
  title: row.title,
  content: row.content,
  values: row.values ?? {},
  state: row.follow_state,
  ctiCallId: row.cti_call_id,
  ownerId: row.owner_user_id,
  ownerName: row.owner_name,
  createdById: row.created_by,
  createdByName: row.creator_name,
  createdAt: new Date(row.created_at).toISOString(),
  updatedAt: new Date(row.updated_at).toISOString(),
  dueAt: row.due_at ? new Date(row.due_at).toISOString() : null,
  overdue: isWorkOrderOpen(row.follow_state) && row.due_at !== null && new Date(row.due_at).getTime() < now,
});

/** Only what the actor may see: an agent, the records they own or created. */
function visibleTo<Q extends ReturnType<typeof recordQuery>>(query: Q, actor: WorkOrderActor): Q {
  if (!limitedToOwn(actor)) return query;
  return query.where((eb) => eb.or([eb("r.owner_user_id", "=", actor.id), eb("r.created_by", "=", actor.id)])) as Q;
}

const cstDayStart = (day: string) => new Date(`${day}T00:00:00+08:00`);
const OPEN_STATES = [0, 1];

export async function listRecords(
  db: Db,
  actor: WorkOrderActor,
  query: WorkOrderRecordQuery,
): Promise<{ list: WorkOrderRecord[]; total: number }> {
  let base = visibleTo(recordQuery(db, actor.tenantId), actor);
  if (query.templateId) base = base.where("r.template_id", "=", query.templateId);
  if (query.state !== undefined) base = base.where("r.follow_state", "=", query.state);
  if (query.mine) base = base.where("r.owner_user_id", "=", actor.id);
  else if (query.ownerId) base = base.where("r.owner_user_id", "=", query.ownerId);
  if (query.from) base = base.where("r.created_at", ">=", cstDayStart(query.from));
  if (query.to) base = base.where("r.created_at", "<", new Date(cstDayStart(query.to).getTime() + 86_400_000));
  if (query.overdue) base = base.where("r.follow_state", "in", OPEN_STATES).where("r.due_at", "<", new Date());
  if (query.keyword) {
    const like = likePattern(query.keyword);
    base = base.where((eb) => eb.or([eb("r.number", "like", like), eb("r.title", "like", like)]));
  }
  const [rows, count] = await Promise.all([
    base
      .select(RECORD_COLUMNS)
      .orderBy("r.id", "desc")
      .limit(query.pageSize)
      .offset((query.pageNo - 1) * query.pageSize)
      .execute(),
    base.select(sql<number>`count(*)::int`.as("total")).executeTakeFirstOrThrow(),
  ]);
  const now = Date.now();
  return { list: rows.map((row) => toRecord(row as RecordRow, now)), total: Number(count.total) };
}

async function findVisible(db: Trx, actor: WorkOrderActor, id: number, lock = false): Promise<WorkOrderRecord> {
  let query = visibleTo(recordQuery(db, actor.tenantId), actor).select(RECORD_COLUMNS).where("r.id", "=", id);
  // Lock only the record's row: the joined users and template are read, not changed.
  if (lock) query = query.forUpdate("r");
  const row = await query.executeTakeFirst();
  if (!row) throw new WorkOrderRefused(404, RECORD_NOT_FOUND);
  return toRecord(row as RecordRow);
}

export async function findRecord(db: Db, actor: WorkOrderActor, id: number): Promise<WorkOrderDetail> {
  const record = await findVisible(db, actor, id);
  const [template, follows, call] = await Promise.all([
    record.templateId ? findTemplate(db, actor.tenantId, record.templateId) : undefined,
    db
      .selectFrom("work_order_follows")
      .select(["id", "kind", "from_state", "to_state", "note", "actor_name", "created_at"])
      .where("tenant_id", "=", actor.tenantId)
      .where("record_id", "=", id)
      .orderBy("id")
      .limit(500)
      .execute(),
    record.ctiCallId
      ? db
          .selectFrom("call_records")
          .select(["id", "cti_call_id", "phone", "direction", "call_time", "call_duration_ms", "recording"])
          .where("tenant_id", "=", actor.tenantId)
          .where("cti_call_id", "=", record.ctiCallId)
          .executeTakeFirst()
      : undefined,
  ]);
  return {
    record,
    template: template ?? null,
    follows: follows.map((f) => ({
      id: f.id,
      kind: f.kind,
      fromState: f.from_state,
      toState: f.to_state,
      note: f.note,
      actorName: f.actor_name,
      createdAt: new Date(f.created_at).toISOString(),
    })),
    call: call
      ? {
          id: Number(call.id),
          ctiCallId: call.cti_call_id,
          phone: call.phone,
          direction: call.direction,
          callTime: new Date(call.call_time).toISOString(),
          callDuration: call.call_duration_ms,
          hasRecording: call.recording !== null,
        }
      : null,
  };
}

async function writeFollow(
  db: Trx,
  actor: WorkOrderActor,
  recordId: number,
  row: { kind: "create" | "receive" | "reassign" | "follow"; from: number | null; to: number; note: string },
) {
  await db
    .insertInto("work_order_follows")
    .values({
      tenant_id: actor.tenantId,
      record_id: recordId,
      kind: row.kind,
      from_state: row.from,
      to_state: row.to,
      note: row.note,
      actor_user_id: actor.id,
      actor_name: actor.name,
    })
    .execute();
}

/** A new record's input, with the chat session (its row id) it was made from, if any. */
export type WorkOrderInputLinked = WorkOrderRecordInput & { chatSessionId?: number };

/**
 * A new record (待处理, nobody's yet) of an enabled template, its values checked against the
 * template's fields, due after the template's SLA. A call id links it to the call (its record may
 * not exist yet while the call is on; the detail finds the call only within the tenant).
 */
export async function createRecord(db: Trx, actor: WorkOrderActor, input: WorkOrderInputLinked): Promise<WorkOrderRecord> {
  let template: WorkOrderTemplate | undefined;
  if (input.templateId !== undefined) {
    template = await findTemplate(db, actor.tenantId, input.templateId);
    if (!template) throw new WorkOrderRefused(404, TEMPLATE_NOT_FOUND);
    if (template.status !== 1) throw new WorkOrderRefused(400, `工单模板「${template.name}」已停用，请选择其他模板`);
  }
  const checked = checkWorkOrderValues(template?.fields ?? [], input.values);
  const problems = Object.values(checked.errors);
  if (problems.length > 0) throw new WorkOrderRefused(400, problems.join("；"));
  const slaHours = template?.slaHours ?? 24;
  const number = await takeNumber(db, actor.tenantId);
  const created = await db
    .insertInto("work_order_records")
    .values({
      tenant_id: actor.tenantId,
      number,
      template_id: template?.id ?? null,
      title: input.title,
      content: input.content,
      values: JSON.stringify(checked.values),
      follow_state: WORK_ORDER_PENDING,
      cti_call_id: input.ctiCallId ?? null,
      chat_session_id: input.chatSessionId ?? null,
      created_by: actor.id,
      due_at: new Date(Date.now() + slaHours * 3_600_000),
    })
    .returning("id")
    .executeTakeFirstOrThrow();
  if (input.ctiCallId) {
    await db
      .updateTable("business_records")
      .set({ work_order_id: created.id })
      .where("tenant_id", "=", actor.tenantId)
      .where("cti_call_id", "=", input.ctiCallId)
      .execute();
  }
  await writeFollow(db, actor, created.id, { kind: "create", from: null, to: WORK_ORDER_PENDING, note: "" });
  return findVisible(db, actor, created.id);
}

/** A new record and its audit row in one transaction (the records screen and the workbench both create). */
export async function createRecordAudited(db: Db, actor: WorkOrderActor, input: WorkOrderInputLinked): Promise<WorkOrderRecord> {
  return db.transaction().execute(async (trx) => {
    const record = await createRecord(trx, actor, input);
    await writeAudit(
      trx,
      { id: actor.id, name: actor.name, tenantId: actor.tenantId },
      {
        action: "workorder.record.create",
        target: { type: "workOrder", id: record.id },
        summary: `新建工单 ${record.number}「${record.title}」`,
        detail: { ctiCallId: record.ctiCallId, chatSessionId: input.chatSessionId ?? null, templateId: record.templateId },
      },
    );
    return record;
  });
}

/**
 * Moves a record along the state machine with a note. An agent follows only records in their
 * hands; a transition the machine does not allow is refused with the states named.
 */
export async function followRecord(
  db: Trx,
  actor: WorkOrderActor,
  id: number,
  to: number,
  note: string,
): Promise<{ record: WorkOrderRecord; from: number }> {
  const record = await findVisible(db, actor, id, true);
  if (limitedToOwn(actor) && record.ownerId !== actor.id) throw new WorkOrderRefused(403, "请先接收该工单再跟进");
  const refusal = workOrderTransitionRefusal(record.state, to);
  if (refusal) throw new WorkOrderRefused(400, refusal);
  await db
    .updateTable("work_order_records")
    .set({ follow_state: to, updated_at: new Date() })
    .where("tenant_id", "=", actor.tenantId)
    .where("id", "=", id)
    .execute();
  await writeFollow(db, actor, id, { kind: "follow", from: record.state, to, note });
  return { record: await findVisible(db, actor, id), from: record.state };
}

/**
 * Takes an open record into the actor's hands, or (userId, supervisors and administrators) hands
 * it to another user of the tenant. Returns the record and who had it before.
 */
export async function receiveRecord(
  db: Trx,
  actor: WorkOrderActor,
  id: number,
  input: { userId?: number; note: string },
): Promise<{ record: WorkOrderRecord; before: string | null; to: string; reassigned: boolean }> {
  const record = await findVisible(db, actor, id, true);
  if (!isWorkOrderOpen(record.state)) throw new WorkOrderRefused(400, `工单${labelOf(WORK_ORDER_STATES, record.state)}，不能再接收或转派`);
  const target = input.userId ?? actor.id;
  const reassigned = target !== actor.id;
  if (reassigned && limitedToOwn(actor)) throw new WorkOrderRefused(403, "仅主管或管理员可以转派工单");
  if (!reassigned && limitedToOwn(actor) && record.ownerId !== null && record.ownerId !== actor.id) {
    throw new WorkOrderRefused(400, `工单已由${record.ownerName ?? "其他人"}处理`);
  }
  if (record.ownerId === target) throw new WorkOrderRefused(400, reassigned ? "工单已在该处理人手中" : "工单已在您手中");
  const user = await db
    .selectFrom("users")
    .select(["id", "real_name"])
    .where("tenant_id", "=", actor.tenantId)
    .where("id", "=", target)
    .executeTakeFirst();
  if (!user) throw new WorkOrderRefused(404, "处理人不存在");
  await db
    .updateTable("work_order_records")
    .set({ owner_user_id: target, updated_at: new Date() })
    .where("tenant_id", "=", actor.tenantId)
    .where("id", "=", id)
    .execute();
  const note = input.note || (reassigned ? `转派给${user.real_name}` : "");
  await writeFollow(db, actor, id, { kind: reassigned ? "reassign" : "receive", from: record.state, to: record.state, note });
  return { record: await findVisible(db, actor, id), before: record.ownerName, to: user.real_name, reassigned };
}
