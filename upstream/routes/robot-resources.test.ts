import { afterAll, beforeAll, expect, it } from "vitest";
import { FailureSchema } from "#contracts/envelope";
import {
  FestivalListResponseSchema,
  FestivalResponseSchema,
  GatewayLineListResponseSchema,
  RegexTestResponseSchema,
  RobotRegexPageResponseSchema,
  RobotRegexResponseSchema,
  RobotSpeakerListResponseSchema,
  StorePageResponseSchema,
  TaskDispatchResponseSchema,
  WorkingCalendarResponseSchema,
} from "#contracts/robot-resources";
import { bearer, describeDb, loginAs, TEST_DB, testPlatform } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";

describeDb(`robot resources on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    platform = await testPlatform();
    for (const account of ["admin", "agent", "supervisor", "other-admin"]) tokens[account] = await loginAs(platform.app, account);
  });
  afterAll(async () => platform?.close());

  const inject = (account: string, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) =>
    platform.app.inject({ method, url, headers: bearer(tokens[account]), payload: payload as object });
  const refusal = async (response: Awaited<ReturnType<typeof inject>>, status: number) => {
    expect(response.statusCode, response.body).toBe(status);
    return FailureSchema.parse(response.json()).msg;
  };
  const audit = (action: string) =>
    platform.db.selectFrom("audit_log").select(["actor_name", "summary", "target_id", "tenant_id"]).where("action", "=", action).execute();

  it("answers administrators only, every endpoint", async () => {
    // Each refused with the administrator's screen it belongs to (decision 044).
    const reads: [string, string][] = [
      ["/robot/api/regex", "正则表达式"],
      ["/robot/api/dispatch/working", "工作日历"],
      ["/robot/api/dispatch/festival", "工作日历"],
      ["/robot/api/robot/speaker", "发音人"],
      ["/config/agent/voice/preview?speaker=xiaoyun", "发音人"],
      ["/dialer/api/v1/gateway/line/robot", "机器人实例」或「线路与号码"],
      ["/robot/api/store", "流程市场"],
    ];
    for (const account of ["agent", "supervisor"]) {
      for (const [url, screen] of reads)
        expect(await refusal(await inject(account, "GET", url), 403)).toBe(`无权访问：需要「${screen}」菜单`);
      expect(await refusal(await inject(account, "POST", "/robot/api/regex", { name: "x", pattern: "x" }), 403)).toBe(
        "无权访问：需要「正则表达式」菜单",
      );
      expect(await refusal(await inject(account, "PUT", "/robot/api/dispatch/working", { days: [] }), 403)).toBe(
        "无权访问：需要「工作日历」菜单",
      );
    }
    for (const [url] of reads) expect((await inject("admin", "GET", url)).statusCode, url).toBe(200);
  });

  it("keeps a library of regular expressions that compile, per tenant, each change audited", async () => {
    const page = RobotRegexPageResponseSchema.parse((await inject("admin", "GET", "/robot/api/regex")).json()).data!;
    expect(page.list.map((r) => r.name)).toEqual(expect.arrayContaining(["手机号", "金额", "分期期数"]));
    expect(page.list.map((r) => r.name)).not.toContain("其他租户正则");
    const other = RobotRegexPageResponseSchema.parse((await inject("other-admin", "GET", "/robot/api/regex")).json()).data!;
    expect(other.list.map((r) => r.name)).toEqual(["其他租户正则"]);
    const filtered = RobotRegexPageResponseSchema.parse((await inject("admin", "GET", "/robot/api/regex?name=手机")).json()).data!;
    expect(filtered).toMatchObject({ total: 1, list: [{ name: "手机号" }] });

    // A pattern that does not compile is refused, naming where.
    expect(await refusal(await inject("admin", "POST", "/robot/api/regex", { name: "坏的", pattern: "订单(\\d+" }), 400)).toBe(
      "正则表达式无法编译：第3个字符处括号未闭合",
    );
    expect(await refusal(await inject("admin", "POST", "/robot/api/regex", { name: "坏的", pattern: "ab*+c" }), 400)).toBe(
      "正则表达式无法编译：第4个字符处量词前没有可重复的内容",
    );

    const created = await inject("admin", "POST", "/robot/api/regex", { name: "订单号", pattern: "订单(\\d{6})", description: "六位" });
    expect(created.statusCode, created.body).toBe(200);
    const regex = RobotRegexResponseSchema.parse(created.json()).data!;
    expect(regex).toMatchObject({ name: "订单号", pattern: "订单(\\d{6})", description: "六位", updatedBy: "王建国" });
    expect(await refusal(await inject("admin", "POST", "/robot/api/regex", { name: "订单号", pattern: "x" }), 400)).toBe(
      "名称「订单号」已存在",
    );
    // Another tenant may use the same name, and cannot see or touch this one.
    expect((await inject("other-admin", "POST", "/robot/api/regex", { name: "订单号", pattern: "x" })).statusCode).toBe(200);
    expect(await refusal(await inject("other-admin", "PUT", `/robot/api/regex/${regex.id}`, { name: "改", pattern: "y" }), 404)).toBe(
      "正则表达式不存在",
    );
    expect(await refusal(await inject("other-admin", "DELETE", `/robot/api/regex/${regex.id}`), 404)).toBe("正则表达式不存在");

    const updated = await inject("admin", "PUT", `/robot/api/regex/${regex.id}`, { name: "订单编号", pattern: "订单(\\d{8})" });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(RobotRegexResponseSchema.parse(updated.json()).data).toMatchObject({
      name: "订单编号",
      pattern: "订单(\\d{8})",
      description: "",
    });
    expect(await refusal(await inject("admin", "PUT", `/robot/api/regex/${regex.id}`, { name: "手机号", pattern: "x" }), 400)).toBe(
      "名称「手机号」已存在",
    );
    expect((await inject("admin", "DELETE", `/robot/api/regex/${regex.id}`)).statusCode).toBe(200);
    expect(await refusal(await inject("admin", "GET", `/robot/api/regex/${regex.id}`), 404)).toBe("正则表达式不存在");

    expect((await audit("robot.regex.create")).filter((a) => a.target_id === String(regex.id))).toMatchObject([
      { actor_name: "王建国", summary: "新建正则表达式「订单号」：订单(\\d{6})" },
    ]);
    expect(await audit("robot.regex.update")).toMatchObject([{ summary: "编辑正则表达式「订单编号」：订单(\\d{8})" }]);
    expect(await audit("robot.regex.delete")).toMatchObject([{ summary: "删除正则表达式「订单编号」" }]);
  });

  it("tests a pattern against a sample sentence, and stops one that backtracks too long", async () => {
    const test = async (pattern: string, sample: string) => {
      const response = await inject("admin", "POST", "/robot/api/regex/test", { pattern, sample });
      expect(response.statusCode, response.body).toBe(200);
      return RegexTestResponseSchema.parse(response.json()).data!.matches;
    };
    expect(await test("(\\d+)期", "我想分12期，不行就6期")).toEqual([
      { index: 3, text: "12期", groups: ["12"] },
      { index: 10, text: "6期", groups: ["6"] },
    ]);
    expect(await test("1[3-9]\\d{9}", "没有号码")).toEqual([]);
    expect(await refusal(await inject("admin", "POST", "/robot/api/regex/test", { pattern: "[a-", sample: "abc" }), 400)).toMatch(
      /^正则表达式无法编译：第1个字符处/,
    );
    expect(
      await refusal(await inject("admin", "POST", "/robot/api/regex/test", { pattern: "(a+)+$", sample: `${"a".repeat(40)}!` }), 400),
    ).toMatch(/^匹配超时/);
  });

  it("keeps the working week and refuses impossible times", async () => {
    const week = WorkingCalendarResponseSchema.parse((await inject("admin", "GET", "/robot/api/dispatch/working")).json()).data!;
    expect(week.days).toHaveLength(7);
    expect(week.days[5]).toEqual({ weekday: 6, enabled: true, start: "09:00", end: "12:00" });
    // The other tenant never set one: the default week.
    const other = WorkingCalendarResponseSchema.parse((await inject("other-admin", "GET", "/robot/api/dispatch/working")).json()).data!;
    expect(other.days[5]).toEqual({ weekday: 6, enabled: false, start: "09:00", end: "18:00" });

    const days = week.days.map((d) => (d.weekday === 6 ? { ...d, enabled: false } : d.weekday === 1 ? { ...d, start: "08:30" } : d));
    const saved = await inject("admin", "PUT", "/robot/api/dispatch/working", { days });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(WorkingCalendarResponseSchema.parse(saved.json()).data!.days[0]).toEqual({
      weekday: 1,
      enabled: true,
      start: "08:30",
      end: "18:00",
    });
    const [row] = await audit("robot.working");
    expect(row.summary).toContain("星期一 08:30-18:00");
    expect(row.summary).toContain("星期六 休息");

    const late = days.map((d) => (d.weekday === 2 ? { ...d, start: "19:00" } : d));
    expect(await refusal(await inject("admin", "PUT", "/robot/api/dispatch/working", { days: late }), 400)).toBe("结束时间应晚于开始时间");
    expect(await refusal(await inject("admin", "PUT", "/robot/api/dispatch/working", { days: days.slice(1) }), 400)).toBe("请填写一周七天");
    const bad = days.map((d) => (d.weekday === 3 ? { ...d, end: "25:00" } : d));
    expect(await refusal(await inject("admin", "PUT", "/robot/api/dispatch/working", { days: bad }), 400)).toBe("结束时间应为 HH:MM");
  });

  it("keeps festivals that do not overlap, per tenant", async () => {
    const year = new Date().getFullYear();
    const list = async (account = "admin", query = "") =>
      FestivalListResponseSchema.parse((await inject(account, "GET", `/robot/api/dispatch/festival${query}`)).json()).data!.list;
    expect((await list()).map((f) => f.name)).toEqual(["劳动节", "国庆节", "元旦"]);
    expect((await list("admin", `?year=${year + 1}`)).map((f) => f.name)).toEqual(["元旦"]);
    expect((await list("other-admin")).map((f) => f.name)).toEqual(["其他租户假期"]);

    const national = (await list()).find((f) => f.name === "国庆节")!;
    expect(national).toMatchObject({ startDate: `${year}-10-01`, endDate: `${year}-10-07`, days: 7 });
    expect(
      await refusal(
        await inject("admin", "POST", "/robot/api/dispatch/festival", {
          name: "秋假",
          startDate: `${year}-10-07`,
          endDate: `${year}-10-09`,
        }),
        409,
      ),
    ).toBe(`日期与节假日「国庆节」（${year}-10-01 至 ${year}-10-07）重叠，请调整日期`);
    expect(
      await refusal(
        await inject("admin", "POST", "/robot/api/dispatch/festival", {
          name: "秋假",
          startDate: `${year}-10-09`,
          endDate: `${year}-10-08`,
        }),
        400,
      ),
    ).toBe("结束日期不能早于开始日期");
    expect(
      await refusal(
        await inject("admin", "POST", "/robot/api/dispatch/festival", {
          name: "秋假",
          startDate: `${year}-02-30`,
          endDate: `${year}-03-01`,
        }),
        400,
      ),
    ).toBe("请选择开始日期");

    const created = await inject("admin", "POST", "/robot/api/dispatch/festival", {
      name: "秋假",
      startDate: `${year}-10-08`,
      endDate: `${year}-10-09`,
    });
    expect(created.statusCode, created.body).toBe(200);
    const autumn = FestivalResponseSchema.parse(created.json()).data!;
    expect(autumn).toMatchObject({ name: "秋假", days: 2 });
    // Moving a festival onto another is refused; onto its own dates is not.
    expect(
      await refusal(
        await inject("admin", "PUT", `/robot/api/dispatch/festival/${autumn.id}`, {
          name: "秋假",
          startDate: `${year}-10-05`,
          endDate: `${year}-10-09`,
        }),
        409,
      ),
    ).toMatch(/重叠/);
    const moved = await inject("admin", "PUT", `/robot/api/dispatch/festival/${autumn.id}`, {
      name: "秋假",
      startDate: `${year}-10-08`,
      endDate: `${year}-10-10`,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    // The other tenant's festivals are its own: no overlap with ours, and ours are not found.
    expect(
      (
        await inject("other-admin", "POST", "/robot/api/dispatch/festival", {
          name: "同日",
          startDate: `${year}-10-08`,
          endDate: `${year}-10-08`,
        })
      ).statusCode,
    ).toBe(200);
    expect(await refusal(await inject("other-admin", "DELETE", `/robot/api/dispatch/festival/${autumn.id}`), 404)).toBe("节假日不存在");
    expect((await inject("admin", "DELETE", `/robot/api/dispatch/festival/${autumn.id}`)).statusCode).toBe(200);

    expect((await audit("robot.festival.create")).map((a) => a.summary)).toContain(`新建节假日「秋假」${year}-10-08 至 ${year}-10-09`);
    expect((await audit("robot.festival.update")).map((a) => a.summary)).toEqual([`编辑节假日「秋假」${year}-10-08 至 ${year}-10-10`]);
    expect((await audit("robot.festival.delete")).map((a) => a.summary)).toEqual([`删除节假日「秋假」${year}-10-08 至 ${year}-10-10`]);
  });

  it("lists speakers and answers a real WAV preview for each", async () => {
    const speakers = RobotSpeakerListResponseSchema.parse((await inject("admin", "GET", "/robot/api/robot/speaker")).json()).data!.list;
    expect(speakers.map((s) => s.name)).toEqual(["晓云", "晓美", "晓刚", "晓明"]);
    const sizes = new Set<string>();
    for (const speaker of speakers) {
      const preview = await inject("admin", "GET", `/config/agent/voice/preview?speaker=${speaker.code}`);
      expect(preview.statusCode).toBe(200);
      expect(preview.headers["content-type"]).toBe("audio/wav");
      const wav = preview.rawPayload;
      expect(wav.subarray(0, 4).toString("ascii")).toBe("RIFF");
      expect(wav.subarray(8, 12).toString("ascii")).toBe("WAVE");
      expect(wav.readUInt32LE(24)).toBe(8000);
      // About a second of 16-bit mono samples, not silence.
      const seconds = wav.readUInt32LE(40) / 2 / 8000;
      expect(seconds).toBeGreaterThan(0.8);
      expect(seconds).toBeLessThan(1.5);
      expect(Math.max(...Array.from({ length: 200 }, (_, i) => Math.abs(wav.readInt16LE(44 + 2 * (400 + i)))))).toBeGreaterThan(5000);
      sizes.add(wav.subarray(44, 1044).toString("base64"));
    }
    expect(sizes.size).toBe(speakers.length);
    expect(await refusal(await inject("admin", "GET", "/config/agent/voice/preview?speaker=nobody"), 400)).toBe("发音人不存在");
  });

  it("lists the tenant's gateway lines", async () => {
    const lines = GatewayLineListResponseSchema.parse((await inject("admin", "GET", "/dialer/api/v1/gateway/line/robot")).json()).data!;
    expect(lines.list.map((l) => l.name)).toEqual(["北京移动线路", "上海电信线路", "广州联通备用线路"]);
    expect(lines.list[2]).toMatchObject({ carrier: "中国联通", enabled: false, concurrency: 10 });
    const other = GatewayLineListResponseSchema.parse(
      (await inject("other-admin", "GET", "/dialer/api/v1/gateway/line/robot")).json(),
    ).data!;
    expect(other.list.map((l) => l.name)).toEqual(["其他租户线路"]);
  });

  it("lists the tenant's versions on the market, the one in service marked", async () => {
    const store = StorePageResponseSchema.parse((await inject("admin", "GET", "/robot/api/store")).json()).data!;
    expect(store.list).toContainEqual(expect.objectContaining({ flowName: "满意度回访", version: "v1.0", inService: true, nodeCount: 4 }));
    const none = StorePageResponseSchema.parse((await inject("admin", "GET", "/robot/api/store?name=账单")).json()).data!;
    expect(none).toEqual({ list: [], total: 0 });
    const other = StorePageResponseSchema.parse((await inject("other-admin", "GET", "/robot/api/store")).json()).data!;
    expect(other.list.map((item) => item.flowName)).not.toContain("满意度回访");
  });

  it("answers a campaign's dispatch for the next seven days from the calendars, its own tenant only", async () => {
    const campaign = await platform.db
      .selectFrom("campaigns")
      .innerJoin("tenants", "tenants.id", "campaigns.tenant_id")
      .select(["campaigns.id", "campaigns.name"])
      .where("tenants.code", "=", "demo")
      .orderBy("campaigns.id")
      .executeTakeFirstOrThrow();
    const response = await inject("admin", "GET", `/task/api/dispatch/${campaign.id}`);
    expect(response.statusCode, response.body).toBe(200);
    const dispatch = TaskDispatchResponseSchema.parse(response.json()).data!;
    expect(dispatch).toMatchObject({ campaignId: campaign.id, campaignName: campaign.name });
    expect(dispatch.days).toHaveLength(7);
    for (const day of dispatch.days) expect(day.windows.length > 0 || day.reason !== null).toBe(true);
    expect(await refusal(await inject("other-admin", "GET", `/task/api/dispatch/${campaign.id}`), 404)).toBe("外呼活动不存在");
    expect(await refusal(await inject("supervisor", "GET", `/task/api/dispatch/${campaign.id}`), 403)).toBe(
      "无权访问：需要「工作日历」菜单",
    );
  });
});
