import { afterAll, beforeAll, expect, it } from "vitest";
import { CUSTOMER_ROLE } from "#contracts/codes";
import { PhoneSnapshotResponseSchema } from "#contracts/cti";
import { UserAuthResponseSchema } from "#contracts/uaa";
import type { PreparedPlatform } from "#upstream/testing";
import { HANDOFF_TIMEOUT_MS } from "./dialer";
import { bridgeHandoffs } from "./handoff-bridge";
import { bearer, describeDb, loginAs, testPlatform, TEST_DB } from "#upstream/test-db";

describeDb(`collaborative hand-offs from the dialer to the agents on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  let token: string;
  let agentId: number;
  beforeAll(async () => {
    platform = await testPlatform();
    platform.app.cti.options.acwMs = 200;
    token = await loginAs(platform.app, "agent");
    agentId = UserAuthResponseSchema.parse((await platform.app.inject({ url: "/uaa/oauth/user_auth", headers: bearer(token) })).json())
      .data!.id;
  });
  afterAll(async () => platform?.close());

  const phone = async (method: "GET" | "POST", url: string, payload?: object) => {
    const response = await platform.app.inject({ method, url, payload, headers: bearer(token) });
    expect(response.statusCode, response.body).toBe(200);
    return PhoneSnapshotResponseSchema.parse(response.json()).data!;
  };

  it("rings at a ready agent with the robot's conversation so far, and answering marks the hand-off handed", async () => {
    await phone("POST", "/cti/api/agent/state", { command: "signIn" });
    await phone("POST", "/cti/api/agent/state", { command: "ready" });

    // A waiting hand-off of a collaborative campaign, with the robot call that produced it.
    const waiting = await platform.db
      .selectFrom("handoffs")
      .innerJoin("tenants", "tenants.id", "handoffs.tenant_id")
      .selectAll("handoffs")
      .where("tenants.code", "=", "demo")
      .where("handoffs.state", "=", "waiting")
      .where("handoffs.call_record_id", "is not", null)
      .executeTakeFirstOrThrow();
    const robotCall = await platform.db
      .selectFrom("call_records")
      .select(["recording", "intent"])
      .where("id", "=", waiting.call_record_id!)
      .executeTakeFirstOrThrow();
    expect(robotCall.intent).toBe(waiting.intent);
    // The robot's part of its recording: the agent's part is still to come.
    const robotLines = await platform.db
      .selectFrom("call_dialogs")
      .select("content")
      .where("call_record_id", "=", waiting.call_record_id!)
      .where("dialog_type", "=", 1)
      .orderBy("seq")
      .execute();
    expect(robotLines.length).toBeGreaterThan(0);

    const call = await bridgeHandoffs(platform.app).offer({
      id: waiting.id,
      tenantId: waiting.tenant_id,
      campaignId: waiting.campaign_id,
      batchId: waiting.batch_id,
      taskCallId: waiting.task_call_id,
      phone: waiting.phone,
      intent: waiting.intent,
    });
    const ringing = await phone("GET", "/cti/api/agent");
    expect(ringing.agent.state).toBe("RINGING");
    expect(ringing.call).toMatchObject({ ctiCallId: call!.ctiCallId, origin: "handoff", phone: waiting.phone });
    expect(ringing.call!.transcript.map((line) => line.dialogContent)).toEqual(robotLines.map((line) => line.content));

    await phone("POST", "/cti/api/call/answer");
    const deadline = Date.now() + 5_000;
    let handed = await platform.db
      .selectFrom("handoffs")
      .select(["state", "agent_user_id"])
      .where("id", "=", waiting.id)
      .executeTakeFirstOrThrow();
    while (handed.state !== "handed" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      handed = await platform.db
        .selectFrom("handoffs")
        .select(["state", "agent_user_id"])
        .where("id", "=", waiting.id)
        .executeTakeFirstOrThrow();
    }
    expect(handed).toEqual({ state: "handed", agent_user_id: agentId });

    // The agent's leg is recorded with the robot call's recording and intent: they agree.
    await phone("POST", "/cti/api/call/hangup");
    const agentLeg = await platform.db
      .selectFrom("call_records")
      .select(["id", "recording", "intent"])
      .where("cti_call_id", "=", call!.ctiCallId)
      .executeTakeFirstOrThrow();
    expect(agentLeg).toMatchObject({ recording: robotCall.recording, intent: waiting.intent });
    const customer = await platform.db
      .selectFrom("call_dialogs")
      .select(["nlu_result", "dialog_type"])
      .where("call_record_id", "=", agentLeg.id)
      .where("this_role", "=", CUSTOMER_ROLE)
      .orderBy("seq")
      .execute();
    expect(customer.at(-1)).toEqual({ nlu_result: waiting.intent, dialog_type: 2 });
  });

  it("a hand-off nobody answers rings out, goes back to the queue, and is recorded ToHumanNoAnswer when the customer is lost", async () => {
    const cti = platform.app.cti;
    cti.options.ringMs = 300;
    await until(async () => ["READY", "ACW"].includes((await phone("GET", "/cti/api/agent")).agent.state));
    if ((await phone("GET", "/cti/api/agent")).agent.state === "ACW") await phone("POST", "/cti/api/agent/state", { command: "ready" });
    // Another customer of the same campaign asks for an agent.
    const seeded = await platform.db
      .selectFrom("handoffs")
      .innerJoin("tenants", "tenants.id", "handoffs.tenant_id")
      .selectAll("handoffs")
      .where("tenants.code", "=", "demo")
      .executeTakeFirstOrThrow();
    const waiting = await platform.db
      .insertInto("handoffs")
      .values({
        tenant_id: seeded.tenant_id,
        campaign_id: seeded.campaign_id,
        batch_id: seeded.batch_id,
        task_call_id: seeded.task_call_id,
        call_record_id: null,
        phone: "13900001234",
        intent: seeded.intent,
        state: "waiting",
        created_at: new Date(),
        updated_at: new Date(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const call = await bridgeHandoffs(platform.app).offer({
      id: waiting.id,
      tenantId: waiting.tenant_id,
      campaignId: waiting.campaign_id,
      batchId: waiting.batch_id,
      taskCallId: waiting.task_call_id,
      phone: waiting.phone,
      intent: waiting.intent,
    });
    expect((await phone("GET", "/cti/api/agent")).agent.state).toBe("RINGING");

    // Nobody answers: the agent is not ready (未接来电), the call waits at the head of its queue.
    await until(async () => (await phone("GET", "/cti/api/agent")).agent.state === "NOT_READY");
    expect((await phone("GET", "/cti/api/agent")).agent.reason).toBe("MISSED");
    expect(cti.queues(waiting.tenant_id).find((queue) => queue.waiting > 0)).toBeDefined();

    // Ready again: the waiting call rings at the agent once more.
    await phone("POST", "/cti/api/agent/state", { command: "ready" });
    await until(async () => (await phone("GET", "/cti/api/agent")).call?.ctiCallId === call!.ctiCallId);
    await until(async () => (await phone("GET", "/cti/api/agent")).agent.state === "NOT_READY");

    // The dialer gives the hand-off up: the customer hangs up and the agent's leg says so.
    await platform.app.dialer.tick(new Date(Date.now() + HANDOFF_TIMEOUT_MS + 60_000));
    const leg = async () =>
      platform.db
        .selectFrom("call_records")
        .select(["outbound_result", "hangup_party", "is_answer"])
        .where("cti_call_id", "=", call!.ctiCallId)
        .executeTakeFirst();
    await until(async () => (await leg()) !== undefined);
    expect(await leg()).toEqual({ outbound_result: "ToHumanNoAnswer", hangup_party: 2, is_answer: 0 });
    expect((await platform.db.selectFrom("handoffs").select("state").where("id", "=", waiting.id).executeTakeFirstOrThrow()).state).toBe(
      "lost",
    );
  });
});

async function until(check: () => Promise<boolean>) {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 20));
  }
}
