import { randomBytes, scryptSync } from "node:crypto";
import type { Db } from "#upstream/db";
import { WorkType } from "#upstream/domain/work-type";
import { DEMO_PASSWORD } from "#upstream/seed/demo";
import { benchAgent, benchSupervisor, MONITOR } from "./config.mjs";

/**
 * Adds `agents` voice agents `bench-agent-001`… and `supervisors` supervisors to tenant `demo`,
 * with the demo accounts' password, on the bench queue: the bench platform's (bench/platform.ts)
 * and the bench cluster's (bench/sections/cluster.mjs) floor.
 */
export async function addBenchAccounts(db: Db, { agents, supervisors }: { agents: number; supervisors: number }): Promise<void> {
  const tenant = await db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow();
  // One cheap hash for all (the stored hash carries its own cost): 200 sign-ins at the product's
  // cost would take half a minute, and these accounts exist for one run.
  const salt = randomBytes(16);
  const key = scryptSync(DEMO_PASSWORD.normalize("NFKC"), salt, 64, { N: 1024, r: 8, p: 1 });
  const passwordHash = ["scrypt", 1024, 8, 1, salt.toString("base64url"), key.toString("base64url")].join("$");
  const account = (userName: string, realName: string, role: "agent" | "supervisor", agentId: number) => ({
    tenant_id: tenant.id,
    user_name: userName,
    real_name: realName,
    password_hash: passwordHash,
    role,
    // Every account signs in with an agent config (the console reads it at sign-in).
    work_type: WorkType.voice,
    agent_id: String(agentId),
    default_queue_name: MONITOR.queue,
  });
  // In slices: one INSERT of thousands of rows would pass PostgreSQL's limit of bound parameters.
  const rows = [
    ...Array.from({ length: agents }, (_, i) => account(benchAgent(i), `压测坐席${i + 1}`, "agent", 9000 + i)),
    ...Array.from({ length: supervisors }, (_, i) => account(benchSupervisor(i), `压测主管${i + 1}`, "supervisor", 8000 + i)),
  ];
  for (let i = 0; i < rows.length; i += 1_000)
    await db
      .insertInto("users")
      .values(rows.slice(i, i + 1_000))
      .execute();
}
