import { sql } from "kysely";
import { FlowState, nextFlowState, versionName, type FlowAction } from "#contracts/flow-versions";
import type { FlowDetail, FlowListQuery, FlowNode, FlowParamItem, FlowSummary, FlowVersion, FlowVersionParams } from "#contracts/robot";
import type { Db, Trx } from "#upstream/db";
import { validateDesign } from "#upstream/domain/flow-design";
import { listFlowParams } from "./call-records";
import { likePattern } from "./knowledge";
import { tenantQueues } from "./monitor";
import { Refused } from "#upstream/domain/refused";

/**
 * A tenant's robot flows and their versions (decision 019). Every read and write is
 * scoped by the tenant: another tenant's id is not found. Transitions follow
 * contracts/flow-versions.ts; the route writes each one's audit row in the same transaction.
 */

export class FlowRefused extends Refused {}

export const FLOW_NOT_FOUND = "流程不存在";
export const VERSION_NOT_FOUND = "流程版本不存在";
const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === "23505";

type VersionRow = {
  id: number;
  flow_id: number;
  no: number;
  state: number;
  nodes: FlowNode[];
  return_reason: string | null;
  based_on_no: number | null;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
  published_at: Date | null;
  params: FlowVersionParams | null;
};

const versionColumns = [
  "id",
  "flow_id",
  "no",
  "state",
  "nodes",
  "return_reason",
  "based_on_no",
  "created_by",
  "created_at",
  "updated_at",
  "published_at",
  "params",
] as const;

export function toVersion(row: VersionRow, serviceVersionId: number | null): FlowVersion {
  return {
    id: row.id,
    flowId: row.flow_id,
    no: row.no,
    name: versionName(row.no),
    state: row.state,
    inService: row.id === serviceVersionId,
    returnReason: row.return_reason,
    basedOn: row.based_on_no === null ? null : versionName(row.based_on_no),
    nodeCount: row.nodes.length,
    createdBy: row.created_by,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    publishedAt: row.published_at?.toISOString() ?? null,
  };
}

function flowSummaries(db: Trx, tenantId: number) {
  return db
    .selectFrom("robot_flows as f")
    .where("f.tenant_id", "=", tenantId)
    .select([
      "f.id",
      "f.name",
      "f.description",
      "f.updated_at",
      "f.service_version_id",
      sql<number | null>`(SELECT v.no FROM robot_flow_versions v WHERE v.id = f.service_version_id)`.as("service_no"),
      sql<{ id: number; no: number; state: number } | null>`(SELECT json_build_object('id', v.id, 'no', v.no, 'state', v.state)
        FROM robot_flow_versions v WHERE v.flow_id = f.id AND v.state IN (${FlowState.draft}, ${FlowState.review}) ORDER BY v.no DESC LIMIT 1)`.as(
        "working",
      ),
      sql<number>`(SELECT count(*)::int FROM robot_flow_versions v WHERE v.flow_id = f.id)`.as("version_count"),
      sql<number>`(SELECT count(*)::int FROM robot_instances r WHERE r.tenant_id = f.tenant_id AND r.flow_id = f.id)`.as("robot_count"),
    ]);
}

type SummaryRow = {
  id: number;
  name: string;
  description: string;
  updated_at: Date;
  service_no: number | null;
  working: { id: number; no: number; state: number } | string | null;
  version_count: number;
  robot_count: number;
};

function toSummary(row: SummaryRow): FlowSummary {
  const working = typeof row.working === "string" ? (JSON.parse(row.working) as { id: number; no: number; state: number }) : row.working;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    serviceVersion: row.service_no === null ? null : versionName(row.service_no),
    working: working ? { id: working.id, name: versionName(working.no), state: working.state } : null,
    versionCount: Number(row.version_count),
    robotCount: Number(row.robot_count),
    updatedAt: row.updated_at.toISOString(),
  };
}

