import { afterAll, beforeAll, expect, it } from "vitest";
import { AuditPageResponseSchema } from "#contracts/audit";
import { FailureSchema } from "#contracts/envelope";
import { bearer, describeDb, loginAs, testPlatform } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";

describeDb("the audit log", () => {
  let platform: PreparedPlatform;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    platform = await testPlatform();
    for (const account of ["admin", "supervisor", "agent", "other-admin"]) tokens[account] = await loginAs(platform.app, account);
  });
  afterAll(async () => platform?.close());

  const inject = (account: string, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
    platform.app.inject({ method, url, headers: bearer(tokens[account]), payload: payload as object });
  const list = async (account: string, filter: object = {}) => {
    const response = await inject(account, "POST", "/audit/api/log/list", filter);
    expect(response.statusCode, response.body).toBe(200);
    return AuditPageResponseSchema.parse(response.json()).data!;
  };

  it("records who changed what, when and why, and only the tenant's administrators read it", async () => {
    const created = await inject("admin", "POST", "/outbound/campaign/save", {
      name: "审计测试活动",
      type: 3,
      taskType: 1,
      cycle: 1,
      ratio: 1,
      maxAttempts: 1,
      queueName: "demo-voice",
      callingListName: null,
      robotId: null,
      callerNumber: null,
      transTemplateId: null,
      startDate: null,
      endDate: null,
      windows: [{ start: "09:00", end: "18:00" }],
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json<{ data: { id: number } }>().data.id;
    expect((await inject("admin", "PUT", "/outbound/campaign/ratio", { campaignId: id, ratio: 2 })).statusCode).toBe(200);

    const page = await list("admin", { targetType: "campaign", keyword: String(id) });
    expect(page.list.map((e) => e.action)).toEqual(["campaign.ratio", "campaign.create"]);
    const [ratio] = page.list;
    expect(ratio).toMatchObject({ actorName: "王建国", targetId: String(id), summary: "活动「审计测试活动」：外呼比例 1 → 2" });
    expect(new Date(ratio.at).getTime()).toBeGreaterThan(Date.now() - 60_000);

    // Filters: by action; another tenant sees none of it; supervisors and agents are refused.
    expect((await list("admin", { action: "campaign.ratio" })).list.every((e) => e.action === "campaign.ratio")).toBe(true);
    expect((await list("other-admin", { keyword: String(id) })).total).toBe(0);
    for (const account of ["supervisor", "agent"]) {
      const refused = await inject(account, "POST", "/audit/api/log/list", {});
      expect(refused.statusCode).toBe(403);
      expect(FailureSchema.parse(refused.json()).msg).toBe("无权访问：需要「操作日志」菜单");
    }
  });

  it("pages newest first by keyset, and refuses bad filters in Chinese", async () => {
    const { list: campaigns } = (await inject("admin", "POST", "/outbound/campaign/manage/list", {})).json<{
      data: { list: Array<{ id: number }> };
    }>().data;
    for (let i = 0; i < 12; i++) {
      const changed = await inject("admin", "PUT", "/outbound/campaign/ratio", { campaignId: campaigns[0].id, ratio: 1 + (i % 4) / 2 });
      expect(changed.statusCode).toBe(200);
    }
    const first = await list("admin", { pageSize: 10 });
    expect(first.list.length).toBeGreaterThan(0);
    const ids = first.list.map((e) => e.id);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
    const next = await list("admin", { pageSize: 10, after: ids.at(-1) });
    for (const entry of next.list) expect(entry.id).toBeLessThan(ids.at(-1)!);
    const back = await list("admin", { pageSize: 10, before: next.list[0]?.id ?? ids.at(-1) });
    if (next.list.length > 0) expect(back.list.map((e) => e.id)).toEqual(ids.slice(-back.list.length));

    const bad = await inject("admin", "POST", "/audit/api/log/list", { pageSize: 7 });
    expect(bad.statusCode).toBe(400);
    expect(FailureSchema.parse(bad.json()).msg).toMatch(/[\u4e00-\u9fff]/);
  });
});
