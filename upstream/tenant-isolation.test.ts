import { afterAll, beforeAll, expect, it } from "vitest";
import { SALES_TEAM } from "#upstream/seed/demo";
import { CustomerResponseSchema } from "#contracts/config";
import { UsersResponseSchema } from "#contracts/crm";
import { FailureSchema } from "#contracts/envelope";
import { TEST_DB, bearer, describeDb, loginAs, testPlatform } from "./test-db";
import type { PreparedPlatform } from "./testing";

describeDb(`tenant isolation on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  let otherToken: string;
  let demoUserIds: number[];
  beforeAll(async () => {
    platform = await testPlatform();
    otherToken = await loginAs(platform.app, "other-admin");
    demoUserIds = (
      await platform.db
        .selectFrom("users")
        .innerJoin("tenants", "tenants.id", "users.tenant_id")
        .select("users.id")
        .where("tenants.code", "=", "demo")
        .execute()
    ).map((row) => row.id);
  });
  afterAll(async () => {
    await platform?.close();
  });

  const get = (url: string) => platform.app.inject({ url, headers: bearer(otherToken) });

  it("cannot read a demo agent's config or customer id", async () => {
    expect(demoUserIds).toHaveLength(4 + SALES_TEAM.length);
    for (const id of demoUserIds) {
      for (const url of [`/config/agents/detail/${id}`, `/config/agents/${id}`, `/crm/job/customerid/${id}`]) {
        const response = await get(url);
        expect(response.statusCode, url).toBe(404);
        expect(FailureSchema.parse(response.json()).code).toBe(404);
        expect(response.body).not.toContain("C10001");
      }
    }
  });

  it("lists only its own tenant's users", async () => {
    const page = UsersResponseSchema.parse((await get("/crm/api/users")).json()).data!;
    expect(page.total).toBe(1);
    expect(page.list.map((user) => user.userName)).toEqual(["other-admin"]);
  });

  it("sees its own customer profile", async () => {
    const customer = CustomerResponseSchema.parse((await get("/config/api/customer")).json()).data;
    expect(customer).toMatchObject({ tenantCode: "other", customerId: "C20001", name: "其他租户" });
  });
});
