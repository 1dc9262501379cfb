import { afterAll, beforeAll, expect, it } from "vitest";
import { AgentConfigResponseSchema, CustomerResponseSchema, LogoResponseSchema } from "#contracts/config";
import { FailureSchema } from "#contracts/envelope";
import { TEST_DB, bearer, describeDb, loginAs, testPlatform } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";

describeDb(`config on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  let agentToken: string;
  beforeAll(async () => {
    platform = await testPlatform();
    agentToken = await loginAs(platform.app, "agent");
  });
  afterAll(async () => {
    await platform?.close();
  });

  const get = (url: string, token = agentToken) => platform.app.inject({ url, headers: bearer(token) });
  const idOf = async (userName: string) =>
    (await platform.db.selectFrom("users").select("id").where("user_name", "=", userName).executeTakeFirstOrThrow()).id;

  it("serves a distinct SVG logo per brand without a token", async () => {
    const logos = new Set<string>();
    for (const brand of ["default", "gov", "medical"] as const) {
      const response = await platform.app.inject({ url: `/config/logo?brand=${brand}` });
      expect(response.statusCode).toBe(200);
      const { data } = LogoResponseSchema.parse(response.json());
      expect(data?.brand).toBe(brand);
      expect(data?.logo).toMatch(/^data:image\/svg\+xml;base64,/);
      const svg = Buffer.from(data!.logo.split(",")[1], "base64").toString("utf8");
      expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"[\s\S]*<\/svg>$/);
      logos.add(data!.logo);
    }
    expect(logos.size).toBe(3);
    const fallback = LogoResponseSchema.parse((await platform.app.inject({ url: "/config/logo" })).json());
    expect(fallback.data?.brand).toBe("default");
    expect((await platform.app.inject({ url: "/config/logo?brand=acme" })).statusCode).toBe(400);
  });

  it("returns an agent's config", async () => {
    const voice = await get(`/config/agents/detail/${await idOf("agent")}`);
    expect(voice.statusCode).toBe(200);
    expect(AgentConfigResponseSchema.parse(voice.json()).data).toEqual({
      agentId: "1002",
      workType: 1,
      defaultQueueName: "demo-voice",
      autoAnswer: false,
    });
    const text = AgentConfigResponseSchema.parse((await get(`/config/agents/detail/${await idOf("chat")}`)).json());
    expect(text.data).toMatchObject({ workType: 3, defaultQueueName: "demo-text" });
  });

  it("answers 404 for an unknown agent", async () => {
    const response = await get("/config/agents/detail/999999");
    expect(response.statusCode).toBe(404);
    expect(FailureSchema.parse(response.json())).toEqual({ code: 404, msg: "坐席不存在" });
  });

  it("returns the caller's customer profile", async () => {
    const response = await get("/config/api/customer");
    expect(CustomerResponseSchema.parse(response.json()).data).toEqual({
      customerId: "C10001",
      tenantId: expect.any(Number),
      tenantCode: "demo",
      name: "演示租户",
    });
  });
});
