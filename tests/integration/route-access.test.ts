import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isPathAllowed } from "#app/lib/access";
import { menuForWorkType } from "#app/lib/menu";
import { PUBLIC_ROUTES, SESSION_ONLY_ROUTES, handlers, walked, type Handler } from "./route-table";
import { consoleAgainstPlatform } from "./support";

/**
 * Walks every route of app/routes.ts and proves that each loader and action refuses an anonymous
 * user (a redirect to sign-in) and an unentitled one (403), against the real reference platform.
 * Remix runs a page's loaders in parallel, so each route must check for itself (design.md §3).
 */

const ACCOUNTS = ["admin", "supervisor", "agent", "chat"] as const;
const guarded = handlers.filter((h) => !PUBLIC_ROUTES.has(h.path));

let setup: Awaited<ReturnType<typeof consoleAgainstPlatform>>;
let cookies: Record<string, string> = {};

beforeAll(async () => {
  setup = await consoleAgainstPlatform(ACCOUNTS);
  cookies = setup.cookies;
}, 60_000);
afterAll(async () => setup?.platform.close());

async function outcome(handler: Handler, url: string, method: "GET" | "POST", cookie?: string) {
  const headers = new Headers(cookie ? { Cookie: cookie } : {});
  const init: RequestInit = { method, headers };
  if (method === "POST") {
    headers.set("Content-Type", "application/x-www-form-urlencoded");
    init.body = "intent=probe";
  }
  const request = new Request(`http://console.test${url}`, init);
  try {
    const value = await handler({ request, params: { id: "7" }, context: {} });
    return value instanceof Response ? { status: value.status, location: value.headers.get("Location") } : { status: 200 };
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get("Location") };
    const init = (thrown as { init?: { status?: number } }).init;
    if (init?.status) return { status: init.status };
    throw thrown;
  }
}

async function menuOf(account: string) {
  const { getSignedIn } = await import("#app/server/session.server");
  const { listMenus } = await import("#app/services/crm.server");
  const auth = await getSignedIn(new Request("http://console.test/", { headers: { Cookie: cookies[account] } }));
  if (!auth) throw new Error(`no session for ${account}`);
  const caller = { token: auth.token, customerId: auth.user.customerId, userId: auth.user.id };
  return menuForWorkType(await listMenus(caller), auth.user.workType);
}

describe("every loader and action checks access for itself", () => {
  it("the walk covers the whole route tree of spec §2", () => {
    const paths = walked.map((r) => r.path);
    expect(paths).toContain("layout routes/shell/route.tsx");
    for (const screen of [
      "/",
      "/access",
      "/callHistory",
      "/workBench/ty",
      "/agentTask/:id?",
      "/businessTemplate/record/:id?",
      "/text/call",
      "/user/registe",
      "/error/restore",
    ]) {
      expect(paths).toContain(screen);
    }
    expect(walked.length).toBeGreaterThanOrEqual(35);
  });

  it("every screen has a loader that checks access", () => {
    const guardedLoaders = new Set(guarded.filter((h) => h.kind === "loader").map((h) => h.path));
    for (const route of walked)
      if (!PUBLIC_ROUTES.has(route.path) && !SESSION_ONLY_ROUTES.has(route.path)) expect(guardedLoaders).toContain(route.path);
  });

  for (const { path, url, kind, handler } of guarded) {
    const method = kind === "loader" ? "GET" : "POST";
    it(`${kind} of ${path} refuses an anonymous user`, async () => {
      const result = await outcome(handler, url, method);
      expect(result.status).toBe(302);
      expect(result.location).toMatch(/^\/user\/login(\?redirectTo=|$)/);
    });

    if (SESSION_ONLY_ROUTES.has(path)) continue;
    it(`${kind} of ${path} refuses every unentitled demo account`, async () => {
      const unentitled = [];
      for (const account of ACCOUNTS) if (!isPathAllowed(url, await menuOf(account))) unentitled.push(account);
      // Only the home page and the achievement page (and its export) are open to every demo account.
      if (unentitled.length === 0) expect(["/", "/achievement", "/achievement/export"]).toContain(path);
      for (const account of unentitled) {
        const result = await outcome(handler, url, method, cookies[account]);
        expect(result.status, `${account} on ${url}`).toBe(403);
      }
    });
  }

  it("a text agent, whose 我的工单 is under /agentTask, cannot open the voice agents' task screens beside it", async () => {
    const loaderOf = (path: string) => guarded.find((h) => h.path === path && h.kind === "loader")!.handler;
    for (const [path, url] of [
      ["/agentTask/my", "/agentTask/my"],
      ["/agentTask/businessRecord", "/agentTask/businessRecord"],
      ["/agentTask/:id?", "/agentTask/7"],
    ]) {
      expect((await outcome(loaderOf(path), url, "GET", cookies.chat)).status, url).toBe(403);
    }
    expect((await outcome(loaderOf("/agentTask/my"), "/agentTask/my", "GET", cookies.agent)).status).toBe(200);
  });

  it("the root loader hands out public data only", async () => {
    const root = await import("#app/root");
    const data = (await (root.loader as unknown as Handler)({
      request: new Request("http://console.test/callHistory"),
      params: {},
      context: {},
    })) as {
      data: Record<string, unknown>;
    };
    expect(Object.keys(data.data).sort()).toEqual(["brand", "csrfToken", "logo"]);
  });
});
