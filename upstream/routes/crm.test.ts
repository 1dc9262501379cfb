import { afterAll, beforeAll, expect, it } from "vitest";
import {
  CustomerIdJobResponseSchema,
  DictionaryResponseSchema,
  LoginInfoResponseSchema,
  MenusResponseSchema,
  UsersResponseSchema,
  type MenuItem,
} from "#contracts/crm";
import { FailureSchema } from "#contracts/envelope";
import { TEST_DB, bearer, describeDb, loginAs, testPlatform } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";
import { SALES_TEAM } from "#upstream/seed/demo";

/** Screens (leaf urls) each demo account's menu must hold: exactly these. */
const EXPECTED_SCREENS: Record<string, string[]> = {
  agent: [
    "/",
    "/workBench",
    "/agentTask/my",
    "/agentTask/businessRecord",
    "/incoming/call",
    "/incoming/history",
    "/incoming/businessRecord",
    "/manual/preview",
    "/manMachine/coordination",
    "/callHistory",
    "/agentTask/workOrder",
    "/inspectionSuccess",
    "/contacts",
    "/achievement",
  ],
  chat: ["/", "/textWorkBench", "/text/call", "/text/businessRecord", "/agentTask/workOrder", "/contacts", "/achievement"],
  supervisor: [
    "/",
    "/monitor/agent",
    "/inspectionSuccess",
    "/access",
    "/callLog",
    "/callHistory",
    "/incoming/history",
    "/text/call",
    "/manual/dataDistribution",
    "/businessTemplate/record",
    "/achievement",
  ],
  admin: [
    "/",
    "/workBench",
    "/textWorkBench",
    "/agentTask/my",
    "/agentTask/businessRecord",
    "/incoming/call",
    "/incoming/history",
    "/incoming/businessRecord",
    "/manual/preview",
    "/manual/dataDistribution",
    "/manMachine/coordination",
    "/callHistory",
    "/callLog",
    "/text/call",
    "/text/businessRecord",
    "/monitor/agent",
    "/inspectionSuccess",
    "/inspectionForm",
    "/access",
    "/knowledgeBase/config",
    "/contacts",
    "/customerProperty",
    "/sms/template",
    "/sms/outbox",
    "/businessTemplate/record",
    "/businessTemplate/template",
    "/agentTask/workOrder",
    "/robot/flow",
    "/robot/instance",
    "/robot/regex",
    "/robot/calendar",
    "/robot/speaker",
    "/robot/resources",
    "/robot/store",
    "/robot/agent",
    "/campaign",
    "/achievement",
    "/audit",
  ],
};
EXPECTED_SCREENS["other-admin"] = EXPECTED_SCREENS.admin;

const leafUrls = (items: MenuItem[]): string[] => items.flatMap((item) => (item.children ? leafUrls(item.children) : [item.url]));

