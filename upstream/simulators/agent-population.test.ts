import { afterAll, beforeAll, expect, it } from "vitest";
import { describeDb, testPlatform, TEST_DB } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";
import { SALES_QUEUE, SALES_TEAM } from "#upstream/seed/sales-team";
import { createAgentPopulation } from "./agent-population";

/** A repeatable random sequence (linear congruential), so the floor behaves the same every run. */
function seeded(seed: number) {
  let state = seed;
  return () => (state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
}

describeDb(`the agent population on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  beforeAll(async () => {
    platform = await testPlatform();
  });
  afterAll(async () => platform?.close());

  it("works a queue through the real CTI: agents sign in, take calls, wrap up, and supervisors hear of every change", async () => {
    const team = await platform.db
      .selectFrom("users")
      .select(["id", "tenant_id"])
      .where(
        "user_name",
        "in",
        SALES_TEAM.map(([name]) => name),
      )
      .execute();
    const tenantId = team[0].tenant_id;
    const population = createAgentPopulation(platform.app, {
      tenantId,
      userIds: team.map((u) => u.id),
      queueName: SALES_QUEUE,
      tickMs: 1_000,
      talkMs: 10_000,
      callsPerReadyAgent: 0.5,
      random: seeded(7),
    });
    let now = Date.now();
    for (let i = 0; i < 40; i++) await population.tick((now += 1_000));
    await platform.app.cti.settled();

    const states = await Promise.all(team.map((u) => platform.app.cti.status({ id: u.id, tenantId })));
    expect(states.every((s) => s.agent.state !== "SIGNED_OUT")).toBe(true);
    // Calls were answered and ended: their records are in the queue's history, with the wait in queue.
    const records = await platform.db
      .selectFrom("call_records")
      .select(["agent_user_id", "queue_wait_ms", "is_answer"])
      .where("tenant_id", "=", tenantId)
      .where("queue_name", "=", SALES_QUEUE)
      .execute();
    expect(records.filter((r) => r.is_answer === 1).length).toBeGreaterThan(0);
    expect(records.every((r) => r.is_answer === 0 || (r.queue_wait_ms !== null && r.queue_wait_ms >= 0))).toBe(true);
    const told = await platform.app.notifications.replay({ kind: "tenant", tenantId, queueName: SALES_QUEUE }, 0);
    const seen = new Set(told.filter((n) => n.type === "monitor.agent").map((n) => (n.payload as { state: string }).state));
    for (const state of ["NOT_READY", "READY", "RINGING", "TALKING", "ACW"]) expect(seen).toContain(state);
    // Their clients reported (presence), so the monitor shows them working, not 失联.
    const present = await platform.db.selectFrom("user_presence").select("user_id").where("tenant_id", "=", tenantId).execute();
    expect(present.length).toBeGreaterThan(0);
  });
});
