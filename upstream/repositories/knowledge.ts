import { sql } from "kysely";
import type {
  KnowledgeGap,
  KnowledgeGroup,
  KnowledgeImportResult,
  KnowledgeLabel,
  KnowledgeNode,
  KnowledgeNodeInput,
  KnowledgeNodeQuery,
} from "#contracts/knowledge";
import { KNOWLEDGE_IMPORT_MAX_ERRORS, KNOWLEDGE_IMPORT_MAX_ROWS, KnowledgeNodeInputSchema, splitLabels } from "#contracts/knowledge";
import { KNOWLEDGE_STATES } from "#contracts/codes";
import type { Db, Trx } from "#upstream/db";
import { Refused } from "#upstream/domain/refused";

/**
 * The knowledge base of a tenant (decision 017): groups, nodes, labels, uses and the searches that
 * found nothing. Every read and write is scoped by the tenant; a foreign id is not found.
 */

/** A change the knowledge base refuses, with its status and Chinese message. */
export class KnowledgeRefused extends Refused {}

export const likePattern = (keyword: string) => `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const isUniqueViolation = (error: unknown) => (error as { code?: string } | null)?.code === "23505";

export async function listGroups(db: Db, tenantId: number): Promise<KnowledgeGroup[]> {
  const rows = await db
    .selectFrom("knowledge_groups as g")
    .leftJoin("knowledge_nodes as n", (join) => join.onRef("n.group_id", "=", "g.id").onRef("n.tenant_id", "=", "g.tenant_id"))
    .select([
      "g.id",
      "g.name",
      sql<number>`count(n.id)::int`.as("node_count"),
      sql<number>`count(n.id) FILTER (WHERE n.state = 1)::int`.as("enabled_count"),
    ])
    .where("g.tenant_id", "=", tenantId)
    .groupBy(["g.id", "g.name"])
    .orderBy("g.id")
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, nodeCount: Number(r.node_count), enabledCount: Number(r.enabled_count) }));
}

export async function findGroup(db: Trx, tenantId: number, id: number): Promise<KnowledgeGroup | undefined> {
  const row = await db
    .selectFrom("knowledge_groups")
    .select(["id", "name"])
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const count = await countNodes(db, tenantId, id);
  return { id: row.id, name: row.name, nodeCount: count.total, enabledCount: count.enabled };
}

async function groupNameTaken(db: Trx, tenantId: number, name: string, exceptId?: number): Promise<boolean> {
  let query = db.selectFrom("knowledge_groups").select("id").where("tenant_id", "=", tenantId).where("name", "=", name);
  if (exceptId !== undefined) query = query.where("id", "<>", exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

const DUPLICATE_GROUP = "分组名称已存在";

export async function createGroup(db: Trx, tenantId: number, name: string): Promise<KnowledgeGroup> {
  if (await groupNameTaken(db, tenantId, name)) throw new KnowledgeRefused(400, DUPLICATE_GROUP);
  try {
    const row = await db
      .insertInto("knowledge_groups")
      .values({ tenant_id: tenantId, name })
      .returning(["id", "name"])
      .executeTakeFirstOrThrow();
    return { id: row.id, name: row.name, nodeCount: 0, enabledCount: 0 };
  } catch (error) {
    if (isUniqueViolation(error)) throw new KnowledgeRefused(400, DUPLICATE_GROUP);
    throw error;
  }
}

/** Renames a group; returns its name before. */
export async function renameGroup(db: Trx, tenantId: number, id: number, name: string): Promise<string> {
  const before = await findGroup(db, tenantId, id);
  if (!before) throw new KnowledgeRefused(404, "分组不存在");
  if (await groupNameTaken(db, tenantId, name, id)) throw new KnowledgeRefused(400, DUPLICATE_GROUP);
  try {
    await db.updateTable("knowledge_groups").set({ name }).where("tenant_id", "=", tenantId).where("id", "=", id).execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new KnowledgeRefused(400, DUPLICATE_GROUP);
    throw error;
  }
  return before.name;
}

/** Deletes an empty group; a group that still holds knowledge is refused. */
export async function deleteGroup(db: Trx, tenantId: number, id: number): Promise<string> {
  const group = await findGroup(db, tenantId, id);
  if (!group) throw new KnowledgeRefused(404, "分组不存在");
  if (group.nodeCount > 0) throw new KnowledgeRefused(400, `分组「${group.name}」下还有 ${group.nodeCount} 条知识，请先删除或移走`);
  await db.deleteFrom("knowledge_groups").where("tenant_id", "=", tenantId).where("id", "=", id).execute();
  return group.name;
}

function nodeQuery(db: Trx, tenantId: number) {
  return db.selectFrom("knowledge_nodes as n").innerJoin("knowledge_groups as g", "g.id", "n.group_id").where("n.tenant_id", "=", tenantId);
}

type NodeRow = {
  id: number;
  group_id: number;
  group_name: string;
  title: string;
  content: string;
  labels: string[];
  state: number;
  usage_count: number;
  updated_at: Date;
};
const NODE_COLUMNS = [
  "n.id",
  "n.group_id",
  "g.name as group_name",
  "n.title",
  "n.content",
  "n.labels",
  "n.state",
  "n.usage_count",
  "n.updated_at",
] as const;

const toNode = (row: NodeRow): KnowledgeNode => ({
  id: row.id,
  groupId: row.group_id,
  groupName: row.group_name,
  question: row.title,
  answer: row.content,
  labels: row.labels ?? [],
  state: row.state,
  usageCount: row.usage_count,
  updatedAt: new Date(row.updated_at).toISOString(),
});

/** A page of nodes: of one group or all, searched across question, answer and labels. */
export async function listNodes(db: Db, tenantId: number, query: KnowledgeNodeQuery): Promise<{ list: KnowledgeNode[]; total: number }> {
  let base = nodeQuery(db, tenantId);
  if (query.groupId) base = base.where("n.group_id", "=", query.groupId);
  if (query.state !== undefined) base = base.where("n.state", "=", query.state);
  if (query.keyword) {
    const like = likePattern(query.keyword);
    base = base.where((eb) =>
      eb.or([eb("n.title", "like", like), eb("n.content", "like", like), eb(sql`array_to_string(n.labels, ' ')`, "like", like)]),
    );
  }
  const [rows, count] = await Promise.all([
    base
      .select(NODE_COLUMNS)
      .orderBy("n.id", "desc")
      .limit(query.pageSize)
      .offset((query.pageNo - 1) * query.pageSize)
      .execute(),
    base.select(sql<number>`count(*)::int`.as("total")).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toNode), total: Number(count.total) };
}

export async function findNode(db: Trx, tenantId: number, id: number): Promise<KnowledgeNode | undefined> {
  const row = await nodeQuery(db, tenantId).select(NODE_COLUMNS).where("n.id", "=", id).executeTakeFirst();
  return row && toNode(row);
}

async function rememberLabels(db: Trx, tenantId: number, labels: string[]): Promise<void> {
  if (labels.length === 0) return;
  await db
    .insertInto("knowledge_labels")
    .values(labels.map((name) => ({ tenant_id: tenantId, name })))
    .onConflict((oc) => oc.columns(["tenant_id", "name"]).doNothing())
    .execute();
}

async function requireGroup(db: Trx, tenantId: number, groupId: number): Promise<void> {
  const group = await db
    .selectFrom("knowledge_groups")
    .select("id")
    .where("tenant_id", "=", tenantId)
    .where("id", "=", groupId)
    .executeTakeFirst();
  if (!group) throw new KnowledgeRefused(404, "分组不存在");
}

/** Creates a node (id null) or replaces one; its labels join the tenant's labels. */
export async function saveNode(db: Trx, tenantId: number, id: number | null, input: KnowledgeNodeInput): Promise<KnowledgeNode> {
  await requireGroup(db, tenantId, input.groupId);
  const labels = [...new Set(input.labels)];
  const values = { group_id: input.groupId, title: input.question, content: input.answer, labels, state: input.state };
  let nodeId: number;
  if (id === null) {
    nodeId = (
      await db
        .insertInto("knowledge_nodes")
        .values({ ...values, tenant_id: tenantId })
        .returning("id")
        .executeTakeFirstOrThrow()
    ).id;
  } else {
    const updated = await db
      .updateTable("knowledge_nodes")
      .set({ ...values, updated_at: sql`now()` })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", id)
      .returning("id")
      .executeTakeFirst();
    if (!updated) throw new KnowledgeRefused(404, "知识不存在");
    nodeId = updated.id;
  }
  await rememberLabels(db, tenantId, labels);
  return (await findNode(db, tenantId, nodeId))!;
}

export async function setNodeState(db: Trx, tenantId: number, id: number, state: number): Promise<KnowledgeNode> {
  const updated = await db
    .updateTable("knowledge_nodes")
    .set({ state, updated_at: sql`now()` })
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .returning("id")
    .executeTakeFirst();
  if (!updated) throw new KnowledgeRefused(404, "知识不存在");
  return (await findNode(db, tenantId, id))!;
}

/** Deletes the tenant's nodes among `ids`; returns the questions of those deleted. */
export async function deleteNodes(db: Trx, tenantId: number, ids: number[]): Promise<Array<{ id: number; title: string }>> {
  if (ids.length === 0) return [];
  return db.deleteFrom("knowledge_nodes").where("tenant_id", "=", tenantId).where("id", "in", ids).returning(["id", "title"]).execute();
}

export async function countNodes(db: Trx, tenantId: number, groupId: number): Promise<{ total: number; enabled: number }> {
  const row = await db
    .selectFrom("knowledge_nodes")
    .select([sql<number>`count(*)::int`.as("total"), sql<number>`count(*) FILTER (WHERE state = 1)::int`.as("enabled")])
    .where("tenant_id", "=", tenantId)
    .where("group_id", "=", groupId)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), enabled: Number(row.enabled) };
}

/** One use of an enabled node by an agent (a quick reply inserted); a disabled node is not found. */
export async function useNode(db: Db, tenantId: number, id: number): Promise<{ id: number; usageCount: number }> {
  const row = await db
    .updateTable("knowledge_nodes")
    .set((eb) => ({ usage_count: eb("usage_count", "+", 1) }))
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .where("state", "=", 1)
    .returning(["id", "usage_count"])
    .executeTakeFirst();
  if (!row) throw new KnowledgeRefused(404, "知识不存在或已停用");
  return { id: row.id, usageCount: row.usage_count };
}

const STATE_BY_LABEL = new Map<string, number>(
  KNOWLEDGE_STATES.flatMap((s) => [[s.label, s.code] as const, [String(s.code), s.code] as const]),
);

/**
 * Imports rows (header first: 问题, 答案, 标签, 状态) into a group. Good rows are created, bad
 * ones are reported by their row number (the header is row 1) with the reason.
 */
export async function importNodes(
  db: Trx,
  tenantId: number,
  groupId: number,
  rows: AsyncIterable<string[]>,
): Promise<KnowledgeImportResult> {
  await requireGroup(db, tenantId, groupId);
  const errors: KnowledgeImportResult["errors"] = [];
  let accepted = 0;
  let rejected = 0;
  let rowNo = 0;
  let columns: { question: number; answer: number; labels: number; state: number } | null = null;
  const labels = new Set<string>();
  const values: Array<{ tenant_id: number; group_id: number; title: string; content: string; labels: string[]; state: number }> = [];
  for await (const row of rows) {
    rowNo++;
    if (columns === null) {
      const header = row.map((cell) => cell.trim());
      const at = (name: string) => header.indexOf(name);
      columns = { question: at("问题"), answer: at("答案"), labels: at("标签"), state: at("状态") };
      if (columns.question < 0 || columns.answer < 0) throw new KnowledgeRefused(400, "文件第一行须为表头，至少包含“问题”和“答案”两列");
      continue;
    }
    if (row.every((cell) => cell.trim() === "")) continue;
    if (rowNo - 1 > KNOWLEDGE_IMPORT_MAX_ROWS) throw new KnowledgeRefused(400, `一次最多导入${KNOWLEDGE_IMPORT_MAX_ROWS}条`);
    const cell = (index: number) => (index >= 0 ? (row[index] ?? "").trim() : "");
    const stateText = cell(columns.state);
    const state = stateText === "" ? 1 : STATE_BY_LABEL.get(stateText);
    const parsed =
      state === undefined
        ? { success: false as const, message: `状态须为“启用”或“停用”` }
        : (() => {
            const result = KnowledgeNodeInputSchema.safeParse({
              groupId,
              question: cell(columns!.question),
              answer: cell(columns!.answer),
              labels: splitLabels(cell(columns!.labels)),
              state,
            });
            return result.success
              ? { success: true as const, data: result.data }
              : { success: false as const, message: result.error.issues[0]?.message ?? "格式错误" };
          })();
    if (!parsed.success) {
      rejected++;
      if (errors.length < KNOWLEDGE_IMPORT_MAX_ERRORS) errors.push({ row: rowNo, message: parsed.message });
      continue;
    }
    const input = parsed.data;
    input.labels.forEach((l) => labels.add(l));
    values.push({
      tenant_id: tenantId,
      group_id: groupId,
      title: input.question,
      content: input.answer,
      labels: input.labels,
      state: input.state,
    });
    accepted++;
  }
  if (columns === null) throw new KnowledgeRefused(400, "文件是空的");
  for (let i = 0; i < values.length; i += 500)
    await db
      .insertInto("knowledge_nodes")
      .values(values.slice(i, i + 500))
      .execute();
  await rememberLabels(db, tenantId, [...labels]);
  return { accepted, rejected, errors };
}

export async function listLabels(db: Db, tenantId: number): Promise<KnowledgeLabel[]> {
  const rows = await db
    .selectFrom("knowledge_labels as l")
    .select([
      "l.id",
      "l.name",
      (eb) =>
        eb
          .selectFrom("knowledge_nodes as n")
          .select(sql<number>`count(*)::int`.as("n"))
          .where("n.tenant_id", "=", tenantId)
          .where(sql<boolean>`l.name = ANY(n.labels)`)
          .as("node_count"),
    ])
    .where("l.tenant_id", "=", tenantId)
    .orderBy("l.name")
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, nodeCount: Number(r.node_count ?? 0) }));
}

export async function findLabel(db: Trx, tenantId: number, id: number): Promise<KnowledgeLabel | undefined> {
  const row = await db
    .selectFrom("knowledge_labels")
    .select(["id", "name"])
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const count = await db
    .selectFrom("knowledge_nodes")
    .select(sql<number>`count(*)::int`.as("n"))
    .where("tenant_id", "=", tenantId)
    .where(sql<boolean>`${row.name} = ANY(labels)`)
    .executeTakeFirstOrThrow();
  return { ...row, nodeCount: Number(count.n) };
}

export async function createLabel(db: Trx, tenantId: number, name: string): Promise<KnowledgeLabel> {
  const exists = await db
    .selectFrom("knowledge_labels")
    .select("id")
    .where("tenant_id", "=", tenantId)
    .where("name", "=", name)
    .executeTakeFirst();
  if (exists) throw new KnowledgeRefused(400, "标签已存在");
  const row = await db
    .insertInto("knowledge_labels")
    .values({ tenant_id: tenantId, name })
    .returning(["id", "name"])
    .executeTakeFirstOrThrow();
  return { ...row, nodeCount: 0 };
}

/** Deletes a label and takes it off every node that had it. */
export async function deleteLabel(db: Trx, tenantId: number, id: number): Promise<KnowledgeLabel> {
  const label = await findLabel(db, tenantId, id);
  if (!label) throw new KnowledgeRefused(404, "标签不存在");
  await db
    .updateTable("knowledge_nodes")
    .set({ labels: sql`array_remove(labels, ${label.name})` })
    .where("tenant_id", "=", tenantId)
    .where(sql<boolean>`${label.name} = ANY(labels)`)
    .execute();
  await db.deleteFrom("knowledge_labels").where("tenant_id", "=", tenantId).where("id", "=", id).execute();
  return label;
}

/** An agent's search that found nothing: counted per keyword. */
export async function recordGap(db: Db, tenantId: number, keyword: string): Promise<void> {
  await db
    .insertInto("knowledge_gaps")
    .values({ tenant_id: tenantId, keyword })
    .onConflict((oc) => oc.columns(["tenant_id", "keyword"]).doUpdateSet({ times: sql`knowledge_gaps.times + 1`, last_at: sql`now()` }))
    .execute();
}

/** The searches that found nothing and still find no enabled node, most often first. */
export async function listGaps(
  db: Db,
  tenantId: number,
  query: { pageNo: number; pageSize: number },
): Promise<{ list: KnowledgeGap[]; total: number }> {
  const base = db
    .selectFrom("knowledge_gaps as k")
    .where("k.tenant_id", "=", tenantId)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom("knowledge_nodes as n")
            .select("n.id")
            .where("n.tenant_id", "=", tenantId)
            .where("n.state", "=", 1)
            .where(
              sql<boolean>`(strpos(n.title, k.keyword) > 0 OR strpos(n.content, k.keyword) > 0 OR strpos(array_to_string(n.labels, ' '), k.keyword) > 0)`,
            ),
        ),
      ),
    );
  const [rows, count] = await Promise.all([
    base
      .select(["k.keyword", "k.times", "k.last_at"])
      .orderBy("k.times", "desc")
      .orderBy("k.last_at", "desc")
      .limit(query.pageSize)
      .offset((query.pageNo - 1) * query.pageSize)
      .execute(),
    base.select(sql<number>`count(*)::int`.as("total")).executeTakeFirstOrThrow(),
  ]);
  return {
    list: rows.map((r) => ({ keyword: r.keyword, times: r.times, lastAt: new Date(r.last_at).toISOString() })),
    total: Number(count.total),
  };
}

/** Knowledge of the demo data: groups by name, each with its nodes. */
export async function insertKnowledge(
  db: Trx,
  tenantId: number,
  groupName: string,
  nodes: Array<{ title: string; content: string; labels?: string[] }>,
): Promise<void> {
  const group =
    (await db
      .selectFrom("knowledge_groups")
      .select("id")
      .where("tenant_id", "=", tenantId)
      .where("name", "=", groupName)
      .executeTakeFirst()) ??
    (await db.insertInto("knowledge_groups").values({ tenant_id: tenantId, name: groupName }).returning("id").executeTakeFirstOrThrow());
  if (nodes.length === 0) return;
  await db
    .insertInto("knowledge_nodes")
    .values(nodes.map((n) => ({ tenant_id: tenantId, group_id: group.id, title: n.title, content: n.content, labels: n.labels ?? [] })))
    .execute();
  await rememberLabels(db, tenantId, [...new Set(nodes.flatMap((n) => n.labels ?? []))]);
}
