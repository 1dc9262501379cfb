import { afterAll, beforeAll, expect, it } from "vitest";
import { AuditPageResponseSchema } from "#contracts/audit";
import { FailureSchema } from "#contracts/envelope";
import {
  MonitorAgentListResponseSchema,
  MonitorGroupListResponseSchema,
  MonitorListenResponseSchema,
  MonitorRulesResponseSchema,
  PRESENCE_TIMEOUT_MS,
} from "#contracts/monitor";
import { QueueSettingsResponseSchema } from "#contracts/config";
import { PhoneSnapshotResponseSchema } from "#contracts/cti";
import { UserAuthResponseSchema } from "#contracts/uaa";
import { createChatService } from "#upstream/chat/service";
import { watchPresence } from "#upstream/monitor/presence";
import type { PreparedPlatform } from "#upstream/testing";
import { bearer, describeDb, loginAs, testPlatform, TEST_DB } from "#upstream/test-db";

describeDb(`the live monitor on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  const users: Record<string, { token: string; id: number; tenantId: number }> = {};
  const api = (who: string, method: "GET" | "POST" | "PUT", url: string, payload?: object) =>
    platform.app.inject({ method, url, payload, headers: bearer(users[who].token) });
  const ok = async (who: string, method: "GET" | "POST" | "PUT", url: string, payload?: object) => {
    const response = await api(who, method, url, payload);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<{ data: unknown }>();
  };
  const refusal = async (who: string, method: "GET" | "POST" | "PUT", url: string, payload: object | undefined, status: number) => {
    const response = await api(who, method, url, payload);
    expect(response.statusCode, response.body).toBe(status);
    return FailureSchema.parse(response.json()).msg;
  };
  const agents = async () => MonitorAgentListResponseSchema.parse(await ok("supervisor", "POST", "/analysis/monitor/agent", {})).data!.list;
  const row = async (name: string) => (await agents()).find((a) => a.userId === users[name].id)!;
  const present = (name: string) => platform.app.notifications.touchPresence({ id: users[name].id, tenantId: users[name].tenantId });
  const supervisorNotices = async (name: string) =>
    (await platform.app.notifications.replay({ kind: "user", userId: users[name].id }, 0)).filter((n) => n.type.endsWith(".supervisor"));

  beforeAll(async () => {
    platform = await testPlatform();
    platform.app.cti.options.acwMs = 60_000;
    for (const name of ["agent", "chat", "supervisor", "admin", "other-admin"]) {
      const token = await loginAs(platform.app, name);
      const who = UserAuthResponseSchema.parse(
        (await platform.app.inject({ url: "/uaa/oauth/user_auth", headers: bearer(token) })).json(),
      ).data!;
      users[name] = { token, id: who.id, tenantId: who.tenantId };
    }
  });
  afterAll(async () => platform?.close());

  it("shows every agent of the tenant live, and an agent whose client stopped reporting as 失联", async () => {
    expect(await row("agent")).toMatchObject({ state: "SIGNED_OUT", name: "张伟", agentId: "1002", queueName: "demo-voice" });
    expect((await agents()).map((a) => a.userId)).not.toContain(users.supervisor.id);
    await present("agent");
    await ok("agent", "POST", "/cti/api/agent/state", { command: "signIn" });
    await ok("agent", "POST", "/cti/api/agent/state", { command: "ready" });
    expect(await row("agent")).toMatchObject({ state: "READY", reason: null });

    // No heartbeat for longer than the timeout: 失联, not frozen in its last state.
    await platform.db
      .updateTable("user_presence")
      .set({ last_seen_at: new Date(Date.now() - PRESENCE_TIMEOUT_MS - 1_000) })
      .where("user_id", "=", users.agent.id)
      .execute();
    expect((await row("agent")).state).toBe("LOST");
    const watcher = watchPresence(platform.app);
    await watcher.sweep();
    const toldLost = await platform.app.notifications.replay({ kind: "tenant", tenantId: users.agent.tenantId }, 0);
    expect(
      toldLost
        .filter((n) => n.type === "monitor.agent")
        .map((n) => (n.payload as { state: string }).state)
        .at(-1),
    ).toBe("LOST");
    await present("agent");
    expect((await row("agent")).state).toBe("READY");
    const last = toldLost.at(-1)!.id;
    await watcher.sweep();
    const toldBack = await platform.app.notifications.replay({ kind: "tenant", tenantId: users.agent.tenantId }, last);
    expect(toldBack.map((n) => (n.payload as { state: string }).state)).toEqual(["READY"]);

    // Filters: state, queue, name.
    const ready = MonitorAgentListResponseSchema.parse(await ok("supervisor", "POST", "/analysis/monitor/agent", { state: "READY" })).data!
      .list;
    expect(ready.map((a) => a.userId)).toEqual([users.agent.id]);
    const text = MonitorAgentListResponseSchema.parse(await ok("supervisor", "POST", "/analysis/monitor/agent", { queueName: "demo-text" }))
      .data!.list;
    expect(text.map((a) => a.name)).toContain("刘洋");
    expect(await refusal("supervisor", "POST", "/analysis/monitor/agent", { state: "DANCING" }, 400)).toMatch(/[\u4e00-\u9fff]/);

    // One agent, and a page: the longest in their state first, the filtered total, every agent in brief.
    const one = MonitorAgentListResponseSchema.parse(await ok("supervisor", "POST", "/analysis/monitor/agent", { userId: users.agent.id }))
      .data!.list;
    expect(one.map((a) => a.userId)).toEqual([users.agent.id]);
    const all = await agents();
    const longest = [...all].sort((a, b) => Date.parse(a.since) - Date.parse(b.since));
    const page = async (pageNo: number) =>
      MonitorAgentListResponseSchema.parse(
        await ok("supervisor", "POST", "/analysis/monitor/agent", { page: { pageNo, pageSize: 1, sort: "since" } }),
      ).data!;
    const [first, second] = [await page(1), await page(2)];
    expect(first.total).toBe(all.length);
    expect(first.list.map((a) => a.userId)).toEqual([longest[0]!.userId]);
    expect(second.list.map((a) => a.userId)).toEqual([longest[1]!.userId]);
    expect(first.states!.map((s) => s.userId).sort()).toEqual(all.map((a) => a.userId).sort());
    expect(first.states!.find((s) => s.userId === users.agent.id)?.state).toBe("READY");
    expect(await refusal("supervisor", "POST", "/analysis/monitor/agent", { page: { pageNo: 1, pageSize: 500 } }, 400)).toMatch(
      /[\u4e00-\u9fff]/,
    );
  });

  it("counts each queue's agents and waiting calls, and tells supervisors live", async () => {
    await ok("agent", "POST", "/cti/api/agent/state", { command: "notReady", reason: "MEAL" });
    const call = await platform.app.cti.offerInbound(users.agent.tenantId, { phone: "13800138011", queueName: "demo-voice" });
    const groups = MonitorGroupListResponseSchema.parse(await ok("supervisor", "POST", "/analysis/monitor/group")).data!;
    const voice = groups.list.find((g) => g.queueName === "demo-voice")!;
    expect(voice).toMatchObject({ signedIn: 1, ready: 0, notReady: { MEAL: 1 }, waiting: 1 });
    expect(voice.oldestWaitingSince).not.toBeNull();
    expect(groups.total.waiting).toBeGreaterThanOrEqual(1);
    // The monitor page's snapshot carries the same queues, counted from its one read.
    const page = MonitorAgentListResponseSchema.parse(
      await ok("supervisor", "POST", "/analysis/monitor/agent", { page: { pageNo: 1, pageSize: 20 } }),
    ).data!;
    expect({ ...page.groups!, at: null }).toEqual({ ...groups, at: null });

    const told = await platform.app.notifications.replay({ kind: "tenant", tenantId: users.agent.tenantId, queueName: "demo-voice" }, 0);
    expect(told.some((n) => n.type === "monitor.agent" && (n.payload as { state: string }).state === "NOT_READY")).toBe(true);
    expect(told.some((n) => n.type === "monitor.queue" && (n.payload as { waiting: number }).waiting === 1)).toBe(true);

    await ok("agent", "POST", "/cti/api/agent/state", { command: "ready" });
    await platform.app.cti.settled();
    expect((await row("agent")).state).toBe("RINGING");
    await platform.app.cti.customerHangup(users.agent.tenantId, call.ctiCallId);
  });

  it("signs an agent on a call out when the call ends, never mid-call, with the reason on their screen and in the audit log", async () => {
    await platform.app.cti.settled();
    if ((await row("agent")).state !== "READY") await ok("agent", "POST", "/cti/api/agent/state", { command: "ready" });
    const call = await platform.app.cti.offerInbound(users.agent.tenantId, { phone: "13800138012", queueName: "demo-voice" });
    await ok("agent", "POST", "/cti/api/call/answer");
    const answer = (await ok("supervisor", "POST", "/config/agents/forced/logout", { agentUserId: users.agent.id, reason: "交班" })) as {
      data: { message: string };
    };
    expect(answer.data.message).toBe("张伟 正在通话，将在通话结束后签出");
    expect(await row("agent")).toMatchObject({ state: "TALKING", signOutPending: true });
    await platform.app.cti.customerHangup(users.agent.tenantId, call.ctiCallId);
    await platform.app.cti.settled();
    expect((await row("agent")).state).toBe("SIGNED_OUT");
    const notices = (await supervisorNotices("agent")).map((n) => (n.payload as { message: string }).message);
    expect(notices).toContain("主管李秀英将在本次通话结束后将您签出。原因：交班");
    expect(notices).toContain("通话已结束，主管李秀英已将您签出。原因：交班");

    const audit = AuditPageResponseSchema.parse(await ok("admin", "POST", "/audit/api/log/list", { action: "agent.forceSignOut" })).data!;
    expect(audit.list[0]).toMatchObject({ actorName: "李秀英", reason: "交班", summary: "坐席 张伟（1002）：通话结束后签出" });
    expect(await refusal("supervisor", "POST", "/config/agents/forced/logout", { agentUserId: users.agent.id, reason: "再次" }, 400)).toBe(
      "该坐席已签出",
    );
    expect(await refusal("supervisor", "POST", "/config/agents/forced/logout", { agentUserId: users.agent.id, reason: " " }, 400)).toBe(
      "请填写原因",
    );
  });

  it("sets an agent's state, moves them to another queue and whispers to them, each with a reason", async () => {
    await ok("agent", "POST", "/cti/api/agent/state", { command: "signIn" });
    await ok("supervisor", "POST", "/config/agents/state", { agentUserId: users.agent.id, command: "ready", reason: "高峰" });
    expect((await row("agent")).state).toBe("READY");
    expect(
      await refusal(
        "supervisor",
        "POST",
        "/config/agents/state",
        { agentUserId: users.agent.id, command: "notReady", reason: "培训" },
        400,
      ),
    ).toBe("请选择未就绪原因");
    await ok("supervisor", "POST", "/config/agents/state", {
      agentUserId: users.agent.id,
      command: "notReady",
      notReadyReason: "TRAINING",
      reason: "培训",
    });
    expect(await row("agent")).toMatchObject({ state: "NOT_READY", reason: "TRAINING" });
    expect(
      await refusal("supervisor", "POST", "/config/agents/state", { agentUserId: users.agent.id, command: "finishAcw", reason: "x" }, 400),
    ).toBe("该坐席不在话后整理中");

    expect(
      await refusal(
        "supervisor",
        "PUT",
        "/config/agents/change",
        { agentUserId: users.agent.id, queueName: "nowhere", reason: "支援" },
        400,
      ),
    ).toBe("队列不存在");
    await ok("supervisor", "PUT", "/config/agents/change", { agentUserId: users.agent.id, queueName: "demo-text", reason: "支援" });
    expect((await row("agent")).queueName).toBe("demo-text");
    await ok("supervisor", "PUT", "/config/agents/change", { agentUserId: users.agent.id, queueName: "demo-voice", reason: "支援结束" });

    await ok("supervisor", "POST", "/analysis/monitor/whisper", { agentUserId: users.chat.id, content: "客户情绪激动，先安抚" });
    const whispers = (await supervisorNotices("chat")).map((n) => n.payload as { kind: string; message: string });
    expect(whispers.at(-1)).toMatchObject({ kind: "whisper", message: "客户情绪激动，先安抚" });
    expect(
      await refusal("supervisor", "POST", "/config/agents/state", { agentUserId: users.chat.id, command: "ready", reason: "x" }, 400),
    ).toBe("文本坐席不使用话机，不能变更话机状态");
  });

  it("lets a supervisor listen to a live chat, line by line", async () => {
    const chat = createChatService(platform.db, platform.app.notifications);
    const session = await chat.customerArrives(users.chat.tenantId, {
      queueName: "demo-text",
      customer: { name: "王女士", phone: "13700001111", channel: "网页", region: "南京" },
      content: "我的订单还没到",
    });
    expect(await row("chat")).toMatchObject({ chats: 1, work: { kind: "chat", id: session.sessionId } });
    const listen = MonitorListenResponseSchema.parse(await ok("supervisor", "GET", `/analysis/monitor/listen/${users.chat.id}`)).data!;
    expect(listen.work?.id).toBe(session.sessionId);
    expect(listen.lines.map((l) => [l.role, l.content])).toContainEqual(["customer", "我的订单还没到"]);
    await chat.customerWrites(users.chat.tenantId, session.sessionId, "能帮我查一下吗");
    const lines = await platform.app.notifications.replay({ kind: "tenant", tenantId: users.chat.tenantId }, 0);
    expect(lines.filter((n) => n.type === "monitor.line").map((n) => n.payload)).toContainEqual(
      expect.objectContaining({ kind: "chat", id: session.sessionId, role: "customer", content: "能帮我查一下吗" }),
    );
    // A voice agent not on a call has nothing to listen to.
    expect(MonitorListenResponseSchema.parse(await ok("supervisor", "GET", `/analysis/monitor/listen/${users.agent.id}`)).data).toEqual({
      work: null,
      lines: [],
    });
  });

  it("keeps thresholds per tenant: whole seconds, the warning below the critical, with a reason", async () => {
    const rules = MonitorRulesResponseSchema.parse(await ok("supervisor", "GET", "/analysis/monitor/rules")).data!.rules;
    expect(rules.map((r) => r.key)).toEqual(["NOT_READY", "ACW", "TALKING", "RINGING", "QUEUE_WAIT"]);
    const changed = rules.map((r) => (r.key === "ACW" ? { ...r, warningSeconds: 45, criticalSeconds: 90 } : r));
    expect(await refusal("supervisor", "PUT", "/analysis/monitor/rules", { rules: changed, reason: "" }, 400)).toBe("请填写修改原因");
    const wrongOrder = rules.map((r) => (r.key === "ACW" ? { ...r, warningSeconds: 90, criticalSeconds: 45 } : r));
    expect(await refusal("supervisor", "PUT", "/analysis/monitor/rules", { rules: wrongOrder, reason: "调整" }, 400)).toBe(
      "预警阈值应小于严重阈值",
    );
    const fraction = rules.map((r) => (r.key === "ACW" ? { ...r, warningSeconds: 4.5 } : r));
    expect(await refusal("supervisor", "PUT", "/analysis/monitor/rules", { rules: fraction, reason: "调整" }, 400)).toBe(
      "预警阈值应为整数秒",
    );
    await ok("supervisor", "PUT", "/analysis/monitor/rules", { rules: changed, reason: "话后整理过长" });
    const saved = MonitorRulesResponseSchema.parse(await ok("supervisor", "GET", "/analysis/monitor/rules")).data!.rules;
    expect(saved.find((r) => r.key === "ACW")).toEqual({ key: "ACW", warningSeconds: 45, criticalSeconds: 90 });
    const other = MonitorRulesResponseSchema.parse(await ok("other-admin", "GET", "/analysis/monitor/rules")).data!.rules;
    expect(other.find((r) => r.key === "ACW")).toEqual({ key: "ACW", warningSeconds: 60, criticalSeconds: 180 });
  });

  it("keeps each queue's ring timeout, in range, per tenant, audited, and a call rings that long", async () => {
    const settings = async (who: string) => QueueSettingsResponseSchema.parse(await ok(who, "GET", "/config/queues/settings")).data!;
    const before = await settings("supervisor");
    expect(before.defaultRingSeconds).toBe(20);
    expect(before.list.find((q) => q.queueName === "demo-voice")).toMatchObject({ ringSeconds: 20, isDefault: true });
    const put = (who: string, body: object, status: number) => refusal(who, "PUT", "/config/queues/settings", body, status);
    expect(await put("supervisor", { settings: [{ queueName: "demo-voice", ringSeconds: 3 }], reason: "x" }, 400)).toBe(
      "振铃超时至少 5 秒",
    );
    expect(await put("supervisor", { settings: [{ queueName: "demo-voice", ringSeconds: 7.5 }], reason: "x" }, 400)).toBe(
      "振铃超时应为整数秒",
    );
    expect(await put("supervisor", { settings: [{ queueName: "other-voice", ringSeconds: 30 }], reason: "x" }, 404)).toBe(
      "队列不存在：other-voice",
    );
    expect(await put("supervisor", { settings: [{ queueName: "demo-voice", ringSeconds: 30 }], reason: " " }, 400)).toBe("请填写修改原因");
    expect(await put("agent", { settings: [{ queueName: "demo-voice", ringSeconds: 30 }], reason: "x" }, 403)).toBe(
      "无权访问：需要「坐席监控」菜单",
    );
    await ok("supervisor", "PUT", "/config/queues/settings", {
      settings: [{ queueName: "demo-voice", ringSeconds: 30 }],
      reason: "坐席离座较远",
    });
    expect((await settings("supervisor")).list.find((q) => q.queueName === "demo-voice")).toMatchObject({
      ringSeconds: 30,
      isDefault: false,
    });
    expect((await settings("other-admin")).list.map((q) => q.queueName)).toEqual(["other-voice"]);
    const audit = AuditPageResponseSchema.parse(await ok("admin", "POST", "/audit/api/log/list", { action: "queue.settings" })).data!;
    expect(audit.list[0]).toMatchObject({ summary: "队列设置：demo-voice 振铃 30 秒，话后整理自动结束", reason: "坐席离座较远" });

    // The queue's own setting, not the platform's default, decides how long a call rings.
    platform.app.cti.options.ringMs = 100;
    await ok("agent", "POST", "/cti/api/agent/state", { command: "signIn" }).catch(() => undefined);
    await api("agent", "POST", "/cti/api/agent/state", { command: "ready" });
    const call = await platform.app.cti.offerInbound(users.agent.tenantId, { phone: "13800001111", queueName: "demo-voice" });
    await new Promise((r) => setTimeout(r, 500));
    const phone = PhoneSnapshotResponseSchema.parse(await ok("agent", "GET", "/cti/api/agent")).data!;
    expect(phone.agent.state).toBe("RINGING");
    expect(phone.call?.ctiCallId).toBe(call.ctiCallId);
    await platform.app.cti.customerHangup(users.agent.tenantId, call.ctiCallId);
  });

  it("refuses agents everything, and keeps other tenants' agents out of reach", async () => {
    for (const [method, url, payload] of [
      ["POST", "/analysis/monitor/agent", {}],
      ["POST", "/analysis/monitor/group", {}],
      ["GET", "/analysis/monitor/rules", undefined],
      ["POST", "/config/agents/forced/logout", { agentUserId: users.agent.id, reason: "x" }],
      ["POST", "/config/agents/state", { agentUserId: users.agent.id, command: "ready", reason: "x" }],
      ["PUT", "/config/agents/change", { agentUserId: users.agent.id, queueName: "demo-voice", reason: "x" }],
      ["POST", "/analysis/monitor/whisper", { agentUserId: users.agent.id, content: "x" }],
      ["GET", `/analysis/monitor/listen/${users.agent.id}`, undefined],
    ] as const) {
      expect(await refusal("agent", method, url, payload, 403)).toBe("无权访问：需要「坐席监控」菜单");
    }
    expect(await refusal("other-admin", "POST", "/config/agents/forced/logout", { agentUserId: users.agent.id, reason: "x" }, 404)).toBe(
      "坐席不存在",
    );
    const theirs = MonitorAgentListResponseSchema.parse(await ok("other-admin", "POST", "/analysis/monitor/agent", {})).data!.list;
    expect(theirs.map((a) => a.userId)).not.toContain(users.agent.id);
    const theirPage = MonitorAgentListResponseSchema.parse(
      await ok("other-admin", "POST", "/analysis/monitor/agent", { userId: users.agent.id, page: { pageNo: 1, pageSize: 20 } }),
    ).data!;
    expect(theirPage.list).toEqual([]);
    expect(theirPage.states!.map((s) => s.userId)).not.toContain(users.agent.id);
  });
});
