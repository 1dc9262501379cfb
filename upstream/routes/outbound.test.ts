import { readdir, readFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { BATCH_STATUSES, CALL_STATUSES, CUSTOMER_ROLE, codesOf } from "#contracts/codes";
import {
  BatchPageResponseSchema,
  BeforeCallResponseSchema,
  CallTraceResponseSchema,
  CampaignInitResponseSchema,
  CampaignPageResponseSchema,
  CampaignResponseSchema,
  CampaignSelectResponseSchema,
  CallingListNamesResponseSchema,
  CheckContactResponseSchema,
  DistributeResponseSchema,
  HandoffPageResponseSchema,
  ImportResultResponseSchema,
  NameCountResponseSchema,
  PreviewCallResponseSchema,
  RatioResponseSchema,
  SavedResponseSchema,
  SchedulerCheckResponseSchema,
  TaskCallPageResponseSchema,
  TaskDetailResponseSchema,
  TraceResponseSchema,
  TransTemplateResponseSchema,
  TransTemplatesResponseSchema,
  UnassignedCountResponseSchema,
  ImportListResponseSchema,
  type CampaignSave,
} from "#contracts/outbound";
import { CallDetailResponseSchema, CallRecordPageResponseSchema } from "#contracts/contact";
import { CallerIdNumbersResponseSchema, CustomerResponseSchema } from "#contracts/config";
import { FailureSchema } from "#contracts/envelope";
import { RobotInstancePageResponseSchema } from "#contracts/robot";
import { GatewayLineListResponseSchema } from "#contracts/robot-resources";
import { NoRecordingResponseSchema } from "#contracts/records";
import { RECORDINGS, conclusionFor, recordingFor, type RecordingName } from "#upstream/domain/recordings";
import { batchTransitions } from "#upstream/repositories/task-batches";
import { BATCH_TRANSITIONS, CALL_TRANSITIONS } from "#upstream/domain/dialer-states";
import { TEST_DB, bearer, describeDb, loginAs, testPlatform } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";

const form: CampaignSave = {
  name: "测试活动",
  type: 1,
  taskType: 1,
  cycle: 3,
  ratio: 1,
  callingListName: "测试名单",
  robotId: null, // the demo tenant's 营销推广机器人, once the platform is seeded
  queueName: null,
  callerNumber: null,
  transTemplateId: null,
  windows: [{ start: "00:00", end: "24:00" }],
  startDate: null,
  endDate: null,
  maxAttempts: 1,
};

/** A multipart body with the campaign id and one file. */
function multipart(campaignId: number | string, fileName: string, content: string | Buffer, background?: "1") {
  const boundary = "----switchboard-test";
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="campaignId"\r\n\r\n${campaignId}\r\n`),
    Buffer.from(background ? `--${boundary}\r\nContent-Disposition: form-data; name="background"\r\n\r\n${background}\r\n` : ""),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload: body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

describeDb(`outbound on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  const tokens: Record<string, string> = {};
  beforeAll(async () => {
    platform = await testPlatform();
    for (const user of ["admin", "agent", "supervisor", "other-admin", "agent01"]) tokens[user] = await loginAs(platform.app, user);
    form.robotId = json(
      RobotInstancePageResponseSchema,
      await inject("admin", "POST", "/robot/api/robot/instance/list", { name: "营销推广" }),
    ).data!.list[0].id;
  });
  afterAll(async () => platform?.close());

  const inject = (user: string, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
    platform.app.inject({ method, url, headers: bearer(tokens[user]), payload: payload as object | undefined });
  const json = <T>(schema: { parse: (v: unknown) => T }, response: { statusCode: number; body: string; json: () => unknown }) => {
    expect(response.statusCode, response.body).toBe(200);
    return schema.parse(response.json());
  };
  const failure = (response: { statusCode: number; json: () => unknown }, status: number) => {
    expect(response.statusCode).toBe(status);
    return FailureSchema.parse(response.json()).msg;
  };
  /** A campaign's list of phones, uploaded as the console uploads it; the import's result. */
  const importPhones = async (campaignId: number, phones: string[], fileName: string) => {
    const upload = multipart(campaignId, fileName, `phone\n${phones.join("\n")}\n`);
    const headers = { ...bearer(tokens.admin), ...upload.headers };
    return json(
      ImportResultResponseSchema,
      await platform.app.inject({ method: "POST", url: "/api/file/upload", headers, payload: upload.payload }),
    ).data!;
  };
  const tick = async (minutes = 1, times = 1) => {
    for (let i = 0; i < times; i++) await platform.app.dialer.tick(platform.app.dialer.clock.advance(minutes * 60_000));
  };

  it("seeds campaigns of every type with batches in every status and calls in every status", async () => {
    const campaigns = json(
      CampaignPageResponseSchema,
      await inject("admin", "POST", "/outbound/campaign/manage/list", { pageSize: 100 }),
    ).data!;
    expect(new Set(campaigns.list.map((c) => c.type))).toEqual(new Set([1, 2, 3, 4, 5, 20]));
    const batches = json(BatchPageResponseSchema, await inject("admin", "POST", "/outbound/task/list", { pageSize: 100 })).data!;
    expect(new Set(batches.list.map((b) => b.status))).toEqual(new Set(codesOf(BATCH_STATUSES)));
    const statuses = await platform.db.selectFrom("task_calls").select("status").distinct().execute();
    expect(new Set(statuses.map((s) => s.status))).toEqual(new Set(codesOf(CALL_STATUSES)));
  });

  it("lists, filters and isolates campaigns per tenant", async () => {
    const demo = json(CampaignPageResponseSchema, await inject("admin", "POST", "/outbound/campaigns/list", { name: "推广" })).data!;
    expect(demo.list.map((c) => c.name)).toEqual(["信用卡分期推广"]);
    const other = json(
      CampaignPageResponseSchema,
      await inject("other-admin", "POST", "/outbound/campaigns/list", { pageSize: 100 }),
    ).data!;
    const otherNames = await platform.db
      .selectFrom("campaigns")
      .innerJoin("tenants", "tenants.id", "campaigns.tenant_id")
      .select("campaigns.name")
      .where("tenants.code", "=", "other")
      .execute();
    expect(other.list.map((c) => c.name).sort()).toEqual(otherNames.map((c) => c.name).sort());
    expect(other.list.map((c) => c.name)).toContain("其他租户推广");
    expect(other.list.map((c) => c.name)).not.toContain("信用卡分期推广");
    const foreign = demo.list[0].id;
    expect(failure(await inject("other-admin", "GET", `/outbound/campaign/${foreign}`), 404)).toBe("活动不存在");
    expect(failure(await inject("other-admin", "GET", `/outbound/campaign/ratio?campaignId=${foreign}`), 404)).toBe("活动不存在");
    expect(failure(await inject("other-admin", "PUT", "/outbound/campaign/change/state", { campaignId: foreign, state: 2 }), 404)).toBe(
      "活动不存在",
    );
    const inbound = json(CampaignPageResponseSchema, await inject("admin", "POST", "/outbound/inbound/campaign/list", {})).data!;
    expect(inbound.list.length).toBeGreaterThan(0);
    expect(new Set(inbound.list.map((c) => c.type))).toEqual(new Set([20]));
    const inboundTasks = json(BatchPageResponseSchema, await inject("admin", "POST", "/outbound/inbound/task/list", {})).data!;
    expect(inboundTasks.list.length).toBeGreaterThan(0);
    expect(new Set(inboundTasks.list.map((b) => b.campaignType))).toEqual(new Set([20]));
    expect(json(BatchPageResponseSchema, await inject("other-admin", "POST", "/outbound/inbound/task/list", {})).data!.total).toBe(0);
    const options = json(CampaignSelectResponseSchema, await inject("admin", "POST", "/outbound/campaign/select", { types: [3] })).data!;
    const previewCampaigns = await platform.db
      .selectFrom("campaigns")
      .innerJoin("tenants", "tenants.id", "campaigns.tenant_id")
      .select("campaigns.name")
      .where("tenants.code", "=", "demo")
      .where("campaigns.type", "=", 3)
      .execute();
    expect(options.map((o) => o.name).sort()).toEqual(previewCampaigns.map((c) => c.name).sort());
    expect(options.map((o) => o.name)).toContain("贵宾客户预览外呼");
    expect(json(CallingListNamesResponseSchema, await inject("admin", "GET", "/outbound/campaign/callingListName")).data).toContain(
      "信用卡分期推广名单",
    );
    expect(json(CallingListNamesResponseSchema, await inject("other-admin", "GET", "/outbound/campaign/callingListName")).data).toEqual([
      "其他租户推广名单",
    ]);
    expect(json(CampaignInitResponseSchema, await inject("admin", "GET", "/outbound/campaign/init")).data!.queues).toEqual([
      "demo-sales",
      "demo-text",
      "demo-voice",
    ]);
  });

  it("offers each tenant its own robots, caller numbers and transfer templates, and refuses another tenant's on save", async () => {
    const robots = async (user: string) =>
      json(RobotInstancePageResponseSchema, await inject(user, "POST", "/robot/api/robot/instance/list", {}));
    const tenantOf = async (user: string) => json(CustomerResponseSchema, await inject(user, "GET", "/config/api/customer")).data!.tenantId;
    const demoRobots = (await robots("admin")).data!;
    expect(demoRobots.list.map((r) => r.name)).toEqual(["营销推广机器人", "催缴提醒机器人", "满意度回访机器人"]);
    const otherRobots = (await robots("other-admin")).data!.list;
    expect(otherRobots.map((r) => r.name)).toEqual(["营销推广机器人", "其他租户回访机器人"]);
    const [demoTenant, otherTenant] = [await tenantOf("admin"), await tenantOf("other-admin")];
    const numbers = json(
      CallerIdNumbersResponseSchema,
      await inject("admin", "GET", `/config/tenants/${demoTenant}/callerIdNumbers`),
    ).data!;
    expect(numbers.map((n) => n.number)).toEqual(["02588886666", "02588887777"]);
    expect(
      json(CallerIdNumbersResponseSchema, await inject("other-admin", "GET", `/config/tenants/${otherTenant}/callerIdNumbers`)).data!.map(
        (n) => n.number,
      ),
    ).toEqual(["01066668888"]);
    expect(failure(await inject("other-admin", "GET", `/config/tenants/${demoTenant}/callerIdNumbers`), 404)).toBe("租户不存在");
    const adminId = (await platform.db.selectFrom("users").select("id").where("user_name", "=", "admin").executeTakeFirstOrThrow()).id;
    const templates = json(TransTemplatesResponseSchema, await inject("admin", "GET", `/outbound/transTemplates/${adminId}/0`)).data!;
    expect(templates.map((t) => t.name)).toEqual(["转人工队列", "转值班主管"]);

    // A campaign takes the robot's flow with it, and reads back the ids it chose.
    const chosen = {
      ...form,
      name: "选择项测试",
      type: 2,
      queueName: "demo-voice",
      robotId: demoRobots.list[1].id,
      callerNumber: "02588887777",
      transTemplateId: templates[0].id,
    };
    const { id } = json(SavedResponseSchema, await inject("admin", "POST", "/outbound/campaign/save", chosen)).data!;
    const saved = json(CampaignResponseSchema, await inject("admin", "GET", `/outbound/campaign/${id}`)).data!;
    expect(saved).toMatchObject({
      robotId: demoRobots.list[1].id,
      instanceName: "催缴提醒机器人",
      flowId: demoRobots.list[1].flowId,
      callerNumber: "02588887777",
      transTemplateId: templates[0].id,
    });
    // The other tenant's robot, number or template, or an unknown one: refused, nothing saved.
    const refused = async (change: Partial<CampaignSave>) =>
      failure(await inject("admin", "POST", "/outbound/campaign/save", { ...chosen, id, ...change }), 400);
    expect(await refused({ robotId: otherRobots[0].id })).toBe("所选机器人不存在，请重新选择");
    expect(await refused({ callerNumber: "01066668888" })).toBe("所选主叫号码不存在，请重新选择");
    expect(await refused({ queueName: "no-such-queue" })).toBe("所选坐席队列不存在，请填写本租户已有的队列");
    expect(await refused({ queueName: "other-voice" })).toBe("所选坐席队列不存在，请填写本租户已有的队列");
    const otherTemplate = await platform.db
      .selectFrom("trans_templates")
      .select("id")
      .where("tenant_id", "=", otherTenant)
      .executeTakeFirstOrThrow();
    expect(await refused({ transTemplateId: otherTemplate.id })).toBe("所选转接模板不存在，请重新选择");
    expect(await refused({ robotId: 999_999 })).toBe("所选机器人不存在，请重新选择");
    expect(json(CampaignResponseSchema, await inject("admin", "GET", `/outbound/campaign/${id}`)).data!.robotId).toBe(
      demoRobots.list[1].id,
    );
    expect(failure(await inject("other-admin", "GET", `/outbound/trans/template/get/${templates[0].id}`), 404)).toBe("转接模板不存在");
  });

  it("saves campaigns with a name unique per tenant, and only for administrators", async () => {
    const count = (user: string, name: string) => inject(user, "GET", `/outbound/campaign/name/count?name=${encodeURIComponent(name)}`);
    expect(json(NameCountResponseSchema, await count("admin", "信用卡分期推广")).data!.count).toBe(1);
    expect(json(NameCountResponseSchema, await count("other-admin", "信用卡分期推广")).data!.count).toBe(0);
    const { id } = json(SavedResponseSchema, await inject("admin", "POST", "/outbound/campaign/save", { ...form, name: "保存测试" })).data!;
    expect(failure(await inject("admin", "POST", "/outbound/campaign/save", { ...form, name: "保存测试" }), 400)).toBe("活动名称已存在");
    // The same name in another tenant is fine.
    json(SavedResponseSchema, await inject("other-admin", "POST", "/outbound/campaign/save", { ...form, robotId: null, name: "保存测试" }));
    json(SavedResponseSchema, await inject("admin", "POST", "/outbound/campaign/save", { ...form, id, name: "保存测试", ratio: 2 }));
    const saved = json(CampaignResponseSchema, await inject("admin", "GET", `/outbound/campaign/${id}`)).data!;
    expect(saved).toMatchObject({ name: "保存测试", ratio: 2, state: 0, windows: form.windows });
    expect(failure(await inject("other-admin", "POST", "/outbound/campaign/save", { ...form, robotId: null, id, name: "劫持" }), 404)).toBe(
      "活动不存在",
    );
    expect(failure(await inject("agent", "POST", "/outbound/campaign/save", { ...form, name: "坐席" }), 403)).toBe(
      "无权访问：需要「外呼活动管理」菜单",
    );
    failure(await inject("admin", "POST", "/outbound/campaign/save", { ...form, name: "" }), 400);
    expect(
      failure(
        await inject("admin", "POST", "/outbound/campaign/save", { ...form, name: "日期", startDate: "2026-12-02", endDate: "2026-12-01" }),
        400,
      ),
    ).toBe("结束日期不能早于开始日期");
  });

  it("reads and sets the ratio", async () => {
    const { id } = json(SavedResponseSchema, await inject("admin", "POST", "/outbound/campaign/save", { ...form, name: "比例测试" })).data!;
    json(RatioResponseSchema, await inject("admin", "PUT", "/outbound/campaign/ratio", { campaignId: id, ratio: 1.5 }));
    expect(json(RatioResponseSchema, await inject("admin", "GET", `/outbound/campaign/ratio?campaignId=${id}`)).data!.ratio).toBe(1.5);
    failure(await inject("admin", "PUT", "/outbound/campaign/ratio", { campaignId: id, ratio: 9 }), 400);
    failure(await inject("other-admin", "PUT", "/outbound/campaign/ratio", { campaignId: id, ratio: 2 }), 404);
  });

  it("imports contacts: good rows kept, bad rows explained and exportable", async () => {
    const { id } = json(SavedResponseSchema, await inject("admin", "POST", "/outbound/campaign/save", { ...form, name: "导入测试" })).data!;
    const csv =
      "手机号,姓名,备注\n13912345678,张三,老客户\n+8613912345679,李四,\n12345,王五,\n13912345678,重复,\n13800000000,黑名单,\n,空号码,\n";
    const upload = multipart(id, "名单.csv", csv);
    const result = json(
      ImportResultResponseSchema,
      await platform.app.inject({
        method: "POST",
        url: "/api/file/upload",
        headers: { ...bearer(tokens.admin), ...upload.headers },
        payload: upload.payload,
      }),
    ).data!;
    expect(result).toMatchObject({ accepted: 2, rejected: 4 });
    expect(result.errors.map((e) => [e.rowNo, e.reason])).toEqual([
      [4, "手机号码格式不正确"],
      [5, "号码在文件中重复"],
      [6, "号码在黑名单中"],
      [7, "缺少手机号码"],
    ]);
    const data = json(TaskCallPageResponseSchema, await inject("admin", "POST", "/outbound/campaign/data/list", { campaignId: id })).data!;
    expect(data.list.map((c) => [c.phone, c.customerName, c.userData])).toEqual([
      ["13912345678", "张三", { 备注: "老客户" }],
      ["13912345679", "李四", {}],
    ]);
    const errors = await inject("admin", "GET", `/outbound/campaign/export/error?campaignId=${id}&importId=${result.importId}`);
    expect(errors.statusCode).toBe(200);
    expect(errors.body).toContain("行号,手机号码,客户姓名,原因");
    expect(errors.body).toContain("5,13912345678,重复,号码在文件中重复");
    failure(await inject("other-admin", "GET", `/outbound/campaign/export/error?campaignId=${id}&importId=${result.importId}`), 404);
    // A second import of the same numbers: they are already in the campaign.
    const again = multipart(id, "again.csv", "phone\n13912345678\n");
    const second = json(
      ImportResultResponseSchema,
      await platform.app.inject({
        method: "POST",
        url: "/api/file/upload",
        headers: { ...bearer(tokens.admin), ...again.headers },
        payload: again.payload,
      }),
    ).data!;
    expect(second).toMatchObject({ accepted: 0, rejected: 1, batchId: null });
    expect(second.errors[0].reason).toBe("号码已在活动名单中");
    const check = json(
      CheckContactResponseSchema,
      await inject("admin", "POST", "/outbound/campaign/checkcontact", { campaignId: id, phone: "13912345678" }),
    ).data!;
    expect(check).toMatchObject({ valid: true, inCampaign: true, reason: "号码已在活动名单中" });
    // Another tenant cannot upload into this campaign; a file without a phone column is refused whole.
    const foreign = multipart(id, "x.csv", "phone\n13912340000\n");
    failure(
      await platform.app.inject({
        method: "POST",
        url: "/api/file/upload",
        headers: { ...bearer(tokens["other-admin"]), ...foreign.headers },
        payload: foreign.payload,
      }),
      404,
    );
    const noPhone = multipart(id, "x.csv", "姓名\n张三\n");
    expect(
      failure(
        await platform.app.inject({
          method: "POST",
          url: "/api/file/upload",
          headers: { ...bearer(tokens.admin), ...noPhone.headers },
          payload: noPhone.payload,
        }),
        400,
      ),
    ).toMatch(/缺少手机号列/);
    const export_ = await inject("admin", "POST", "/outbound/campaign/data/export", { campaignId: id });
    expect(export_.body.split("\r\n").filter(Boolean)).toHaveLength(3);
    // Another tenant sees none of it.
    expect(
      json(TaskCallPageResponseSchema, await inject("other-admin", "POST", "/outbound/campaign/data/list", { campaignId: id })).data!.total,
    ).toBe(0);
    failure(await inject("other-admin", "POST", "/outbound/campaign/data/export", { campaignId: id }), 404);
    failure(await inject("other-admin", "GET", `/outbound/campaign/imports?campaignId=${id}`), 404);
    failure(await inject("other-admin", "POST", "/outbound/campaign/checkcontact", { campaignId: id, phone: "13912345678" }), 404);
    expect(
      json(ImportListResponseSchema, await inject("admin", "GET", `/outbound/campaign/imports?campaignId=${id}`)).data!.map((i) => [
        i.accepted,
        i.rejected,
      ]),
    ).toEqual([
      [0, 1],
      [2, 4],
    ]);
  });

  it("keeps the simulator's clock out of reach unless SIMULATOR_CONTROL is set", async () => {
    failure(await inject("admin", "POST", "/outbound/simulator/tick", { minutes: 1 }), 404);
  });

  it("imports XLSX files", async () => {
    const ExcelJS = (await import("exceljs")).default;
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("名单");
    sheet.addRows([
      ["电话", "姓名"],
      ["13612345678", "赵六"],
      ["abc", "坏行"],
    ]);
    const buffer = Buffer.from(await workbook.xlsx.writeBuffer());
    const { id } = json(SavedResponseSchema, await inject("admin", "POST", "/outbound/campaign/save", { ...form, name: "XLSX导入" })).data!;
    const upload = multipart(id, "名单.xlsx", buffer);
    const result = json(
      ImportResultResponseSchema,
      await platform.app.inject({
        method: "POST",
        url: "/api/file/upload",
        headers: { ...bearer(tokens.admin), ...upload.headers },
        payload: upload.payload,
      }),
    ).data!;
    expect(result).toMatchObject({ accepted: 1, rejected: 1 });
  });

  it("refuses broken spreadsheets with a 400 in Chinese, and the campaign takes the next import", async () => {
    const ExcelJS = (await import("exceljs")).default;
    const { id } = json(
      SavedResponseSchema,
      await inject("admin", "POST", "/outbound/campaign/save", { ...form, name: "坏文件导入" }),
    ).data!;
    const upload = (fileName: string, content: string | Buffer) => {
      const body = multipart(id, fileName, content);
      return platform.app.inject({
        method: "POST",
        url: "/api/file/upload",
        headers: { ...bearer(tokens.admin), ...body.headers },
        payload: body.payload,
      });
    };
    const good = Buffer.from(await new ExcelJS.Workbook().xlsx.writeBuffer());
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("名单").addRows([["电话"], ["13612340001"]]);
    const valid = Buffer.from(await workbook.xlsx.writeBuffer());
    for (const broken of [
      Buffer.from("这不是一个表格文件"),
      valid.subarray(0, Math.floor(valid.length / 2)), // cut short
      Buffer.concat([valid.subarray(0, 200), Buffer.alloc(400, 0xff), valid.subarray(600)]), // damaged inside
      good, // a workbook without a sheet's rows
    ]) {
      const answer = await upload("名单.xlsx", broken);
      expect(answer.statusCode, answer.body).toBeLessThan(500);
    }
    expect(failure(await upload("名单.xlsx", Buffer.from("这不是一个表格文件")), 400)).toMatch(/文件无法读取/);
    // NUL bytes in a CSV are dropped, not a database error.
    const withNul = json(ImportResultResponseSchema, await upload("名单.csv", "phone,姓名\n13612340002,张\u0000三\n")).data!;
    expect(withNul.accepted).toBe(1);
    expect(json(ImportResultResponseSchema, await upload("名单.xlsx", valid)).data!.accepted).toBe(1);

    // A refusal lets its spooled file go, refused fields included: none is left on disk.
    const marker = `遗留检查${Date.now()}`;
    const refusedFields = multipart("第一个活动", "名单.csv", `phone,姓名\n13612340003,${marker}\n`);
    const refused = await platform.app.inject({
      method: "POST",
      url: "/api/file/upload",
      headers: { ...bearer(tokens.admin), ...refusedFields.headers },
      payload: refusedFields.payload,
    });
    expect(refused.statusCode).toBe(400);
    expect(failure(await upload("名单.xlsx", `${marker}，不是表格`), 400)).toMatch(/文件无法读取/);
    const left = [];
    for (const entry of (await readdir(tmpdir())).filter((name) => name.startsWith("sb-upload-"))) {
      const content = await readFile(join(tmpdir(), entry, "file"), "utf8").catch(() => "");
      if (content.includes(marker)) left.push(entry);
    }
    expect(left).toEqual([]);
  });

  it("reads a large list in the background; one import per campaign at a time; the dialer waits for it; a cut-off import leaves nothing", async () => {
    const { id } = json(SavedResponseSchema, await inject("admin", "POST", "/outbound/campaign/save", { ...form, name: "后台导入" })).data!;
    const upload = (content: string, background?: "1") => {
      const body = multipart(id, "大名单.csv", content, background);
      return platform.app.inject({
        method: "POST",
        url: "/api/file/upload",
        headers: { ...bearer(tokens.admin), ...body.headers },
        payload: body.payload,
      });
    };
    const imports = async () =>
      json(ImportListResponseSchema, await inject("admin", "GET", `/outbound/campaign/imports?campaignId=${id}`)).data!;
    const rows = Array.from({ length: 12_000 }, (_, i) => `1391${String(i).padStart(7, "0")},客户${i}`);

    // Asked in the background: answered at once, then read chunk by chunk to the end.
    const started = json(ImportResultResponseSchema, await upload(`phone,姓名\n${rows.join("\n")}\nnot-a-phone,坏行\n`, "1")).data!;
    expect(started).toMatchObject({ status: "running", accepted: 0 });
    let row = (await imports()).find((i) => i.id === started.importId)!;
    for (let waited = 0; row.status === "running" && waited < 30_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      row = (await imports()).find((i) => i.id === started.importId)!;
    }
    expect(row).toMatchObject({
      status: "done",
      processed: 12_001,
      accepted: 12_000,
      rejected: 1,
      message: null,
      batchId: started.batchId,
    });
    const batch = async (batchId: number) =>
      json(TaskDetailResponseSchema, await inject("admin", "GET", `/outbound/task/get/${batchId}/0/-1?pageSize=10`)).data!.batch;
    expect((await batch(started.batchId!)).total).toBe(12_000);

    // An import still running (another process's, here written by hand) holds the campaign's next
    // import back, and the dialer leaves its batch alone until it is done.
    const small = json(ImportResultResponseSchema, await upload("phone\n13912340001\n")).data!;
    const db = platform.app.db;
    await db.updateTable("contact_imports").set({ status: "running", updated_at: new Date() }).where("id", "=", small.importId).execute();
    expect(failure(await upload("phone\n13912340002\n"), 400)).toMatch(
      /^名单「大名单\.csv」正在导入（已处理 \d+ 行），请等它完成后再导入$/,
    );
    json(SavedResponseSchema, await inject("admin", "PUT", "/outbound/campaign/change/state", { campaignId: id, state: 1 }));
    await tick();
    expect((await batch(small.batchId!)).status).toBe(13); // 准备中: its import is not done
    expect((await batch(started.batchId!)).status).toBe(2);

    // Its chunks stopped coming two minutes ago: it was cut off. It is failed, its batch removed,
    // and the campaign imports again.
    await db
      .updateTable("contact_imports")
      .set({ updated_at: sql<string>`now() - interval '3 minutes'` })
      .where("id", "=", small.importId)
      .execute();
    expect((await imports()).find((i) => i.id === small.importId)).toMatchObject({
      status: "failed",
      accepted: 0,
      batchId: null,
      message: "导入中断：平台在导入过程中停止，请重新导入",
    });
    expect((await inject("admin", "GET", `/outbound/task/get/${small.batchId}/0/-1`)).statusCode).toBe(404);
    const audited = await db
      .selectFrom("audit_log")
      .select(["actor_name", "summary"])
      .where("action", "=", "campaign.import")
      .where("target_id", "=", String(id))
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(audited).toEqual({ actor_name: "系统", summary: `活动 ${id}：导入 ${small.importId} 超过 120 秒没有进展，已中止并撤回` });
    expect(json(ImportResultResponseSchema, await upload("phone\n13912340002\n")).data!).toMatchObject({ status: "done", accepted: 1 });
  });

  it("answers input no text column can hold, or numbers past what it counts, with a 400", async () => {
    for (const [method, url, body] of [
      ["POST", "/outbound/campaign/save", { ...form, name: "名\u0000称" }],
      ["GET", "/outbound/campaign/name/count?name=%00", undefined],
      ["POST", "/outbound/campaign/data/list", { campaignId: 2 ** 60 }],
      ["PUT", "/outbound/campaign/ratio", { campaignId: Number.MAX_SAFE_INTEGER + 2, ratio: 2 }],
    ] as const) {
      const answer = await inject("admin", method, url, body);
      expect(answer.statusCode, `${method} ${url}: ${answer.body}`).toBe(400);
      expect(answer.json().msg).toMatch(/[\u4e00-\u9fa5]/);
    }
  });

  it("checks state changes with the scheduler, runs the dialer, pauses, resumes and cancels", async () => {
    const { id } = json(
      SavedResponseSchema,
      await inject("admin", "POST", "/outbound/campaign/save", { ...form, name: "运行测试", maxAttempts: 2 }),
    ).data!;
    const check = async (state: number) =>
      json(SchedulerCheckResponseSchema, await inject("admin", "GET", `/outbound/campaign/scheduler/check?campaignId=${id}&state=${state}`))
        .data!;
    expect(await check(1)).toEqual({ allowed: false, reason: "活动尚未导入名单，不能启动" });
    expect(failure(await inject("admin", "PUT", "/outbound/campaign/change/state", { campaignId: id, state: 1 }), 400)).toBe(
      "活动尚未导入名单，不能启动",
    );
    expect((await check(2)).reason).toBe("活动当前状态为“未启动”，不能变更为“已暂停”");
    const phones = Array.from({ length: 30 }, (_, i) => `1371234${String(i).padStart(4, "0")}`);
    const { batchId } = await importPhones(id, phones, "run.csv");
    expect(await check(1)).toEqual({ allowed: true, reason: null });
    json(SavedResponseSchema, await inject("admin", "PUT", "/outbound/campaign/change/state", { campaignId: id, state: 1 }));

    const batch = async () =>
      json(TaskDetailResponseSchema, await inject("admin", "GET", `/outbound/task/get/${batchId}/0/-1?pageSize=100`)).data!;
    await tick();
    let detail = await batch();
    expect(detail.batch.status).toBe(2);
    expect(detail.calls.list.filter((c) => c.status === 1)).toHaveLength(5); // ratio 1 × 5 lines
    await tick();
    detail = await batch();
    expect(detail.calls.list.filter((c) => [2, 3, 5].includes(c.status)).length).toBe(5);

    json(SavedResponseSchema, await inject("admin", "PUT", "/outbound/campaign/change/state", { campaignId: id, state: 2 }));
    expect((await batch()).batch.status).toBe(3);
    await tick(1, 3);
    detail = await batch();
    expect(detail.batch.status).toBe(3);
    expect(detail.calls.list.filter((c) => c.status === 1)).toHaveLength(0); // live calls finished, no new ones
    json(SavedResponseSchema, await inject("admin", "PUT", "/outbound/campaign/change/state", { campaignId: id, state: 1 }));
    expect((await batch()).batch.status).toBe(2);
    await tick();
    json(SavedResponseSchema, await inject("admin", "PUT", "/outbound/campaign/change/state", { campaignId: id, state: 4 }));
    await tick();
    detail = await batch();
    expect(detail.batch.status).toBe(6);
    expect(detail.calls.list.some((c) => c.status === 4)).toBe(true);
    expect(detail.calls.list.every((c) => c.status !== 0 && c.status !== 1)).toBe(true);
    expect((await check(1)).reason).toBe("活动当前状态为“已取消”，不能变更为“运行中”");

    // Robot calls were written as call records with their dialog lines.
    const records = await platform.db
      .selectFrom("call_records")
      .select(["id", "is_answer", "intent"])
      .where("batch_id", "=", batchId!)
      .execute();
    expect(records.length).toBeGreaterThanOrEqual(10);
    const answered = records.find((r) => r.is_answer === 1)!;
    expect(answered.intent).not.toBeNull();
    const lines = await platform.db.selectFrom("call_dialogs").select("this_role").where("call_record_id", "=", answered.id).execute();
    expect(lines.map((l) => l.this_role)).toContain(3);

    // The history holds every move, and each of them is legal.
    const trace = json(TraceResponseSchema, await inject("admin", "GET", `/outbound/task/trace/${batchId}`)).data!;
    const batchMoves = trace.transitions.filter((t) => t.taskCallId === null).reverse();
    expect(batchMoves.map((t) => t.toStatus)).toEqual([13, 2, 3, 2, 6]);
    // However many calls moved since, the batch's own history is whole; call moves are the newest.
    const callMoves = trace.transitions.filter((t) => t.taskCallId !== null);
    const demoTenant = (await platform.db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow()).id;
    const few = await batchTransitions(platform.db, demoTenant, batchId!, 3);
    expect(
      few
        .filter((t) => t.taskCallId === null)
        .map((t) => t.toStatus)
        .reverse(),
    ).toEqual([13, 2, 3, 2, 6]);
    expect(few.filter((t) => t.taskCallId !== null).map((t) => t.id)).toEqual(callMoves.slice(0, 3).map((t) => t.id));
    failure(await inject("other-admin", "GET", `/outbound/task/trace/${batchId}`), 404);
    const call = detail.calls.list.find((c) => c.status === 3)!;
    const callTrace = json(CallTraceResponseSchema, await inject("admin", "GET", `/contact/trace/call/query/${call.id}`)).data!;
    expect(callTrace.transitions.map((t) => t.toStatus)).toEqual([1, 3]);
    expect(callTrace.records).toHaveLength(1);
    failure(await inject("other-admin", "GET", `/contact/trace/call/query/${call.id}`), 404);
  });

  it("writes a connected robot call with its recording and transcript, which plays from call history", async () => {
    const { id } = json(
      SavedResponseSchema,
      await inject("admin", "POST", "/outbound/campaign/save", { ...form, name: "录音测试", ratio: 5 }),
    ).data!;
    const phones = Array.from({ length: 20 }, (_, i) => `1391234${String(i).padStart(4, "0")}`);
    await importPhones(id, phones, "recorded.csv");
    json(SavedResponseSchema, await inject("admin", "PUT", "/outbound/campaign/change/state", { campaignId: id, state: 1 }));
    await tick(1, 3);

    const history = json(
      CallRecordPageResponseSchema,
      await inject("admin", "GET", `/contact/business/callhistory?campaignId=${id}&pageSize=100`),
    ).data!;
    expect(history.list.length).toBeGreaterThan(0);
    const connected = history.list.find((r) => r.callResult === 200)!;
    const detail = json(CallDetailResponseSchema, await inject("admin", "GET", `/contact/income/calls/${connected.callId}`)).data!;
    // The recording is the one where the customer last says the call's intent.
    const script = RECORDINGS[recordingFor(form.type, connected.intent)];
    expect(detail.callDuration).toBe(script.durationMs);
    expect(detail.attachData.conclusion).toBe(conclusionFor(connected.intent));
    const lines = detail.callingResults.flatMap((s) => s.dialogResults);
    expect(lines.filter((l) => l.thisRole === CUSTOMER_ROLE).at(-1)?.nluResult).toBe(connected.intent);
    expect(lines.map((l) => [l.dialogContent, l.recordStartTime, l.recordEndTime])).toEqual(
      script.lines.map((l) => [l.content, l.startMs, l.endMs]),
    );
    const tenantID = detail.tenantID;
    const audio = await inject("admin", "POST", `/records/records/${connected.callId}`, { tenantID });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers["content-type"]).toBe("audio/mpeg");
    // Calls that did not connect have neither audio nor lines.
    const missed = history.list.find((r) => r.callResult !== 200)!;
    const none = json(CallDetailResponseSchema, await inject("admin", "GET", `/contact/income/calls/${missed.callId}`)).data!;
    expect(none.callingResults).toEqual([]);
    expect(
      NoRecordingResponseSchema.parse((await inject("admin", "POST", `/records/records/${missed.callId}`, { tenantID })).json()).data,
    ).toBeNull();
  });

  it("no illegal transition is ever recorded, whatever the users and the clock do (property)", async () => {
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let run = 0; run < 3; run++) {
      const windows = [
        { start: "08:00", end: "10:00" },
        { start: "14:00", end: "16:00" },
      ];
      const { id } = json(
        SavedResponseSchema,
        await inject("admin", "POST", "/outbound/campaign/save", {
          ...form,
          name: `随机${run}`,
          cycle: 1 + run,
          windows,
          ratio: 0.5 + run,
          maxAttempts: 2,
        }),
      ).data!;
      const phones = Array.from({ length: 15 }, (_, i) => `1501${run}23${String(i).padStart(4, "0")}`);
      await importPhones(id, phones, "p.csv");
      await inject("admin", "PUT", "/outbound/campaign/change/state", { campaignId: id, state: 1 });
      for (let step = 0; step < 25; step++) {
        const roll = next();
        if (roll < 0.15)
          await inject("admin", "PUT", "/outbound/campaign/change/state", { campaignId: id, state: [1, 2, 4][Math.floor(next() * 3)] });
        await tick(Math.floor(next() * 240), 1);
      }
    }
    const moves = await platform.db
      .selectFrom("task_transitions")
      .select(["task_call_id", "from_status", "to_status"])
      .where("from_status", "is not", null)
      .execute();
    expect(moves.length).toBeGreaterThan(50);
    for (const m of moves) {
      const table = m.task_call_id === null ? BATCH_TRANSITIONS : CALL_TRANSITIONS;
      if (m.from_status === m.to_status) continue;
      expect(table[m.from_status!], JSON.stringify(m)).toContain(m.to_status);
    }
    // Whatever moved the calls (imports, the dialer, cancels in bulk, seeds), each batch's kept
    // count of open calls is the count of its calls waiting or being dialled.
    const batches = await platform.db
      .selectFrom("task_batches as b")
      .select([
        "b.id",
        "b.open_calls",
        (eb) =>
          eb
            .selectFrom("task_calls as t")
            .select(sql<number>`count(*)::int`.as("n"))
            .whereRef("t.batch_id", "=", "b.id")
            .where("t.status", "in", [0, 1])
            .as("counted"),
      ])
      .execute();
    expect(batches.some((b) => b.open_calls > 0)).toBe(true);
    for (const b of batches) expect(b.open_calls, `batch ${b.id}`).toBe(Number(b.counted));
    // So is its kept count of calls per status (what a batch page's total comes from), also once
    // calls, or a batch with its calls, are deleted.
    const expectCountsKept = async () => {
      const kept = await platform.db
        .selectFrom("task_batch_call_counts")
        .select(["batch_id", "status", "calls"])
        .where("calls", "<>", 0)
        .orderBy("batch_id")
        .orderBy("status")
        .execute();
      const counted = await platform.db
        .selectFrom("task_calls")
        .select(["batch_id", "status", sql<number>`count(*)::int`.as("calls")])
        .groupBy(["batch_id", "status"])
        .orderBy("batch_id")
        .orderBy("status")
        .execute();
      expect(kept.length).toBeGreaterThan(20);
      expect(kept).toEqual(counted);
    };
    await expectCountsKept();
    // A campaign's done calls (the list's 已呼) come from the same kept counts.
    const listed = json(CampaignPageResponseSchema, await inject("admin", "POST", "/outbound/campaign/manage/list", { pageSize: 100 }))
      .data!.list;
    const done = await platform.db
      .selectFrom("task_calls")
      .select(["campaign_id", sql<number>`count(*)::int`.as("n")])
      .where("status", "not in", [0, 1])
      .groupBy("campaign_id")
      .execute();
    expect(listed.some((c) => c.callDone > 0)).toBe(true);
    for (const c of listed) expect(c.callDone, c.name).toBe(done.find((d) => d.campaign_id === c.id)?.n ?? 0);
    const random = await platform.db
      .selectFrom("task_batches as b")
      .innerJoin("campaigns as c", "c.id", "b.campaign_id")
      .select("b.id")
      .where("c.name", "like", "随机%")
      .orderBy("b.id")
      .execute();
    await platform.db
      .deleteFrom("task_calls")
      .where("batch_id", "=", random[0].id)
      .where(sql<boolean>`id % 2 = 0`)
      .execute();
    await platform.db.deleteFrom("task_batches").where("id", "=", random[1].id).execute();
    await expectCountsKept();
  });

  it("hands interested customers of collaborative campaigns to agents through the listener seam", async () => {
    const { id } = json(
      SavedResponseSchema,
      await inject("admin", "POST", "/outbound/campaign/save", { ...form, name: "协同测试", type: 2, queueName: "demo-voice" }),
    ).data!;
    const phones = Array.from({ length: 20 }, (_, i) => `1591234${String(i).padStart(4, "0")}`);
    await importPhones(id, phones, "h.csv");
    await inject("admin", "PUT", "/outbound/campaign/change/state", { campaignId: id, state: 1 });
    const announced: number[] = [];
    const off = platform.app.dialer.onHandoff((h) => announced.push(h.id));
    await tick(0.1, 6);
    off();
    expect(announced.length).toBeGreaterThan(0);
    const waiting = json(
      HandoffPageResponseSchema,
      await inject("agent", "POST", "/contact/trans/call/query", { state: "waiting", pageSize: 100 }),
    ).data!;
    expect(waiting.list.map((h) => h.id)).toEqual(expect.arrayContaining(announced));
    const agentId = (await platform.db.selectFrom("users").select("id").where("user_name", "=", "agent").executeTakeFirstOrThrow()).id;
    const tenantId = (await platform.db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow()).id;
    expect(await platform.app.dialer.acceptHandoff(tenantId, announced[0], agentId)).toBe(true);
    expect(await platform.app.dialer.acceptHandoff(tenantId, announced[0], agentId)).toBe(false);
    await tick(3); // the rest wait longer than the hand-off timeout
    const lost = json(
      HandoffPageResponseSchema,
      await inject("agent", "POST", "/contact/trans/call/query", { state: "lost", pageSize: 100 }),
    ).data!;
    expect(lost.list.map((h) => h.id)).toEqual(expect.arrayContaining(announced.slice(1)));
    const handed = await platform.db
      .selectFrom("handoffs")
      .select(["state", "call_record_id"])
      .where("id", "=", announced[0])
      .executeTakeFirstOrThrow();
    expect(handed.state).toBe("handed");
    // The customer an agent took hears the agent in the recording (human-human lines); a lost one
    // heard the robot alone, and the record says so.
    const heard = await platform.db
      .selectFrom("handoffs as h")
      .innerJoin("call_records as r", "r.id", "h.call_record_id")
      .innerJoin("call_dialogs as d", "d.call_record_id", "r.id")
      .select(["h.id", "r.recording", "r.call_duration_ms", "d.dialog_type"])
      .where("h.id", "in", announced)
      .execute();
    const of = (id: number) => heard.filter((line) => line.id === id);
    expect(of(announced[0]).some((line) => line.dialog_type === 2)).toBe(true);
    for (const id of announced.slice(1)) {
      expect(of(id).length, `hand-off ${id}`).toBeGreaterThan(0);
      expect(
        of(id).every((line) => line.dialog_type === 1 && !line.recording?.startsWith("handoff-")),
        `hand-off ${id}`,
      ).toBe(true);
      expect(of(id)[0].call_duration_ms).toBe(RECORDINGS[of(id)[0].recording as RecordingName].durationMs);
    }
    expect(json(HandoffPageResponseSchema, await inject("other-admin", "POST", "/contact/trans/call/query", {})).data!.total).toBe(0);
  });

  it("lets agents work a preview list, and supervisors distribute its data", async () => {
    const [preview] = json(CampaignSelectResponseSchema, await inject("admin", "POST", "/outbound/campaign/select", { types: [3] })).data!;
    const unassigned = json(
      UnassignedCountResponseSchema,
      await inject("supervisor", "GET", `/outbound/preview/unassigned?campaignId=${preview.id}`),
    ).data!.unassigned;
    expect(unassigned).toBe(9);
    // An agent's 预览外呼 opens 数据分配, which shows them what waits (decisions 015, 044); only distributing is refused.
    const seenByAgent = await inject("agent", "GET", `/outbound/preview/unassigned?campaignId=${preview.id}`);
    expect(json(UnassignedCountResponseSchema, seenByAgent).data!.unassigned).toBe(9);
    const users = await platform.db.selectFrom("users").select(["id", "user_name"]).execute();
    const id = (name: string) => users.find((u) => u.user_name === name)!.id;
    const even = json(
      DistributeResponseSchema,
      await inject("supervisor", "POST", "/outbound/preview/distribute", {
        campaignId: preview.id,
        mode: "count",
        agents: [
          { userId: id("agent"), count: 2 },
          { userId: id("admin"), count: 1 },
        ],
      }),
    ).data!;
    expect(even.assigned).toEqual([
      { userId: id("agent"), count: 2 },
      { userId: id("admin"), count: 1 },
    ]);
    const rest = json(
      DistributeResponseSchema,
      await inject("supervisor", "POST", "/outbound/preview/distribute", {
        campaignId: preview.id,
        mode: "even",
        agents: [{ userId: id("agent") }, { userId: id("admin") }, { userId: id("supervisor") }, { userId: id("chat") }],
      }),
    ).data!;
    expect(rest.assigned.map((a) => a.count)).toEqual([2, 2, 1, 1]);
    expect(
      failure(
        await inject("agent", "POST", "/outbound/preview/distribute", {
          campaignId: preview.id,
          mode: "even",
          agents: [{ userId: id("agent") }],
        }),
        403,
      ),
    ).toBe("无权访问：需要「数据分配」菜单");
    const otherUser = (await platform.db.selectFrom("users").select("id").where("user_name", "=", "other-admin").executeTakeFirstOrThrow())
      .id;
    expect(
      failure(
        await inject("supervisor", "POST", "/outbound/preview/distribute", {
          campaignId: preview.id,
          mode: "even",
          agents: [{ userId: otherUser }],
        }),
        400,
      ),
    ).toBe("坐席不存在");

    const next = json(PreviewCallResponseSchema, await inject("agent", "POST", "/outbound/preview/next", {})).data!;
    expect(next).not.toBeNull();
    expect(next!.agentUserId).toBe(id("agent"));
    // The same contact until it is dialled or skipped.
    expect(json(PreviewCallResponseSchema, await inject("agent", "POST", "/outbound/preview/next", {})).data!.id).toBe(next!.id);
    const before = json(
      BeforeCallResponseSchema,
      await inject("agent", "GET", `/outbound/agentend/beforecall/${next!.batchId}/${next!.id}`),
    ).data!;
    expect(before.campaign.name).toBe("贵宾客户预览外呼");
    failure(await inject("other-admin", "GET", `/outbound/agentend/beforecall/${next!.batchId}/${next!.id}`), 404);
    // A colleague of another queue cannot open the agent's contact.
    failure(await inject("agent01", "GET", `/outbound/agentend/beforecall/${next!.batchId}/${next!.id}`), 404);
    failure(await inject("admin", "POST", "/outbound/preview/dial", { taskCallId: next!.id }), 404); // not admin's contact
    // The call goes out through the agent's phone: signed in first, then it rings, then it is answered.
    platform.app.cti.options.dialMs = 50;
    const demoTenant = (await platform.db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow()).id;
    expect(failure(await inject("agent", "POST", "/outbound/preview/dial", { taskCallId: next!.id }), 400)).toBe(
      "请先在语音工作台签入后再拨打",
    );
    await inject("agent", "POST", "/cti/api/agent/state", { command: "signIn" });
    platform.app.cti.setNextDialOutcome(demoTenant, "ANSWER");
    json(SavedResponseSchema, await inject("agent", "POST", "/outbound/preview/dial", { taskCallId: next!.id }));
    const ringing = (await inject("agent", "GET", "/cti/api/agent")).json().data;
    expect(ringing.agent.state).toBe("RINGING");
    expect(ringing.call).toMatchObject({ origin: "manual", phone: next!.phone, campaignId: next!.campaignId });
    const calling = json(CallTraceResponseSchema, await inject("agent", "GET", `/contact/trace/call/query/${next!.id}`)).data!;
    expect(calling.call.status).toBe(1);
    for (let i = 0; i < 100 && (await inject("agent", "GET", "/cti/api/agent")).json().data.agent.state !== "TALKING"; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await inject("agent", "POST", "/cti/api/call/hangup");
    const dialled = json(CallTraceResponseSchema, await inject("agent", "GET", `/contact/trace/call/query/${next!.id}`)).data!;
    expect(dialled.call.status).toBe(3);
    expect(dialled.records).toHaveLength(1);
    expect(dialled.records[0]).toMatchObject({ outboundResult: "EndOfTheCall", callResult: 200 });
    const second = json(PreviewCallResponseSchema, await inject("agent", "POST", "/outbound/preview/next", {})).data!;
    expect(second!.id).not.toBe(next!.id);
    json(SavedResponseSchema, await inject("agent", "POST", "/outbound/preview/skip", { taskCallId: second!.id, reason: "号码有误" }));
    const skipped = json(
      TaskCallPageResponseSchema,
      await inject("agent", "POST", "/outbound/campaign/data/list", { mine: true, status: 2 }),
    ).data!;
    expect(skipped.list.map((c) => [c.id, c.skipReason])).toContainEqual([second!.id, "号码有误"]);

    const mine = json(BatchPageResponseSchema, await inject("agent", "POST", "/outbound/task/list/agent", {})).data!;
    expect(mine.list.map((b) => b.campaignName)).toContain("贵宾客户预览外呼");
    const task = json(TaskDetailResponseSchema, await inject("agent", "GET", `/outbound/task/get/${next!.batchId}/0/-1`)).data!;
    expect(task.calls.list.every((c) => c.agentUserId === id("agent"))).toBe(true);
    failure(await inject("other-admin", "GET", `/outbound/task/get/${next!.batchId}/0/-1`), 404);
  });

  it("dials a call-back campaign's contact through the agent's phone and records it as a call-back call", async () => {
    // The preview campaign made a manual call-back campaign (type 5): worked and dialled the same way.
    const [preview] = json(CampaignSelectResponseSchema, await inject("admin", "POST", "/outbound/campaign/select", { types: [3] })).data!;
    await platform.db.updateTable("campaigns").set({ type: 5 }).where("id", "=", preview.id).execute();
    const agentId = (await platform.db.selectFrom("users").select("id").where("user_name", "=", "agent").executeTakeFirstOrThrow()).id;
    await inject("supervisor", "POST", "/outbound/preview/distribute", {
      campaignId: preview.id,
      mode: "count",
      agents: [{ userId: agentId, count: 1 }],
    });
    // Signed in (perhaps already, by the test before) and ready for the call.
    await inject("agent", "POST", "/cti/api/agent/state", { command: "signIn" });
    await inject("agent", "POST", "/cti/api/agent/state", { command: "ready" });
    platform.app.cti.options.dialMs = 50;
    const next = json(PreviewCallResponseSchema, await inject("agent", "POST", "/outbound/preview/next", {})).data!;
    expect(next!.campaignId).toBe(preview.id);
    const demoTenant = (await platform.db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow()).id;
    platform.app.cti.setNextDialOutcome(demoTenant, "ANSWER");
    json(SavedResponseSchema, await inject("agent", "POST", "/outbound/preview/dial", { taskCallId: next!.id }));
    expect((await inject("agent", "GET", "/cti/api/agent")).json().data.agent.state).toBe("RINGING");
    for (let i = 0; i < 100 && (await inject("agent", "GET", "/cti/api/agent")).json().data.agent.state !== "TALKING"; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    await inject("agent", "POST", "/cti/api/call/hangup");
    const record = await platform.db
      .selectFrom("call_records")
      .select(["campaign_type", "call_kind", "direction"])
      .where("task_call_id", "=", next!.id)
      .executeTakeFirstOrThrow();
    expect(record).toEqual({ campaign_type: 5, call_kind: 1, direction: "outbound" });
  });

  it("saves, recovers and isolates batches; serves transfer templates", async () => {
    const [robot] = json(
      CampaignSelectResponseSchema,
      await inject("admin", "POST", "/outbound/campaign/select", { types: [1] }),
    ).data!.filter((c) => c.name === "信用卡分期推广");
    const { id } = json(
      SavedResponseSchema,
      await inject("admin", "POST", "/outbound/task/save", { campaignId: robot.id, name: "手工批次" }),
    ).data!;
    const batches = json(
      BatchPageResponseSchema,
      await inject("admin", "POST", "/outbound/task/list", { campaignId: robot.id, pageSize: 50 }),
    ).data!;
    const failed = batches.list.find((b) => b.status === 14)!;
    const paused = batches.list.find((b) => b.status === 3)!;
    json(SavedResponseSchema, await inject("admin", "POST", "/outbound/task/recover", { id: failed.id }));
    json(SavedResponseSchema, await inject("admin", "POST", "/outbound/task/recover", { id: paused.id }));
    expect(failure(await inject("admin", "POST", "/outbound/task/recover", { id: paused.id }), 400)).toBe(
      "只有已暂停或准备失败的批次可以恢复",
    );
    failure(await inject("other-admin", "POST", "/outbound/task/recover", { id }), 404);
    failure(await inject("other-admin", "POST", "/outbound/task/save", { campaignId: robot.id, name: "x" }), 404);
    failure(await inject("agent", "POST", "/outbound/task/save", { campaignId: robot.id, name: "x" }), 403);

    // Transfer templates are chosen on a campaign (外呼活动管理): the administrator's, not an agent's
    // (decision 044). A user's are the tenant's and their own.
    const agentId = (await platform.db.selectFrom("users").select("id").where("user_name", "=", "agent").executeTakeFirstOrThrow()).id;
    const templates = json(TransTemplatesResponseSchema, await inject("admin", "GET", `/outbound/transTemplates/${agentId}/0`)).data!;
    expect(templates.map((t) => t.name)).toEqual(["转人工队列", "转值班主管", "转客户经理外线"]);
    expect(
      json(TransTemplateResponseSchema, await inject("admin", "GET", `/outbound/trans/template/get/${templates[0].id}`)).data!.target,
    ).toBe("demo-voice");
    failure(await inject("other-admin", "GET", `/outbound/trans/template/get/${templates[0].id}`), 404);
    for (const url of [`/outbound/transTemplates/${agentId}/0`, `/outbound/trans/template/get/${templates[0].id}`])
      expect(failure(await inject("agent", "GET", url), 403)).toBe("无权访问：需要「外呼活动管理」菜单");
  });

  it("answers a batch page in one call: the batch, its calls with their total per filter, and with history=1 its history", async () => {
    const calls = await platform.db.selectFrom("task_calls").select(["batch_id", "status", "agent_user_id"]).execute();
    const agentId = (await platform.db.selectFrom("users").select("id").where("user_name", "=", "agent").executeTakeFirstOrThrow()).id;
    // A batch with calls in several statuses, some of them the agent's.
    const batchId = [...new Set(calls.map((c) => c.batch_id))].find(
      (id) =>
        new Set(calls.filter((c) => c.batch_id === id).map((c) => c.status)).size >= 3 &&
        calls.some((c) => c.batch_id === id && c.agent_user_id === agentId),
    )!;
    expect(batchId).toBeDefined();
    const mine = calls.filter((c) => c.batch_id === batchId);
    const task = async (user: string, isCalling: 0 | 1, callType: number, query = "") =>
      json(
        TaskDetailResponseSchema,
        await inject(user, "GET", `/outbound/task/get/${batchId}/${isCalling}/${callType}?pageSize=10${query}`),
      ).data!;
    for (const isCalling of [0, 1] as const) {
      for (const callType of [-1, ...codesOf(CALL_STATUSES)]) {
        const matching = mine.filter((c) => (callType < 0 || c.status === callType) && (isCalling === 0 || c.status <= 1));
        const { calls: page } = await task("admin", isCalling, callType);
        expect(page.total, `isCalling ${isCalling}, callType ${callType}`).toBe(matching.length);
        expect(page.list.length).toBe(Math.min(10, matching.length));
        // An agent's total counts only their own calls.
        const own = (await task("agent", isCalling, callType)).calls;
        expect(own.total, `agent: isCalling ${isCalling}, callType ${callType}`).toBe(
          matching.filter((c) => c.agent_user_id === agentId).length,
        );
        expect(own.list.every((c) => c.agentUserId === agentId)).toBe(true);
      }
    }
    // history=1 brings the batch's history as /outbound/task/trace gives it; without it there is none.
    const withHistory = await task("admin", 0, -1, "&history=1");
    const trace = json(TraceResponseSchema, await inject("admin", "GET", `/outbound/task/trace/${batchId}`)).data!;
    expect(withHistory.transitions).toEqual(trace.transitions);
    expect(withHistory.transitions!.length).toBeGreaterThan(0);
    expect(withHistory.batch).toEqual(trace.batch);
    expect((await task("admin", 0, -1)).transitions).toBeUndefined();
    expect(failure(await inject("other-admin", "GET", `/outbound/task/get/${batchId}/0/-1?history=1`), 404)).toBe("批次不存在");
    failure(await inject("admin", "GET", `/outbound/task/get/${batchId}/0/-1?history=yes`), 400);
  });

  it("pages a batch's calls and a campaign's data by keyset, the same rows as by offset", async () => {
    const biggest = await platform.db
      .selectFrom("task_calls")
      .select(["batch_id", "campaign_id", (eb) => eb.fn.countAll<number>().as("n")])
      .groupBy(["batch_id", "campaign_id"])
      .orderBy("n", "desc")
      .executeTakeFirstOrThrow();
    expect(Number(biggest.n)).toBeGreaterThan(20);
    const pageOf = async (query: string) =>
      json(TaskDetailResponseSchema, await inject("admin", "GET", `/outbound/task/get/${biggest.batch_id}/0/-1?pageSize=10&${query}`)).data!
        .calls;
    const first = await pageOf("pageNo=1");
    const second = await pageOf("pageNo=2");
    expect(first.total).toBe(Number(biggest.n));
    const next = await pageOf(`pageNo=2&after=${first.list[9].id}`);
    expect(next.list.map((c) => c.id)).toEqual(second.list.map((c) => c.id));
    expect(next.total).toBe(first.total);
    const back = await pageOf(`pageNo=1&before=${second.list[0].id}`);
    expect(back.list.map((c) => c.id)).toEqual(first.list.map((c) => c.id));

    const data = async (user: string, body: object) =>
      json(
        TaskCallPageResponseSchema,
        await inject(user, "POST", "/outbound/campaign/data/list", { campaignId: biggest.campaign_id, pageSize: 10, ...body }),
      ).data!;
    const firstData = await data("admin", {});
    const secondData = await data("admin", { pageNo: 2 });
    expect((await data("admin", { pageNo: 2, after: String(firstData.list[9].id) })).list).toEqual(secondData.list);
    // The other tenant's lists never hold this tenant's calls, whatever the cursor.
    expect(await data("other-admin", { after: "0" })).toEqual({ list: [], total: 0 });
    failure(await inject("admin", "GET", `/outbound/task/get/${biggest.batch_id}/0/-1?after=abc`), 400);
  });
  it("does not dial for a robot that follows the working calendar on a festival, a rest day or outside the day's hours", async () => {
    const clock = platform.app.dialer.clock;
    const before = clock.now();
    // Monday to Friday 09:00–18:00; a festival on Monday 7 and Tuesday 8 January 2030.
    const days = [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, enabled: weekday <= 5, start: "09:00", end: "18:00" }));
    expect((await inject("admin", "PUT", "/robot/api/dispatch/working", { days })).statusCode).toBe(200);
    const festival = await inject("admin", "POST", "/robot/api/dispatch/festival", {
      name: "测试假日",
      startDate: "2030-01-07",
      endDate: "2030-01-08",
    });
    expect(festival.statusCode, festival.body).toBe(200);
    const copy = await inject("admin", "POST", "/robot/api/robot/instance/copy", { id: form.robotId, name: "日历外呼机器人" });
    const robot = copy.json().data as { id: number; flowId: number };
    const follow = await inject("admin", "PUT", `/robot/api/robot/instance/${robot.id}`, {
      name: "日历外呼机器人",
      flowId: robot.flowId,
      followCalendar: true,
    });
    expect(follow.statusCode, follow.body).toBe(200);
    const { id } = json(
      SavedResponseSchema,
      await inject("admin", "POST", "/outbound/campaign/save", { ...form, name: "日历外呼", robotId: robot.id }),
    ).data!;
    const phones = Array.from({ length: 10 }, (_, i) => `1371235${String(i).padStart(4, "0")}`);
    const { batchId } = await importPhones(id, phones, "calendar.csv");
    json(SavedResponseSchema, await inject("admin", "PUT", "/outbound/campaign/change/state", { campaignId: id, state: 1 }));
    const batch = async () =>
      json(TaskDetailResponseSchema, await inject("admin", "GET", `/outbound/task/get/${batchId}/0/-1?pageSize=100`)).data!;
    const at = async (cst: string) => platform.app.dialer.tick(new Date(`${cst}+08:00`));
    const dialled = async () => (await batch()).calls.list.filter((c) => c.status !== 0).length;
    const lastReason = async () =>
      (
        await platform.db
          .selectFrom("task_transitions")
          .select("reason")
          .where("batch_id", "=", batchId)
          .where("task_call_id", "is", null)
          .orderBy("id", "desc")
          .executeTakeFirstOrThrow()
      ).reason;

    // The festival: the list is ready, then the batch rests, saying why; nobody is called.
    await at("2030-01-07T10:00:00");
    await at("2030-01-07T10:01:00");
    expect((await batch()).batch.status).toBe(11);
    expect(await lastReason()).toBe("节假日「测试假日」，不外呼");
    expect(await dialled()).toBe(0);
    // A working day before its hours: still resting; in them, it calls.
    await at("2030-01-09T08:30:00");
    expect((await batch()).batch.status).toBe(11);
    expect(await dialled()).toBe(0);
    await at("2030-01-09T09:30:00");
    expect((await batch()).batch.status).toBe(2);
    expect(await lastReason()).toBe("进入外呼时段");
    expect(await dialled()).toBeGreaterThan(0);
    // After its hours the batch rests between windows; on Saturday it stays resting.
    await at("2030-01-09T18:30:00");
    expect((await batch()).batch.status).toBe(11);
    expect(await lastReason()).toBe("时段间隔休息");
    const called = await dialled();
    await at("2030-01-12T10:00:00");
    expect((await batch()).batch.status).toBe(11);
    expect(await dialled()).toBe(called);
    clock.set(before);
  });

  it("never has more calls in progress on a gateway line than it carries, across every campaign whose robot uses it", async () => {
    const dialling = async (campaignId: number) =>
      (await platform.db.selectFrom("task_calls").select("id").where("campaign_id", "=", campaignId).where("status", "=", 1).execute())
        .length;
    const lineNamed = async (name: string) =>
      json(GatewayLineListResponseSchema, await inject("admin", "GET", "/dialer/api/v1/gateway/line/robot")).data!.list.find(
        (l) => l.name === name,
      )!;
    /** A copy of the seeded robot on `lineId` (or none), and a running campaign of 12 contacts using it. */
    const campaignOn = async (name: string, lineId: number | null, prefix: string) => {
      const robot = (await inject("admin", "POST", "/robot/api/robot/instance/copy", { id: form.robotId, name: `${name}机器人` })).json()
        .data as { id: number; name: string; flowId: number };
      const put = { name: robot.name, flowId: robot.flowId, concurrency: 10, lineId };
      expect((await inject("admin", "PUT", `/robot/api/robot/instance/${robot.id}`, put)).statusCode).toBe(200);
      const { id } = json(
        SavedResponseSchema,
        await inject("admin", "POST", "/outbound/campaign/save", { ...form, name, robotId: robot.id }),
      ).data!;
      const phones = Array.from({ length: 12 }, (_, i) => `${prefix}${String(i).padStart(4, "0")}`);
      await importPhones(id, phones, "line.csv");
      json(SavedResponseSchema, await inject("admin", "PUT", "/outbound/campaign/change/state", { campaignId: id, state: 1 }));
      return id;
    };
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
    const done = async (campaignId: number) =>
      (
        await platform.db
          .selectFrom("task_calls")
          .select("id")
          .where("campaign_id", "=", campaignId)
          .where("status", "not in", [0, 1])
          .execute()
      ).length;
    expect((await done(first)) + (await done(second))).toBe(9);
    expect(await done(first)).toBeGreaterThan(0);
    // A line that is 停用 carries nothing: its robots' campaigns wait.
    await platform.db.updateTable("robot_gateway_lines").set({ enabled: false }).where("id", "=", lineId).execute();
    await tick();
    expect((await dialling(first)) + (await dialling(second))).toBe(0);
    expect(await lineNamed("测试三线")).toMatchObject({ inUse: 0, enabled: false });
  });

  it("never has more calls in progress for a robot than its concurrency, across every campaign it serves", async () => {
    const dialling = async (ids: number[]) =>
      (await platform.db.selectFrom("task_calls").select("id").where("campaign_id", "in", ids).where("status", "=", 1).execute()).length;
    const robot = (await inject("admin", "POST", "/robot/api/robot/instance/copy", { id: form.robotId, name: "两路并发机器人" })).json()
      .data as { id: number; name: string; flowId: number };
    const put = { name: robot.name, flowId: robot.flowId, concurrency: 2, lineId: null };
    expect((await inject("admin", "PUT", `/robot/api/robot/instance/${robot.id}`, put)).statusCode).toBe(200);
    const campaigns: number[] = [];
    for (const [i, name] of ["并发活动甲", "并发活动乙"].entries()) {
      const { id } = json(
        SavedResponseSchema,
        await inject("admin", "POST", "/outbound/campaign/save", { ...form, name, robotId: robot.id }),
      ).data!;
      const phones = Array.from({ length: 6 }, (_, n) => `139058${i}${String(n).padStart(4, "0")}`);
      await importPhones(id, phones, "robot.csv");
      json(SavedResponseSchema, await inject("admin", "PUT", "/outbound/campaign/change/state", { campaignId: id, state: 1 }));
      campaigns.push(id);
    }
    // Each batch's ratio would start 5: the robot takes 2 at once, over both campaigns, tick after tick.
    for (let i = 0; i < 3; i++) {
      await tick();
      expect(await dialling(campaigns)).toBe(2);
    }
  });
});
