import ExcelJS from "exceljs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { FailureSchema } from "#contracts/envelope";
import {
  FlowDesignResponseSchema,
  FlowDetailResponseSchema,
  FlowPageResponseSchema,
  FlowParamListResponseSchema,
  FlowResponseSchema,
  NluResultResponseSchema,
  RobotInstancePageResponseSchema,
  type FlowNode,
} from "#contracts/robot";
import { bearer, describeDb, loginAs, TEST_DB, testPlatform } from "#upstream/test-db";
import { bridgeHandoffs } from "#upstream/simulators/handoff-bridge";
import type { PreparedPlatform } from "#upstream/testing";

describeDb(`robot flows and their versions on ${TEST_DB}`, () => {
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
  const flows = async (account = "admin", body: object = {}) =>
    FlowPageResponseSchema.parse((await inject(account, "POST", "/robot/api/flow/list", body)).json()).data!;
  const design = async (flowId: number, versionId?: number) => {
    const response = await inject("admin", "GET", `/robot/api/flow/${flowId}/design${versionId ? `?versionId=${versionId}` : ""}`);
    expect(response.statusCode, response.body).toBe(200);
    return FlowDesignResponseSchema.parse(response.json()).data!;
  };
  const act = async (flowId: number, path: string, body: object = {}) => {
    const response = await inject("admin", "POST", `/robot/api/flow/${flowId}/${path}`, body);
    expect(response.statusCode, response.body).toBe(200);
    return FlowDetailResponseSchema.parse(response.json()).data!;
  };

  it("lists the tenant's flows to its administrators only", async () => {
    const names = (await flows()).list.map((f) => f.name);
    expect(names).toEqual(expect.arrayContaining(["信用卡分期", "账单提醒", "满意度回访", "信用卡分期回访"]));
    const survey = (await flows("admin", { name: "满意度" })).list;
    expect(survey).toMatchObject([{ name: "满意度回访", serviceVersion: "v1.0", working: { name: "v1.1", state: 0 }, versionCount: 2 }]);
    const other = (await flows("other-admin")).list.map((f) => f.name);
    expect(other).toEqual(["其他租户流程"]);
    for (const account of ["agent", "supervisor"]) {
      expect(await refusal(await inject(account, "POST", "/robot/api/flow/list", {}), 403)).toBe("无权访问：需要「机器人流程」菜单");
      expect(await refusal(await inject(account, "GET", `/robot/api/flow/${survey[0].id}`), 403)).toBe("无权访问：需要「机器人流程」菜单");
    }
    // Another tenant's flow is not found, whatever is asked of it.
    expect(await refusal(await inject("other-admin", "GET", `/robot/api/flow/${survey[0].id}/design`), 404)).toBe("流程不存在");
    expect(await refusal(await inject("other-admin", "POST", `/robot/api/flow/${survey[0].id}/cover`, { versionId: 1 }), 404)).toBe(
      "流程不存在",
    );
  });

  it("takes a flow from draft through review to service, the market, a new draft and a rollback", async () => {
    const created = await inject("admin", "POST", "/robot/api/flow/new", { name: "测试流程", description: "单元测试" });
    expect(created.statusCode, created.body).toBe(200);
    const flow = FlowResponseSchema.parse(created.json()).data!;
    expect(flow).toMatchObject({ name: "测试流程", serviceVersion: null, working: { name: "v1.0", state: 0 } });
    expect(await refusal(await inject("admin", "POST", "/robot/api/flow/new", { name: "测试流程" }), 400)).toBe(
      "流程名称「测试流程」已存在",
    );
    expect(await refusal(await inject("admin", "POST", "/robot/api/flow/new", { name: " " }), 400)).toBe("请输入流程名称");

    const starter = await design(flow.id);
    expect(starter.problems).toEqual([]);
    expect(starter.diff).toBeNull();

    // A dead end: saved (work in progress), named, and refused at submit.
    const broken: FlowNode[] = starter.nodes.map((n) => (n.key === "start" ? { ...n, next: "" } : n));
    const saved = await inject("admin", "PUT", `/robot/api/flow/${flow.id}/design`, { nodes: broken });
    expect(saved.statusCode, saved.body).toBe(200);
    const savedDesign = FlowDesignResponseSchema.parse(saved.json()).data!;
    expect(savedDesign.problems.map((p) => p.message)).toContain("节点「开场白」的下一节点没有设置去向");
    expect(await refusal(await inject("admin", "POST", `/robot/api/flow/${flow.id}/audit/submit`, {}), 400)).toMatch(
      /^流程设计有 \d+ 个问题，请修改后再提交：节点「开场白」的下一节点没有设置去向/,
    );

    const fixed = starter.nodes.map((n) => (n.key === "start" ? { ...n, prompt: "您好，这里是测试流程。" } : n));
    expect((await inject("admin", "PUT", `/robot/api/flow/${flow.id}/design`, { nodes: fixed })).statusCode).toBe(200);
    let now = await act(flow.id, "audit/submit");
    expect(now.versions[0]).toMatchObject({ name: "v1.0", state: 1 });
    expect(await refusal(await inject("admin", "PUT", `/robot/api/flow/${flow.id}/design`, { nodes: fixed }), 409)).toMatch(
      /^只有草稿可以修改/,
    );
    expect(await refusal(await inject("admin", "POST", `/robot/api/flow/${flow.id}/audit/return`, { reason: "  " }), 400)).toBe(
      "请填写退回原因",
    );
    now = await act(flow.id, "audit/return", { reason: "开场白太短" });
    expect(now.versions[0]).toMatchObject({ state: 0, returnReason: "开场白太短" });
    now = await act(flow.id, "audit/submit");
    const v1 = now.versions[0];
    expect(v1.returnReason).toBeNull();
    now = await act(flow.id, "publish", { versionId: v1.id });
    expect(now.versions[0]).toMatchObject({ state: 2, inService: true });
    expect(now.flow).toMatchObject({ serviceVersion: "v1.0", working: null });
    expect(await refusal(await inject("admin", "POST", `/robot/api/flow/${flow.id}/audit/submit`, {}), 404)).toBe(
      "没有待提交或待审核的版本",
    );
    now = await act(flow.id, "market", { versionId: v1.id });
    expect(now.versions[0].state).toBe(3);

    // Cover: a new draft from v1.0; a second cover is refused while it exists.
    now = await act(flow.id, "cover", { versionId: v1.id });
    expect(now.versions[0]).toMatchObject({ name: "v1.1", state: 0, basedOn: "v1.0", inService: false });
    expect(await refusal(await inject("admin", "POST", `/robot/api/flow/${flow.id}/cover`, { versionId: v1.id }), 409)).toBe(
      "已有草稿 v1.1，请先处理它再复制",
    );
    const v2nodes = fixed.map((n) => (n.key === "start" ? { ...n, prompt: "您好，这里是第二版。" } : n));
    await inject("admin", "PUT", `/robot/api/flow/${flow.id}/design`, { nodes: v2nodes });
    const review = await design(flow.id);
    expect(review.diff).toEqual({
      against: "v1.0",
      changes: [
        {
          nodeKey: "start",
          nodeName: "开场白",
          kind: "changed",
          fields: [{ label: "话术", before: "您好，这里是测试流程。", after: "您好，这里是第二版。" }],
        },
      ],
    });
    await act(flow.id, "audit/submit");
    now = await act(flow.id, "publish", { versionId: review.version.id });
    expect(now.flow.serviceVersion).toBe("v1.1");
    // Published versions never change; rolling back publishes the earlier one again.
    expect(await refusal(await inject("admin", "PUT", `/robot/api/flow/${flow.id}/design`, { nodes: fixed }), 409)).toMatch(
      /^没有可修改的草稿/,
    );
    now = await act(flow.id, "publish", { versionId: v1.id });
    expect(now.flow.serviceVersion).toBe("v1.0");
    expect(now.versions.map((v) => [v.name, v.state, v.inService])).toEqual([
      ["v1.1", 2, false],
      ["v1.0", 3, true],
    ]);
    expect(await refusal(await inject("admin", "POST", `/robot/api/flow/${flow.id}/market`, { versionId: 999_999 }), 404)).toBe(
      "流程版本不存在",
    );

    // Every transition is an audit row, and the flow's history reads them back, newest first.
    expect(now.history.map((h) => h.action)).toEqual([
      "flow.rollback",
      "flow.publish",
      "flow.submit",
      "flow.design",
      "flow.cover",
      "flow.market",
      "flow.publish",
      "flow.submit",
      "flow.return",
      "flow.submit",
      "flow.design",
      "flow.design",
      "flow.create",
    ]);
    expect(now.history.find((h) => h.action === "flow.return")).toMatchObject({
      reason: "开场白太短",
      summary: "流程「测试流程」v1.0 退回（待审核 → 草稿）",
    });
  });

  /** A robot running the flow and a campaign of it (not saved: the flow may not be published yet). */
  const robotCampaign = async (flowId: number, options: { name: string; type: number; queueName: string | null }) => {
    const demo = await platform.db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow();
    const robot = await platform.db
      .insertInto("robot_instances")
      .values({ tenant_id: demo.id, name: `${options.name}机器人`, flow_id: flowId, flow_version_name: null })
      .returning("id")
      .executeTakeFirstOrThrow();
    const campaign = {
      name: options.name,
      type: options.type,
      taskType: 1,
      cycle: 3,
      ratio: 1,
      callingListName: `${options.name}名单`,
      robotId: robot.id,
      queueName: options.queueName,
      callerNumber: null,
      transTemplateId: null,
      windows: [{ start: "00:00", end: "24:00" }],
      startDate: null,
      endDate: null,
      maxAttempts: 1,
    };
    return { robot, campaign };
  };
  /** Saves the campaign, imports 30 customers and starts it; its id. */
  const startCampaign = async (campaign: object) => {
    const saved = await inject("admin", "POST", "/outbound/campaign/save", campaign);
    expect(saved.statusCode, saved.body).toBe(200);
    const campaignId = (saved.json() as { data: { id: number } }).data.id;
    const boundary = "----robot-test";
    const rows = Array.from({ length: 30 }, (_, i) => `1371235${String(i).padStart(4, "0")},王${i}`).join("\n");
    const upload = await platform.app.inject({
      method: "POST",
      url: "/api/file/upload",
      headers: { ...bearer(tokens.admin), "content-type": `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="campaignId"\r\n\r\n${campaignId}\r\n` +
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="flow.csv"\r\nContent-Type: text/csv\r\n\r\n` +
          `手机号,客户姓名\n${rows}\n\r\n--${boundary}--\r\n`,
      ),
    });
    expect(upload.statusCode, upload.body).toBe(200);
    expect((await inject("admin", "PUT", "/outbound/campaign/change/state", { campaignId, state: 1 })).statusCode).toBe(200);
    return campaignId;
  };
  const tick = () => platform.app.dialer.tick(platform.app.dialer.clock.advance(60_000));

  it("makes campaigns run published flows only, and robots speak the version in service on their next call", async () => {
    const create = await inject("admin", "POST", "/robot/api/flow/new", { name: "外呼测试流程" });
    const flow = FlowResponseSchema.parse(create.json()).data!;
    const withPrompt = (nodes: FlowNode[], prompt: string) => nodes.map((n) => (n.key === "start" ? { ...n, prompt } : n));
    const starter = (await design(flow.id)).nodes;
    const { robot, campaign } = await robotCampaign(flow.id, { name: "流程驱动测试", type: 1, queueName: null });
    // Not published yet: no campaign can choose it.
    expect(await refusal(await inject("admin", "POST", "/outbound/campaign/save", campaign), 400)).toBe(
      "所选机器人的流程尚未发布，请先在机器人流程中发布一个版本",
    );

    await inject("admin", "PUT", `/robot/api/flow/${flow.id}/design`, {
      nodes: withPrompt(starter, "{客户姓名}您好，这里是第一版开场白。"),
    });
    await act(flow.id, "audit/submit");
    const v1 = (await design(flow.id)).version;
    await act(flow.id, "publish", { versionId: v1.id });
    const campaignId = await startCampaign(campaign);
    const spoken = async () => {
      const records = await platform.db
        .selectFrom("call_records as r")
        .innerJoin("call_dialogs as d", "d.call_record_id", "r.id")
        .select(["r.id", "r.flow_version_name", "r.recording", "d.content", "d.this_role"])
        .where("r.campaign_id", "=", campaignId)
        .where("r.is_answer", "=", 1)
        .orderBy("r.id")
        .orderBy("d.id")
        .execute();
      return records;
    };
    await tick();
    await tick();
    const first = await spoken();
    expect(first.length).toBeGreaterThan(0);
    const opening = first.find((line) => line.this_role === 1)!;
    expect(opening.content).toMatch(/^王\d+您好，这里是第一版开场白。$/);
    expect(opening).toMatchObject({ flow_version_name: "v1.0", recording: null });
    expect(first.some((line) => line.this_role === 3)).toBe(true);

    // A new version published now is what the calls finishing next say.
    await act(flow.id, "cover", { versionId: v1.id });
    await inject("admin", "PUT", `/robot/api/flow/${flow.id}/design`, { nodes: withPrompt(starter, "您好，这里是第二版开场白。") });
    await act(flow.id, "audit/submit");
    await act(flow.id, "publish", { versionId: (await design(flow.id)).version.id });
    const before = new Set(first.map((line) => line.id));
    await tick();
    const next = (await spoken()).filter((line) => !before.has(line.id));
    expect(next.length).toBeGreaterThan(0);
    expect(next.filter((line) => line.this_role === 1)[0]).toMatchObject({
      content: "您好，这里是第二版开场白。",
      flow_version_name: "v1.1",
    });
    const robotRow = await platform.db
      .selectFrom("robot_instances")
      .select("flow_version_name")
      .where("id", "=", robot.id)
      .executeTakeFirstOrThrow();
    expect(robotRow.flow_version_name).toBe("v1.1");
    expect((await inject("admin", "PUT", "/outbound/campaign/change/state", { campaignId, state: 4 })).statusCode).toBe(200);
  });

  it("lets administrators edit, allocate, transfer, copy and delete robots; a robot a running campaign uses stays", async () => {
    const robots = async (account = "admin") =>
      (await inject(account, "POST", "/robot/api/robot/instance/list", { pageNo: 1, pageSize: 100 })).json().data.list as Array<{
        id: number;
        name: string;
        flowName: string | null;
        published: boolean;
        queueName: string | null;
        flowId: number | null;
      }>;
    const marketing = (await robots()).find((r) => r.name === "营销推广机器人")!;
    expect(marketing).toMatchObject({ flowName: "信用卡分期", published: true });
    // Each robot names the campaigns using it, and which of them are calling now.
    const list = RobotInstancePageResponseSchema.parse(
      (await inject("admin", "POST", "/robot/api/robot/instance/list", { id: marketing.id })).json(),
    ).data!;
    expect(list.total).toBe(1);
    expect(list.list[0].campaigns).toEqual(expect.arrayContaining([expect.objectContaining({ name: "信用卡分期推广", calling: true })]));
    const byFlow = RobotInstancePageResponseSchema.parse(
      (await inject("admin", "POST", "/robot/api/robot/instance/list", { flowId: marketing.flowId })).json(),
    ).data!;
    expect(byFlow.list.length).toBeGreaterThan(0);
    expect(byFlow.list.every((r) => r.flowId === marketing.flowId)).toBe(true);
    expect((await inject("other-admin", "POST", "/robot/api/robot/instance/list", { id: marketing.id })).json().data.total).toBe(0);
    const copy = await inject("admin", "POST", "/robot/api/robot/instance/copy", { id: marketing.id, name: "营销推广机器人（副本）" });
    expect(copy.statusCode, copy.body).toBe(200);
    const copyId = copy.json().data.id as number;
    expect(
      await refusal(await inject("admin", "POST", "/robot/api/robot/instance/copy", { id: marketing.id, name: "营销推广机器人" }), 400),
    ).toBe("机器人名称「营销推广机器人」已存在");
    const survey = (await flows("admin", { name: "满意度" })).list[0];
    const moved = await inject("admin", "POST", "/robot/api/robot/instance/transfer", { id: copyId, flowId: survey.id });
    expect(moved.json().data).toMatchObject({ flowName: "满意度回访", flowVersionName: "v1.0" });
    const queue = await inject("admin", "POST", "/robot/api/robot/instance/allocate", { id: copyId, queueName: "不存在的队列" });
    expect(await refusal(queue, 400)).toBe("所选坐席队列不存在，请填写本租户已有的队列");
    const edited = await inject("admin", "PUT", `/robot/api/robot/instance/${copyId}`, {
      name: "回访机器人二号",
      flowId: survey.id,
      concurrency: 3,
    });
    expect(edited.json().data).toMatchObject({ name: "回访机器人二号", concurrency: 3 });
    expect(await refusal(await inject("admin", "PUT", `/robot/api/robot/instance/${copyId}`, { name: "x", concurrency: 0 }), 400)).toBe(
      "并发数至少为1",
    );
    // Another tenant's robot is not found; agents are refused.
    expect(await refusal(await inject("other-admin", "DELETE", `/robot/api/robot/instance/${copyId}`), 404)).toBe("机器人不存在");
    expect(await refusal(await inject("agent", "DELETE", `/robot/api/robot/instance/${copyId}`), 403)).toBe(
      "无权访问：需要「机器人实例」菜单",
    );
    expect((await inject("admin", "DELETE", `/robot/api/robot/instance/${copyId}`)).statusCode).toBe(200);
    const audit = await platform.db
      .selectFrom("audit_log")
      .select(["action", "summary"])
      .where("target_type", "=", "robot")
      .where("action", "like", "robot.%")
      .orderBy("id")
      .execute();
    expect(audit.map((row) => row.action)).toEqual(
      expect.arrayContaining(["robot.copy", "robot.transfer", "robot.update", "robot.delete"]),
    );
    // The seeded running campaign 信用卡分期推广 uses 营销推广机器人.
    expect(await refusal(await inject("admin", "DELETE", `/robot/api/robot/instance/${marketing.id}`), 409)).toMatch(
      /^机器人「营销推广机器人」正被运行中的活动使用：.*信用卡分期推广.*，请先暂停或结束这些活动$/,
    );
  });

  it("gives a robot a speaker, a line of its tenant and the working calendar; refuses others in Chinese, audited", async () => {
    const lineOf = async (account: string) =>
      (await inject(account, "GET", "/dialer/api/v1/gateway/line/robot")).json().data.list[0].id as number;
    const [line, foreignLine] = [await lineOf("admin"), await lineOf("other-admin")];
    const first = (await inject("admin", "POST", "/robot/api/robot/instance/list", { pageNo: 1, pageSize: 10 })).json().data.list[0];
    const created = await inject("admin", "POST", "/robot/api/robot/instance/copy", { id: first.id, name: "日历机器人" });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id as number;
    expect(created.json().data).toMatchObject({ speaker: null, lineId: null, followCalendar: false });
    const edit = (body: object) =>
      inject("admin", "PUT", `/robot/api/robot/instance/${id}`, { name: "日历机器人", concurrency: 2, ...body });
    const saved = await edit({ speaker: "xiaomei", lineId: line, followCalendar: true });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject({ speaker: "xiaomei", lineId: line, followCalendar: true });
    expect((await inject("admin", "GET", "/dialer/api/v1/gateway/line/robot")).json().data.list[0].name).toBe(saved.json().data.lineName);
    const listed = RobotInstancePageResponseSchema.parse(
      (await inject("admin", "POST", "/robot/api/robot/instance/list", { id })).json(),
    ).data!;
    expect(listed.list[0]).toMatchObject({ speaker: "xiaomei", lineId: line, followCalendar: true });
    expect(await refusal(await edit({ speaker: "nobody" }), 400)).toBe("所选发音人不存在，请重新选择");
    expect(await refusal(await edit({ lineId: foreignLine }), 400)).toBe("所选线路不存在，请重新选择");
    const copy = await inject("admin", "POST", "/robot/api/robot/instance/copy", { id, name: "日历机器人（副本）" });
    expect(copy.json().data).toMatchObject({ speaker: "xiaomei", lineId: line, followCalendar: true });
    const audit = await platform.db
      .selectFrom("audit_log")
      .select(["detail"])
      .where("target_type", "=", "robot")
      .where("action", "=", "robot.update")
      .where("target_id", "=", String(id))
      .orderBy("id", "desc")
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(audit.detail)).toContain('"followCalendar":true');
  });

  it("keeps each version's input parameters and output states: a draft's are edited, the call detail reads the version in service's", async () => {
    const params = async (flowId: number, kind: "param" | "state") =>
      FlowParamListResponseSchema.parse(
        (
          await inject(
            "agent",
            "GET",
            kind === "param" ? `/robot/api/flow/param?id=${flowId}&type=input` : `/robot/api/flow/state?flowId=${flowId}`,
          )
        ).json(),
      ).data!.list;
    // A flow from before per-version parameters keeps the flow's own rows.
    expect((await params(101, "param")).map((p) => p.variable)).toEqual(["customerName", "cardTail", "amount"]);

    const flow = FlowResponseSchema.parse((await inject("admin", "POST", "/robot/api/flow/new", { name: "参数流程" })).json()).data!;
    expect((await design(flow.id)).params).toEqual([]);
    const wanted = {
      input: [
        { name: "客户姓名", variable: "customerName" },
        { name: "会员等级", variable: "level" },
      ],
      state: [{ name: "满意度", variable: "satisfaction" }],
    };
    const put = (account: string, body: object) => inject(account, "PUT", `/robot/api/flow/${flow.id}/params`, body);
    expect(await refusal(await put("admin", { ...wanted, input: [{ name: "等级", variable: "1level" }] }), 400)).toBe(
      "变量名只能是1-30位字母、数字或下划线，且不能以数字开头",
    );
    expect(
      await refusal(await put("admin", { ...wanted, state: [...wanted.state, { name: "又一个", variable: "satisfaction" }] }), 400),
    ).toBe("变量名「satisfaction」重复");
    expect(await refusal(await put("supervisor", wanted), 403)).toBe("无权访问：需要「机器人流程」菜单");
    expect(await refusal(await inject("other-admin", "PUT", `/robot/api/flow/${flow.id}/params`, wanted), 404)).toBe("流程不存在");
    const saved = await put("admin", wanted);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(FlowDesignResponseSchema.parse(saved.json()).data).toMatchObject({ params: wanted.input, states: wanted.state });
    // Not in service yet: the call detail has none; once published it has them, and they no longer change.
    expect(await params(flow.id, "param")).toEqual([]);
    await act(flow.id, "audit/submit");
    const v1 = (await design(flow.id)).version;
    await act(flow.id, "publish", { versionId: v1.id });
    expect(await params(flow.id, "param")).toEqual(wanted.input);
    expect(await params(flow.id, "state")).toEqual(wanted.state);
    expect(await refusal(await put("admin", { input: [], state: [] }), 409)).toBe(
      "没有可修改的草稿：已发布的版本不可修改，请先复制为新草稿",
    );
    // A new draft starts from the version it copies.
    await act(flow.id, "cover", { versionId: v1.id });
    expect(await design(flow.id)).toMatchObject({ version: { name: "v1.1" }, params: wanted.input, states: wanted.state });
    const audit = await platform.db
      .selectFrom("audit_log")
      .select("summary")
      .where("action", "=", "flow.params")
      .where("target_id", "=", String(flow.id))
      .execute();
    expect(audit.map((row) => row.summary)).toEqual(["保存流程「参数流程」草稿 v1.0 的参数：入参 2 个，输出状态 1 个"]);
  });

  it("refuses (409) nodes read from a version that is no longer the draft, or changed since, never saving them on another", async () => {
    const flow = FlowResponseSchema.parse((await inject("admin", "POST", "/robot/api/flow/new", { name: "过期设计流程" })).json()).data!;
    const put = (body: object) => inject("admin", "PUT", `/robot/api/flow/${flow.id}/design`, body);
    const read = await design(flow.id); // v1.0, as the design page's action reads it
    const stamp = { versionId: read.version.id, updatedAt: read.version.updatedAt };
    const renamed = read.nodes.map((n, i) => (i === 0 ? { ...n, name: "开场白（改）" } : n));
    const saved = await put({ nodes: renamed, ...stamp });
    expect(saved.statusCode, saved.body).toBe(200);
    // A save made on the same read after that one: refused, the first kept.
    expect(await refusal(await put({ nodes: read.nodes, ...stamp }), 409)).toBe(
      "v1.0 在你打开之后已被修改，修改未保存，请重新打开后再修改",
    );
    expect((await design(flow.id)).nodes[0].name).toBe("开场白（改）");
    // v1.0 submitted, published and copied into v1.1: nodes read from v1.0 land nowhere.
    const after = (await design(flow.id)).version;
    await act(flow.id, "audit/submit");
    await act(flow.id, "publish", { versionId: read.version.id });
    await act(flow.id, "cover", { versionId: read.version.id });
    expect(await refusal(await put({ nodes: read.nodes, versionId: read.version.id, updatedAt: after.updatedAt }), 409)).toBe(
      "v1.0 已不是当前草稿（当前草稿为 v1.1），修改未保存，请重新打开后再修改",
    );
    expect((await design(flow.id)).nodes[0].name).toBe("开场白（改）"); // v1.1 keeps what it copied
  });

  it("refuses (409) parameters edited on a version that was meanwhile submitted, replaced or changed, never saving them elsewhere", async () => {
    const flow = FlowResponseSchema.parse((await inject("admin", "POST", "/robot/api/flow/new", { name: "过期参数流程" })).json()).data!;
    const put = (body: object) => inject("admin", "PUT", `/robot/api/flow/${flow.id}/params`, body);
    const loaded = (await design(flow.id)).version; // v1.0, a draft, as the form loaded it
    const edit = { input: [{ name: "客户姓名", variable: "customerName" }], state: [] };
    const stamp = { versionId: loaded.id, updatedAt: loaded.updatedAt };

    // Saved on the version it was loaded from: fine, and the version's updatedAt moves on.
    const saved = await put({ ...edit, ...stamp });
    expect(saved.statusCode, saved.body).toBe(200);
    const after = FlowDesignResponseSchema.parse(saved.json()).data!.version;
    // The same stale form posted again (someone saved since it was loaded): refused.
    expect(await refusal(await put({ input: [], state: [], ...stamp }), 409)).toBe(
      "v1.0 在你打开之后已被修改，修改未保存，请重新打开后再修改",
    );

    // Submitted, published and copied into a new draft v1.1: the v1.0 form lands nowhere.
    const stale = { ...edit, versionId: loaded.id, updatedAt: after.updatedAt };
    await act(flow.id, "audit/submit");
    expect(await refusal(await put(stale), 409)).toBe("只有草稿可以修改，已提交或已发布的版本请复制为新草稿（当前状态：待审核）");
    await act(flow.id, "publish", { versionId: loaded.id });
    expect(await refusal(await put(stale), 409)).toBe("v1.0 已提交或发布，不能再修改，修改未保存；请复制为新草稿后再修改");
    await act(flow.id, "cover", { versionId: loaded.id });
    const replacement = (await design(flow.id)).version;
    expect(replacement.name).toBe("v1.1");
    expect(await refusal(await put({ input: [], state: [], versionId: loaded.id, updatedAt: after.updatedAt }), 409)).toBe(
      "v1.0 已不是当前草稿（当前草稿为 v1.1），修改未保存，请重新打开后再修改",
    );
    expect((await design(flow.id)).params).toEqual(edit.input); // v1.1 keeps what it copied
    // Loaded from v1.1, it saves there.
    const fresh = await put({ input: [], state: [], versionId: replacement.id, updatedAt: replacement.updatedAt });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect((await design(flow.id)).params).toEqual([]);
  });

  it("answers the NLU test with the intent heard and the branch taken", async () => {
    const survey = (await flows("admin", { name: "满意度" })).list[0];
    const heard = async (sentence: string) => {
      const response = await inject("admin", "POST", "/robot/api/flow/nlu/test", { flowId: survey.id, sentence });
      expect(response.statusCode, response.body).toBe(200);
      return NluResultResponseSchema.parse(response.json()).data!;
    };
    expect(await heard("我觉得挺好的")).toMatchObject({
      nodeName: "满意度询问",
      intent: "CONFIRM",
      intentLabel: "确认办理",
      keyword: "挺好",
      nextName: "致谢挂机",
    });
    expect(await heard("非常不满意")).toMatchObject({ intent: "NO_INTENTION", keyword: "不满意", nextName: "转人工" });
    expect(await heard("你是谁")).toMatchObject({ intent: null, intentLabel: "未识别", nextName: "致谢挂机" });
    expect(await refusal(await inject("admin", "POST", "/robot/api/flow/nlu/test", { flowId: survey.id, sentence: "" }), 400)).toBe(
      "请输入客户说的话",
    );
  });

  it("exports a version's definition and the NLU template as spreadsheets", async () => {
    const survey = (await flows("admin", { name: "满意度" })).list[0];
    const response = await inject("admin", "GET", `/robot/api/flow/${survey.id}/definition/excel`);
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("spreadsheetml");
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
    const rows = book.worksheets[0].getSheetValues().filter(Boolean) as unknown[][];
    expect(rows[0].slice(1)).toEqual(["节点编号", "类型", "名称", "话术", "去向"]);
    expect(rows[2].slice(1, 5)).toEqual(["ask", "收听（意图）", "满意度询问", "请问您对我们上次的服务是否满意？"]);
    const template = await inject("admin", "GET", "/robot/api/flow/nlu/template");
    expect(template.statusCode).toBe(200);
    expect(await refusal(await inject("agent", "GET", "/robot/api/flow/nlu/template"), 403)).toBe("无权访问：需要「机器人流程」菜单");
  });

  // Last: its dialer ticks run the seeded campaigns' batches on (the robots test needs one calling).
  it("hands a call to an agent where the published flow reaches its 转人工 node, in the queue the node names", async () => {
    const flow = FlowResponseSchema.parse((await inject("admin", "POST", "/robot/api/flow/new", { name: "转人工测试流程" })).json()).data!;
    const starter = (await design(flow.id)).nodes;
    const demo = await platform.db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow();
    const queues = (
      await platform.db
        .selectFrom("users")
        .select("default_queue_name")
        .distinct()
        .where("tenant_id", "=", demo.id)
        .where("default_queue_name", "is not", null)
        .orderBy("default_queue_name")
        .execute()
    ).map((row) => row.default_queue_name!);
    expect(queues.length).toBeGreaterThanOrEqual(2);
    const [nodeQueue, campaignQueue] = queues;
    // Every call ends at one node, whatever the customer says.
    const endingAt = (end: "agent" | "bye", queueName?: string) =>
      starter
        .filter((n) => (n.type !== "transfer" && n.type !== "hangup" ? true : n.key === end))
        .map((n) =>
          n.type === "listen"
            ? { ...n, intents: n.intents.map((i) => ({ ...i, next: end })), otherNext: end }
            : n.key === end && queueName
              ? { ...n, queueName }
              : n,
        );
    const toAgent = (queueName: string) => endingAt("agent", queueName);
    expect(await refusal(await inject("admin", "PUT", `/robot/api/flow/${flow.id}/design`, { nodes: toAgent("不存在的队列") }), 400)).toBe(
      "节点「转人工」的转人工队列「不存在的队列」不存在，请选择本租户已有的队列",
    );
    const saved = FlowDesignResponseSchema.parse(
      (await inject("admin", "PUT", `/robot/api/flow/${flow.id}/design`, { nodes: toAgent(nodeQueue) })).json(),
    ).data!;
    expect(saved.nodes.find((n) => n.key === "agent")).toMatchObject({ type: "transfer", queueName: nodeQueue });
    await act(flow.id, "audit/submit");
    const v1 = (await design(flow.id)).version;
    await act(flow.id, "publish", { versionId: v1.id });

    const { campaign } = await robotCampaign(flow.id, { name: "转人工测试", type: 2, queueName: campaignQueue });
    const campaignId = await startCampaign(campaign);
    await tick();
    await tick();
    const answered = () =>
      platform.db.selectFrom("call_records").select("id").where("campaign_id", "=", campaignId).where("is_answer", "=", 1).execute();
    const connected = await answered();
    expect(connected.length).toBeGreaterThan(0);
    const handoffs = await platform.db
      .selectFrom("handoffs")
      .select(["id", "tenant_id", "campaign_id", "batch_id", "task_call_id", "phone", "intent", "queue_name", "call_record_id"])
      .where("campaign_id", "=", campaignId)
      .execute();
    // Every connected call reached the node, whatever its intent, and waits in the node's queue.
    expect(handoffs.map((h) => h.call_record_id).sort()).toEqual(connected.map((c) => c.id).sort());
    expect(new Set(handoffs.map((h) => h.queue_name))).toEqual(new Set([nodeQueue]));
    // The hand-off reaches the agents' phones (as the bridge offers it) in that queue.
    const h = handoffs[0];
    const offered = await bridgeHandoffs(platform.app).offer({
      id: h.id,
      tenantId: h.tenant_id,
      campaignId: h.campaign_id,
      batchId: h.batch_id,
      taskCallId: h.task_call_id,
      phone: h.phone,
      intent: h.intent,
    });
    expect(offered).toMatchObject({ origin: "handoff", queueName: nodeQueue, phone: h.phone });

    // A version whose calls end with 挂机 hands nobody over, though the campaign is collaborative.
    await act(flow.id, "cover", { versionId: v1.id });
    await inject("admin", "PUT", `/robot/api/flow/${flow.id}/design`, { nodes: endingAt("bye") });
    await act(flow.id, "audit/submit");
    await act(flow.id, "publish", { versionId: (await design(flow.id)).version.id });
    const before = handoffs.length;
    await tick();
    const later = await answered();
    expect(later.length).toBeGreaterThan(connected.length);
    const after = await platform.db.selectFrom("handoffs").select("id").where("campaign_id", "=", campaignId).execute();
    expect(after.length).toBe(before);
    expect((await inject("admin", "PUT", "/outbound/campaign/change/state", { campaignId, state: 4 })).statusCode).toBe(200);
  });
});