export async function listFlows(db: Db, tenantId: number, query: FlowListQuery): Promise<{ list: FlowSummary[]; total: number }> {
  let base = db.selectFrom("robot_flows as f").where("f.tenant_id", "=", tenantId);
  if (query.name) base = base.where("f.name", "like", likePattern(query.name));
  if (query.state !== undefined) {
    const state = query.state;
    base = base.where(({ exists, selectFrom }) =>
      exists(selectFrom("robot_flow_versions as v").select("v.id").whereRef("v.flow_id", "=", "f.id").where("v.state", "=", state)),
    );
  }
  const ids = await base
    .select("f.id")
    .orderBy("f.id", "desc")
    .limit(query.pageSize)
    .offset((query.pageNo - 1) * query.pageSize)
    .execute();
  const count = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow();
  const rows =
    ids.length === 0
      ? []
      : await flowSummaries(db, tenantId)
          .where(
            "f.id",
            "in",
            ids.map((r) => r.id),
          )
          .orderBy("f.id", "desc")
          .execute();
  return { list: rows.map(toSummary), total: Number(count.n) };
}

export async function findFlow(db: Trx, tenantId: number, id: number): Promise<FlowSummary | undefined> {
  const row = await flowSummaries(db, tenantId).where("f.id", "=", id).executeTakeFirst();
  return row && toSummary(row);
}

async function flowRow(db: Trx, tenantId: number, id: number, lock = false) {
  let query = db
    .selectFrom("robot_flows")
    .select(["id", "name", "service_version_id"])
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw new FlowRefused(404, FLOW_NOT_FOUND);
  return row;
}

async function versionRows(db: Trx, tenantId: number, flowId: number): Promise<VersionRow[]> {
  return db
    .selectFrom("robot_flow_versions")
    .select([...versionColumns])
    .where("tenant_id", "=", tenantId)
    .where("flow_id", "=", flowId)
    .orderBy("no", "desc")
    .execute();
}

export async function flowDetail(db: Db, tenantId: number, id: number): Promise<FlowDetail> {
  const flow = await findFlow(db, tenantId, id);
  if (!flow) throw new FlowRefused(404, FLOW_NOT_FOUND);
  const { service_version_id } = await flowRow(db, tenantId, id);
  const versions = (await versionRows(db, tenantId, id)).map((row) => toVersion(row, service_version_id));
  const history = await db
    .selectFrom("audit_log")
    .select(["created_at", "actor_name", "action", "summary", "reason"])
    .where("tenant_id", "=", tenantId)
    .where("target_type", "=", "flow")
    .where("target_id", "=", String(id))
    .orderBy("id", "desc")
    .limit(50)
    .execute();
  return {
    flow,
    versions,
    history: history.map((h) => ({
      at: h.created_at.toISOString(),
      actorName: h.actor_name,
      action: h.action,
      summary: h.summary,
      reason: h.reason,
    })),
  };
}

/**
 * A version of the flow and the version in service: the one asked for, else the working version
 * (draft or under review), else the one in service, else the newest.
 */
export async function loadVersion(db: Trx, tenantId: number, flowId: number, versionId?: number) {
  const flow = await flowRow(db, tenantId, flowId);
  const rows = await versionRows(db, tenantId, flowId);
  const service = rows.find((r) => r.id === flow.service_version_id) ?? null;
  const version =
    versionId !== undefined
      ? rows.find((r) => r.id === versionId)
      : (rows.find((r) => r.state === FlowState.draft || r.state === FlowState.review) ?? service ?? rows[0]);
  if (!version) throw new FlowRefused(404, VERSION_NOT_FOUND);
  return { flow, version, service };
}

export async function createFlow(
  db: Trx,
  tenantId: number,
  createdBy: string,
  input: { name: string; description: string },
  nodes: FlowNode[],
): Promise<FlowSummary> {
  const taken = await db
    .selectFrom("robot_flows")
    .select("id")
    .where("tenant_id", "=", tenantId)
    .where("name", "=", input.name)
    .executeTakeFirst();
  if (taken) throw new FlowRefused(400, `流程名称「${input.name}」已存在`);
  let id: number;
  try {
    ({ id } = await db
      .insertInto("robot_flows")
      .values({ tenant_id: tenantId, name: input.name, description: input.description, service_script: "[]" })
      .returning("id")
      .executeTakeFirstOrThrow());
  } catch (error) {
    if (isUniqueViolation(error)) throw new FlowRefused(400, `流程名称「${input.name}」已存在`);
    throw error;
  }
  await db
    .insertInto("robot_flow_versions")
    .values({
      tenant_id: tenantId,
      flow_id: id,
      no: 1,
      state: FlowState.draft,
      nodes: JSON.stringify(nodes),
      params: JSON.stringify({ input: [], state: [] } satisfies FlowVersionParams),
      created_by: createdBy,
    })
    .execute();
  return (await findFlow(db, tenantId, id))!;
}

