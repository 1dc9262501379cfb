import { afterAll, beforeAll, expect, it } from "vitest";
import { CallDetailResponseSchema } from "#contracts/contact";
import { FailureSchema } from "#contracts/envelope";
import {
  WorkOrderDetailResponseSchema,
  WorkOrderNumberResponseSchema,
  WorkOrderRecordPageResponseSchema,
  WorkOrderRecordResponseSchema,
  WorkOrderTemplateListResponseSchema,
  WorkOrderTemplateResponseSchema,
} from "#contracts/work-orders";
import { WorkOrderInfoResponseSchema } from "#contracts/workbench";
import { countAudit } from "#upstream/repositories/audit-log";
import { insertSession } from "#upstream/repositories/chat";
import { DEMO_CALLER } from "#upstream/seed/workbench";
import { bearer, describeDb, loginAs, TEST_DB, testPlatform } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";

describeDb(`work orders on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  const tokens: Record<string, string> = {};
  let demoTenant: number;
  let agentId: number;

  beforeAll(async () => {
    platform = await testPlatform();
    for (const account of ["admin", "agent", "supervisor", "other-admin"]) tokens[account] = await loginAs(platform.app, account);
    demoTenant = (await platform.db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow()).id;
    agentId = (await platform.db.selectFrom("users").select("id").where("user_name", "=", "agent").executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => platform?.close());

  const inject = (account: string, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) =>
    platform.app.inject({ method, url, headers: bearer(tokens[account]), payload: payload as object });
  const refusal = async (response: Awaited<ReturnType<typeof inject>>, status: number) => {
    expect(response.statusCode, response.body).toBe(status);
    return FailureSchema.parse(response.json()).msg;
  };
  const answered = <T>(response: Awaited<ReturnType<typeof inject>>, schema: { parse: (v: unknown) => { data?: T | null } }) => {
    expect(response.statusCode, response.body).toBe(200);
    return schema.parse(response.json()).data!;
  };
  const records = async (account: string, query = "") =>
    answered(
      await inject(account, "POST", "/config/workorder/record/list", Object.fromEntries(new URLSearchParams(query))),
      WorkOrderRecordPageResponseSchema,
    );

  const template = {
    name: "报修登记",
    slaHours: 8,
    fields: [
      { label: "设备型号", type: "text", required: true },
      { label: "故障类型", type: "choice", required: true, options: ["无法开机", "噪音大"] },
      { label: "数量", type: "number" },
      { label: "上门日期", type: "date" },
      { label: "联系电话", type: "phone" },
      { label: "故障描述", type: "longText" },
    ],
  };

  it("lets administrators keep templates, with fields, an SLA and a status, and refuses bad ones in Chinese", async () => {
    const created = answered(await inject("admin", "POST", "/config/workorder/template", template), WorkOrderTemplateResponseSchema);
    expect(created).toMatchObject({ name: "报修登记", slaHours: 8, status: 1, recordCount: 0 });
    expect(created.fields.map((f) => [f.name, f.label, f.type, f.required])).toEqual([
      ["f1", "设备型号", "text", true],
      ["f2", "故障类型", "choice", true],
      ["f3", "数量", "number", false],
      ["f4", "上门日期", "date", false],
      ["f5", "联系电话", "phone", false],
      ["f6", "故障描述", "longText", false],
    ]);

    // A field without a label, a choice without options, a duplicate name: refused, nothing saved.
    const noLabel = { ...template, name: "无名字段", fields: [{ label: " ", type: "text" }] };
    expect(await refusal(await inject("admin", "POST", "/config/workorder/template", noLabel), 400)).toBe("请填写字段名称");
    const noOptions = { ...template, name: "无选项", fields: [{ label: "类型", type: "choice", options: [] }] };
    expect(await refusal(await inject("admin", "POST", "/config/workorder/template", noOptions), 400)).toBe(
      "选项类型的字段请至少填写一个选项",
    );
    expect(await refusal(await inject("admin", "POST", "/config/workorder/template", template), 400)).toBe("模板名称已存在");
    expect(await refusal(await inject("admin", "POST", "/config/workorder/template", { ...template, name: "x", slaHours: 0 }), 400)).toBe(
      "处理时限至少 1 小时",
    );

    // Editing keeps the keys of the fields it keeps (records' values stay attached) and gives new ones the next key.
    const edited = answered(
      await inject("admin", "PUT", `/config/workorder/template/${created.id}`, {
        ...template,
        fields: [created.fields[1], { label: "地址", type: "text", required: false }],
      }),
      WorkOrderTemplateResponseSchema,
    );
    expect(edited.fields.map((f) => [f.name, f.label])).toEqual([
      ["f2", "故障类型"],
      ["f7", "地址"],
    ]);
    await inject("admin", "PUT", `/config/workorder/template/${created.id}`, template);

    // Status: disabled templates leave the enabled list the workbench reads.
    answered(await inject("admin", "PUT", `/config/workorder/template/${created.id}/0`), WorkOrderTemplateResponseSchema);
    const enabled = answered(
      await inject("agent", "POST", "/config/workorder/template/list", { status: 1 }),
      WorkOrderTemplateListResponseSchema,
    );
    expect(enabled.list.map((t) => t.name)).not.toContain("报修登记");
    answered(await inject("admin", "PUT", `/config/workorder/template/${created.id}/1`), WorkOrderTemplateResponseSchema);
    expect(await refusal(await inject("admin", "PUT", `/config/workorder/template/${created.id}/7`), 400)).toBe("状态无效");

    // Only administrators change; another tenant's id is not found.
    expect(await refusal(await inject("supervisor", "POST", "/config/workorder/template", { ...template, name: "主管的" }), 403)).toBe(
      "无权访问：需要「工单模板」菜单",
    );
    expect(await refusal(await inject("other-admin", "GET", `/config/workorder/template/${created.id}`), 404)).toBe("工单模板不存在");
    expect(await refusal(await inject("other-admin", "PUT", `/config/workorder/template/${created.id}/0`), 404)).toBe("工单模板不存在");
    expect(await refusal(await inject("other-admin", "DELETE", `/config/workorder/template/${created.id}`), 404)).toBe("工单模板不存在");

    // Delete: an unused template goes; each change wrote its audit row.
    const spare = answered(
      await inject("admin", "POST", "/config/workorder/template", { name: "临时", slaHours: 1, fields: [] }),
      WorkOrderTemplateResponseSchema,
    );
    expect((await inject("admin", "DELETE", `/config/workorder/template/${spare.id}`)).statusCode).toBe(200);
    for (const action of ["create", "update", "status", "delete"]) {
      expect(await countAudit(platform.db, demoTenant, `workorder.template.${action}`)).toBeGreaterThanOrEqual(1);
    }
  });

  it("follows a record's life: created from a call, numbered, received, followed through the state machine, audited", async () => {
    const { list } = answered(
      await inject("agent", "POST", "/config/workorder/template/list", { status: 1 }),
      WorkOrderTemplateListResponseSchema,
    );
    const repair = list.find((t) => t.name === "报修登记")!;
    const key = (label: string) => repair.fields.find((f) => f.label === label)!.name;
    const { number: next } = answered(await inject("agent", "GET", "/config/workorder/record/number"), WorkOrderNumberResponseSchema);
    expect(next).toMatch(/^GD\d{12}$/);

    // Values are checked against the template's fields.
    const bad = await inject("agent", "POST", "/config/workorder/record", {
      templateId: repair.id,
      title: "空调不制冷",
      values: { [key("故障类型")]: "漏水", [key("数量")]: "三台" },
    });
    expect(await refusal(bad, 400)).toBe("请填写设备型号；故障类型请从选项中选择；数量必须是数字");

    // From the workbench: the call's work order, of the template.
    const fromCall = await inject("agent", "PUT", "/config/workorder/record/call", {
      ctiCallId: DEMO_CALLER.prevCtiCallId,
      templateId: repair.id,
      title: "空调不制冷",
      content: "客户来电报修",
      values: { [key("设备型号")]: "KFR-35", [key("故障类型")]: "无法开机", [key("数量")]: "1", [key("联系电话")]: "13800138000" },
    });
    const info = answered(fromCall, WorkOrderInfoResponseSchema);
    expect(info.number).toBe(next);
    const id = info.id;
    const detail = () => inject("agent", "GET", `/config/workorder/record/${id}`);
    let shown = answered(await detail(), WorkOrderDetailResponseSchema);
    expect(shown.record).toMatchObject({ state: 0, ownerId: null, templateName: "报修登记" });
    expect(shown.record.values[key("设备型号")]).toBe("KFR-35");
    expect(shown.call).toMatchObject({ ctiCallId: DEMO_CALLER.prevCtiCallId, phone: DEMO_CALLER.phone });
    expect(Date.parse(shown.record.dueAt!) - Date.parse(shown.record.createdAt)).toBeCloseTo(8 * 3_600_000, -4);

    // Following before receiving is refused; then receive, 处理中, 已完成.
    expect(await refusal(await inject("agent", "PUT", `/config/workorder/record/follow/${id}/1`, { note: "开始" }), 403)).toBe(
      "请先接收该工单再跟进",
    );
    answered(await inject("agent", "PUT", `/config/workorder/record/receive/${id}`, {}), WorkOrderRecordResponseSchema);
    expect(await refusal(await inject("agent", "PUT", `/config/workorder/record/receive/${id}`, {}), 400)).toBe("工单已在您手中");
    expect(await refusal(await inject("agent", "PUT", `/config/workorder/record/follow/${id}/1`, {}), 400)).toBe("请填写跟进说明");
    expect(await refusal(await inject("agent", "PUT", `/config/workorder/record/follow/${id}/2`, { note: "直接完成" }), 400)).toBe(
      "工单当前为「待处理」，不能变更为「已完成」",
    );
    answered(
      await inject("agent", "PUT", `/config/workorder/record/follow/${id}/1`, { note: "已联系师傅" }),
      WorkOrderRecordResponseSchema,
    );
    const done = answered(
      await inject("agent", "PUT", `/config/workorder/record/follow/${id}/2`, { note: "已上门修好" }),
      WorkOrderRecordResponseSchema,
    );
    expect(done).toMatchObject({ state: 2, ownerId: agentId, overdue: false });
    expect(await refusal(await inject("agent", "PUT", `/config/workorder/record/follow/${id}/3`, { note: "关闭" }), 400)).toBe(
      "工单已完成，不能再变更状态",
    );
    expect(await refusal(await inject("agent", "PUT", `/config/workorder/record/follow/${id}/9`, { note: "?" }), 400)).toBe("状态无效");

    shown = answered(await detail(), WorkOrderDetailResponseSchema);
    expect(shown.follows.map((f) => [f.kind, f.fromState, f.toState, f.note])).toEqual([
      ["create", null, 0, ""],
      ["receive", 0, 0, ""],
      ["follow", 0, 1, "已联系师傅"],
      ["follow", 1, 2, "已上门修好"],
    ]);
    for (const action of ["create", "receive", "follow"]) {
      expect(await countAudit(platform.db, demoTenant, `workorder.record.${action}`)).toBeGreaterThanOrEqual(1);
    }
    // The business record of the call now points at the order.
    const business = await platform.db
      .selectFrom("business_records")
      .select("work_order_id")
      .where("cti_call_id", "=", DEMO_CALLER.prevCtiCallId)
      .executeTakeFirstOrThrow();
    expect(business.work_order_id).toBe(id);

    // Another tenant sees nothing of it.
    expect(await refusal(await inject("other-admin", "GET", `/config/workorder/record/${id}`), 404)).toBe("工单不存在");
    expect(await refusal(await inject("other-admin", "PUT", `/config/workorder/record/receive/${id}`, {}), 404)).toBe("工单不存在");
    expect((await records("other-admin")).list.map((r) => r.id)).not.toContain(id);
  });

  it("filters records, marks those past due, and lets supervisors reassign while agents see only their own", async () => {
    // The seeded order is in the agent's hands and two days past due.
    const overdue = await records("supervisor", "overdue=1");
    expect(overdue.list.length).toBeGreaterThan(0);
    expect(overdue.list.every((r) => r.overdue && (r.state === 0 || r.state === 1))).toBe(true);
    expect((await records("supervisor", "state=2")).list.every((r) => r.state === 2)).toBe(true);
    expect((await records("supervisor", `ownerId=${agentId}`)).list.every((r) => r.ownerId === agentId)).toBe(true);
    const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
    expect((await records("supervisor", `from=${today}&to=${today}`)).list.map((r) => r.title)).toContain("空调不制冷");
    expect((await records("supervisor", "from=2020-01-01&to=2020-01-02")).total).toBe(0);
    expect(await refusal(await inject("supervisor", "POST", "/config/workorder/record/list", { from: "昨天" }), 400)).toBe(
      "日期格式应为年-月-日",
    );

    // A supervisor's record, nobody's yet: the agent does not see it until it is handed over.
    const created = answered(
      await inject("supervisor", "POST", "/config/workorder/record", { title: "回访客户", content: "" }),
      WorkOrderRecordResponseSchema,
    );
    expect((await records("agent")).list.map((r) => r.id)).not.toContain(created.id);
    expect(await refusal(await inject("agent", "GET", `/config/workorder/record/${created.id}`), 404)).toBe("工单不存在");
    expect(await refusal(await inject("agent", "PUT", `/config/workorder/record/receive/${created.id}`, { userId: agentId }), 404)).toBe(
      "工单不存在",
    );
    const handed = answered(
      await inject("supervisor", "PUT", `/config/workorder/record/receive/${created.id}`, { userId: agentId, note: "请尽快回访" }),
      WorkOrderRecordResponseSchema,
    );
    expect(handed.ownerId).toBe(agentId);
    expect((await records("agent", "mine=1")).list.map((r) => r.id)).toContain(created.id);
    expect(await countAudit(platform.db, demoTenant, "workorder.record.reassign")).toBeGreaterThanOrEqual(1);
    // An agent cannot hand a record on; a user of another tenant cannot be the new owner.
    const supervisorId = (
      await platform.db.selectFrom("users").select("id").where("user_name", "=", "supervisor").executeTakeFirstOrThrow()
    ).id;
    expect(
      await refusal(await inject("agent", "PUT", `/config/workorder/record/receive/${created.id}`, { userId: supervisorId }), 403),
    ).toBe("仅主管或管理员可以转派工单");
    const otherAdmin = (await platform.db.selectFrom("users").select("id").where("user_name", "=", "other-admin").executeTakeFirstOrThrow())
      .id;
    expect(
      await refusal(await inject("supervisor", "PUT", `/config/workorder/record/receive/${created.id}`, { userId: otherAdmin }), 404),
    ).toBe("处理人不存在");
    // A disabled template cannot take new records.
    const { list } = answered(await inject("admin", "POST", "/config/workorder/template/list", {}), WorkOrderTemplateListResponseSchema);
    const complaint = list.find((t) => t.name === "客户投诉")!;
    await inject("admin", "PUT", `/config/workorder/template/${complaint.id}/0`);
    expect(
      await refusal(
        await inject("agent", "POST", "/config/workorder/record", { templateId: complaint.id, title: "x", values: { f1: "费用争议" } }),
        400,
      ),
    ).toBe("工单模板「客户投诉」已停用，请选择其他模板");
    await inject("admin", "PUT", `/config/workorder/template/${complaint.id}/1`);
    // A template with records cannot be deleted.
    expect(await refusal(await inject("admin", "DELETE", `/config/workorder/template/${complaint.id}`), 400)).toMatch(
      /已有 \d+ 条工单，不能删除/,
    );
  });

  it("makes a work order from a chat, linked to the session, and names a call's work order in its detail", async () => {
    tokens.chat = await loginAs(platform.app, "chat");
    const chatId = (await platform.db.selectFrom("users").select("id").where("user_name", "=", "chat").executeTakeFirstOrThrow()).id;
    const session = {
      sessionId: await insertSession(platform.db, {
        tenantId: demoTenant,
        queueName: "demo-chat",
        customer: { name: "王女士", phone: "13900001111", channel: "web", region: "上海" },
        agentUserId: chatId,
      }),
    };
    const order = { sessionId: session.sessionId, title: "订单未发货", content: "客户在线反映" };
    const adminId = (await platform.db.selectFrom("users").select("id").where("user_name", "=", "admin").executeTakeFirstOrThrow()).id;
    const colleagues = await insertSession(platform.db, {
      tenantId: demoTenant,
      queueName: "demo-chat",
      customer: { name: "赵先生", phone: "13900002222", channel: "web", region: "北京" },
      agentUserId: adminId,
    });
    // A chat someone else served, another tenant's, or an unknown one: the session does not exist for them.
    for (const [account, sessionId] of [
      ["chat", colleagues],
      ["other-admin", session.sessionId],
      ["chat", "no-such-session"],
    ] as const) {
      expect(await refusal(await inject(account, "PUT", "/config/workorder/record/chat", { ...order, sessionId }), 404)).toBe("会话不存在");
    }
    // A voice agent has no chats: the text workbench's call is not theirs (decision 044).
    expect(await refusal(await inject("agent", "PUT", "/config/workorder/record/chat", order), 403)).toBe(
      "无权访问：需要「文本工作台」菜单",
    );
    expect(await refusal(await inject("chat", "PUT", "/config/workorder/record/chat", { ...order, title: " " }), 400)).toMatch(/标题/);
    const made = answered(await inject("chat", "PUT", "/config/workorder/record/chat", order), WorkOrderRecordResponseSchema);
    expect(made).toMatchObject({ title: "订单未发货", state: 0, ctiCallId: null });
    const row = await platform.db
      .selectFrom("work_order_records")
      .innerJoin("chat_sessions", "chat_sessions.id", "work_order_records.chat_session_id")
      .select(["chat_sessions.session_key"])
      .where("work_order_records.id", "=", made.id)
      .executeTakeFirstOrThrow();
    expect(row.session_key).toBe(session.sessionId);
    // The chat names its work order, so the workbench shows it after a reload instead of the form.
    const chat = (await inject("chat", "GET", `/chat/api/sessions/${session.sessionId}`)).json().data;
    expect(chat.workOrder).toEqual({ id: made.id, number: made.number, title: "订单未发货", content: made.content });
    // The text agent finds it among their own work orders.
    expect((await records("chat")).list.map((r) => r.id)).toContain(made.id);

    // A recorded call without a work order shows none; once one is made from it, its detail names it.
    const call = await platform.db
      .selectFrom("call_records")
      .select(["id", "cti_call_id"])
      .where("tenant_id", "=", demoTenant)
      .where(
        "cti_call_id",
        "not in",
        platform.db.selectFrom("work_order_records").select("cti_call_id").where("cti_call_id", "is not", null),
      )
      .orderBy("id")
      .limit(1)
      .executeTakeFirstOrThrow();
    const detail = async () =>
      CallDetailResponseSchema.parse((await inject("admin", "GET", `/contact/income/calls/${call.id}`)).json()).data!;
    expect((await detail()).workOrder).toBeNull();
    const fromCall = answered(
      await inject("admin", "PUT", "/config/workorder/record/call", { ctiCallId: call.cti_call_id, title: "回访客户", content: "" }),
      WorkOrderInfoResponseSchema,
    );
    expect((await detail()).workOrder).toEqual({ id: fromCall.id, number: fromCall.number, title: "回访客户" });
  });
});
