import { afterAll, beforeAll, expect, it } from "vitest";
import { CallDetailResponseSchema } from "#contracts/contact";
import { BusinessRecordPageResponseSchema, CALLBACK_DATE_PAST } from "#contracts/workbench";
import { UserAuthResponseSchema } from "#contracts/uaa";
import { cstDate } from "#common/china-time";
import type { PreparedPlatform } from "#upstream/testing";
import { bearer, describeDb, loginAs, testPlatform, TEST_DB } from "#upstream/test-db";

const DAY_MS = 86_400_000;

/** An agent's saved result of an inbound call, as a supervisor reviewing the call sees it. */
describeDb(`an agent's call conclusion on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  const users: Record<string, { token: string; id: number; tenantId: number }> = {};
  const api = (who: string, method: "GET" | "POST", url: string, payload?: object, headers: Record<string, string> = {}) =>
    platform.app.inject({ method, url, payload, headers: { ...bearer(users[who].token), ...headers } });

  beforeAll(async () => {
    platform = await testPlatform();
    platform.app.cti.options.acwMs = 60_000;
    for (const name of ["agent", "supervisor"]) {
      const token = await loginAs(platform.app, name);
      const who = UserAuthResponseSchema.parse((await platform.app.inject({ url: "/uaa/oauth/user_auth", headers: bearer(token) })).json());
      users[name] = { token, id: who.data!.id, tenantId: who.data!.tenantId };
    }
  });
  afterAll(async () => platform?.close());

  it("shows the agent's result and remark in the call's detail, and links the business record to that call", async () => {
    await api("agent", "POST", "/cti/api/agent/state", { command: "signIn" });
    await api("agent", "POST", "/cti/api/agent/state", { command: "ready" });
    const call = await platform.app.cti.offerInbound(users.agent.tenantId, { phone: "13912345670", queueName: "demo-voice" });
    expect((await api("agent", "POST", "/cti/api/call/answer")).statusCode).toBe(200);
    expect((await api("agent", "POST", "/cti/api/call/hangup")).statusCode).toBe(200);
    await platform.app.cti.settled();

    const today = cstDate(new Date());
    const past = cstDate(new Date(Date.now() - DAY_MS));
    const conclusion = {
      ctiCallId: call.ctiCallId,
      callResult: 1,
      remark: "客户已确认地址",
      fields: { businessType: "咨询", callbackDate: past },
    };
    // A callback planned before today (the tenant's clock) is refused, on that field, and nothing is saved.
    const refused = await api("agent", "POST", "/contact/call/conclusion", conclusion, { "idempotency-key": "key-past-0001" });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ msg: CALLBACK_DATE_PAST });
    const notDate = { ...conclusion, fields: { callbackDate: "明天" } };
    expect((await api("agent", "POST", "/contact/call/conclusion", notDate, { "idempotency-key": "key-junk-0001" })).json()).toMatchObject({
      code: 400,
      msg: "回访日期格式无效",
    });
    expect(await platform.db.selectFrom("business_records").select("id").where("cti_call_id", "=", call.ctiCallId).execute()).toEqual([]);

    const saved = { ...conclusion, fields: { businessType: "咨询", callbackDate: today } };
    const ok = await api("agent", "POST", "/contact/call/conclusion", saved, { "idempotency-key": "key-today-0001" });
    expect(ok.statusCode, ok.body).toBe(200);

    // The supervisor finds the call in the agent's history and opens it: the agent's result is there.
    const history = await api("supervisor", "GET", `/contact/business/callhistory?agentId=${users.agent.id}&pageSize=10`);
    expect(history.statusCode, history.body).toBe(200);
    const row = (history.json().data.list as Array<{ callId: number; ctiCallId: string }>).find((r) => r.ctiCallId === call.ctiCallId);
    expect(row).toBeDefined();
    const detail = CallDetailResponseSchema.parse((await api("supervisor", "GET", `/contact/income/calls/${row!.callId}`)).json()).data!;
    expect(detail.businessRecord).toMatchObject({
      callResult: 1,
      intent: null,
      remark: "客户已确认地址",
      fields: { businessType: "咨询", callbackDate: today },
      agentName: "张伟",
    });

    // The inbound business records list names the call's record, so its row can open the call.
    const records = BusinessRecordPageResponseSchema.parse((await api("supervisor", "GET", "/config/business/record/list")).json()).data!;
    expect(records.list.find((r) => r.ctiCallId === call.ctiCallId)).toMatchObject({ callId: row!.callId, remark: "客户已确认地址" });
  });
});
