import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokeAccessToken, revokeUserTokens } from "#upstream/plugins/auth";
import { consoleAgainstPlatform } from "./support";

type Setup = Awaited<ReturnType<typeof consoleAgainstPlatform>>;
let setup: Setup;
beforeAll(async () => {
  setup = await consoleAgainstPlatform(["supervisor", "agent"]);
}, 60_000);
afterAll(async () => setup?.platform.close());

type Loader = (args: { request: Request; params: object; context: object }) => Promise<unknown>;
/** The shell's loader: it reads nothing of the platform but the menu, which the console keeps 30 s. */
const shell = async (cookie: string, path = "/monitor/agent") => {
  const loader = (await import("#app/routes/shell/route")).loader as unknown as Loader;
  return loader({
    request: new Request(`http://console.test${path}`, { headers: { Cookie: cookie } }),
    params: {},
    context: {},
  }).then(
    () => "open",
    (thrown: unknown) => (thrown instanceof Response ? `${thrown.status} ${thrown.headers.get("Location")}` : "failed"),
  );
};

async function within(ms: number, check: () => Promise<boolean>, what: string): Promise<number> {
  const since = Date.now();
  while (!(await check())) {
    if (Date.now() - since > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  return Date.now() - since;
}

describe("a session ended elsewhere closes the console's pages within the second (decision 037)", () => {
  it("hears the platform's revocations, then forgets the kept session and menu of an ended token", async () => {
    const { hearingRevocations } = await import("#app/server/revocations.server");
    await within(5_000, async () => hearingRevocations(), "the console to hear revocations");
    expect(await shell(setup.cookies.supervisor)).toBe("open");
    const { getSignedIn } = await import("#app/server/session.server");
    const signedIn = await getSignedIn(new Request("http://console.test/", { headers: { Cookie: setup.cookies.supervisor } }));

    // Signed out through another console (or another platform process): nothing here was told directly.
    await revokeAccessToken(setup.platform.app, signedIn!.token);
    await within(
      1_000,
      async () => (await shell(setup.cookies.supervisor)) === "302 /user/login?redirectTo=%2Fmonitor%2Fagent",
      "the page to close",
    );
  });

  it("forgets every kept session of an account an administrator signed out", async () => {
    expect(await shell(setup.cookies.agent, "/callHistory")).toBe("open");
    await revokeUserTokens(setup.platform.app, setup.users.agent.id);
    await within(1_000, async () => (await shell(setup.cookies.agent, "/callHistory")).startsWith("302 /user/login"), "the page to close");
  });
});
