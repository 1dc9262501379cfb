import { describe, expect, it } from "vitest";
import { commitSignedIn, getSignedIn, safeRedirectTo, type SignedIn } from "./session.server";

const user = {
  id: 7,
  userName: "agent",
  realName: "坐席甲",
  role: "agent",
  tenantId: 1,
  tenantCode: "demo",
  customerId: "c1",
  workType: 1,
  agentId: "1001",
  defaultQueueName: "默认队列",
  agentState: "1",
  queueName: "默认队列",
} satisfies SignedIn["user"];

async function cookieFor(auth: SignedIn): Promise<string> {
  return (await commitSignedIn(new Request("http://console.test/"), auth)).split(";")[0];
}
const read = (cookie: string) => getSignedIn(new Request("http://console.test/", { headers: { Cookie: cookie } }));

describe("reading the signed-in user from the session cookie", () => {
  it("reads the user the cookie was signed for, as often as it is sent", async () => {
    const cookie = await cookieFor({ token: "t-1", expiresAt: Date.now() + 60_000, user });
    expect((await read(cookie))?.user.userName).toBe("agent");
    expect((await read(cookie))?.token).toBe("t-1");
  });

  it("refuses a cookie changed by one character, also once the genuine one has been read", async () => {
    const cookie = await cookieFor({ token: "t-2", expiresAt: Date.now() + 60_000, user });
    expect(await read(cookie)).not.toBeNull();
    const value = cookie.slice(cookie.indexOf("=") + 1);
    const changed = `sb_session=${value.slice(0, 5)}${value[5] === "A" ? "B" : "A"}${value.slice(6)}`;
    expect(await read(changed)).toBeNull();
  });

  it("refuses a session past its expiry, even one read while it was valid", async () => {
    const cookie = await cookieFor({ token: "t-3", expiresAt: Date.now() + 150, user });
    expect(await read(cookie)).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await read(cookie)).toBeNull();
  });

  it("has no user without a cookie", async () => {
    expect(await getSignedIn(new Request("http://console.test/"))).toBeNull();
  });
});

describe("the one safe-redirect rule", () => {
  it("keeps this site's paths with their queries", () => {
    expect(safeRedirectTo("/callHistory?page=2")).toBe("/callHistory?page=2");
    expect(safeRedirectTo("/monitor/agent")).toBe("/monitor/agent");
  });

  it("refuses every way out to another site, and what cannot go into a header", () => {
    for (const target of [
      "https://evil.com",
      "//evil.com",
      "/\\evil.com",
      decodeURIComponent("%2Fuser%2F..%2F%5Cevil.com"),
      "/\t/evil.com",
      "/%09/evil.com".replace("%09", "\t"),
      "/callHistory\nSet-Cookie: x=1",
      "/call\u0000History",
      "/\u3000/evil.com",
      " /callHistory",
      "/user/login?redirectTo=/user/login",
      "/user/logout",
      "",
    ]) {
      expect(safeRedirectTo(target), JSON.stringify(target)).toBe("/");
    }
    expect(safeRedirectTo(null)).toBe("/");
  });
});
