import { afterAll, beforeAll, expect, it } from "vitest";
import { AgentConfigResponseSchema, AgentPageResponseSchema, AgentResponseSchema, type Agent } from "#contracts/config";
import { MenusResponseSchema, type MenuItem } from "#contracts/crm";
import { PhoneSnapshotResponseSchema } from "#contracts/cti";
import { FailureSchema } from "#contracts/envelope";
import { SALES_TEAM } from "#upstream/seed/demo";
import { bearer, describeDb, loginAs, TEST_DB, testPlatform } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";
import { createChatService } from "#upstream/chat/service";

const codesOf = (items: MenuItem[]): string[] => items.flatMap((item) => [item.code, ...codesOf(item.children ?? [])]);

describeDb(`agent administration (坐席配置) on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    platform = await testPlatform();
    for (const account of ["admin", "agent", "supervisor", "chat", "other-admin", "agent01", "agent02"]) {
      tokens[account] = await loginAs(platform.app, account);
      ids[account] = (await platform.db.selectFrom("users").select("id").where("user_name", "=", account).executeTakeFirstOrThrow()).id;
    }
  });
  afterAll(async () => platform?.close());

  const inject = (account: string, method: "GET" | "PUT" | "POST", url: string, payload?: unknown) =>
    platform.app.inject({ method, url, headers: bearer(tokens[account]), payload: payload as object });
  const refusal = async (response: Awaited<ReturnType<typeof inject>>, status: number) => {
    expect(response.statusCode, response.body).toBe(status);
    return FailureSchema.parse(response.json()).msg;
  };
  const page = async (query = "") =>
    AgentPageResponseSchema.parse((await inject("admin", "GET", `/config/agents/list${query}`)).json()).data!;
  const put = (account: string, id: number, body: Record<string, unknown>) => inject(account, "PUT", `/config/agents/${id}`, body);

  it("answers administrators only, on every endpoint", async () => {
    for (const account of ["agent", "supervisor", "chat"]) {
      expect(await refusal(await inject(account, "GET", "/config/agents/list"), 403)).toBe("无权访问：需要「坐席配置」菜单");
      expect(await refusal(await inject(account, "GET", `/config/agents/${ids.agent}`), 403)).toBe("无权访问：需要「坐席配置」菜单");
      const change = { workType: 1, agentId: "1002", defaultQueueName: "demo-voice", reason: "试试" };
      expect(await refusal(await put(account, ids.agent, change), 403)).toBe("无权访问：需要「坐席配置」菜单");
    }
  });

  it("lists the tenant's agents with filters and pages, never another tenant's", async () => {
    const all = await page();
    // The four demo accounts (工号 1000–1003), then the sales team (1101 on).
    expect(all.total).toBe(4 + SALES_TEAM.length);
    expect(all.list.map((a) => a.agentId)).toEqual(["1000", "1001", "1002", "1003", ...SALES_TEAM.map((_, i) => String(1101 + i))]);
    expect(all.list.find((a) => a.userName === "chat")).toMatchObject({ realName: "刘洋", workType: 3, defaultQueueName: "demo-text" });
    expect(all.list.map((a) => a.userName)).not.toContain("other-admin");

    expect((await page("?workType=3")).list.map((a) => a.userName)).toEqual(["chat"]);
    expect((await page("?queueName=demo-sales")).total).toBe(SALES_TEAM.length);
    expect((await page(`?name=${encodeURIComponent("张伟")}`)).list.map((a) => a.agentId)).toEqual(["1002"]);
    expect((await page("?name=110")).total).toBe(10);
    const second = await page("?pageNo=2&pageSize=50");
    expect(second).toMatchObject({ total: 4 + SALES_TEAM.length, list: [] });
    expect(await refusal(await inject("admin", "GET", "/config/agents/list?workType=2"), 400)).toContain("类型无效");

    const other = AgentPageResponseSchema.parse((await inject("other-admin", "GET", "/config/agents/list")).json()).data!;
    expect(other.list.map((a) => a.userName)).toEqual(["other-admin"]);
  });

  it("reads one agent; another tenant's id is not found", async () => {
    const agent = AgentResponseSchema.parse((await inject("admin", "GET", `/config/agents/${ids.agent}`)).json()).data!;
    expect(agent).toEqual({
      id: ids.agent,
      userName: "agent",
      realName: "张伟",
      role: "agent",
      agentId: "1002",
      workType: 1,
      defaultQueueName: "demo-voice",
      autoAnswer: false,
    } satisfies Agent);
    expect(await refusal(await inject("admin", "GET", `/config/agents/${ids["other-admin"]}`), 404)).toBe("坐席不存在");
    expect(await refusal(await inject("other-admin", "GET", `/config/agents/${ids.agent}`), 404)).toBe("坐席不存在");
    expect(
      await refusal(
        await put("other-admin", ids.agent, { workType: 1, agentId: "2001", defaultQueueName: "other-voice", reason: "x" }),
        404,
      ),
    ).toBe("坐席不存在");
    expect(await refusal(await inject("admin", "GET", "/config/agents/abc"), 400)).toContain("编号无效");
  });

  it("refuses a bad 工号, one another agent has, and a queue the tenant does not have, in Chinese", async () => {
    const base = { workType: 1, agentId: "1102", defaultQueueName: "demo-sales", reason: "调整" };
    expect(await refusal(await put("admin", ids.agent02, { ...base, agentId: "12a" }), 400)).toContain("工号应为4至8位数字");
    expect(await refusal(await put("admin", ids.agent02, { ...base, agentId: "1002" }), 400)).toBe(
      "工号「1002」已被坐席「张伟」使用，请换一个工号",
    );
    expect(await refusal(await put("admin", ids.agent02, { ...base, defaultQueueName: "other-voice" }), 400)).toBe(
      "所选队列不存在，请重新选择",
    );
    expect(await refusal(await put("admin", ids.agent02, { ...base, workType: 2 }), 400)).toContain("请选择类型");
    expect(await refusal(await put("admin", ids.agent02, { ...base, reason: " " }), 400)).toContain("请填写修改原因");
    const unchanged = AgentResponseSchema.parse((await inject("admin", "GET", `/config/agents/${ids.agent02}`)).json()).data!;
    expect(unchanged).toMatchObject({ agentId: "1102", workType: 1, defaultQueueName: "demo-sales" });
  });

  it("switches an agent to text work with a new 工号 and queue: audited, their menu and queue follow", async () => {
    const menuCodes = async () =>
      codesOf(MenusResponseSchema.parse((await inject("agent02", "GET", "/crm/api/user/menus")).json()).data!.menu.children);
    expect(await menuCodes()).toContain("aiaas_agent_work");
    expect(await menuCodes()).not.toContain("aiaas_agent_text_work");

    const saved = await put("admin", ids.agent02, {
      workType: 3,
      agentId: "1202",
      defaultQueueName: "demo-text",
      reason: "转岗做在线客服",
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(AgentResponseSchema.parse(saved.json()).data).toMatchObject({ agentId: "1202", workType: 3, defaultQueueName: "demo-text" });

    const [row] = await platform.db
      .selectFrom("audit_log")
      .select(["actor_name", "action", "target_type", "target_id", "summary", "reason", "tenant_id"])
      .where("action", "=", "agent.config")
      .execute();
    expect(row).toMatchObject({
      actor_name: "王建国",
      target_type: "agent",
      target_id: "1202",
      summary: "坐席 钱磊：语音，工号 1102，默认队列 demo-sales → 文本，工号 1202，默认队列 demo-text",
      reason: "转岗做在线客服",
    });

    // A new type ends the agent's sessions; signed in again, the menu (spec §5) has the text
    // workbench, not the voice one.
    expect((await inject("agent02", "GET", "/crm/api/user/menus")).statusCode).toBe(401);
    tokens.agent02 = await loginAs(platform.app, "agent02");
    expect(await menuCodes()).toContain("aiaas_agent_text_work");
    expect(await menuCodes()).not.toContain("aiaas_agent_work");
    // The agent's own config and login data name the new queue and 工号.
    const config = AgentConfigResponseSchema.parse((await inject("agent02", "GET", `/config/agents/detail/${ids.agent02}`)).json()).data!;
    expect(config).toMatchObject({ agentId: "1202", workType: 3, defaultQueueName: "demo-text" });
    expect((await inject("agent02", "POST", "/crm/api/user/loginInfo")).json().data.queueName).toBe("demo-text");
    // The queue list counts the agent in the new queue.
    const queues = (await inject("admin", "GET", "/config/queues/list")).json().data.list as Array<{ name: string; agents: number }>;
    expect(queues.find((q) => q.name === "demo-text")?.agents).toBe(2);
  });

  it("moves a voice agent's phone to the new queue at once, and keeps a signed-in agent's type", async () => {
    const phone = async () => PhoneSnapshotResponseSchema.parse((await inject("agent01", "GET", "/cti/api/agent")).json()).data!.agent;
    await inject("agent01", "POST", "/cti/api/agent/state", { command: "signIn" });
    expect(await phone()).toMatchObject({ agentId: "1101", queueName: "demo-sales" });

    const moved = await put("admin", ids.agent01, { workType: 1, agentId: "1201", defaultQueueName: "demo-voice", reason: "支援语音队列" });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(await phone()).toMatchObject({ agentId: "1201", queueName: "demo-voice" });

    expect(
      await refusal(
        await put("admin", ids.agent01, { workType: 3, agentId: "1201", defaultQueueName: "demo-voice", reason: "转文本" }),
        400,
      ),
    ).toBe("坐席「赵敏」已签入语音工作台，请先签出再修改类型");
    const kept = AgentResponseSchema.parse((await inject("admin", "GET", `/config/agents/${ids.agent01}`)).json()).data!;
    expect(kept.workType).toBe(1);
    await inject("agent01", "POST", "/cti/api/agent/state", { command: "signOut" });
  });

  it("keeps a text agent's type while a chat of theirs is open", async () => {
    const chats = createChatService(platform.db, platform.app.notifications);
    const chat = AgentResponseSchema.parse((await inject("admin", "GET", `/config/agents/${ids.chat}`)).json()).data!;
    const { tenant_id: tenantId } = await platform.db
      .selectFrom("users")
      .select("tenant_id")
      .where("id", "=", ids.chat)
      .executeTakeFirstOrThrow();
    const session = await chats.customerArrives(tenantId, {
      queueName: chat.defaultQueueName,
      customer: { name: "李先生", phone: "13700002222", channel: "网页", region: "上海" },
      content: "在吗",
    });
    const toVoice = { workType: 1, agentId: chat.agentId, defaultQueueName: chat.defaultQueueName, reason: "转语音" };
    expect(await refusal(await put("admin", ids.chat, toVoice), 400)).toBe(
      `坐席「${chat.realName}」还有未结束的会话，请先结束会话再修改类型`,
    );
    await chats.customerLeaves(tenantId, session.sessionId);
  });
});