/** The draft a change was made on, as the form loaded it (its id, and when it was last changed). */
export type EditedVersion = { versionId?: number; updatedAt?: string };

/**
 * Changes the flow's draft (only a draft changes: its nodes, its parameters). Returns the version.
 * With `edited`, the draft must still be that version, unchanged since: an edit made on a version
 * that was meanwhile submitted, replaced or saved by someone else is refused, never put elsewhere.
 */
async function changeDraft(
  db: Trx,
  tenantId: number,
  flowId: number,
  set: { nodes: string } | { params: string },
  edited: EditedVersion = {},
): Promise<{ name: string; version: VersionRow }> {
  const flow = await flowRow(db, tenantId, flowId, true);
  const versions = await versionRows(db, tenantId, flowId);
  const draft = versions.find((r) => r.state === FlowState.draft || r.state === FlowState.review);
  if (edited.versionId !== undefined && draft?.id !== edited.versionId) {
    const was = versions.find((r) => r.id === edited.versionId);
    const name = was ? versionName(was.no) : "所编辑的版本";
    throw new FlowRefused(
      409,
      draft
        ? `${name} 已不是当前草稿（当前草稿为 ${versionName(draft.no)}），修改未保存，请重新打开后再修改`
        : `${name} 已提交或发布，不能再修改，修改未保存；请复制为新草稿后再修改`,
    );
  }
  if (!draft) throw new FlowRefused(409, "没有可修改的草稿：已发布的版本不可修改，请先复制为新草稿");
  guard("design", draft.state);
  if (edited.updatedAt !== undefined && draft.updated_at.toISOString() !== edited.updatedAt)
    throw new FlowRefused(409, `${versionName(draft.no)} 在你打开之后已被修改，修改未保存，请重新打开后再修改`);
  const version = await db
    .updateTable("robot_flow_versions")
    .set({ ...set, updated_at: new Date() })
    .where("id", "=", draft.id)
    .returning([...versionColumns])
    .executeTakeFirstOrThrow();
  await touch(db, flowId);
  return { name: flow.name, version };
}

/** The flow's draft gets these nodes. A transfer node's queue is one of the tenant's (a queue is the one its agents are in). */
export async function saveDesign(db: Trx, tenantId: number, flowId: number, nodes: FlowNode[], edited?: EditedVersion) {
  await flowRow(db, tenantId, flowId); // another tenant's flow: not found, before anything else
  const queues = new Set(await tenantQueues(db, tenantId));
  const unknown = nodes.find((node) => node.type === "transfer" && node.queueName && !queues.has(node.queueName));
  if (unknown) throw new FlowRefused(400, `节点「${unknown.name}」的转人工队列「${unknown.queueName}」不存在，请选择本租户已有的队列`);
  return changeDraft(db, tenantId, flowId, { nodes: JSON.stringify(nodes) }, edited);
}

/**
 * A version's input parameters and output states (decision 029); a version from before they were
 * kept per version has the flow's flow_params rows.
 */
export async function versionParams(
  db: Trx,
  tenantId: number,
  flowId: number,
  version: { params: FlowVersionParams | null },
): Promise<FlowVersionParams> {
  if (version.params) return version.params;
  const [input, state] = await Promise.all([listFlowParams(db, tenantId, flowId, "input"), listFlowParams(db, tenantId, flowId, "state")]);
  return { input, state };
}

/** The input parameters or output states of the flow's version in service (the call detail's tabs). */
export async function paramsInService(db: Trx, tenantId: number, flowId: number, kind: "input" | "state"): Promise<FlowParamItem[]> {
  const row = await db
    .selectFrom("robot_flows as f")
    .innerJoin("robot_flow_versions as v", "v.id", "f.service_version_id")
    .select("v.params")
    .where("f.tenant_id", "=", tenantId)
    .where("f.id", "=", flowId)
    .executeTakeFirst();
  return row?.params ? row.params[kind] : listFlowParams(db, tenantId, flowId, kind);
}

/** The flow's draft gets these parameters (decision 029). */
export const saveParams = (db: Trx, tenantId: number, flowId: number, params: FlowVersionParams, edited?: EditedVersion) =>
  changeDraft(db, tenantId, flowId, { params: JSON.stringify(params) }, edited);

