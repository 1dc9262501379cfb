import { statSync } from "node:fs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { CallDetailResponseSchema, CallRecordPageResponseSchema } from "#contracts/contact";
import { PhoneSnapshotResponseSchema } from "#contracts/cti";
import { BusinessRecordResponseSchema, ContactsByPhoneResponseSchema, DialogListResponseSchema } from "#contracts/workbench";
import { UserAuthResponseSchema } from "#contracts/uaa";
import { createCti } from "#upstream/cti/service";
import { RECORDINGS, recordingPath } from "#upstream/domain/recordings";
import { DEMO_CALLER } from "#upstream/seed/workbench";
import type { PreparedPlatform } from "#upstream/testing";
import { bearer, describeDb, loginAs, testPlatform, TEST_DB } from "#upstream/test-db";

async function until(check: () => boolean | Promise<boolean>, what: string) {
  const deadline = Date.now() + 5_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describeDb(`the CTI service on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  const users: Record<string, { token: string; id: number; tenantId: number }> = {};

  const api = (who: string, method: "GET" | "POST" | "PUT", url: string, payload?: object, headers: Record<string, string> = {}) =>
    platform.app.inject({ method, url, payload, headers: { ...bearer(users[who].token), ...headers } });
  const phone = async (who: string, method: "GET" | "POST", url: string, payload?: object) => {
    const response = await api(who, method, url, payload);
    expect(response.statusCode, response.body).toBe(200);
    return PhoneSnapshotResponseSchema.parse(response.json()).data!;
  };
  const cti = () => platform.app.cti;
  const demo = () => ({ id: users.agent.id, tenantId: users.agent.tenantId });

  beforeAll(async () => {
    platform = await testPlatform();
    cti().options.acwMs = 200;
    cti().options.dialMs = 20;
    for (const name of ["agent", "admin", "other-admin"]) {
      const token = await loginAs(platform.app, name);
      const who = UserAuthResponseSchema.parse((await platform.app.inject({ url: "/uaa/oauth/user_auth", headers: bearer(token) })).json());
      users[name] = { token, id: who.data!.id, tenantId: who.data!.tenantId };
    }
  });
  afterAll(async () => platform?.close());

  it("offers a robot hand-off to the ready agent, streams its transcript, and records the call and its conclusion", async () => {
    expect((await phone("agent", "GET", "/cti/api/agent")).agent.state).toBe("SIGNED_OUT");
    await phone("agent", "POST", "/cti/api/agent/state", { command: "signIn" });
    const ready = await phone("agent", "POST", "/cti/api/agent/state", { command: "ready" });
    expect(ready.agent.state).toBe("READY");

    const robotLine = { segmentId: 0, thisRole: 1, nluResult: null, dialogContent: "您好，这里是分期回访", gender: -1 };
    const call = await cti().offerRobotHandoff(users.agent.tenantId, {
      phone: DEMO_CALLER.phone,
      queueName: "demo-voice",
      prevCtiCallId: DEMO_CALLER.prevCtiCallId,
      transcript: [robotLine],
    });
    const ringing = await phone("agent", "GET", "/cti/api/agent");
    expect(ringing.agent.state).toBe("RINGING");
    expect(ringing.call).toMatchObject({ ctiCallId: call.ctiCallId, origin: "handoff", transcript: [robotLine] });

    expect((await phone("agent", "POST", "/cti/api/call/answer")).agent.state).toBe("TALKING");
    const customerLine = { segmentId: 1, thisRole: 3, nluResult: "ASK_FEE", dialogContent: "手续费怎么算", gender: 1 };
    await cti().addAsr(users.agent.tenantId, call.ctiCallId, customerLine);
    expect((await phone("agent", "POST", "/cti/api/call/hold")).agent.state).toBe("HOLD");
    expect((await phone("agent", "POST", "/cti/api/call/resume")).agent.state).toBe("TALKING");
    const acw = await phone("agent", "POST", "/cti/api/call/hangup");
    expect(acw.agent.state).toBe("ACW");
    expect(acw.agent.acwEndsAt).not.toBeNull();

    // Every change reached the agent's event stream, numbered, in order.
    await cti().settled();
    const events = await platform.app.notifications.replay({ kind: "user", userId: users.agent.id }, 0);
    const states = events.filter((e) => e.type === "cti.state").map((e) => (e.payload as { agent: { state: string } }).agent.state);
    expect(states).toEqual(["NOT_READY", "READY", "RINGING", "TALKING", "HOLD", "TALKING", "ACW"]);
    expect(events.find((e) => e.type === "cti.asr")?.payload).toEqual({ ctiCallId: call.ctiCallId, entry: customerLine });
    expect(events.map((e) => e.id)).toEqual([...events.map((e) => e.id)].sort((a, b) => a - b));

    // The record, the hand-off's recording and its transcript are written, so the call is in the call lists.
    const record = await platform.db
      .selectFrom("call_records")
      .selectAll()
      .where("cti_call_id", "=", call.ctiCallId)
      .executeTakeFirstOrThrow();
    expect(record).toMatchObject({
      tenant_id: users.agent.tenantId,
      agent_user_id: users.agent.id,
      is_answer: 1,
      call_result: 200,
      hangup_party: 3,
      campaign_type: 2,
    });
    expect(record.recording).toBe("transfer-to-agent.mp3");
    const recorded = RECORDINGS["transfer-to-agent.mp3"].lines.map((line) => line.content);
    const dialogs = DialogListResponseSchema.parse(
      (await api("agent", "GET", `/contact/campaign/dialog/list?ctiCallId=${call.ctiCallId}`)).json(),
    ).data!;
    expect(dialogs.list.map((line) => line.dialogContent)).toEqual(recorded);
    expect((await api("other-admin", "GET", `/contact/campaign/dialog/list?ctiCallId=${call.ctiCallId}`)).json().data.total).toBe(0);
    const today = await api("agent", "GET", "/cti/api/agent/calls/today");
    expect(today.json().data.list[0]).toMatchObject({ ctiCallId: call.ctiCallId, isAnswer: 1, conclusion: null });

    // The same submission twice (a retry) saves one record.
    const conclusion = {
      ctiCallId: call.ctiCallId,
      callResult: 1,
      intent: "CONFIRM",
      remark: "已办理6期",
      fields: { businessType: "分期" },
    };
    const first = await api("agent", "POST", "/contact/call/conclusion", conclusion, { "idempotency-key": "key-0001-abcdef" });
    const again = await api("agent", "POST", "/contact/call/conclusion", conclusion, { "idempotency-key": "key-0001-abcdef" });
    expect(first.statusCode, first.body).toBe(200);
    expect(BusinessRecordResponseSchema.parse(again.json()).data!.id).toBe(BusinessRecordResponseSchema.parse(first.json()).data!.id);
    const saved = await platform.db.selectFrom("business_records").select("id").where("cti_call_id", "=", call.ctiCallId).execute();
    expect(saved).toHaveLength(1);
    expect((await api("agent", "GET", `/config/business/record/${call.ctiCallId}`)).json().data).toMatchObject({
      callResult: 1,
      intent: "CONFIRM",
      remark: "已办理6期",
    });
    const updated = await platform.db
      .selectFrom("call_records")
      .select(["conclusion", "intent"])
      .where("cti_call_id", "=", call.ctiCallId)
      .executeTakeFirstOrThrow();
    expect(updated).toEqual({ conclusion: 1, intent: "CONFIRM" });

    // The after-call work timer returns the agent to ready.
    await until(async () => (await cti().status(demo())).agent.state === "READY", "after-call work to end");
  });

  it("dials out on the simulated network: busy and no answer come back to the agent and are recorded", async () => {
    const bad = await api("agent", "POST", "/cti/api/call/dial", { phone: "12345" });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe("请输入正确的电话号码");

    cti().setNextDialOutcome(users.agent.tenantId, "BUSY");
    const dialling = await phone("agent", "POST", "/cti/api/call/dial", { phone: "13700001111" });
    expect(dialling.agent.state).toBe("RINGING");
    const ctiCallId = dialling.call!.ctiCallId;
    await until(async () => (await cti().status(demo())).agent.state === "READY", "the busy line to drop");
    const busy = await platform.db
      .selectFrom("call_records")
      .select(["call_result", "is_answer"])
      .where("cti_call_id", "=", ctiCallId)
      .executeTakeFirstOrThrow();
    expect(busy).toEqual({ call_result: 486, is_answer: 0 });

    const answered = await phone("agent", "POST", "/cti/api/call/dial", { phone: "13700001111" });
    await until(async () => (await cti().status(demo())).agent.state === "TALKING", "the dial to be answered");
    expect((await phone("agent", "POST", "/cti/api/call/dtmf", { digits: "12#" })).call!.dtmf).toBe("12#");
    expect((await phone("agent", "POST", "/cti/api/call/mute")).agent.muted).toBe(true);
    expect((await phone("agent", "POST", "/cti/api/call/hangup")).agent.state).toBe("ACW");
    // The period ends, but an agent whose result is unsaved stays in after-call work …
    await new Promise((r) => setTimeout(r, 400));
    expect((await cti().status(demo())).agent.state).toBe("ACW");
    // … until it is saved: then the next call may ring.
    const result = { ctiCallId: answered.call!.ctiCallId, callResult: 2, remark: "客户占线后回拨，未办理", fields: {} };
    expect((await api("agent", "POST", "/contact/call/conclusion", result, { "idempotency-key": "key-dial-0001" })).statusCode).toBe(200);
    await until(async () => (await cti().status(demo())).agent.state === "READY", "after-call work to end");
    expect(answered.call!.origin).toBe("manual");
  });

  it("routes to the agent idle longest, and transfers to a colleague or back to the queue", async () => {
    for (const who of ["admin", "agent"]) {
      await phone(who, "POST", "/cti/api/agent/state", { command: "signIn" }).catch(() => undefined);
      await api(who, "POST", "/cti/api/agent/state", { command: "notReady", reason: "MEETING" });
    }
    await phone("admin", "POST", "/cti/api/agent/state", { command: "ready" });
    await new Promise((r) => setTimeout(r, 5));
    await phone("agent", "POST", "/cti/api/agent/state", { command: "ready" });
    const call = await cti().offerInbound(users.agent.tenantId, { phone: "13912345678", queueName: "demo-voice" });
    expect((await phone("admin", "GET", "/cti/api/agent")).call?.ctiCallId).toBe(call.ctiCallId); // ready longer
    expect((await phone("agent", "GET", "/cti/api/agent")).agent.state).toBe("READY");
    const agentId = (await phone("agent", "GET", "/cti/api/agent")).agent.agentId;
    const early = await api("admin", "POST", "/cti/api/call/consult", { agentId });
    expect(early.json()).toMatchObject({ code: 400, msg: "通话接通后才能咨询" });
    await phone("admin", "POST", "/cti/api/call/answer");

    // A consultation: the customer is held and the colleague's phone rings with the customer's screen.
    const consulting = await phone("admin", "POST", "/cti/api/call/consult", { agentId });
    expect(consulting.agent.state).toBe("HOLD");
    // Each side's softphone is named to the other (real voice: the asking agent's calls the colleague's).
    const sipUser = (who: string) => `t${users[who].tenantId}u${users[who].id}`;
    expect(consulting.call!.consult).toEqual({ colleague: "张伟", sipUser: sipUser("agent"), state: "ringing", asking: true });
    const asked = await phone("agent", "GET", "/cti/api/agent");
    expect(asked.agent.state).toBe("RINGING");
    expect(asked.call).toMatchObject({ ctiCallId: call.ctiCallId, phone: "13912345678" });
    expect(asked.call!.consult).toEqual({ colleague: "王建国", sipUser: sipUser("admin"), state: "ringing", asking: false });
    expect((await api("admin", "POST", "/cti/api/call/consult/transfer")).json()).toMatchObject({ code: 400, msg: "被咨询坐席尚未接听" });
    expect((await api("admin", "POST", "/cti/api/call/transfer", { target: "agent", to: agentId })).json()).toMatchObject({
      code: 400,
      msg: "正在咨询中，请先完成转接或结束咨询",
    });
    expect((await api("agent", "POST", "/cti/api/call/consult/cancel")).json()).toMatchObject({ code: 400, msg: "当前没有进行中的咨询" });
    await phone("agent", "POST", "/cti/api/call/answer");
    expect((await phone("admin", "GET", "/cti/api/agent")).call!.consult!.state).toBe("talking");

    // All three talk; then the asking agent leaves and the colleague keeps the customer.
    const conference = await phone("admin", "POST", "/cti/api/call/consult/conference");
    expect(conference.agent.state).toBe("TALKING");
    expect(conference.call!.consult!.state).toBe("conference");
    expect((await phone("agent", "GET", "/cti/api/agent")).call!.consult).toEqual({
      colleague: "王建国",
      sipUser: sipUser("admin"),
      state: "conference",
      asking: false,
    });
    expect((await phone("admin", "POST", "/cti/api/call/hangup")).agent.state).toBe("ACW");
    const kept = await phone("agent", "GET", "/cti/api/agent");
    expect(kept.agent.state).toBe("TALKING");
    expect(kept.call).toMatchObject({ ctiCallId: call.ctiCallId, consult: null });
    await until(
      async () => (await cti().status({ id: users.admin.id, tenantId: users.admin.tenantId })).agent.state === "READY",
      "the admin's after-call work",
    );
    // Back to the queue: the only ready agent (admin) gets it.
    await phone("agent", "POST", "/cti/api/call/transfer", { target: "queue", to: "demo-voice" });
    expect((await phone("admin", "GET", "/cti/api/agent")).agent.state).toBe("RINGING");
    await cti().customerHangup(users.agent.tenantId, call.ctiCallId);
    expect((await phone("admin", "GET", "/cti/api/agent")).agent.state).toBe("READY");
    const record = await platform.db
      .selectFrom("call_records")
      .select(["agent_user_id", "hangup_party", "is_answer"])
      .where("cti_call_id", "=", call.ctiCallId)
      .executeTakeFirstOrThrow();
    expect(record).toEqual({ agent_user_id: users.admin.id, hangup_party: 2, is_answer: 1 });
    await phone("admin", "POST", "/cti/api/agent/state", { command: "signOut" });
    await until(async () => (await cti().status(demo())).agent.state === "READY", "the agent's after-call work");
  });

  it("a direct line rings only at its agent, waiting while they are busy; transferred to the queue it is for anyone", async () => {
    for (const who of ["admin", "agent"]) {
      await phone(who, "POST", "/cti/api/agent/state", { command: "signIn" }).catch(() => undefined);
      await api(who, "POST", "/cti/api/agent/state", { command: "notReady", reason: "MEETING" });
    }
    await phone("admin", "POST", "/cti/api/agent/state", { command: "ready" }); // ready longer: first in line
    const direct = await cti().offerInbound(users.agent.tenantId, {
      phone: "13912340001",
      queueName: "demo-voice",
      forUserId: users.agent.id,
    });
    expect((await phone("admin", "GET", "/cti/api/agent")).agent.state).toBe("READY");
    await phone("agent", "POST", "/cti/api/agent/state", { command: "ready" });
    expect((await phone("agent", "GET", "/cti/api/agent")).call?.ctiCallId).toBe(direct.ctiCallId);
    await phone("agent", "POST", "/cti/api/call/answer");
    await phone("agent", "POST", "/cti/api/call/transfer", { target: "queue", to: "demo-voice" });
    expect((await phone("admin", "GET", "/cti/api/agent")).call?.ctiCallId).toBe(direct.ctiCallId);
    await cti().customerHangup(users.agent.tenantId, direct.ctiCallId);
    await phone("admin", "POST", "/cti/api/agent/state", { command: "signOut" });
    await until(async () => (await cti().status(demo())).agent.state === "READY", "the agent's after-call work");
  });

  it("after consulting, the agent takes the customer back or hands them over; a customer who hangs up ends the conference", async () => {
    for (const name of ["admin", "agent"]) {
      await api(name, "POST", "/cti/api/agent/state", { command: "signIn" });
      await until(async () => (await phone(name, "GET", "/cti/api/agent")).agent.state !== "ACW", `${name}'s after-call work`);
      await api(name, "POST", "/cti/api/agent/state", { command: "notReady", reason: "MEETING" });
    }
    await phone("admin", "POST", "/cti/api/agent/state", { command: "ready" });
    const agentId = (await phone("agent", "GET", "/cti/api/agent")).agent.agentId;
    const call = await cti().offerInbound(users.admin.tenantId, { phone: "13912340000", queueName: "demo-voice" });
    await phone("admin", "POST", "/cti/api/call/answer");
    // Only a ready colleague can be consulted.
    expect((await api("admin", "POST", "/cti/api/call/consult", { agentId })).json()).toMatchObject({ msg: "咨询的坐席不在就绪状态" });
    await phone("agent", "POST", "/cti/api/agent/state", { command: "ready" });

    // Back: the colleague is ready again, the agent talks to the customer.
    await phone("admin", "POST", "/cti/api/call/consult", { agentId });
    await phone("agent", "POST", "/cti/api/call/answer");
    const back = await phone("admin", "POST", "/cti/api/call/consult/cancel");
    expect(back.agent.state).toBe("TALKING");
    expect(back.call!.consult).toBeNull();
    expect((await phone("agent", "GET", "/cti/api/agent")).agent.state).toBe("READY");

    // Handed over: the colleague keeps talking with the customer, the agent wraps up.
    await phone("admin", "POST", "/cti/api/call/consult", { agentId });
    await phone("agent", "POST", "/cti/api/call/answer");
    expect((await phone("admin", "POST", "/cti/api/call/consult/transfer")).agent.state).toBe("ACW");
    expect((await phone("agent", "GET", "/cti/api/agent")).call).toMatchObject({ ctiCallId: call.ctiCallId, consult: null });
    await cti().customerHangup(users.admin.tenantId, call.ctiCallId);
    expect((await phone("agent", "GET", "/cti/api/agent")).agent.state).toBe("ACW");
    const record = await platform.db
      .selectFrom("call_records")
      .select(["agent_user_id", "hangup_party"])
      .where("cti_call_id", "=", call.ctiCallId)
      .executeTakeFirstOrThrow();
    expect(record).toEqual({ agent_user_id: users.agent.id, hangup_party: 2 });
    // The colleague who kept the customer records the result; then their after-call work ends.
    const handedOver = { ctiCallId: call.ctiCallId, callResult: 1, remark: "转接后办理完成", fields: {} };
    expect(
      (await api("agent", "POST", "/contact/call/conclusion", handedOver, { "idempotency-key": "key-handover-0001" })).statusCode,
    ).toBe(200);
    await until(async () => (await phone("agent", "GET", "/cti/api/agent")).agent.state === "READY", "the agent's after-call work");
    await until(async () => (await phone("admin", "GET", "/cti/api/agent")).agent.state === "READY", "the admin's after-call work");

    // A conference the customer ends: both wrap up.
    const second = await cti().offerInbound(users.admin.tenantId, { phone: "13912340001", queueName: "demo-voice" });
    const ringing = [await phone("admin", "GET", "/cti/api/agent"), await phone("agent", "GET", "/cti/api/agent")];
    const first = ringing[0].call?.ctiCallId === second.ctiCallId ? "admin" : "agent";
    const other = first === "admin" ? "agent" : "admin";
    await phone(first, "POST", "/cti/api/call/answer");
    await phone(first, "POST", "/cti/api/call/consult", { agentId: (await phone(other, "GET", "/cti/api/agent")).agent.agentId });
    await phone(other, "POST", "/cti/api/call/answer");
    await phone(first, "POST", "/cti/api/call/consult/conference");
    await cti().customerHangup(users.admin.tenantId, second.ctiCallId);
    expect((await phone(first, "GET", "/cti/api/agent")).agent.state).toBe("ACW");
    expect((await phone(other, "GET", "/cti/api/agent")).agent.state).toBe("ACW");
    // The one who holds the call records its result; the colleague's after-call work ends by itself.
    const result = { ctiCallId: second.ctiCallId, callResult: 1, remark: "三方通话后办理", fields: {} };
    expect((await api(first, "POST", "/contact/call/conclusion", result, { "idempotency-key": "key-conference-0001" })).statusCode).toBe(
      200,
    );
    // The tests after this one take calls as the agent alone.
    await until(async () => (await phone("admin", "GET", "/cti/api/agent")).agent.state === "READY", "the admin's after-call work");
    await phone("admin", "POST", "/cti/api/agent/state", { command: "signOut" });
  });

  it("records connected calls with their recording and timed transcript; a call that never connected has no audio", async () => {
    // Whatever the earlier tests left: signed in and ready.
    await api("agent", "POST", "/cti/api/agent/state", { command: "signIn" });
    await api("agent", "POST", "/cti/api/agent/state", { command: "ready" });
    expect((await phone("agent", "GET", "/cti/api/agent")).agent.state).toBe("READY");
    const tenantID = users.agent.tenantId;
    const history = async (phoneNumber: string) =>
      CallRecordPageResponseSchema.parse((await api("agent", "GET", `/contact/business/callhistory?phone=${phoneNumber}`)).json()).data!
        .list;
    const recording = (callId: number) => api("agent", "POST", `/records/records/${callId}`, { tenantID });

    // An inbound call, answered and hung up: in the agent's call history, with audio and timed lines.
    const inbound = await cti().offerInbound(tenantID, { phone: "13655550001", queueName: "demo-voice" });
    await phone("agent", "POST", "/cti/api/call/answer");
    await phone("agent", "POST", "/cti/api/call/hangup");
    const [connected] = await history("13655550001");
    expect(connected).toMatchObject({
      ctiCallId: inbound.ctiCallId,
      direction: "inbound",
      isAnswer: 1,
      callResult: 200,
      agentId: users.agent.id,
    });
    const audio = await recording(connected.callId);
    expect(audio.statusCode).toBe(200);
    expect(audio.headers["content-type"]).toBe("audio/mpeg");
    expect(audio.rawPayload.length).toBe(statSync(recordingPath("inbound-enquiry.mp3")).size);
    const detail = CallDetailResponseSchema.parse((await api("agent", "GET", `/contact/income/calls/${connected.callId}`)).json()).data!;
    const lines = detail.callingResults.flatMap((section) => section.dialogResults);
    expect(lines.map((l) => [l.dialogContent, l.recordStartTime, l.recordEndTime])).toEqual(
      RECORDINGS["inbound-enquiry.mp3"].lines.map((l) => [l.content, l.startMs, l.endMs]),
    );
    // Its result unsaved, the agent ends the after-call work themselves.
    expect((await phone("agent", "POST", "/cti/api/agent/state", { command: "ready" })).agent.state).toBe("READY");

    // A robot hand-off the customer gave up while it rang: listed, no audio, the robot's line kept untimed.
    const robotLine = { segmentId: 0, thisRole: 1, nluResult: null, dialogContent: "正在为您转接人工", gender: -1 };
    const handoff = await cti().offerRobotHandoff(tenantID, { phone: "13655550002", queueName: "demo-voice", transcript: [robotLine] });
    expect((await phone("agent", "GET", "/cti/api/agent")).agent.state).toBe("RINGING");
    await cti().customerHangup(tenantID, handoff.ctiCallId);
    const [missed] = await history("13655550002");
    expect(missed).toMatchObject({ ctiCallId: handoff.ctiCallId, isAnswer: 0, agentId: users.agent.id });
    const none = await recording(missed.callId);
    expect(none.headers["content-type"]).toMatch(/^application\/json/);
    expect(none.json()).toMatchObject({ code: 1, data: null });
    const missedDetail = CallDetailResponseSchema.parse((await api("agent", "GET", `/contact/income/calls/${missed.callId}`)).json()).data!;
    expect(missedDetail.callingResults.flatMap((section) => section.dialogResults)).toMatchObject([
      { dialogContent: "正在为您转接人工", recordStartTime: null, recordEndTime: null },
    ]);
    expect((await phone("agent", "GET", "/cti/api/agent")).agent.state).toBe("READY");
  });

  it("marks the agent's own finished call as poor in quality; supervisors see it in the list and the detail, other tenants cannot", async () => {
    await api("agent", "POST", "/cti/api/agent/state", { command: "signIn" });
    await api("agent", "POST", "/cti/api/agent/state", { command: "ready" });
    const tenantID = users.agent.tenantId;
    const call = await cti().offerInbound(tenantID, { phone: "13655550011", queueName: "demo-voice" });
    await phone("agent", "POST", "/cti/api/call/answer");
    const report = { ctiCallId: call.ctiCallId, poorSeconds: 24, issues: ["loss", "mos", "loss"] };
    // While the call is on it has no record yet.
    expect((await api("agent", "POST", "/cti/api/call/quality", report)).statusCode).toBe(404);
    await phone("agent", "POST", "/cti/api/call/hangup");

    // Only the call's own agent may mark it: not a colleague of the tenant, not another tenant's user.
    expect((await api("admin", "POST", "/cti/api/call/quality", report)).statusCode).toBe(404);
    expect((await api("other-admin", "POST", "/cti/api/call/quality", report)).statusCode).toBe(404);
    const refused = await api("agent", "POST", "/cti/api/call/quality", { ...report, issues: ["noise"] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toBe("通话质量问题只能是延迟、抖动、丢包或音质评分");
    expect((await api("agent", "POST", "/cti/api/call/quality", { ...report, poorSeconds: 0 })).statusCode).toBe(400);
    const rows = async (who: string) =>
      CallRecordPageResponseSchema.parse((await api(who, "POST", "/contact/income/calls", { phone: "13655550011", pageSize: 10 })).json())
        .data!.list;
    expect((await rows("admin"))[0].poorQuality).toBeNull();

    expect((await api("agent", "POST", "/cti/api/call/quality", report)).statusCode).toBe(200);
    const [marked] = await rows("admin");
    expect(marked).toMatchObject({ ctiCallId: call.ctiCallId, poorQuality: { seconds: 24, issues: ["loss", "mos"] } });
    const detail = CallDetailResponseSchema.parse((await api("admin", "GET", `/contact/income/calls/${marked.callId}`)).json()).data!;
    expect(detail.poorQuality).toEqual({ seconds: 24, issues: ["loss", "mos"] });
    expect(await rows("other-admin")).toEqual([]);
    expect((await phone("agent", "POST", "/cti/api/agent/state", { command: "ready" })).agent.state).toBe("READY");
  });

  it("a queue may leave the end of after-call work to the agent, result saved or not", async () => {
    const settings = (acwAutoReady: boolean) =>
      api("admin", "PUT", "/config/queues/settings", {
        settings: [{ queueName: "demo-voice", ringSeconds: 20, acwAutoReady }],
        reason: acwAutoReady ? "恢复自动结束" : "坐席需要完整填写结论",
      });
    expect((await settings(false)).statusCode).toBe(200);
    try {
      // Whatever the earlier tests left: signed in and ready.
      await api("agent", "POST", "/cti/api/agent/state", { command: "signIn" });
      await api("agent", "POST", "/cti/api/agent/state", { command: "ready" });
      const call = await cti().offerInbound(users.agent.tenantId, { phone: "13655550009", queueName: "demo-voice" });
      await phone("agent", "POST", "/cti/api/call/answer");
      const acw = await phone("agent", "POST", "/cti/api/call/hangup");
      expect(acw.agent).toMatchObject({ state: "ACW", acwEndsAt: null });
      const result = { ctiCallId: call.ctiCallId, callResult: 1, remark: "已办理", fields: {} };
      expect((await api("agent", "POST", "/contact/call/conclusion", result, { "idempotency-key": "key-manual-acw-01" })).statusCode).toBe(
        200,
      );
      await new Promise((r) => setTimeout(r, 400));
      expect((await cti().status(demo())).agent.state).toBe("ACW");
      expect((await phone("agent", "POST", "/cti/api/agent/state", { command: "ready" })).agent.state).toBe("READY");
    } finally {
      expect((await settings(true)).statusCode).toBe(200);
    }
  });

  it("refuses what the agent's state does not allow, in Chinese", async () => {
    const response = await api("agent", "POST", "/cti/api/call/answer");
    expect(response.statusCode).toBe(400);
    expect(response.json().msg).toBe("当前没有通话");
    const notReady = await api("agent", "POST", "/cti/api/agent/state", { command: "notReady", reason: "NAP" });
    expect(notReady.json().msg).toBe("请选择未就绪原因");
  });

  it("keeps tenants apart: calls, contacts, records and work orders", async () => {
    await phone("other-admin", "POST", "/cti/api/agent/state", { command: "signIn" });
    await phone("other-admin", "POST", "/cti/api/agent/state", { command: "ready" });
    // A call in the demo tenant is not offered to the other tenant's ready agent.
    const call = await cti().offerInbound(users.agent.tenantId, { phone: "13912345678", queueName: "demo-voice" });
    expect((await phone("other-admin", "GET", "/cti/api/agent")).agent.state).toBe("READY");
    await expect(
      cti().addAsr(users["other-admin"].tenantId, call.ctiCallId, {
        segmentId: 0,
        thisRole: 3,
        nluResult: null,
        dialogContent: "x",
        gender: -1,
      }),
    ).rejects.toThrow("通话不存在或已结束");
    await cti().customerHangup(users.agent.tenantId, call.ctiCallId);

    const contacts = ContactsByPhoneResponseSchema.parse(
      (await api("other-admin", "GET", `/crm_v2/contactsByPhone/${DEMO_CALLER.phone}`)).json(),
    ).data!;
    expect(contacts.list.map((c) => c.name)).toEqual(["孙丽"]);
    expect((await api("other-admin", "GET", `/config/business/record/${DEMO_CALLER.prevCtiCallId}`)).statusCode).toBe(404);
    const demoOrder = (await api("agent", "GET", `/config/business/record/${DEMO_CALLER.prevCtiCallId}`)).json().data.workOrderId;
    expect((await api("agent", "GET", `/config/workorder/record/info/${demoOrder}`)).statusCode).toBe(200);
    expect((await api("other-admin", "GET", `/config/workorder/record/info/${demoOrder}`)).statusCode).toBe(404);
    const link = await api("other-admin", "PUT", "/config/workorder/record/call", { ctiCallId: "x-1", workOrderId: demoOrder });
    expect(link.statusCode).toBe(404);
    const conclusion = await api("other-admin", "POST", "/contact/call/conclusion", {
      ctiCallId: DEMO_CALLER.prevCtiCallId,
      callResult: 1,
      idempotencyKey: "other-key-123",
    });
    expect(conclusion.statusCode).toBe(200);
    // Same call id in another tenant is another record: the demo tenant's record is untouched.
    expect((await api("agent", "GET", `/config/business/record/${DEMO_CALLER.prevCtiCallId}`)).json().data.callResult).toBe(2);
  });

  it("serves the screen-pop reads: flow script, knowledge, satisfaction, auto-answer", async () => {
    const flow = await platform.db
      .selectFrom("robot_flows")
      .select("id")
      .where("tenant_id", "=", users.agent.tenantId)
      .where("name", "=", "信用卡分期回访")
      .executeTakeFirstOrThrow();
    expect((await api("agent", "GET", `/robot/api/flow/${flow.id}/service`)).json().data.steps[0].title).toBe("开场");
    expect((await api("other-admin", "GET", `/robot/api/flow/${flow.id}/service`)).statusCode).toBe(404);
    expect(
      (await api("agent", "GET", "/config/knowledge/node/platform?keyword=手续费")).json().data.list.map((n: { title: string }) => n.title),
    ).toEqual(["分期手续费标准", "提前还款规则"]);
    expect((await api("agent", "GET", "/analysis/satisfaction/agent/today")).json().data.calls).toBeGreaterThan(0);
    expect((await api("agent", "PUT", "/config/agent/auto/answer", { autoAnswer: true })).statusCode).toBe(200);
    expect((await phone("agent", "GET", "/cti/api/agent")).agent.autoAnswer).toBe(true);
    await api("agent", "PUT", "/config/agent/auto/answer", { autoAnswer: false });
  });

  it("lists business records of inbound calls, per tenant, an agent's own", async () => {
    const remarks = async (who: string, query = "") =>
      (await api(who, "GET", `/config/business/record/list${query}`)).json().data.list.map((r: { remark: string }) => r.remark);
    expect(await remarks("agent")).toContain("客户对手续费有疑问，已建工单跟进");
    expect(await remarks("agent", "?callResult=1&phone=13800138000")).not.toContain("客户对手续费有疑问，已建工单跟进");
    expect(await remarks("other-admin")).not.toContain("客户对手续费有疑问，已建工单跟进");
    expect((await api("agent", "GET", "/config/business/record/list?pageSize=7")).statusCode).toBe(400);
  });

  it("a stopping platform records the calls it cuts; once restarted it tells agents they are signed out", async () => {
    // Two services on the same database and event store: the platform before and after a restart.
    const stopping = createCti(platform.db, platform.app.notifications, cti().options);
    await stopping.command(demo(), { type: "signIn" });
    await stopping.command(demo(), { type: "ready" });
    const call = await stopping.offerInbound(users.agent.tenantId, { phone: "13655550004", queueName: "demo-voice" });
    await stopping.callAction(demo(), "answer");
    await stopping.settled();
    await stopping.close();
    const record = await platform.db
      .selectFrom("call_records")
      .select(["agent_user_id", "is_answer", "hangup_party", "recording"])
      .where("cti_call_id", "=", call.ctiCallId)
      .executeTakeFirstOrThrow();
    expect(record).toEqual({ agent_user_id: users.agent.id, is_answer: 1, hangup_party: 4, recording: "inbound-enquiry.mp3" });

    const agentState = () =>
      platform.db.selectFrom("users").select("agent_state").where("id", "=", users.agent.id).executeTakeFirstOrThrow();
    expect(await agentState()).toEqual({ agent_state: "TALKING" });
    const restarted = createCti(platform.db, platform.app.notifications, cti().options);
    await restarted.signOutAfterRestart();
    await restarted.settled();
    const states = (await platform.app.notifications.replay({ kind: "user", userId: users.agent.id }, 0)).filter(
      (e) => e.type === "cti.state",
    );
    expect(states.at(-1)?.payload).toMatchObject({ agent: { state: "SIGNED_OUT" }, call: null });
    expect(await agentState()).toEqual({ agent_state: "SIGNED_OUT" });
    await restarted.close();
  });

  it("the calls of a platform that died without a word are recorded once by the one that owns next; a call that ended is not kept", async () => {
    const liveRow = (ctiCallId: string) =>
      platform.db.selectFrom("cti_live_calls").select("call").where("cti_call_id", "=", ctiCallId).executeTakeFirst();
    const records = (ctiCallId: string) =>
      platform.db
        .selectFrom("call_records")
        .select(["agent_user_id", "is_answer", "hangup_party", "phone"])
        .where("cti_call_id", "=", ctiCallId)
        .execute();
    const died = createCti(platform.db, platform.app.notifications, cti().options);
    await died.command(demo(), { type: "signIn" });
    await died.command(demo(), { type: "ready" });
    const call = await died.offerInbound(users.agent.tenantId, { phone: "13655550005", queueName: "demo-voice" });
    await died.callAction(demo(), "answer");
    await died.settled();
    // Kept as answered, in the database, while the process holding it lives.
    await until(
      async () => ((await liveRow(call.ctiCallId))?.call as { answeredAt: number | null } | undefined)?.answeredAt != null,
      "the answered call kept",
    );
    await died.stillLive();

    // The process dies (no close): the next owner records its call, once.
    const next = createCti(platform.db, platform.app.notifications, cti().options);
    expect(await next.recordCutCalls()).toBeGreaterThanOrEqual(1);
    expect(await records(call.ctiCallId)).toEqual([{ agent_user_id: users.agent.id, is_answer: 1, hangup_party: 4, phone: "13655550005" }]);
    expect(await liveRow(call.ctiCallId)).toBeUndefined();
    expect(await next.recordCutCalls()).toBe(0);
    expect(await records(call.ctiCallId)).toHaveLength(1);

    // A call that ends is recorded as it ends, and nothing of it is left to record again.
    await next.signOutAfterRestart();
    await next.command(demo(), { type: "signIn" });
    await next.command(demo(), { type: "ready" });
    const ended = await next.offerInbound(users.agent.tenantId, { phone: "13655550006", queueName: "demo-voice" });
    await next.callAction(demo(), "answer");
    await next.callAction(demo(), "hangup");
    await next.settled();
    expect(await records(ended.ctiCallId)).toHaveLength(1);
    expect(await liveRow(ended.ctiCallId)).toBeUndefined();
    await next.close();
    expect(await records(ended.ctiCallId)).toHaveLength(1);
  });

  it("has no simulator control routes unless SIMULATOR_CONTROL=1", async () => {
    expect((await api("admin", "POST", "/cti/simulator/offer", { phone: "13800138000" })).statusCode).toBe(404);
  });
});
