import { afterAll, beforeAll, expect, it } from "vitest";
import type { CampaignSave } from "#contracts/outbound";
import { GatewayLineListResponseSchema } from "#contracts/robot-resources";
import { CallStatus } from "#upstream/domain/dialer-states";
import { bearer, describeDb, loginAs, TEST_DB, testPlatform } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";

/** A campaign that calls all day at ratio 1 (5 lines per batch, dialer-states.ts LINES_PER_BATCH). */
const form: Omit<CampaignSave, "name" | "robotId"> = {
  type: 1,
  taskType: 1,
  cycle: 3,
  ratio: 1,
  callingListName: "线路名单",
  queueName: null,
  callerNumber: null,
  transTemplateId: null,
  windows: [{ start: "00:00", end: "24:00" }],
  startDate: null,
  endDate: null,
  maxAttempts: 1,
};

describeDb(`a gateway line limits its robots' calls on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  let token: string;
  beforeAll(async () => {
    platform = await testPlatform();
    token = await loginAs(platform.app, "admin");
  });
  afterAll(async () => platform?.close());

  const inject = async (method: "GET" | "POST" | "PUT", url: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const response = await platform.app.inject({ method, url, headers: { ...bearer(token), ...headers }, payload: payload as object });
    expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(200);
    return response.json().data;
  };
  const tick = () => platform.app.dialer.tick(platform.app.dialer.clock.advance(60_000));
  const dialling = async (campaignId: number) =>
    (
      await platform.db
        .selectFrom("task_calls")
        .select("id")
        .where("campaign_id", "=", campaignId)
        .where("status", "=", CallStatus.dialling)
        .execute()
    ).length;
  const lineNamed = async (name: string) =>
    GatewayLineListResponseSchema.parse({ code: 1, data: await inject("GET", "/dialer/api/v1/gateway/line/robot") }).data!.list.find(
      (l) => l.name === name,
    )!;

  /** A copy of the seeded published robot, on `lineId` (or none), and a running campaign of 12 contacts using it. */
  async function campaignOn(name: string, lineId: number | null, prefix: string): Promise<number> {
    const [seeded] = (await inject("POST", "/robot/api/robot/instance/list", { name: "营销推广" })).list;
    const robot = await inject("POST", "/robot/api/robot/instance/copy", { id: seeded.id, name: `${name}机器人` });
    await inject("PUT", `/robot/api/robot/instance/${robot.id}`, { name: robot.name, flowId: robot.flowId, concurrency: 10, lineId });
    const { id } = await inject("POST", "/outbound/campaign/save", { ...form, name, robotId: robot.id });
    const phones = Array.from({ length: 12 }, (_, i) => `${prefix}${String(i).padStart(4, "0")}`).join("\n");
    const boundary = "----line-test";
    const body = [
      `--${boundary}\r\nContent-Disposition: form-data; name="campaignId"\r\n\r\n${id}\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="list.csv"\r\nContent-Type: text/csv\r\n\r\nphone\n${phones}\n\r\n`,
      `--${boundary}--\r\n`,
    ].join("");
    await inject("POST", "/api/file/upload", body, { "content-type": `multipart/form-data; boundary=${boundary}` });
    await inject("PUT", "/outbound/campaign/change/state", { campaignId: id, state: 1 });
    return id;
  }

  it("never has more calls in progress on a line than it carries, across every campaign whose robot uses it", async () => {
    const tenant = await platform.db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow();
    // The carrier's line (lines are set up by the platform, not by administrators): three calls at once.
    const { id: lineId } = await platform.db
      .insertInto("robot_gateway_lines")
      .values({ tenant_id: tenant.id, name: "测试三线", carrier: "中国移动", prefix: "0571", concurrency: 3 })
      .returning("id")
      .executeTakeFirstOrThrow();
    const first = await campaignOn("线路活动甲", lineId, "1390571");
    const second = await campaignOn("线路活动乙", lineId, "1390572");
    const free = await campaignOn("无线路活动", null, "1390573");

    await tick();
    // Each batch's ratio would start 5: the line lets 3 start across both campaigns; without a line, 5.
    expect((await dialling(first)) + (await dialling(second))).toBe(3);
    expect(await dialling(free)).toBe(5);
    expect(await lineNamed("测试三线")).toMatchObject({ concurrency: 3, inUse: 3, enabled: true });

    // The calls end at the next tick and three more start: the line is never over its capacity.
    for (let i = 0; i < 3; i++) {
      await tick();
      expect((await dialling(first)) + (await dialling(second))).toBe(3);
      expect((await lineNamed("测试三线")).inUse).toBe(3);
    }
    // Both campaigns got calls through the shared line.
    const done = (campaignId: number) =>
      platform.db
        .selectFrom("task_calls")
        .select("id")
        .where("campaign_id", "=", campaignId)
        .where("status", "not in", [CallStatus.waiting, CallStatus.dialling])
        .execute();
    expect((await done(first)).length + (await done(second)).length).toBe(9);
    expect((await done(first)).length).toBeGreaterThan(0);

    // A line that is 停用 carries nothing: its robots' campaigns wait.
    await platform.db.updateTable("robot_gateway_lines").set({ enabled: false }).where("id", "=", lineId).execute();
    await tick();
    expect((await dialling(first)) + (await dialling(second))).toBe(0);
    expect(await lineNamed("测试三线")).toMatchObject({ inUse: 0, enabled: false });
  });
});