function guard(action: FlowAction, state: number): number {
  try {
    return nextFlowState(action, state);
  } catch (error) {
    throw new FlowRefused(409, (error as Error).message);
  }
}

const touch = (db: Trx, flowId: number) => db.updateTable("robot_flows").set({ updated_at: new Date() }).where("id", "=", flowId).execute();

export type Transition = { flowName: string; version: string; from: number; to: number; newVersion?: string };

/**
 * One transition of a version (submit and return act on the flow's working version; publish,
 * rollback, market and cover on the version named). Refusals are FlowRefused with Chinese messages.
 */
export async function moveVersion(
  db: Trx,
  tenantId: number,
  flowId: number,
  action: Exclude<FlowAction, "design">,
  options: { versionId?: number; reason?: string; actorName: string },
): Promise<Transition> {
  const flow = await flowRow(db, tenantId, flowId, true);
  const rows = await versionRows(db, tenantId, flowId);
  const working = rows.find((r) => r.state === FlowState.draft || r.state === FlowState.review);
  const version = action === "submit" || action === "return" ? working : rows.find((r) => r.id === options.versionId);
  if (!version) throw new FlowRefused(404, action === "submit" || action === "return" ? "没有待提交或待审核的版本" : VERSION_NOT_FOUND);
  const from = version.state;
  const to = guard(action, from);
  const now = new Date();
  const base = { flowName: flow.name, version: versionName(version.no), from, to };

  switch (action) {
    case "submit": {
      const problems = validateDesign(version.nodes);
      if (problems.length > 0) throw new FlowRefused(400, `流程设计有 ${problems.length} 个问题，请修改后再提交：${problems[0].message}`);
      await db
        .updateTable("robot_flow_versions")
        .set({ state: to, return_reason: null, updated_at: now })
        .where("id", "=", version.id)
        .execute();
      break;
    }
    case "return":
      await db
        .updateTable("robot_flow_versions")
        .set({ state: to, return_reason: options.reason ?? null, updated_at: now })
        .where("id", "=", version.id)
        .execute();
      break;
    case "publish":
    case "rollback":
      if (action === "rollback" && flow.service_version_id === version.id) throw new FlowRefused(409, `${base.version} 已在使用中`);
      await db
        .updateTable("robot_flow_versions")
        .set({ state: to, updated_at: now, ...(action === "publish" ? { published_at: now } : {}) })
        .where("id", "=", version.id)
        .execute();
      await db.updateTable("robot_flows").set({ service_version_id: version.id }).where("id", "=", flowId).execute();
      // The robots running this flow now speak this version (the campaign form and call records show its name).
      await db
        .updateTable("robot_instances")
        .set({ flow_version_name: base.version })
        .where("tenant_id", "=", tenantId)
        .where("flow_id", "=", flowId)
        .execute();
      break;
    case "market":
      await db.updateTable("robot_flow_versions").set({ state: to, updated_at: now }).where("id", "=", version.id).execute();
      break;
    case "cover": {
      if (working)
        throw new FlowRefused(
          409,
          `已有${working.state === FlowState.draft ? "草稿" : "待审核的版本"} ${versionName(working.no)}，请先处理它再复制`,
        );
      const no = Math.max(...rows.map((r) => r.no)) + 1;
      await db
        .insertInto("robot_flow_versions")
        .values({
          tenant_id: tenantId,
          flow_id: flowId,
          no,
          state: FlowState.draft,
          nodes: JSON.stringify(version.nodes),
          params: JSON.stringify(await versionParams(db, tenantId, flowId, version)),
          based_on_no: version.no,
          created_by: options.actorName,
        })
        .execute();
      await touch(db, flowId);
      return { ...base, to: FlowState.draft, newVersion: versionName(no) };
    }
  }
  await touch(db, flowId);
  return base;
}

/** The version a robot running this flow speaks now: the one in service, or null. */
export async function serviceVersion(db: Trx, tenantId: number, flowId: number): Promise<{ name: string; nodes: FlowNode[] } | null> {
  const row = await db
    .selectFrom("robot_flows as f")
    .innerJoin("robot_flow_versions as v", "v.id", "f.service_version_id")
    .select(["v.no", "v.nodes"])
    .where("f.tenant_id", "=", tenantId)
    .where("f.id", "=", flowId)
    .executeTakeFirst();
  return row ? { name: versionName(row.no), nodes: row.nodes } : null;
}
