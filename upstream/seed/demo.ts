import type { Db } from "#upstream/db";
import type { NewUser } from "#upstream/db/schema";
import { hashPassword } from "#upstream/domain/passwords";
import { WorkType } from "#upstream/domain/work-type";
import { hasAnyTenant, insertTenant } from "#upstream/repositories/tenants";
import { insertUser } from "#upstream/repositories/users";
import { seedCallRecords } from "./call-records";
import { seedOutbound } from "./outbound";
import { seedSmsTemplates } from "./sms-templates";
import { seedWorkbench } from "./workbench";
import { seedChat } from "./chat";
import { seedInspection } from "./inspection";
import { seedRobotResources } from "./robot-resources";
import { SALES_QUEUE, SALES_TEAM } from "./sales-team";

export { SALES_QUEUE, SALES_TEAM };

/** Every demo account's password (design §8). */
export const DEMO_PASSWORD = "Switchboard@2026";

type DemoUser = Omit<NewUser, "tenant_id" | "password_hash">;

/**
 * The demo tenants (design §6, §8): `demo` with one account per kind of user, and `other`, which
 * exists so that tenant isolation can be tested against real data.
 */
const demoTenants: Array<{ code: string; name: string; customerId: string; users: DemoUser[] }> = [
  {
    code: "demo",
    name: "演示租户",
    customerId: "C10001",
    users: [
      {
        user_name: "admin",
        real_name: "王建国",
        role: "admin",
        work_type: WorkType.voice,
        agent_id: "1000",
        default_queue_name: "demo-voice",
      },
      {
        user_name: "supervisor",
        real_name: "李秀英",
        role: "supervisor",
        work_type: WorkType.voice,
        agent_id: "1001",
        default_queue_name: "demo-voice",
      },
      {
        user_name: "agent",
        real_name: "张伟",
        role: "agent",
        work_type: WorkType.voice,
        agent_id: "1002",
        default_queue_name: "demo-voice",
      },
      { user_name: "chat", real_name: "刘洋", role: "agent", work_type: WorkType.text, agent_id: "1003", default_queue_name: "demo-text" },
      // The sales team: a queue of its own, so the demo's monitor has a floor to watch (the agent
      // population simulator works them) without taking the calls of the accounts above.
      ...SALES_TEAM.map(([user_name, real_name], i) => ({
        user_name,
        real_name,
        role: "agent" as const,
        work_type: WorkType.voice,
        agent_id: String(1101 + i),
        default_queue_name: SALES_QUEUE,
      })),
    ],
  },
  {
    code: "other",
    name: "其他租户",
    customerId: "C20001",
    users: [
      {
        user_name: "other-admin",
        real_name: "陈静",
        role: "admin",
        work_type: WorkType.voice,
        agent_id: "2000",
        default_queue_name: "other-voice",
      },
    ],
  },
];

/**
 * Seeds the demo data into an empty database; does nothing when any tenant exists, so it is safe
 * to call on every start. Returns whether it seeded.
 */
export async function seedDemo(db: Db): Promise<boolean> {
  if (await hasAnyTenant(db)) return false;
  // Hash before the transaction: scrypt is slow on purpose and needs no database. Each account
  // gets its own salt, as real accounts do.
  const tenants = await Promise.all(
    demoTenants.map(async (tenant) => ({
      ...tenant,
      users: await Promise.all(tenant.users.map(async (user) => ({ ...user, password_hash: await hashPassword(DEMO_PASSWORD) }))),
    })),
  );
  return db.transaction().execute(async (trx) => {
    // Checked again inside the transaction in case another process seeded meanwhile; a true race
    // ends on the unique tenant code, rolling this one back.
    if (await hasAnyTenant(trx)) return false;
    for (const tenant of tenants) {
      const tenantId = await insertTenant(trx, { code: tenant.code, name: tenant.name, customer_id: tenant.customerId });
      for (const user of tenant.users) await insertUser(trx, { ...user, tenant_id: tenantId });
    }
    await seedCallRecords(trx);
    await seedOutbound(trx);
    await seedWorkbench(trx);
    await seedChat(trx);
    await seedInspection(trx);
    await seedRobotResources(trx);
    await seedSmsTemplates(trx);
    return true;
  });
}
