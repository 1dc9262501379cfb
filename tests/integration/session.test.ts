import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeUserTokens } from "#upstream/plugins/auth";
import { consoleAgainstPlatform } from "./support";

type Setup = Awaited<ReturnType<typeof consoleAgainstPlatform>>;
let setup: Setup;
beforeAll(async () => {
  setup = await consoleAgainstPlatform(["agent", "supervisor"]);
}, 60_000);
afterAll(async () => setup?.platform.close());

type Loader = (args: { request: Request; params: object; context: object }) => Promise<unknown>;
const shellLoader = async () => (await import("#app/routes/shell/route")).loader as unknown as Loader;

async function thrownBy(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (thrown) {
    return thrown;
  }
  throw new Error("expected the loader to throw");
}

describe("the session and upstream failures, against the real platform", () => {
  it("an upstream 401 ends the session and returns the user to sign-in, with a way back", async () => {
    // The platform revokes the account's tokens (e.g. an administrator signed it out).
    await revokeUserTokens(setup.platform.app, setup.users.agent.id);
    const request = new Request("http://console.test/callHistory?page=3", { headers: { Cookie: setup.cookies.agent } });
    const thrown = await thrownBy((await shellLoader())({ request, params: {}, context: {} }));
    expect(thrown).toBeInstanceOf(Response);
    const response = thrown as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/user/login?redirectTo=%2FcallHistory%3Fpage%3D3");
    // The session cookie is cleared, not merely left to expire.
    expect(response.headers.get("Set-Cookie")).toMatch(/^sb_session=;.*(Max-Age=0|Expires=Thu, 01 Jan 1970)/);
  });

  it("an unreachable platform is a Chinese message naming what failed, with its status, never a stack", async () => {
    const previous = process.env.UPSTREAM_URL;
    process.env.UPSTREAM_URL = "http://127.0.0.1:1";
    try {
      const request = new Request("http://console.test/callLog", { headers: { Cookie: setup.cookies.supervisor } });
      const thrown = (await thrownBy((await shellLoader())({ request, params: {}, context: {} }))) as {
        data: { message: string; status: number };
        init: { status: number };
      };
      expect(thrown.init.status).toBe(503);
      expect(thrown.data.message).toBe("获取菜单失败：暂时无法连接平台，请稍后重试");
      expect(JSON.stringify(thrown.data)).not.toMatch(/ECONNREFUSED|at .*\.ts/);
    } finally {
      process.env.UPSTREAM_URL = previous;
    }
  });
});
