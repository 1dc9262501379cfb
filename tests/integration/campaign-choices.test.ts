import { afterAll, beforeAll, expect, it } from "vitest";
import { consoleAgainstPlatform } from "./support";

type Setup = Awaited<ReturnType<typeof consoleAgainstPlatform>>;
let setup: Setup;
beforeAll(async () => {
  setup = await consoleAgainstPlatform(["admin"]);
}, 60_000);
afterAll(async () => setup?.platform.close());

type Loader = (args: {
  request: Request;
  params: object;
  context: object;
}) => Promise<{ choices: { robots: Array<{ id: number; name: string }> } }>;

it("the campaign form offers every robot of the tenant, past the platform's page of 100, and no other tenant's", async () => {
  const { db } = setup.platform;
  const tenantId = setup.users.admin.tenantId;
  await db
    .insertInto("robot_instances")
    .values(
      Array.from({ length: 150 }, (_, i) => ({ tenant_id: tenantId, name: `批量机器人${i + 1}`, flow_id: null, flow_version_name: null })),
    )
    .execute();
  const expected = await db.selectFrom("robot_instances").select(["id", "name"]).where("tenant_id", "=", tenantId).orderBy("id").execute();
  expect(expected.length).toBeGreaterThan(150);

  const { loader } = (await import("#app/routes/campaign-form/route")) as unknown as { loader: Loader };
  const request = new Request("http://console.test/campaign/new", { headers: { Cookie: setup.cookies.admin } });
  const { choices } = await loader({ request, params: {}, context: {} });
  expect(choices.robots.map((r) => ({ id: r.id, name: r.name }))).toEqual(expected);
});
