import type { FastifyInstance } from "fastify";
import { createAgentPopulation } from "#upstream/simulators/agent-population";

/**
 * The demo tenant's sales queue and its agents (user name, name): a floor of its own, so the
 * demo's monitor has agents to watch (the agent population simulator works them) without taking
 * the calls of the demo's own accounts, and the seeded history stays with those accounts.
 */
export const SALES_QUEUE = "demo-sales";
export const SALES_TEAM: ReadonlyArray<readonly [string, string]> = [
  ["agent01", "赵敏"],
  ["agent02", "钱磊"],
  ["agent03", "孙丽"],
  ["agent04", "周强"],
  ["agent05", "吴芳"],
  ["agent06", "郑浩"],
  ["agent07", "王军"],
  ["agent08", "冯雪"],
  ["agent09", "陈刚"],
  ["agent10", "褚红"],
  ["agent11", "卫东"],
  ["agent12", "蒋涛"],
  ["agent13", "沈冰"],
  ["agent14", "韩梅"],
  ["agent15", "杨帆"],
  ["agent16", "朱琳"],
];

/** Starts the demo tenant's sales team (when the demo data is there); answers it, to stop it. */
export async function startSalesTeam(app: FastifyInstance) {
  const rows = await app.db
    .selectFrom("users as u")
    .innerJoin("tenants as t", "t.id", "u.tenant_id")
    .select(["u.id", "u.tenant_id"])
    .where("t.code", "=", "demo")
    .where(
      "u.user_name",
      "in",
      SALES_TEAM.map(([name]) => name),
    )
    .execute();
  if (rows.length === 0) return null;
  const population = createAgentPopulation(app, { tenantId: rows[0].tenant_id, userIds: rows.map((r) => r.id), queueName: SALES_QUEUE });
  population.start();
  return population;
}
