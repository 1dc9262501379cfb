import { afterAll, beforeAll, expect, it } from "vitest";
import {
  CHAT_EVENT,
  ChatBusinessRecordPageResponseSchema,
  ChatBusinessRecordResponseSchema,
  ChatDialogResponseSchema,
  ChatSessionPageResponseSchema,
  ChatSessionResponseSchema,
  QuickReplyListResponseSchema,
} from "#contracts/chat";
import { FailureSchema } from "#contracts/envelope";
import { UserAuthResponseSchema } from "#contracts/uaa";
import { createChatService } from "#upstream/chat/service";
import { createChatSimulator, LEAVE_AFTER_MS } from "#upstream/chat/simulator";
import { WorkType } from "#upstream/domain/work-type";
import type { PreparedPlatform } from "#upstream/testing";
import { bearer, describeDb, loginAs, testPlatform, TEST_DB } from "#upstream/test-db";
import { chatSimulatorRoutes } from "./chat";

describeDb(`chat service on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  const users: Record<string, { token: string; id: number }> = {};

  const request = async (name: string, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
    platform.app.inject({ method, url, headers: bearer(users[name].token), payload });
  const eventsOf = async (name: string) => platform.app.notifications.replay({ kind: "user", userId: users[name].id }, 0);
  const arrive = async (content = "你好，在吗？") =>
    ChatSessionResponseSchema.parse((await request("chat", "POST", "/chat/simulator/customers", { content })).json()).data!;

  beforeAll(async () => {
    platform = await testPlatform();
    // The control routes, as a platform started with SIMULATOR_CONTROL=1 has them.
    platform.app.register(chatSimulatorRoutes);
    // A second text agent, outside the text queue: what one agent may not do to another's chats.
    await platform.db.updateTable("users").set({ work_type: WorkType.text }).where("user_name", "=", "agent10").execute();
    for (const name of ["chat", "agent10", "agent", "admin", "other-admin"]) {
      const token = await loginAs(platform.app, name);
      const who = UserAuthResponseSchema.parse((await platform.app.inject({ url: "/uaa/oauth/user_auth", headers: bearer(token) })).json());
      users[name] = { token, id: who.data!.id };
    }
  }, 60_000);
  afterAll(async () => platform?.close());

  it("a new customer is assigned to the queue's text agent, who is told with a chat event", async () => {
    const session = await arrive("我想问一下账单");
    expect(session.state).toBe("active");
    expect(session.queueName).toBe("demo-text");
    expect(session.agentName).toBe("刘洋");
    expect(session.dialogs.map((d) => [d.role, d.content])).toEqual([["user", "我想问一下账单"]]);
    const added = (await eventsOf("chat")).filter((e) => e.type === CHAT_EVENT.add);
    expect(added.at(-1)?.payload).toMatchObject({ session: { sessionId: session.sessionId } });
  });

  it("stores the customer's and the agent's messages in order and publishes each", async () => {
    const session = await arrive();
    const customer = await request("chat", "POST", `/chat/simulator/sessions/${session.sessionId}/messages`, { content: "订单号 123" });
    expect(customer.statusCode).toBe(200);
    const sent = await request("chat", "POST", `/chat/api/sessions/${session.sessionId}/messages`, {
      content: "好的，马上查询",
      clientId: "c-1",
    });
    const dialog = ChatDialogResponseSchema.parse(sent.json()).data!;
    // A resend with the same client id (the console retrying) is stored once.
    const again = ChatDialogResponseSchema.parse(
      (
        await request("chat", "POST", `/chat/api/sessions/${session.sessionId}/messages`, { content: "好的，马上查询", clientId: "c-1" })
      ).json(),
    ).data!;
    expect(again.id).toBe(dialog.id);
    const detail = ChatSessionResponseSchema.parse((await request("chat", "GET", `/chat/api/sessions/${session.sessionId}`)).json()).data!;
    expect(detail.dialogs.map((d) => d.content)).toEqual(["你好，在吗？", "订单号 123", "好的，马上查询"]);
    const updates = (await eventsOf("chat")).filter(
      (e) => e.type === CHAT_EVENT.update && (e.payload as { sessionId: string }).sessionId === session.sessionId,
    );
    expect(updates.map((e) => (e.payload as { role: string }).role)).toEqual(["user", "agent"]);
  });

  it("refuses an empty or oversized message with a clear message", async () => {
    const session = await arrive();
    const empty = await request("chat", "POST", `/chat/api/sessions/${session.sessionId}/messages`, { content: "   " });
    expect(empty.statusCode).toBe(400);
    expect(FailureSchema.parse(empty.json()).msg).toBe("请输入消息内容");
    const long = await request("chat", "POST", `/chat/api/sessions/${session.sessionId}/messages`, { content: "长".repeat(2001) });
    expect(long.statusCode).toBe(400);
    expect(FailureSchema.parse(long.json()).msg).toBe("消息不能超过2000个字符");
  });

  it("closing records the session as closed, once; closing again is harmless; no more messages", async () => {
    const session = await arrive();
    const first = await request("chat", "POST", `/chat/api/sessions/${session.sessionId}/close/agent`);
    expect(ChatSessionResponseSchema.parse(first.json()).data!.state).toBe("closed");
    const second = await request("chat", "POST", `/chat/api/sessions/${session.sessionId}/close/agent`);
    expect(second.statusCode).toBe(200);
    expect(ChatSessionResponseSchema.parse(second.json()).data!.closedAt).toBe(
      ChatSessionResponseSchema.parse(first.json()).data!.closedAt,
    );
    const closes = (await eventsOf("chat")).filter(
      (e) => e.type === CHAT_EVENT.close && (e.payload as { sessionId: string }).sessionId === session.sessionId,
    );
    expect(closes).toHaveLength(1);
    const late = await request("chat", "POST", `/chat/api/sessions/${session.sessionId}/messages`, { content: "还在吗" });
    expect(late.statusCode).toBe(400);
    const closed = ChatSessionPageResponseSchema.parse(
      (await request("chat", "GET", "/chat/api/sessions?state=closed&pageSize=100")).json(),
    ).data!;
    expect(closed.list.map((s) => s.sessionId)).toContain(session.sessionId);
  });

  it("lists by repeated state values, newest first, paged", async () => {
    const page = ChatSessionPageResponseSchema.parse(
      (await request("chat", "GET", "/chat/api/sessions?state=active&state=waiting&pageSize=10")).json(),
    ).data!;
    expect(page.list.length).toBeGreaterThan(0);
    expect(page.list.every((s) => s.state === "active" || s.state === "waiting")).toBe(true);
    expect(page.total).toBeGreaterThanOrEqual(page.list.length);
    const bad = await request("chat", "GET", "/chat/api/sessions?state=nonsense");
    expect(bad.statusCode).toBe(400);
  });

  it("a waiting session is joined by an agent, once", async () => {
    const waiting = ChatSessionResponseSchema.parse(
      (await request("chat", "POST", "/chat/simulator/customers", { queueName: "demo-nobody", content: "有人吗" })).json(),
    ).data!;
    expect(waiting.state).toBe("waiting");
    const joined = await request("chat", "POST", `/chat/api/sessions/${waiting.sessionId}/join`);
    expect(ChatSessionResponseSchema.parse(joined.json()).data!.state).toBe("active");
    // Another agent cannot see it any more, let alone take it; a voice agent has no chats at all.
    expect((await request("agent10", "POST", `/chat/api/sessions/${waiting.sessionId}/join`)).statusCode).toBe(404);
    const voice = await request("agent", "POST", `/chat/api/sessions/${waiting.sessionId}/join`);
    expect(voice.statusCode).toBe(403);
    expect(FailureSchema.parse(voice.json()).msg).toBe("无权访问：需要「文本工作台」菜单");
  });

  it("saves one business record per session and lists it", async () => {
    const session = await arrive();
    const put = async (remark: string) =>
      request("chat", "PUT", "/chat/text/business/record", { sessionId: session.sessionId, category: "complaint", result: 2, remark });
    expect((await put("第一次")).json()).toMatchObject({ code: 1 });
    const saved = ChatBusinessRecordResponseSchema.parse((await put("改过了")).json()).data!;
    expect(saved).toMatchObject({ category: "complaint", result: 2, remark: "改过了", agentName: "刘洋" });
    const page = ChatBusinessRecordPageResponseSchema.parse((await request("chat", "GET", "/chat/text/business/record")).json()).data!;
    expect(page.list.filter((r) => r.sessionId === session.sessionId)).toHaveLength(1);
  });

  it("offers the tenant's enabled knowledge nodes as quick replies", async () => {
    const replies = QuickReplyListResponseSchema.parse((await request("chat", "GET", "/chat/api/quick-replies")).json()).data!.list;
    expect(replies.map((r) => r.title)).toContain("请稍等");
    expect(replies.map((r) => r.title)).not.toContain("他租户快捷回复");
  });

  it("keeps tenants apart: another tenant's sessions are unknown to every call", async () => {
    const session = await arrive();
    const foreign = `/chat/api/sessions/${session.sessionId}`;
    const unknown = await request("other-admin", "GET", foreign);
    expect(unknown.statusCode).toBe(404);
    // In its own words, unlike a path the platform does not know.
    expect(unknown.json().msg).toBe("会话不存在");
    expect((await request("admin", "GET", "/chat/api/sessions/no-such-session")).json().msg).toBe("会话不存在");
    expect((await request("admin", "GET", "/chat/api/no-such-path")).json().msg).not.toBe("会话不存在");
    expect((await request("other-admin", "POST", `${foreign}/join`)).statusCode).toBe(404);
    expect((await request("other-admin", "POST", `${foreign}/close/agent`)).statusCode).toBe(404);
    expect((await request("other-admin", "POST", `${foreign}/messages`, { content: "x" })).statusCode).toBe(404);
    expect(
      (await request("other-admin", "POST", `/chat/simulator/sessions/${session.sessionId}/messages`, { content: "x" })).statusCode,
    ).toBe(404);
    expect(
      (await request("other-admin", "PUT", "/chat/text/business/record", { sessionId: session.sessionId, category: "consult", result: 1 }))
        .statusCode,
    ).toBe(404);
    const theirs = ChatSessionPageResponseSchema.parse(
      (await request("other-admin", "GET", "/chat/api/sessions?pageSize=100")).json(),
    ).data!;
    expect(theirs.list.map((s) => s.customer.name)).toEqual(["他租户客户"]);
    const ours = ChatSessionPageResponseSchema.parse((await request("admin", "GET", "/chat/api/sessions?pageSize=100")).json()).data!;
    expect(ours.list.map((s) => s.customer.name)).not.toContain("他租户客户");
    // An agent sees only its own sessions; the administrator the whole tenant's.
    const agentOwn = ChatSessionPageResponseSchema.parse((await request("agent10", "GET", "/chat/api/sessions?pageSize=100")).json()).data!;
    expect(agentOwn.list.filter((s) => s.state !== "waiting")).toEqual([]);
    expect(ours.total).toBeGreaterThan(agentOwn.total);
  });

  it("the simulator's customers write after a realistic pause, and new ones arrive", async () => {
    const session = await arrive();
    const simulator = createChatSimulator(platform.db, createChatService(platform.db, platform.app.notifications), () => 0);
    const count = async () =>
      ChatSessionResponseSchema.parse((await request("chat", "GET", `/chat/api/sessions/${session.sessionId}`)).json()).data!.dialogs
        .length;
    const before = await count();
    const now = Date.now();
    await simulator.step(now); // schedules the next line 8 s on
    expect(await count()).toBe(before);
    await simulator.step(now + 8_000);
    expect(await count()).toBe(before + 1);
  });

  it("a simulated customer who has said everything leaves, and the agent's place goes to a new one", async () => {
    const session = await arrive();
    const simulator = createChatSimulator(platform.db, createChatService(platform.db, platform.app.notifications), () => 0.5);
    const detail = async () =>
      ChatSessionResponseSchema.parse((await request("chat", "GET", `/chat/api/sessions/${session.sessionId}`)).json()).data!;
    let now = Date.now();
    await simulator.step(now);
    // Seven more lines, each 16.5 s after the last (pick 0.5), then the customer is done.
    for (let line = 0; line < 7; line++) await simulator.step((now += 16_500));
    expect((await detail()).state).toBe("active");
    await simulator.step(now + LEAVE_AFTER_MS - 1_000);
    expect((await detail()).state).toBe("active");
    await simulator.step(now + LEAVE_AFTER_MS);
    const left = await detail();
    expect(left.state).toBe("closed");
    expect(left.dialogs.at(-1)).toMatchObject({ role: "system", content: "客户已离开会话" });
  });
});
