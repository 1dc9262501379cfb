import { afterAll, beforeAll, expect, it } from "vitest";
import { CUSTOMER_ROLE } from "#contracts/codes";
import { PhoneSnapshotResponseSchema } from "#contracts/cti";
import { UserAuthResponseSchema } from "#contracts/uaa";
import type { PreparedPlatform } from "#upstream/testing";
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
});
