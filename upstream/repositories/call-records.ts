import { sql, type ExpressionBuilder, type SelectQueryBuilder } from "kysely";
import type { CallDetail, CallFilter, CallRecordPage, CallRecordRow, PoorQuality } from "#contracts/contact";
import type { CallQualityReport } from "#contracts/cti";
import type { Role } from "#contracts/uaa";
import { pgliteOf, poolOf, type Db } from "#upstream/db";
import { copyOut, copyToBlob, type CopyBatch, type CopyFormat, type CopyOptions } from "#upstream/db/copy-out";
import type { RecordFormat } from "#upstream/domain/call-export";
import { RECORDINGS, recordingDialogs, type RecordingName } from "#upstream/domain/recordings";
import type { Database, NewCallRecord, NewDialogLine } from "#upstream/db/schema";
import { cappedCount, recentEstimate, totalOfPage } from "./counting";
import { timeKeysetRows } from "./keyset";

/**
 * Call records: the one writer (the dialer and the CTI write finished calls through
 * `insertCallRecord`) and every read the call lists, the detail dialog and the exports use.
 * Lists page newest first on (call_time, id), the keyset of the call_records indexes.
 */

/** A transcript line as a writer gives it; the record's ids are filled in here. */

/** Writes a finished call and its transcript lines (in order); returns the record's id. */
export async function insertCallRecord(db: Db, record: NewCallRecord, dialogs: NewDialogLine[] = []): Promise<number> {
  const { id } = await db.insertInto("call_records").values(record).returning("id").executeTakeFirstOrThrow();
  await insertDialogs(db, record.tenant_id, id, dialogs);
  return id;
}

