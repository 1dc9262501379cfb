import type { Agent, AgentListQuery, AgentUpdate } from "#contracts/config";
import type { Db, Trx } from "#upstream/db";
import { likePattern } from "./knowledge";
import { Refused } from "#upstream/domain/refused";

/** A refusal of an agent's change (another tenant's id, a 工号 taken), in Chinese. */
export class AgentRefused extends Refused {}

export const AGENT_NOT_FOUND = "坐席不存在";
const COLUMNS = ["id", "user_name", "real_name", "role", "agent_id", "work_type", "default_queue_name", "auto_answer"] as const;
type AgentRow = {
  id: number;
  user_name: string;
  real_name: string;
  role: Agent["role"];
  agent_id: string | null;
  work_type: number;
  default_queue_name: string;
  auto_answer: boolean;
};
const toAgent = (row: AgentRow): Agent => ({
  id: row.id,
  userName: row.user_name,
  realName: row.real_name,
  role: row.role,
  agentId: row.agent_id ?? "",
  workType: row.work_type,
  defaultQueueName: row.default_queue_name,
  autoAnswer: row.auto_answer,
});

/** The tenant's agents (accounts with a 工号), by 工号, filtered by name or 工号, type and queue. */
export async function listAgents(db: Db, tenantId: number, query: AgentListQuery): Promise<{ list: Agent[]; total: number }> {
  let base = db.selectFrom("users").where("tenant_id", "=", tenantId).where("agent_id", "is not", null);
  if (query.name) {
    const like = likePattern(query.name);
    base = base.where((eb) => eb.or([eb("real_name", "like", like), eb("agent_id", "like", like), eb("user_name", "like", like)]));
  }
  if (query.workType !== undefined) base = base.where("work_type", "=", query.workType);
  if (query.queueName) base = base.where("default_queue_name", "=", query.queueName);
  const [rows, count] = await Promise.all([
    base
      .select(COLUMNS)
      .orderBy("agent_id")
      .orderBy("id")
      .limit(query.pageSize)
      .offset((query.pageNo - 1) * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { list: rows.map(toAgent), total: Number(count.n) };
}

/** One agent of the tenant; another tenant's id, or an account without a 工号, is not found. */
export async function findAgent(db: Trx, tenantId: number, id: number, lock = false): Promise<Agent> {
  let query = db
    .selectFrom("users")
    .select(COLUMNS)
    .where("tenant_id", "=", tenantId)
    .where("id", "=", id)
    .where("agent_id", "is not", null);
  if (lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) throw new AgentRefused(404, AGENT_NOT_FOUND);
  return toAgent(row);
}

const agentIdTaken = (agentId: string, by: string) => new AgentRefused(400, `工号「${agentId}」已被坐席「${by}」使用，请换一个工号`);

/** Changes an agent's type, 工号 and default queue; a 工号 another agent of the tenant has is refused. */
export async function updateAgent(trx: Trx, tenantId: number, id: number, change: Omit<AgentUpdate, "reason">) {
  const before = await findAgent(trx, tenantId, id, true);
  const holder = await trx
    .selectFrom("users")
    .select("real_name")
    .where("tenant_id", "=", tenantId)
    .where("agent_id", "=", change.agentId)
    .where("id", "<>", id)
    .executeTakeFirst();
  if (holder) throw agentIdTaken(change.agentId, holder.real_name);
  try {
    const row = await trx
      .updateTable("users")
      .set({ work_type: change.workType, agent_id: change.agentId, default_queue_name: change.defaultQueueName })
      .where("tenant_id", "=", tenantId)
      .where("id", "=", id)
      .returning(COLUMNS)
      .executeTakeFirstOrThrow();
    return { before, after: toAgent(row) };
  } catch (error) {
    // Two administrators giving the same 工号 at once: the unique index decides.
    if ((error as { code?: string } | null)?.code === "23505") throw agentIdTaken(change.agentId, "其他坐席");
    throw error;
  }
}
