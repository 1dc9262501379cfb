import { afterAll, beforeAll, expect, it } from "vitest";
import type { HTTPMethods, InjectOptions } from "fastify";
import { FailureSchema } from "#contracts/envelope";
import { WorkType } from "#upstream/domain/work-type";
import type { Role } from "#contracts/uaa";
import { ROUTE_ENTITLEMENTS, entitled, entitlementOf, refusalOf } from "#upstream/domain/entitlements";
import { menuCodesFor } from "#upstream/domain/menus";
import { authKindFor } from "#upstream/plugins/auth";
import { buildApp } from "./app";
import { TEST_DB, bearer, describeDb, loginAs, testPlatform } from "./test-db";
import { TEST_CLIENT, type PreparedPlatform } from "./testing";
import type { VoiceSettings } from "./voice/settings";

/** SIP servers named but never reached: routes are registered when the app is built, media when it is ready. */
const SIP: VoiceSettings = {
  wsUrl: "ws://127.0.0.1:4410",
  domain: "127.0.0.1:4410",
  secret: "s3cret",
  credentialSeconds: 3_600,
  customerControl: "127.0.0.1:4414",
  mediaControl: null,
  recordingsDir: "/tmp/none",
  iceServers: [],
  iceTransportPolicy: "all",
};

/** The demo tenant's four kinds of user (upstream/seed/demo.ts). */
const USERS: { userName: string; role: Role; workType: number }[] = [
  { userName: "admin", role: "admin", workType: WorkType.voice },
  { userName: "supervisor", role: "supervisor", workType: WorkType.voice },
  { userName: "agent", role: "agent", workType: WorkType.voice },
  { userName: "chat", role: "agent", workType: WorkType.text },
];

/** Event streams never end by themselves: called only where they must refuse. */
const STREAMS = new Set(["GET /events/api/stream", "GET /analysis/monitor/listen/:agentUserId"]);

/**
 * Rules finer than a screen, kept in the handlers (decision 044): on a screen several roles share,
 * an action one of them performs, or a row that must be the caller's own. There a caller the
 * menus allow may still get the handler's own 403 (for the id no row has, or for their role).
 */
const HANDLER_RULES: Record<string, string> = {
  "PUT /crm/api/user/:id/password": "只能修改本人密码",
  "POST /ccb/appeal": "只有坐席对自己的质检结果申诉",
  "POST /ccb/appeal/:id/decision": "质检员（主管或管理员）处理申诉",
  "PUT /ccb/callInfo/:id": "质检员（主管或管理员）评分",
  "GET /ccb/callInfo/next/:id": "质检员（主管或管理员）评分",
  "POST /ccb/tasks/apply": "质检员（主管或管理员）领取",
  "POST /ccb/tasks/order": "质检员（主管或管理员）领取",
  "POST /ccb/tasks/reallot": "主管或管理员改派",
  "POST /ccb/tasks/recovery": "主管或管理员收回",
  "POST /ccb/access/list": "质检权限：坐席看不到谁能质检",
  "POST /ccb/access/grant": "质检权限由管理员授予",
  "POST /ccb/access/revoke": "质检权限由管理员收回",
  "POST /crm_v2/contacts/v1": "联系人页：坐席查看与发短信，维护由管理员",
  "PUT /crm_v2/contacts/v1/:id": "联系人页：维护由管理员",
  "POST /crm_v2/contacts/v1/delete": "联系人页：维护由管理员",
  "POST /crm_v2/contacts/v1/import": "联系人页：维护由管理员",
  "POST /crm_v2/contacts/v1/import/upload": "联系人页：维护由管理员",
  "GET /crm_v2/contacts/v1/import/upload/:id": "联系人页：维护由管理员",
  "POST /crm_v2/contacts/v1/import/mapped": "联系人页：维护由管理员",
  "GET /crm_v2/contacts/v1/errorexport": "联系人页：维护由管理员",
  "POST /crm_v2/contacts/v1/export": "联系人页：导出由管理员",
  "POST /crm_v2/contacts/v1/outbound": "联系人页：加入外呼活动由管理员",
  "POST /crm_v2/groups/v1": "联系人页：分组由管理员维护",
  "PUT /crm_v2/groups/v1/:id": "联系人页：分组由管理员维护",
  "DELETE /crm_v2/groups/v1/:id": "联系人页：分组由管理员维护",
};

/** A route's url with each parameter filled: an id no row has, so an allowed call changes nothing. */
const concrete = (url: string) => url.replace(/:(\w+)/g, (_, name: string) => (name === "tenantId" ? "C10001" : "999999"));

