import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { FailureSchema } from "#contracts/envelope";
import { TokenErrorSchema, TokenResponseSchema, UserAuthResponseSchema, UserLoginResponseSchema } from "#contracts/uaa";
import { hashAccessToken } from "#upstream/domain/tokens";
import { addressKey } from "#upstream/repositories/sign-in-throttle";
import { TEST_DB, basicAuth, bearer, describeDb, loginAs, testPlatform } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";

describeDb(`uaa on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  beforeAll(async () => {
    platform = await testPlatform();
  });
  afterAll(async () => {
    await platform?.close();
  });

  const token = (body: string, authorization = basicAuth()) =>
    platform.app.inject({
      method: "POST",
      url: "/uaa/oauth/token",
      headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
      payload: body,
    });

  it("issues a 7-day bearer token for the password grant (form body)", async () => {
    const response = await token("grant_type=password&username=agent&password=Switchboard%402026");
    expect(response.statusCode).toBe(200);
    const body = TokenResponseSchema.parse(response.json());
    expect(body.expires_in).toBe(604800);
    expect(body.token_type.toLowerCase()).toBe("bearer");
    expect(Buffer.from(body.access_token, "base64url")).toHaveLength(32);
  });

  it("revokes a token at sign-out: it stops working at once, even just after it was accepted", async () => {
    const accessToken = await loginAs(platform.app, "agent");
    const whoAmI = () => platform.app.inject({ method: "GET", url: "/uaa/oauth/user_auth", headers: bearer(accessToken) });
    expect((await whoAmI()).statusCode).toBe(200);
    const revoke = (authorization: string) =>
      platform.app.inject({
        method: "POST",
        url: "/uaa/oauth/revoke",
        headers: { authorization, "content-type": "application/x-www-form-urlencoded" },
        payload: `token=${encodeURIComponent(accessToken)}`,
      });
    expect((await revoke("Basic bm9ib2R5Om5vdGhpbmc=")).statusCode).toBe(401);
    expect((await whoAmI()).statusCode).toBe(200);
    expect((await revoke(basicAuth())).statusCode).toBe(200);
    expect((await whoAmI()).statusCode).toBe(401);
    // Revoking again, or a token that never was, tells nothing.
    expect((await revoke(basicAuth())).statusCode).toBe(200);
  });

  it("throttles failed sign-ins per account and address, in the database, and never locks the owner out elsewhere", async () => {
    const from = (address: string, password: string) =>
      platform.app.inject({
        method: "POST",
        url: "/uaa/oauth/token",
        headers: { authorization: basicAuth(), "content-type": "application/x-www-form-urlencoded", "x-client-address": address },
        payload: `grant_type=password&username=supervisor&password=${encodeURIComponent(password)}`,
      });
    for (let i = 0; i < 10; i++) expect((await from("203.0.113.9", "wrong")).statusCode).toBe(400);
    // The attacker's address now waits, even with the right password …
    const refused = await from("203.0.113.9", "Switchboard@2026");
    expect(refused.statusCode).toBe(429);
    expect(TokenErrorSchema.parse(refused.json()).error_description).toMatch(/^登录失败次数过多，请在 \d\d:\d\d 后重试（约 1[45] 分钟）$/);
    // … while the supervisor signs in from their own address, through any console (the count is in the database).
    expect((await from("198.51.100.7", "Switchboard@2026")).statusCode).toBe(200);
    const kept = await platform.db.selectFrom("sign_in_failures").select("client_address").where("user_name", "=", "supervisor").execute();
    expect(kept.map((row) => row.client_address)).toEqual(Array(10).fill("203.0.113.9"));
    // A success clears that address's failures for the account.
    await platform.db.deleteFrom("sign_in_failures").execute();
    expect((await from("203.0.113.9", "wrong")).statusCode).toBe(400);
    expect((await from("203.0.113.9", "Switchboard@2026")).statusCode).toBe(200);
    expect(await platform.db.selectFrom("sign_in_failures").selectAll().execute()).toEqual([]);

    // A burst of parallel tries cannot all pass the limit, and a /64 counts as one address.
    const burst = await Promise.all(Array.from({ length: 24 }, (_, i) => from(`2001:db8:1:2::${(i + 1).toString(16)}`, "wrong")));
    expect(burst.filter((answer) => answer.statusCode === 400).length).toBeLessThanOrEqual(10);
    expect(burst.filter((answer) => answer.statusCode === 429).length).toBeGreaterThanOrEqual(14);
    // Every failure of the burst counts against the one /64; the refused tries do not count.
    const counted = await platform.db.selectFrom("sign_in_failures").select("client_address").execute();
    expect(counted.map((row) => row.client_address)).toEqual(
      Array(burst.filter((answer) => answer.statusCode === 400).length).fill("2001:db8:1:2::/64"),
    );
    expect((await from("2001:db8:1:3::1", "Switchboard@2026")).statusCode).toBe(200);
  });

  it("counts IPv4 addresses as they are and IPv6 addresses by their /64", () => {
    expect(addressKey("203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("::ffff:203.0.113.9")).toBe("203.0.113.9");
    expect(addressKey("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:0db8:0001:0002:ffff:0:0:9")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
  });

  it("stores only the token's hash, expiring in 7 days", async () => {
    const accessToken = await loginAs(platform.app, "supervisor");
    const rows = await platform.db.selectFrom("access_tokens").selectAll().execute();
    expect(rows.some((row) => row.token_hash === accessToken)).toBe(false);
    const row = rows.find((r) => r.token_hash === hashAccessToken(accessToken));
    expect(row).toBeDefined();
    const days = (row!.expires_at.getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
  });

  it("answers a wrong password or unknown user with 400 invalid_grant", async () => {
    for (const body of [
      "grant_type=password&username=agent&password=wrong",
      "grant_type=password&username=nobody&password=Switchboard%402026",
    ]) {
      const response = await token(body);
      expect(response.statusCode).toBe(400);
      expect(TokenErrorSchema.parse(response.json())).toEqual({
        error: "invalid_grant",
        error_description: "用户名或密码错误",
      });
    }
  });

  it("rejects other grant types and missing fields with 400", async () => {
    const unsupported = await token("grant_type=client_credentials");
    expect(unsupported.statusCode).toBe(400);
    expect(unsupported.json().error).toBe("unsupported_grant_type");
    const incomplete = await token("grant_type=password&username=agent");
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json().error).toBe("invalid_request");
  });

  it("requires the Basic client credential on /uaa/oauth paths", async () => {
    const form = "grant_type=password&username=agent&password=Switchboard%402026";
    for (const authorization of ["", basicAuth("web-console", "wrong"), basicAuth("other", "web-console-secret"), "Bearer x"]) {
      const response = await token(form, authorization);
      expect(response.statusCode).toBe(401);
      expect(TokenErrorSchema.parse(response.json()).error).toBe("invalid_client");
    }
    const login = await platform.app.inject({
      method: "POST",
      url: "/uaa/oauth/user/login",
      payload: { username: "agent", password: "Switchboard@2026" },
    });
    expect(login.statusCode).toBe(401);
    expect(login.json().error).toBe("invalid_client");
  });

  it("logs in through /uaa/oauth/user/login in the envelope", async () => {
    const ok = await platform.app.inject({
      method: "POST",
      url: "/uaa/oauth/user/login",
      headers: { authorization: basicAuth(), "content-type": "application/x-www-form-urlencoded" },
      payload: "username=chat&password=Switchboard%402026",
    });
    expect(ok.statusCode).toBe(200);
    const body = UserLoginResponseSchema.parse(ok.json());
    expect(body.code).toBe(1);
    expect(body.data?.expires_in).toBe(604800);

    const wrong = await platform.app.inject({
      method: "POST",
      url: "/uaa/oauth/user/login",
      headers: { authorization: basicAuth() },
      payload: { username: "chat", password: "nope" },
    });
    expect(wrong.statusCode).toBe(400);
    expect(FailureSchema.parse(wrong.json())).toEqual({ code: 400, msg: "用户名或密码错误" });
  });

  it("tells who a token belongs to", async () => {
    const accessToken = await loginAs(platform.app, "agent");
    const response = await platform.app.inject({ url: "/uaa/oauth/user_auth", headers: bearer(accessToken) });
    expect(response.statusCode).toBe(200);
    expect(UserAuthResponseSchema.parse(response.json()).data).toEqual({
      id: expect.any(Number),
      userName: "agent",
      realName: "张伟",
      role: "agent",
      tenantId: expect.any(Number),
      tenantCode: "demo",
      customerId: "C10001",
    });
  });

  it("takes the token as ?access_token= on user_auth only, beside the client credential", async () => {
    const accessToken = await loginAs(platform.app, "agent");
    const check = await platform.app.inject({
      url: `/uaa/oauth/user_auth?access_token=${encodeURIComponent(accessToken)}`,
      headers: { authorization: basicAuth() },
    });
    expect(check.statusCode).toBe(200);
    expect(UserAuthResponseSchema.parse(check.json()).data?.userName).toBe("agent");
    const elsewhere = await platform.app.inject({ url: `/crm/api/user/menus?access_token=${encodeURIComponent(accessToken)}` });
    expect(elsewhere.statusCode).toBe(401);
    const bogus = await platform.app.inject({ url: "/uaa/oauth/user_auth?access_token=bogus", headers: { authorization: basicAuth() } });
    expect(bogus.statusCode).toBe(401);
  });

  it("accepts the bare accessToken header", async () => {
    const accessToken = await loginAs(platform.app, "agent");
    const response = await platform.app.inject({ url: "/uaa/oauth/user_auth", headers: { accesstoken: accessToken } });
    expect(response.statusCode).toBe(200);
  });

  it("answers missing, bogus and expired tokens with 401", async () => {
    const expired = await loginAs(platform.app, "agent");
    await platform.db
      .updateTable("access_tokens")
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where("token_hash", "=", hashAccessToken(expired))
      .execute();
    for (const headers of [{}, bearer("bogus"), bearer(expired), { authorization: basicAuth() }]) {
      for (const url of ["/uaa/oauth/user_auth", "/crm/api/user/menus"]) {
        const response = await platform.app.inject({ url, headers });
        expect(response.statusCode).toBe(401);
        expect(FailureSchema.parse(response.json())).toEqual({ code: 401, msg: "登录已失效，请重新登录" });
      }
    }
  });

  it("stops accepting a token when it expires, even one it has just accepted", async () => {
    const token = await loginAs(platform.app, "agent");
    const expiresAt = new Date(Date.now() + 5_000);
    await platform.db
      .updateTable("access_tokens")
      .set({ expires_at: expiresAt })
      .where("token_hash", "=", hashAccessToken(token))
      .execute();
    const userAuth = () => platform.app.inject({ url: "/uaa/oauth/user_auth", headers: bearer(token) });
    expect((await userAuth()).statusCode).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(expiresAt.getTime() + 1);
      expect((await userAuth()).statusCode).toBe(401);
    } finally {
      vi.useRealTimers();
    }
  });
});