/** Marks an agent's finished call as poor in quality (the softphone's report, decision 046). False: no such call of this agent. */
export async function markPoorQuality(db: Db, tenantId: number, agentUserId: number, report: CallQualityReport): Promise<boolean> {
  const poor: PoorQuality = { seconds: report.poorSeconds, issues: [...new Set(report.issues)] };
  const result = await db
    .updateTable("call_records")
    .set({ poor_quality: JSON.stringify(poor) })
    .where("tenant_id", "=", tenantId)
    .where("cti_call_id", "=", report.ctiCallId)
    .where("agent_user_id", "=", agentUserId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Gives a record another of the demo recordings: its file, its duration and its dialog lines. */
export async function replaceRecording(db: Db, tenantId: number, callRecordId: number, name: RecordingName): Promise<void> {
  await db
    .updateTable("call_records")
    .set({ recording: name, call_duration_ms: RECORDINGS[name].durationMs })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", callRecordId)
    .execute();
  await db.deleteFrom("call_dialogs").where("tenant_id", "=", tenantId).where("call_record_id", "=", callRecordId).execute();
  await insertDialogs(db, tenantId, callRecordId, recordingDialogs(name));
}

async function insertDialogs(db: Db, tenantId: number, callRecordId: number, dialogs: NewDialogLine[]): Promise<void> {
  if (dialogs.length === 0) return;
  await db
    .insertInto("call_dialogs")
    .values(dialogs.map((line, seq) => ({ ...line, seq, tenant_id: tenantId, call_record_id: callRecordId })))
    .execute();
}

/** Which records a list may show, besides the user's filters (decided by the route from the caller). */
export type CallScope = {
  direction?: "outbound" | "inbound";
  /** Only this agent's own calls (their history). */
  agentUserId?: number;
  /** What this agent may read: their own calls and their queue's campaigns' (see CallReader). */
  readerAgentUserId?: number;
};

type Filters = Omit<CallFilter, "pageNo" | "pageSize" | "after" | "before">;
type RecordsQuery = SelectQueryBuilder<Database, "call_records", {}>;

function scoped(db: Db, tenantId: number, scope: CallScope, filter: Filters): RecordsQuery {
  let query = db.selectFrom("call_records").where("call_records.tenant_id", "=", tenantId);
  if (scope.direction) query = query.where("call_records.direction", "=", scope.direction);
  if (scope.agentUserId !== undefined) query = query.where("call_records.agent_user_id", "=", scope.agentUserId);
  if (scope.readerAgentUserId !== undefined) query = query.where(readableBy({ tenantId, agentUserId: scope.readerAgentUserId }));
  if (filter.startTime !== undefined) query = query.where("call_records.call_time", ">=", new Date(filter.startTime));
  if (filter.endTime !== undefined) query = query.where("call_records.call_time", "<=", new Date(filter.endTime));
  if (filter.phone) query = query.where("call_records.phone", "like", `%${filter.phone}%`);
  if (filter.callResult !== undefined) query = query.where("call_records.call_result", "=", filter.callResult);
  if (filter.outboundResult) query = query.where("call_records.outbound_result", "=", filter.outboundResult);
  if (filter.isAnswer !== undefined) query = query.where("call_records.is_answer", "=", filter.isAnswer);
  if (filter.callKind !== undefined) query = query.where("call_records.call_kind", "=", filter.callKind);
  if (filter.campaignId !== undefined) query = query.where("call_records.campaign_id", "=", filter.campaignId);
  if (filter.agentId !== undefined) query = query.where("call_records.agent_user_id", "=", filter.agentId);
  return query;
}

/** The keyset cursor of a row: `<callTimeMs>_<id>`. */
export const cursorOf = (row: Pick<CallRecordRow, "callTime" | "callId">) => `${row.callTime}_${row.callId}`;

/** The campaign (`c`) and agent (`u`) of each record, from the record's own tenant. */
function withNames(query: RecordsQuery) {
  return query
    .leftJoin("campaigns as c", (join) =>
      join.onRef("c.id", "=", "call_records.campaign_id").onRef("c.tenant_id", "=", "call_records.tenant_id"),
    )
    .leftJoin("users as u", (join) =>
      join.onRef("u.id", "=", "call_records.agent_user_id").onRef("u.tenant_id", "=", "call_records.tenant_id"),
    );
}

/** A call list row's columns (the call lists here, the inspection list in inspection.ts); needs the joins of `withNames`. */
export const CALL_ROW_COLUMNS = [
  "call_records.id",
  "call_records.cti_call_id",
  "call_records.prev_cti_call_id",
  "call_records.direction",
  "call_records.phone",
  "call_records.campaign_id",
  "c.name as campaign_name",
  "call_records.campaign_type",
  "call_records.call_kind",
  "call_records.is_answer",
  "call_records.outbound_result",
  "call_records.call_result",
  "call_records.call_result_name",
  "call_records.intent",
  "call_records.qc_status",
  "call_records.conclusion",
  "call_records.hangup_party",
  "call_records.agent_user_id",
  "u.real_name as agent_name",
  "call_records.call_time",
  "call_records.call_duration_ms",
  "call_records.poor_quality",
] as const;

function rowColumns(query: RecordsQuery) {
  return withNames(query).select([...CALL_ROW_COLUMNS]);
}
type Row = Awaited<ReturnType<ReturnType<typeof rowColumns>["execute"]>>[number];

function toRow(row: Row): CallRecordRow {
  return {
    callId: row.id,
    ctiCallId: row.cti_call_id,
    prevCtiCallId: row.prev_cti_call_id,
    direction: row.direction,
    phone: row.phone,
    campaignId: row.campaign_id,
    campaignName: row.campaign_name,
    campaignType: row.campaign_type,
    callKind: row.call_kind,
    isAnswer: row.is_answer,
    outboundResult: row.outbound_result,
    callResult: row.call_result,
    callResultName: row.call_result_name,
    intent: row.intent,
    qcStatus: row.qc_status,
    conclusion: row.conclusion,
    hangupParty: row.hangup_party,
    agentId: row.agent_user_id,
    agentName: row.agent_name,
    callTime: row.call_time.getTime(),
    callDuration: row.call_duration_ms,
    poorQuality: row.poor_quality,
  };
}

/** A page's rows, each also carrying the capped count of the whole list (one statement) unless its total is known. */
const pageColumns = (db: Db, base: RecordsQuery, withTotal: boolean) =>
  rowColumns(base).$if(withTotal, (query) => query.select(cappedCount(db, base).as("matching")));

/**
 * One page of a call list and the total. A cursor from the previous page (`after`: the last row
 * shown; `before`: the first) makes the page a keyset seek, as fast at page 50,000 as at page 1;
 * a bare page number (the pager's numbered links, the jumper) falls back to an offset.
 */
export async function listCallRecords(db: Db, tenantId: number, scope: CallScope, filter: CallFilter): Promise<CallRecordPage> {
  const base = scoped(db, tenantId, scope, filter);
  const known = recentEstimate(base);
  const page = pageColumns(db, base, !known);
  const rows = await timeKeysetRows(page, "call_records.call_time", "call_records.id", filter);
  return { list: rows.map(toRow), ...(known ?? (await totalOfPage(db, base, rows))) };
}

export { EXACT_COUNT_LIMIT } from "./counting";

/** A record's place in the export order (newest first): its time in the database's own text form, exact to the microsecond, and its id. */
type ExportKey = { time: string; id: number };
/** Part of an export: the records after `after` (`done` records before it) up to and including `through`. */
type ExportRange = { after?: ExportKey; done: number; through?: ExportKey };

const keyBefore = (key: ExportKey) => sql<boolean>`(call_records.call_time, call_records.id) < (${key.time}::timestamptz, ${key.id})`;
const keyFrom = (key: ExportKey) => sql<boolean>`(call_records.call_time, call_records.id) >= (${key.time}::timestamptz, ${key.id})`;

/**
 * The records of an export, newest first, each as the cells `format` makes of it over the alias
 * `r`: the record's columns, `campaign_name` and `agent_name` (written by `format.name`) and its
 * place in the export, `position` (written by `format.position`).
 */
export function exportQuery(
  db: Db,
  tenantId: number,
  scope: CallScope,
  filter: Filters,
  format: RecordFormat,
  range: ExportRange = { done: 0 },
) {
  let base = scoped(db, tenantId, scope, filter);
  if (range.after) base = base.where(keyBefore(range.after));
  if (range.through) base = base.where(keyFrom(range.through));
  // Names are written in the join, once per campaign and agent: PostgreSQL memoizes a lateral
  // subquery by its key, and OFFSET 0 keeps the names' expressions inside it. One lookup for both
  // names (a record's campaign and agent) costs a record half what one per name did.
  const records = base
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom(sql`(VALUES (0))`.as("one"))
          .select((inner) => [
            inner
              .selectFrom("campaigns")
              .select(format.name(sql.ref("campaigns.name")).as("name"))
              .whereRef("campaigns.id", "=", "call_records.campaign_id")
              .whereRef("campaigns.tenant_id", "=", "call_records.tenant_id")
              .as("campaign_name"),
            inner
              .selectFrom("users")
              .select(format.name(sql.ref("users.real_name")).as("name"))
              .whereRef("users.id", "=", "call_records.agent_user_id")
              .whereRef("users.tenant_id", "=", "call_records.tenant_id")
              .as("agent_name"),
          ])
          .offset(0)
          .as("n"),
      (join) => join.onTrue(),
    )
    .selectAll("call_records")
    .select([
      "n.campaign_name",
      "n.agent_name",
      (format.position ?? ((p) => p))(
        sql<number>`row_number() OVER (ORDER BY call_records.call_time DESC, call_records.id DESC) - 1 + ${sql.lit(range.done)}`,
      ).as("position"),
    ])
    .orderBy("call_records.call_time", "desc")
    .orderBy("call_records.id", "desc");
  return db
    .selectFrom(records.as("r"))
    .select(format.cells.map((cell, i) => cell.as(`c${i}`)))
    .orderBy("r.call_time", "desc")
    .orderBy("r.id", "desc");
}

/**
 * Every matching record as COPY writes the cells of `format`, in batches of `batchRows`: `csv`
 * as CSV rows ending in CRLF, `text` each record's single cell as it is. A million records never
 * become a million JavaScript objects, and memory stays flat. PostgreSQL streams one COPY
 * (db/copy-out.ts); PGlite, which cannot send COPY to a client, copies one batch at a time.
 */
export function exportCallRecords(
  db: Db,
  tenantId: number,
  scope: CallScope,
  filter: Filters,
  format: RecordFormat,
  copy: { format: CopyFormat; batchRows: number },
): AsyncGenerator<CopyBatch> {
  const options = { ...copy, rowEnd: copy.format === "csv" ? "\r\n" : "" };
  const pool = poolOf(db);
  return pool
    ? copyOut(pool, exportQuery(db, tenantId, scope, filter, format), options)
    : copyInBatches(db, tenantId, scope, filter, format, options);
}

/**
 * On PGlite: each batch is one COPY bounded by the key of its last record, read first. Both run
 * while the batch holds PGlite's one session, so nothing is written between them. The next
 * batch is read while the caller writes this one.
 */
async function* copyInBatches(
  db: Db,
  tenantId: number,
  scope: CallScope,
  filter: Filters,
  format: RecordFormat,
  options: CopyOptions & { batchRows: number },
): AsyncGenerator<CopyBatch> {
  const pglite = pgliteOf(db);
  if (!pglite) throw new Error("the database is neither PostgreSQL nor PGlite");
  const read = (after: ExportKey | undefined, done: number) =>
    db.connection().execute(async (connection) => {
      const keys = scoped(connection, tenantId, scope, filter).select([
        sql<string>`call_records.call_time::text`.as("time"),
        "call_records.id",
      ]);
      const through = await (after ? keys.where(keyBefore(after)) : keys)
        .orderBy("call_records.call_time", "desc")
        .orderBy("call_records.id", "desc")
        .offset(options.batchRows - 1)
        .limit(1)
        .executeTakeFirst();
      const batch = await copyToBlob(pglite, exportQuery(connection, tenantId, scope, filter, format, { after, done, through }), options);
      return { batch, through };
    });
  let done = 0;
  let pending = read(undefined, 0);
  for (;;) {
    const { batch, through } = await pending;
    done += batch.count;
    if (through) {
      pending = read(through, done);
      pending.catch(() => undefined); // awaited next turn; a caller that stops early must not leave it unhandled
    }
    if (batch.count > 0) yield batch;
    if (!through) return;
  }
}

/**
 * Who reads one call: supervisors and administrators any of their tenant's (no `agentUserId`);
 * an agent the calls they took, the calls that came through their queue and those of the
 * campaigns their queue serves, and no colleague's other calls.
 */
export type CallReader = { tenantId: number; agentUserId?: number };

export function callReaderOf(user: { tenantId: number; id: number; role: Role }): CallReader {
  return user.role === "agent" ? { tenantId: user.tenantId, agentUserId: user.id } : { tenantId: user.tenantId };
}

export function readableBy(reader: CallReader) {
  return (eb: ExpressionBuilder<Database, "call_records">) => {
    const inTenant = eb("call_records.tenant_id", "=", reader.tenantId);
    if (reader.agentUserId === undefined) return inTenant;
    const ownQueue = eb.selectFrom("users as u").select("u.default_queue_name").where("u.id", "=", reader.agentUserId);
    const servedCampaigns = eb
      .selectFrom("campaigns as c")
      .select("c.id")
      .where("c.tenant_id", "=", reader.tenantId)
      .where("c.queue_name", "=", ownQueue);
    return eb.and([
      inTenant,
      eb.or([
        eb("call_records.agent_user_id", "=", reader.agentUserId),
        eb("call_records.queue_name", "=", ownQueue),
        eb("call_records.campaign_id", "in", servedCampaigns),
      ]),
    ]);
  };
}

/** Spec §3 "Call task detail" of one record the reader may see, or undefined (unknown, foreign or not theirs). */
export async function findCallDetail(db: Db, reader: CallReader, callId: number): Promise<CallDetail | undefined> {
  const tenantId = reader.tenantId;
  const record = await db.selectFrom("call_records").selectAll().where(readableBy(reader)).where("id", "=", callId).executeTakeFirst();
  if (!record) return undefined;
  const lines = await db
    .selectFrom("call_dialogs")
    .selectAll()
    .where("tenant_id", "=", tenantId)
    .where("call_record_id", "=", callId)
    .orderBy("seq")
    .execute();
  // The call's work order, by its CTI id within the tenant (several: the first made).
  const workOrder = await db
    .selectFrom("work_order_records")
    .select(["id", "number", "title"])
    .where("tenant_id", "=", tenantId)
    .where("cti_call_id", "=", record.cti_call_id)
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  // The agent's saved result for the call (one per call within the tenant).
  const business = await db
    .selectFrom("business_records as b")
    .leftJoin("users as u", "u.id", "b.agent_user_id")
    .select(["b.call_result", "b.intent", "b.remark", "b.fields", "u.real_name"])
    .where("b.tenant_id", "=", tenantId)
    .where("b.cti_call_id", "=", record.cti_call_id)
    .executeTakeFirst();
  // Consecutive lines of the same dialogType form one calling-result section.
  const callingResults: CallDetail["callingResults"] = [];
  for (const line of lines) {
    let section = callingResults[callingResults.length - 1];
    if (!section || section.dialogType !== line.dialog_type) {
      section = { dialogType: line.dialog_type, dialogResults: [] };
      callingResults.push(section);
    }
    section.dialogResults.push({
      thisRole: line.this_role,
      dialogContent: line.content,
      nluResult: line.nlu_result,
      gender: line.gender,
      recordStartTime: line.record_start_ms,
      recordEndTime: line.record_end_ms,
    });
  }
  return {
    callId: record.id,
    tenantID: record.tenant_id,
    ctiCallId: record.cti_call_id,
    prevCtiCallId: record.prev_cti_call_id,
    phone: record.phone,
    isAnswer: record.is_answer,
    outboundResult: record.outbound_result,
    callResult: record.call_result,
    callResultName: record.call_result_name,
    callTime: record.call_time.getTime(),
    callDuration: record.call_duration_ms,
    instanceName: record.instance_name,
    flowVersionName: record.flow_version_name,
    flowId: record.flow_id,
    campaignType: record.campaign_type,
    gender: record.gender,
    callingResults,
    attachData: record.attach_data,
    userData: record.user_data,
    groupDn: record.group_dn,
    dn: record.dn,
    hasRecording: record.recording !== null,
    workOrder: workOrder ?? null,
    poorQuality: record.poor_quality,
    businessRecord: business
      ? {
          callResult: business.call_result,
          intent: business.intent,
          remark: business.remark,
          fields: business.fields,
          agentName: business.real_name ?? "",
        }
      : null,
  };
}

/** The recording file of a record of the tenant: undefined when there is no such record, null when it has no audio. */
export async function findRecordingFile(db: Db, reader: CallReader, callId: number): Promise<string | null | undefined> {
  const row = await db.selectFrom("call_records").select("recording").where(readableBy(reader)).where("id", "=", callId).executeTakeFirst();
  return row ? row.recording : undefined;
}

/** A flow's input parameters or output states (migration 010), in order. */
export async function listFlowParams(db: Db, tenantId: number, flowId: number, kind: "input" | "state") {
  return db
    .selectFrom("flow_params")
    .select(["name", "variable"])
    .where("tenant_id", "=", tenantId)
    .where("flow_id", "=", flowId)
    .where("kind", "=", kind)
    .orderBy("seq")
    .execute();
}