describeDb(`entitlement per role on every platform route, on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  const routes: { method: string; url: string }[] = [];
  const tokens = new Map<string, string>();

  beforeAll(async () => {
    platform = await testPlatform({ simulatorControl: true });
    // Before ready: every route module registers its routes when the app loads its plugins.
    platform.app.addHook("onRoute", (route) => {
      for (const method of [route.method].flat()) if (method !== "HEAD") routes.push({ method, url: route.url });
    });
    await platform.app.ready();
    for (const user of USERS) tokens.set(user.userName, await loginAs(platform.app, user.userName));
  });
  afterAll(async () => {
    await platform?.close();
  });

  const call = (userName: string, method: string, url: string) =>
    platform.app.inject({
      method: method as InjectOptions["method"],
      url,
      headers: {
        ...bearer(tokens.get(userName)!),
        ...(method === "GET" || method === "DELETE" ? {} : { "content-type": "application/json" }),
      },
      ...(method === "GET" || method === "DELETE" ? {} : { payload: "{}" }),
    });

  it("has an entry for every route that takes a token, and no entry for a route that does not exist", async () => {
    const bearerRoutes = routes.filter((route) => authKindFor(route.url) === "bearer");
    expect(routes.length).toBeGreaterThanOrEqual(178);
    for (const route of bearerRoutes) expect(entitlementOf(route.method, route.url), `${route.method} ${route.url}`).toBeDefined();
    const known = new Set(bearerRoutes.map((route) => `${route.method} ${route.url}`));
    const missing = Object.keys(ROUTE_ENTITLEMENTS).filter((key) => !known.has(key));
    // The rest are real voice's, registered only with SIP servers configured (decision 036): such a
    // platform starts, so they too have their entries, and it has them all.
    const voiced = buildApp({ db: platform.db, ...TEST_CLIENT, simulatorControl: true, voice: SIP });
    for (const key of missing) {
      const [method, url] = key.split(" ") as [HTTPMethods, string];
      expect(voiced.hasRoute({ method, url }), key).toBe(true);
    }
    expect(missing.length).toBeGreaterThan(0);
    await voiced.close();
  });

  it("names only screens of the menu catalogue, each given to someone", () => {
    const everyScreen = new Set(USERS.flatMap((user) => [...menuCodesFor(user.role, user.workType)]));
    for (const [key, entitlement] of Object.entries(ROUTE_ENTITLEMENTS)) {
      if (!("screens" in entitlement)) continue;
      for (const code of entitlement.screens) expect(everyScreen.has(code), `${key}: ${code}`).toBe(true);
    }
  });

  for (const user of USERS) {
    it(`answers ${user.userName} (${user.role}) on every route exactly as the menus allow`, async () => {
      const wrong: string[] = [];
      for (const route of routes.filter((r) => authKindFor(r.url) === "bearer")) {
        const entitlement = entitlementOf(route.method, route.url)!;
        const allowed = entitled(entitlement, user.role, user.workType);
        const key = `${route.method} ${route.url}`;
        if (allowed && STREAMS.has(key)) continue;
        const response = await call(user.userName, route.method, concrete(route.url));
        const refused = response.statusCode === 403 && FailureSchema.parse(response.json()).msg === refusalOf(entitlement);
        if (refused === allowed) wrong.push(`${key}: ${response.statusCode} ${response.body.slice(0, 120)}`);
        // Allowed, no other refusal either: a handler's own role check would contradict the table.
        if (allowed && response.statusCode === 403 && !HANDLER_RULES[key]) wrong.push(`${key}: ${response.body.slice(0, 120)}`);
        if (response.statusCode >= 500) wrong.push(`${key}: ${response.statusCode}`);
      }
      expect(wrong).toEqual([]);
    }, 120_000);
  }

  // What a user would check by hand, in the menus' terms, apart from the table.
  it("refuses an agent the administrators' robots, campaigns and audit log, in Chinese", async () => {
    for (const [method, url, screen] of [
      ["POST", "/robot/api/robot/instance/list", "机器人实例"],
      ["POST", "/outbound/campaign/manage/list", "外呼活动管理"],
      ["POST", "/audit/api/log/list", "操作日志"],
      ["GET", "/config/agents/list", "坐席配置"],
      ["POST", "/analysis/monitor/agent", "坐席监控"],
    ]) {
      const response = await call("agent", method, url);
      expect(response.statusCode, url).toBe(403);
      expect(FailureSchema.parse(response.json()).msg, url).toContain(`「${screen}」`);
    }
  });

  it("refuses a supervisor the administrators' screens but gives the monitor", async () => {
    expect((await call("supervisor", "POST", "/robot/api/flow/list")).statusCode).toBe(403);
    expect((await call("supervisor", "GET", "/crm/api/register/info")).json()).toEqual({ code: 403, msg: "仅管理员可以访问该功能" });
    const monitor = await call("supervisor", "POST", "/analysis/monitor/agent");
    expect(monitor.statusCode).toBe(200);
  });

  it("keeps the text agent off the voice workbench and the voice agent off the chats", async () => {
    expect((await call("chat", "GET", "/cti/api/agents")).statusCode).toBe(403);
    expect((await call("agent", "GET", "/chat/api/sessions")).statusCode).toBe(403);
    expect((await call("chat", "GET", "/chat/api/sessions")).statusCode).toBe(200);
    expect((await call("agent", "GET", "/cti/api/agents")).statusCode).toBe(200);
  });

  it("gives every signed-in user their own menu, phone and account", async () => {
    for (const user of USERS) {
      expect((await call(user.userName, "GET", "/crm/api/user/menus")).statusCode, user.userName).toBe(200);
      expect((await call(user.userName, "GET", "/config/api/customer")).statusCode, user.userName).toBe(200);
    }
  });
});
