import { afterAll, beforeAll, expect, it } from "vitest";
import { FailureSchema } from "#contracts/envelope";
import { HealthSchema } from "#contracts/health";
import { buildApp } from "./app";
import { ok } from "./http";
import { Refused } from "./domain/refused";
import { CampaignRefused } from "./repositories/campaigns";
import { TEST_DB, basicAuth, bearer, describeDb, loginAs, testPlatform } from "./test-db";
import { TEST_CLIENT, type PreparedPlatform } from "./testing";

describeDb(`platform app on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  let token: string;
  beforeAll(async () => {
    platform = await testPlatform();
    token = await loginAs(platform.app, "admin");
  });
  afterAll(async () => {
    await platform?.close();
  });

  it("answers /health without a token", async () => {
    const response = await platform.app.inject({ url: "/health" });
    expect(response.statusCode).toBe(200);
    expect(HealthSchema.parse(response.json())).toEqual({ status: "ok", ctiOwner: true });
  });

  it("answers an unknown route with the 404 envelope, token or not", async () => {
    for (const headers of [{}, bearer(token)]) {
      const response = await platform.app.inject({ url: "/crm/api/nope", headers });
      expect(response.statusCode).toBe(404);
      expect(FailureSchema.parse(response.json())).toEqual({ code: 404, msg: "接口不存在" });
    }
  });

  it("answers a malformed body with 400 and no internals", async () => {
    const response = await platform.app.inject({
      method: "POST",
      url: "/crm/api/user/loginInfo",
      headers: { ...bearer(token), "content-type": "application/json" },
      payload: "{not json",
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ code: 400, msg: "请求参数错误" });
  });

  it("answers an unexpected failure with a bare 500", async () => {
    // A route that throws something unforeseen, registered on a throwaway app sharing the db. It
    // takes the console's client credential: a token route would need an entitlement (decision 044).
    const app = buildApp({ db: platform.db, ...TEST_CLIENT });
    app.get("/crm/open/boom", async () => {
      throw new Error("secret internal detail");
    });
    const response = await app.inject({ url: "/crm/open/boom", headers: { authorization: basicAuth() } });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 500, msg: "服务器内部错误" });
    expect(response.body).not.toContain("secret");
    await app.close();
  });

  it("answers a refusal with its own status and Chinese message, whichever part refused", async () => {
    const app = buildApp({ db: platform.db, ...TEST_CLIENT });
    app.get("/crm/open/taken", async () => {
      throw new Refused(409, "名称已被占用");
    });
    app.get("/crm/open/no-campaign", async () => {
      throw new CampaignRefused(404, "活动不存在");
    });
    const taken = await app.inject({ url: "/crm/open/taken", headers: { authorization: basicAuth() } });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toEqual({ code: 409, msg: "名称已被占用" });
    const missing = await app.inject({ url: "/crm/open/no-campaign", headers: { authorization: basicAuth() } });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: 404, msg: "活动不存在" });
    await app.close();
  });

  it("will not start with a token route that names no screens", async () => {
    const app = buildApp({ db: platform.db, ...TEST_CLIENT });
    expect(() => app.get("/crm/api/unlisted", async () => ok(null))).toThrow("GET /crm/api/unlisted: no entry in ROUTE_ENTITLEMENTS");
    await app.close();
  });
});
