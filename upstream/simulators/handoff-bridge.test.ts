import { afterAll, beforeAll, expect, it } from "vitest";
import { PhoneSnapshotResponseSchema } from "../../contracts/cti";
import { UserAuthResponseSchema } from "../../contracts/uaa";
import type { PreparedPlatform } from "../testing";
import { bridgeHandoffs } from "./handoff-bridge";
import { bearer, describeDb, loginAs, testPlatform, TEST_DB } from "../test-db";

describeDb(`collaborative hand-offs from the dialer to the agents on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  let token: string;
  let agentId: number;
  beforeAll(async () => {
    platform = await testPlatform();
    platform.app.cti.options.acwMs = 200;
    token = await loginAs(platform.app, "agent");
    agentId = UserAuthResponseSchema.parse((await platform.app.inject({ url: "/uaa/oauth/user_auth", headers: bearer(token) })).json()).data!.id;
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
    const robotLines = await platform.db.selectFrom("call_dialogs").select("content").where("call_record_id", "=", waiting.call_record_id!).orderBy("seq").execute();
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
    let handed = await platform.db.selectFrom("handoffs").select(["state", "agent_user_id"]).where("id", "=", waiting.id).executeTakeFirstOrThrow();
    while (handed.state !== "handed" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 20));
      handed = await platform.db.selectFrom("handoffs").select(["state", "agent_user_id"]).where("id", "=", waiting.id).executeTakeFirstOrThrow();
    }
    expect(handed).toEqual({ state: "handed", agent_user_id: agentId });
  });
});