describeDb(`crm on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    platform = await testPlatform();
    for (const userName of Object.keys(EXPECTED_SCREENS)) tokens[userName] = await loginAs(platform.app, userName);
  });
  afterAll(async () => {
    await platform?.close();
  });

  const get = (userName: string, url: string) => platform.app.inject({ url, headers: bearer(tokens[userName]) });

  it.each(Object.keys(EXPECTED_SCREENS))("gives %s exactly the menus of its role and work type", async (userName) => {
    const response = await get(userName, "/crm/api/user/menus");
    expect(response.statusCode).toBe(200);
    const body = MenusResponseSchema.parse(response.json());
    expect(body.code).toBe(1);
    const menu = body.data!.menu.children;
    expect(leafUrls(menu).sort()).toEqual([...EXPECTED_SCREENS[userName]].sort());
    // The console matches a path by the first segment of a menu url: a group must carry a screen url.
    for (const group of menu.filter((item) => item.children)) {
      expect(group.children!.map((child) => child.url)).toContain(group.url);
    }
  });

  it("records the login and returns the agent's state and default queue", async () => {
    const response = await platform.app.inject({
      method: "POST",
      url: "/crm/api/user/loginInfo",
      headers: bearer(tokens.chat),
    });
    expect(response.statusCode).toBe(200);
    expect(LoginInfoResponseSchema.parse(response.json()).data).toEqual({
      id: expect.any(Number),
      agentState: "SIGNED_OUT",
      queueName: "demo-text",
      userName: "chat",
    });
    const row = await platform.db.selectFrom("users").select("last_login_at").where("user_name", "=", "chat").executeTakeFirstOrThrow();
    expect(row.last_login_at).toBeInstanceOf(Date);
  });

  it("lists the tenant's users without password hashes", async () => {
    const response = await get("admin", "/crm/api/users");
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toMatch(/password|scrypt/i);
    const page = UsersResponseSchema.parse(response.json()).data!;
    expect(page.total).toBe(4 + SALES_TEAM.length);
    expect(page.list.map((user) => user.userName)).toEqual(["admin", "supervisor", "agent", "chat", ...SALES_TEAM.map(([name]) => name)]);
    expect(page.list.find((user) => user.userName === "chat")).toMatchObject({ role: "agent", workType: 3, realName: "刘洋" });
  });

  it("pages the users list", async () => {
    const response = await get("admin", "/crm/api/users?pageNo=2&pageSize=20");
    const page = UsersResponseSchema.parse(response.json()).data!;
    expect(page).toEqual({ list: [], total: 4 + SALES_TEAM.length });
    const bad = await get("admin", "/crm/api/users?pageSize=7");
    expect(bad.statusCode).toBe(400);
    expect(FailureSchema.parse(bad.json()).code).toBe(400);
  });

  it("answers the customer id of an account of the same tenant", async () => {
    const agentId = (await get("agent", "/uaa/oauth/user_auth")).json().data.id;
    const response = await get("admin", `/crm/job/customerid/${agentId}`);
    expect(response.statusCode).toBe(200);
    expect(CustomerIdJobResponseSchema.parse(response.json()).data).toEqual({ userId: agentId, customerId: "C10001" });
    expect((await get("admin", "/crm/job/customerid/999999")).statusCode).toBe(404);
    expect((await get("admin", "/crm/job/customerid/abc")).statusCode).toBe(400);
  });

  it("serves the robot industry dictionary in Chinese and an empty list for unknown types", async () => {
    const industries = DictionaryResponseSchema.parse((await get("agent", "/crm/api/dictionary?type=ROBOT_INDUSTRY")).json());
    expect(industries.data!.length).toBeGreaterThan(5);
    expect(industries.data).toContainEqual({ code: "finance", name: "金融" });
    for (const entry of industries.data!) expect(entry.name).toMatch(/\p{Script=Han}/u);

    const unknown = DictionaryResponseSchema.parse((await get("agent", "/crm/api/dictionary?type=NOPE")).json());
    expect(unknown).toEqual({ code: 1, data: [], msg: "success" });
  });

  it("lets an administrator sign an account out everywhere, with a reason, audited; nobody else, and no other tenant's", async () => {
    const post = (userName: string, url: string, payload: object) =>
      platform.app.inject({ method: "POST", url, payload, headers: bearer(tokens[userName]) });
    const agent = await platform.db
      .selectFrom("users")
      .select(["id", "tenant_id", "default_queue_name"])
      .where("user_name", "=", "agent")
      .executeTakeFirstOrThrow();
    const agentTenant = () => agent.tenant_id;
    const elsewhere = await loginAs(platform.app, "agent"); // the same account in a second browser
    const url = `/crm/api/user/${agent.id}/logout`;
    const refusal = async (response: Awaited<ReturnType<typeof post>>, status: number) => {
      expect(response.statusCode, response.body).toBe(status);
      return FailureSchema.parse(response.json()).msg;
    };
    expect(await refusal(await post("supervisor", url, { reason: "离职" }), 403)).toBe("无权访问：需要「坐席配置」菜单");
    expect(await refusal(await post("other-admin", url, { reason: "离职" }), 404)).toBe("用户不存在");
    expect(await refusal(await post("admin", url, { reason: " " }), 400)).toBe("请填写下线原因");
    const self = await platform.db.selectFrom("users").select("id").where("user_name", "=", "admin").executeTakeFirstOrThrow();
    expect(await refusal(await post("admin", `/crm/api/user/${self.id}/logout`, { reason: "测试" }), 400)).toContain(
      "不能强制下线自己的账号",
    );
    // An agent on a call is left to finish it (and write its result); a phone signed in is signed out.
    const phone = (command: string) => post("agent", "/cti/api/agent/state", { command });
    expect((await phone("signIn")).statusCode).toBe(200);
    expect((await phone("ready")).statusCode).toBe(200);
    await platform.app.cti.offerInbound(agentTenant(), { phone: "13912345678", queueName: agent.default_queue_name });
    await expect.poll(() => platform.app.cti.phoneState(agentTenant(), agent.id)).toBe("RINGING");
    expect(await refusal(await post("admin", url, { reason: "手机遗失" }), 409)).toContain("正在通话或话后整理");
    // Until now both sessions work; after, neither does.
    expect((await platform.app.inject({ url: "/uaa/oauth/user_auth", headers: bearer(elsewhere) })).statusCode).toBe(200);
    await platform.app.cti.customerHangup(agentTenant(), platform.app.cti.callOfAgent(agentTenant(), agent.id)!.call.ctiCallId);
    await expect.poll(() => platform.app.cti.phoneState(agentTenant(), agent.id)).not.toMatch(/RINGING|TALKING|ACW/);
    expect((await post("admin", url, { reason: "手机遗失" })).statusCode).toBe(200);
    expect(platform.app.cti.phoneState(agentTenant(), agent.id)).toBe("SIGNED_OUT");
    for (const token of [tokens.agent, elsewhere]) {
      expect((await platform.app.inject({ url: "/crm/api/user/menus", headers: bearer(token) })).statusCode).toBe(401);
    }
    const audit = await platform.db
      .selectFrom("audit_log")
      .select(["action", "summary", "reason"])
      .where("action", "=", "account.logout")
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ summary: expect.stringContaining("强制下线账号「agent」"), reason: "手机遗失" });
    tokens.agent = await loginAs(platform.app, "agent");
  });
});
