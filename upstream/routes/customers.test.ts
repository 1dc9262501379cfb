import ExcelJS from "exceljs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { FailureSchema } from "#contracts/envelope";
import {
  ContactDeleteResponseSchema,
  ContactGroupListResponseSchema,
  ContactGroupResponseSchema,
  ContactImportResponseSchema,
  ContactImportUploadResponseSchema,
  ContactOutboundResponseSchema,
  CustomerContactPageResponseSchema,
  CustomerContactResponseSchema,
  CustomerPropertyListResponseSchema,
  CustomerPropertyResponseSchema,
  SmsOutboxResponseSchema,
  SmsSendResponseSchema,
  SmsTemplatePageResponseSchema,
  SmsTemplateResponseSchema,
} from "#contracts/customers";
import { CallRecordPageResponseSchema } from "#contracts/contact";
import { ContactsByPhoneResponseSchema } from "#contracts/workbench";
import { countAudit } from "#upstream/repositories/audit-log";
import { sql } from "kysely";
import { contactNameKey, contactsFor, nameContains } from "#upstream/repositories/customers";
import { createSmsCarrier, DELIVERY_MS } from "#upstream/simulators/sms-carrier";
import { bearer, describeDb, loginAs, TEST_DB, testPlatform } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";

function multipart(fileName: string, content: string | Buffer) {
  const boundary = "----switchboard-contacts";
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload: body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

describeDb(`customers, contacts, groups and SMS on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  const tokens: Record<string, string> = {};
  let demoTenant: number;

  beforeAll(async () => {
    platform = await testPlatform();
    for (const account of ["admin", "agent", "supervisor", "other-admin"]) tokens[account] = await loginAs(platform.app, account);
    demoTenant = (await platform.db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => platform?.close());

  const inject = (account: string, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) =>
    platform.app.inject({ method, url, headers: bearer(tokens[account]), payload: payload as object });
  const refusal = async (response: Awaited<ReturnType<typeof inject>>, status: number) => {
    expect(response.statusCode, response.body).toBe(status);
    return FailureSchema.parse(response.json()).msg;
  };
  const properties = async (account = "admin", filter = "all") =>
    CustomerPropertyListResponseSchema.parse((await inject(account, "GET", `/crm_v2/customer/property/list/0/${filter}`)).json()).data!
      .list;
  const createProperty = async (body: object) => {
    const response = await inject("admin", "POST", "/crm_v2/customer/property", body);
    expect(response.statusCode, response.body).toBe(200);
    return CustomerPropertyResponseSchema.parse(response.json()).data!;
  };
  const upload = async (fileName: string, content: string | Buffer, account = "admin") =>
    platform.app.inject({
      method: "POST",
      url: "/crm_v2/contacts/v1/import",
      ...multipart(fileName, content),
      headers: { ...multipart(fileName, content).headers, ...bearer(tokens[account]) },
    });
  const list = async (body: object, account = "admin") => {
    const response = await inject(account, "POST", "/crm_v2/contacts/v1/list", body);
    expect(response.statusCode, response.body).toBe(200);
    return CustomerContactPageResponseSchema.parse(response.json()).data!;
  };

  let city: { id: number };
  let age: { id: number };
  let level: { id: number };
  let idCard: { id: number };

  it("manages properties: types, required and unique flags, order, valid flag, export; admins only", async () => {
    city = await createProperty({ name: "城市", type: "text", required: true });
    age = await createProperty({ name: "年龄", type: "number" });
    level = await createProperty({ name: "等级", type: "single", options: ["普通", "VIP"] });
    idCard = await createProperty({ name: "会员号", type: "text", unique: true });
    await createProperty({ name: "生日", type: "date" });
    expect((await properties()).map((p) => p.name)).toEqual(["城市", "年龄", "等级", "会员号", "生日"]);

    expect(await refusal(await inject("admin", "POST", "/crm_v2/customer/property", { name: "城市", type: "text" }), 400)).toBe(
      "属性名称已存在",
    );
    expect(
      await refusal(await inject("admin", "POST", "/crm_v2/customer/property", { name: "兴趣", type: "multi", options: ["读书"] }), 400),
    ).toBe("单选或多选至少需要两个选项");
    expect(await refusal(await inject("admin", "POST", "/crm_v2/customer/property", { name: "手机号", type: "phone" }), 400)).toContain(
      "内置字段",
    );
    expect(await refusal(await inject("admin", "POST", "/crm_v2/customer/property", { name: "x", type: "color" }), 400)).toBe(
      "请选择属性类型",
    );

    expect((await inject("admin", "PUT", `/crm_v2/customer/property/reorder/${age.id}/up`)).statusCode).toBe(200);
    expect((await properties()).map((p) => p.name).slice(0, 2)).toEqual(["年龄", "城市"]);
    expect(await refusal(await inject("admin", "PUT", `/crm_v2/customer/property/reorder/${age.id}/up`), 400)).toBe("已经是第一个");
    expect((await inject("admin", "PUT", `/crm_v2/customer/property/reorder/${age.id}/down`)).statusCode).toBe(200);

    const birthday = (await properties()).find((p) => p.name === "生日")!;
    expect((await inject("admin", "PUT", `/crm_v2/customer/property/valid/${birthday.id}/0`)).statusCode).toBe(200);
    expect((await properties("admin", "valid")).map((p) => p.name)).not.toContain("生日");
    expect((await inject("admin", "DELETE", `/crm_v2/customer/property/${birthday.id}`)).statusCode).toBe(200);

    const exported = await inject("admin", "GET", "/crm_v2/customer/property/export/csv");
    expect(exported.headers["content-type"]).toContain("text/csv");
    expect(exported.body).toContain("等级,单选,普通、VIP,否,否,是");

    for (const account of ["agent", "supervisor"])
      expect(await refusal(await inject(account, "POST", "/crm_v2/customer/property", { name: "y", type: "text" }), 403)).toBe(
        "无权访问：需要「客户属性」菜单",
      );
    // Another tenant sees its own (none) and cannot touch these.
    expect(await properties("other-admin")).toEqual([]);
    expect(await refusal(await inject("other-admin", "DELETE", `/crm_v2/customer/property/${city.id}`), 404)).toBe("客户属性不存在");
    for (const action of ["customer.property.create", "customer.property.reorder", "customer.property.valid", "customer.property.delete"])
      expect(await countAudit(platform.db, demoTenant, action)).toBeGreaterThanOrEqual(1);
  });

  let importId: number;
  it("imports contacts with per-row errors, an error export, and a re-import that updates by phone", async () => {
    const csv = [
      "姓名,手机号,城市,年龄,等级,会员号,爱好",
      "张三,13811110001,上海,30,VIP,M001,读书",
      "李四,12345,北京,20,普通,M002,",
      "王五,13811110003,广州,三十,普通,M003,",
      "赵六,13811110004,,40,普通,M004,",
      "孙七,13811110001,深圳,50,普通,M005,",
      "周八,13811110006,杭州,22,金卡,M006,",
      "吴九,13811110007,南京,33,普通,M001,",
      '=HYPERLINK("x"),13811110008,成都,28,普通,M008,',
    ].join("\n");
    const response = await upload("contacts.csv", csv);
    expect(response.statusCode, response.body).toBe(200);
    const result = ContactImportResponseSchema.parse(response.json()).data!;
    expect(result).toMatchObject({ created: 2, updated: 0, rejected: 6, ignoredColumns: ["爱好"] });
    expect(result.errors.map((e) => [e.row, e.message])).toEqual([
      [3, "手机号须为中国大陆手机号"],
      [4, "「年龄」须为数字"],
      [6, "手机号在文件中重复"],
      [7, "「等级」没有选项「金卡」"],
      [8, "「会员号」的值已被其他联系人使用"],
      [5, "请填写「城市」"],
    ]);
    importId = result.importId;

    const errors = await inject("admin", "GET", `/crm_v2/contacts/v1/errorexport?importId=${importId}`);
    expect(errors.statusCode).toBe(200);
    expect(errors.body.split("\r\n")[0]).toBe("\uFEFF行号,手机号,姓名,原因");
    expect(errors.body).toContain("4,13811110003,王五,「年龄」须为数字");
    expect(await refusal(await inject("other-admin", "GET", `/crm_v2/contacts/v1/errorexport?importId=${importId}`), 404)).toBe(
      "导入记录不存在",
    );

    // Fixed rows, one of them a phone already there (updated, not duplicated), as XLSX.
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet("联系人");
    sheet.addRow(["手机号", "姓名", "城市", "年龄", "等级"]);
    sheet.addRow(["13811110003", "王五", "广州", "30", "普通"]);
    sheet.addRow(["13811110001", "张三丰", "苏州", "", ""]);
    const again = ContactImportResponseSchema.parse((await upload("fixed.xlsx", Buffer.from(await book.xlsx.writeBuffer()))).json()).data!;
    expect(again).toMatchObject({ created: 1, updated: 1, rejected: 0 });
    const zhang = (await list({ keyword: "13811110001" })).list[0];
    expect(zhang.name).toBe("张三丰");
    expect(zhang.values[String(city.id)]).toBe("苏州");
    expect(zhang.values[String(level.id)]).toBe("VIP"); // kept: the file left it empty

    // The workbench's lookup reads the same contacts.
    const found = ContactsByPhoneResponseSchema.parse((await inject("agent", "GET", "/crm_v2/contactsByPhone/13811110001")).json()).data!;
    expect(found.list.map((c) => c.name)).toEqual(["张三丰"]);

    expect(await refusal(await upload("contacts.txt", "a,b"), 400)).toBe("只支持 CSV 或 XLSX 文件");
    expect(await refusal(await upload("broken.xlsx", "not a zip"), 400)).toContain("文件无法读取");
    expect(await refusal(await upload("contacts.csv", "姓名,城市\n张,上海"), 400)).toBe("文件缺少「手机号」列");
    expect(await refusal(await upload("contacts.csv", csv, "agent"), 403)).toBe("仅管理员可以维护客户资料");
  });

  it("imports through a column-mapping step: the file kept, its columns suggested, then imported as mapped", async () => {
    const stage = (fileName: string, content: string, account = "admin") =>
      platform.app.inject({
        method: "POST",
        url: "/crm_v2/contacts/v1/import/upload",
        ...multipart(fileName, content),
        headers: { ...multipart(fileName, content).headers, ...bearer(tokens[account]) },
      });
    const csv = ["客户名称,联系电话,城市,备用号码,备注", "陈一,13922220001,重庆,13922229999,老客户", "林二,13922220002,成都,,"].join("\n");
    const staged = ContactImportUploadResponseSchema.parse((await stage("客户名单.csv", csv)).json()).data!;
    expect(staged.columns.map((c) => [c.header, c.target])).toEqual([
      ["客户名称", ""],
      ["联系电话", ""],
      ["城市", String(city.id)],
      ["备用号码", ""],
      ["备注", ""],
    ]);
    expect(staged.columns[0].samples).toEqual(["陈一", "林二"]);
    const again = await inject("admin", "GET", `/crm_v2/contacts/v1/import/upload/${staged.uploadId}`);
    expect(ContactImportUploadResponseSchema.parse(again.json()).data).toEqual(staged);

    const mapped = (mapping: string[], account = "admin") =>
      inject(account, "POST", "/crm_v2/contacts/v1/import/mapped", { uploadId: staged.uploadId, mapping });
    const good = ["name", "phone", String(city.id), "", ""];
    expect(await refusal(await mapped(["name", "", String(city.id), "", ""]), 400)).toBe("请为「手机号」选择一列");
    expect(await refusal(await mapped(["name", "phone", String(city.id), "phone", ""]), 400)).toBe("「手机号」只能对应一列");
    expect(await refusal(await mapped(["name", "phone"]), 400)).toBe("列对应关系与文件的列数不符，请重新上传文件");
    expect(await refusal(await mapped(["name", "phone", "999999", "", ""]), 400)).toBe("所选的客户属性不存在或已无效，请刷新后重试");
    expect(await refusal(await mapped(["name", "phone", "=1+1", "", ""]), 400)).toBe("列对应关系不正确");
    expect(await refusal(await mapped(good, "agent"), 403)).toBe("仅管理员可以维护客户资料");
    expect(await refusal(await mapped(good, "other-admin"), 404)).toBe("上传的文件已过期或不存在，请重新上传");

    const done = ContactImportResponseSchema.parse((await mapped(good)).json()).data!;
    expect(done).toMatchObject({ created: 2, updated: 0, rejected: 0, ignoredColumns: ["备用号码", "备注"] });
    expect((await list({ keyword: "13922220001" })).list[0]).toMatchObject({ name: "陈一", values: { [String(city.id)]: "重庆" } });
    // Imported once: the kept file is gone.
    expect(await refusal(await mapped(good), 404)).toBe("上传的文件已过期或不存在，请重新上传");
    expect(await refusal(await stage("名单.txt", csv), 400)).toBe("只支持 CSV 或 XLSX 文件");
    // 25 MB: over the 20 MB limit, on either way in.
    const big = `姓名,手机号\n${"1".repeat(25 * 1024 * 1024)}`;
    expect(await refusal(await stage("大名单.csv", big), 400)).toBe("文件不能超过20MB");
    expect(await refusal(await upload("大名单.csv", big), 400)).toBe("文件不能超过20MB");
    expect(await refusal(await stage("名单.csv", csv, "agent"), 403)).toBe("仅管理员可以维护客户资料");
  });

  it("lists contacts keyset-paged with property and group filters; edits with checks; exports without formulas", async () => {
    const all = await list({ pageSize: 10 });
    expect(all.total).toBeGreaterThanOrEqual(5);
    const next = await list({ pageSize: 10, after: all.list[1].id });
    expect(next.list[0].id).toBe(all.list[2].id);
    expect((await list({ values: { [String(level.id)]: "VIP" } })).list.map((c) => c.phone)).toEqual(["13811110001"]);

    const wang = (await list({ keyword: "13811110003" })).list[0];
    const put = (body: object) => inject("admin", "PUT", `/crm_v2/contacts/v1/${wang.id}`, body);
    expect(await refusal(await put({ name: "王五", phone: "+1 555 0100", values: { [city.id]: "广州" } }), 400)).toBe(
      "手机号须为中国大陆手机号（11位，以1开头）",
    );
    expect(await refusal(await put({ name: "王五", phone: "13811110003", values: { [city.id]: "广州", [age.id]: "abc" } }), 400)).toBe(
      "「年龄」须为数字",
    );
    expect(await refusal(await put({ name: "王五", phone: "13811110003", values: {} }), 400)).toBe("请填写「城市」");
    expect(await refusal(await put({ name: "王五", phone: "13811110001", values: { [city.id]: "广州" } }), 400)).toContain("手机号已存在");
    const saved = await put({ name: "王五", phone: "13811110003", values: { [city.id]: "佛山", [idCard.id]: "M009" } });
    expect(CustomerContactResponseSchema.parse(saved.json()).data!.values[String(city.id)]).toBe("佛山");
    expect(await refusal(await inject("other-admin", "GET", `/crm_v2/contacts/v1/${wang.id}`), 404)).toBe("联系人不存在");
    expect((await inject("agent", "GET", `/crm_v2/contacts/v1/${wang.id}`)).statusCode).toBe(200);

    const exported = await inject("admin", "POST", "/crm_v2/contacts/v1/export", {});
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toContain("'=HYPERLINK(x),13811110008");
    expect(exported.body.split("\r\n")[0]).toBe("\uFEFF姓名,手机号,城市,年龄,等级,会员号,分组");

    // The keyword: part of a name, or of a phone however it is spaced; the tenant's contacts only.
    expect((await list({ keyword: "三丰" })).list.map((c) => c.phone)).toEqual(["13811110001"]);
    expect((await list({ keyword: "138-1111 0001" })).list.map((c) => c.name)).toEqual(["张三丰"]);
    expect((await list({ keyword: "王" })).list.map((c) => c.name)).toContain("王五");
    expect((await list({ keyword: "100%" })).total).toBe(0);
    expect((await list({ keyword: "三丰" }, "other-admin")).total).toBe(0);
  });

  it("finds a keyword of any length through the name's trigram index, with the key the database makes", async () => {
    // The console computes the keyword's key itself: it must be the database's key of the same text,
    // beyond the CJK block (a character of the supplementary planes) and in ASCII too.
    const names = ["张三丰", "欧阳娜娜", "Zoë O'Neil", "𠀀龘", "a"];
    for (const name of names) {
      const row = await sql<{ key: string }>`SELECT contact_name_key(${name}) AS key`.execute(platform.db);
      expect(row.rows[0].key).toBe(contactNameKey(name));
    }
    // One character is a trigram of its own: a one-character keyword is looked up in the index.
    // (Sequential and plain index scans are switched off so that a table of a few rows shows
    // whether the index can serve the condition at all; at a million rows the planner picks it by
    // cost: bench/contacts.ts prints the plans.)
    const plan = await platform.db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      await sql`SET LOCAL enable_indexscan = off`.execute(trx);
      const explained = await sql<{ "QUERY PLAN": string }>`EXPLAIN SELECT id FROM crm_contacts WHERE ${nameContains("丰")}`.execute(trx);
      return explained.rows.map((r) => r["QUERY PLAN"]).join("\n");
    });
    expect(plan, plan).toContain("crm_contacts_name_key_idx");
    expect((await list({ keyword: "丰" })).list.map((c) => c.name)).toEqual(["张三丰"]);
    expect((await list({ keyword: "Zz" })).total).toBe(0);
  });

  let groupId: number;
  it("groups from a selection, filters by group, sends a group into a campaign", async () => {
    const contacts = (await list({ keyword: "138111100" })).list;
    const created = await inject("admin", "POST", "/crm_v2/groups/v1", { name: "上海客户", addIds: contacts.slice(0, 2).map((c) => c.id) });
    const group = ContactGroupResponseSchema.parse(created.json()).data!;
    expect(group.memberCount).toBe(2);
    groupId = group.id;
    expect(await refusal(await inject("admin", "POST", "/crm_v2/groups/v1", { name: "上海客户" }), 400)).toBe("分组名称已存在");
    const updated = await inject("admin", "PUT", `/crm_v2/groups/v1/${groupId}`, { addIds: [contacts[2].id], removeIds: [contacts[0].id] });
    expect(updated.json().data).toMatchObject({ memberCount: 2, added: 1, removed: 1 });
    expect((await list({ groupId })).list.map((c) => c.id).sort()).toEqual([contacts[1].id, contacts[2].id].sort());
    expect(ContactGroupListResponseSchema.parse((await inject("other-admin", "GET", "/crm_v2/groups/v1/list")).json()).data!.list).toEqual(
      [],
    );

    const campaign = await platform.db
      .selectFrom("campaigns")
      .select("id")
      .where("tenant_id", "=", demoTenant)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const sent = ContactOutboundResponseSchema.parse(
      (await inject("admin", "POST", "/crm_v2/contacts/v1/outbound", { campaignId: campaign.id, groupId })).json(),
    ).data!;
    expect(sent.accepted + sent.rejected).toBe(2);
    // The batch is named after the group; its refused rows are a campaign import like a file's.
    const batch = await platform.db.selectFrom("task_batches").select("name").where("id", "=", sent.batchId!).executeTakeFirstOrThrow();
    expect(batch.name).toBe("联系人分组「上海客户」");
    const imported = await platform.db
      .selectFrom("contact_imports")
      .select("campaign_id")
      .where("id", "=", sent.importId)
      .executeTakeFirstOrThrow();
    expect(imported.campaign_id).toBe(campaign.id);
    const again = ContactOutboundResponseSchema.parse(
      (await inject("admin", "POST", "/crm_v2/contacts/v1/outbound", { campaignId: campaign.id, groupId })).json(),
    ).data!;
    expect(again).toMatchObject({ accepted: 0, rejected: 2 });
    expect(again.errors[0].reason).toBe("号码已在活动名单中");
    expect(
      await refusal(await inject("other-admin", "POST", "/crm_v2/contacts/v1/outbound", { campaignId: campaign.id, groupId }), 404),
    ).toBe("分组不存在");

    // An empty group, and one over the limit, are refused with the reason rather than cut short.
    const empty = ContactGroupResponseSchema.parse((await inject("admin", "POST", "/crm_v2/groups/v1", { name: "空分组" })).json()).data!;
    expect(
      await refusal(await inject("admin", "POST", "/crm_v2/contacts/v1/outbound", { campaignId: campaign.id, groupId: empty.id }), 404),
    ).toBe("分组「空分组」没有联系人");
    await expect(contactsFor(platform.db, demoTenant, { ids: [], groupId }, 1)).rejects.toThrow("分组超过1人，一次最多处理1人");
    await inject("admin", "DELETE", `/crm_v2/groups/v1/${empty.id}`);

    const history = await inject("admin", "GET", `/crm_v2/contacts/v1/callhistroy?id=${contacts[0].id}`);
    expect(CallRecordPageResponseSchema.parse(history.json()).data!.list.every((c) => c.phone === contacts[0].phone)).toBe(true);
  });

  it("reviews SMS templates as a state machine and sends approved ones with variables to a group", async () => {
    const bad = await inject("admin", "POST", "/sms/api/sms/template", {
      name: "提醒",
      signature: "示例银行",
      content: "${姓名}您好，${积分}即将过期",
    });
    expect(await refusal(bad, 400)).toContain("变量 ${积分} 不是客户属性");
    const created = SmsTemplateResponseSchema.parse(
      (
        await inject("admin", "POST", "/sms/api/sms/template", {
          name: "提醒",
          signature: "示例银行",
          content: "${姓名}您好，您在${城市}的账户已更新。",
        })
      ).json(),
    ).data!;
    expect(created).toMatchObject({ state: "pending", variables: ["姓名", "城市"], segments: 1 });
    expect(created.length).toBe([..."【示例银行】${姓名}您好，您在${城市}的账户已更新。"].length);

    const send = (account: string, body: object) => inject(account, "POST", "/msg/api/sms/send", body);
    expect(await refusal(await send("admin", { templateId: created.id, groupId }), 400)).toBe("模板「提醒」待审核，审核通过后才能发送");
    expect(await refusal(await inject("admin", "PUT", `/sms/api/sms/template/${created.id}/review`, { state: "rejected" }), 400)).toBe(
      "不通过时请填写原因",
    );
    const rejected = await inject("admin", "PUT", `/sms/api/sms/template/${created.id}/review`, {
      state: "rejected",
      reason: "签名未报备",
    });
    expect(SmsTemplateResponseSchema.parse(rejected.json()).data).toMatchObject({ state: "rejected", reason: "签名未报备" });
    expect(await refusal(await inject("admin", "PUT", `/sms/api/sms/template/${created.id}/review`, { state: "approved" }), 400)).toBe(
      "模板已是「未通过」，不能再审核",
    );
    await inject("admin", "PUT", `/sms/api/sms/template/${created.id}`, {
      name: "提醒",
      signature: "示例银行",
      content: "${姓名}您好，您在${城市}的账户已更新。",
    });
    const approved = await inject("admin", "PUT", `/sms/api/sms/template/${created.id}/review`, { state: "approved" });
    expect(SmsTemplateResponseSchema.parse(approved.json()).data!.state).toBe("approved");
    expect(await countAudit(platform.db, demoTenant, "sms.template.review")).toBe(2);

    const preview = SmsSendResponseSchema.parse((await send("admin", { templateId: created.id, groupId, preview: true })).json()).data!;
    expect(preview.queued).toBe(0);
    expect(preview.preview[0].text).toMatch(/^.+您好，您在.+的账户已更新。$/);
    const done = SmsSendResponseSchema.parse((await send("admin", { templateId: created.id, groupId })).json()).data!;
    expect(done.queued).toBe(2);

    // Agents: approved templates, selected contacts only; the admin screens stay closed.
    const listed = SmsTemplatePageResponseSchema.parse((await inject("agent", "GET", "/sms/api/sms/customer/template")).json()).data!;
    // The approved ones (the demo seeds two more), not the one waiting for review.
    expect(listed.list.map((t) => t.name)).toContain("提醒");
    expect(listed.list.every((t) => t.state === "approved")).toBe(true);
    expect(listed.list.map((t) => t.name)).not.toContain("活动通知");
    expect(await refusal(await send("agent", { templateId: created.id, groupId }), 403)).toBe("坐席只能向勾选的联系人发送短信");
    const members = (await list({ groupId }, "agent")).list;
    const byAgent = SmsSendResponseSchema.parse((await send("agent", { templateId: created.id, ids: [members[0].id] })).json()).data!;
    expect(byAgent.queued).toBe(1);
    expect(await refusal(await inject("agent", "GET", "/sms/api/sms/template/list"), 403)).toBe("无权访问：需要「短信模板」菜单");
    expect(await refusal(await send("other-admin", { templateId: created.id, ids: [1] }), 404)).toBe("短信模板不存在");

    const carrier = createSmsCarrier(platform.db);
    const now = Date.now();
    await carrier.tick(new Date(now));
    await carrier.tick(new Date(now + DELIVERY_MS + 1));
    const outbox = SmsOutboxResponseSchema.parse((await inject("admin", "GET", "/sms/api/sms/outbox?pageSize=10")).json()).data!;
    expect(outbox.list.filter((m) => m.kind === "message").map((m) => m.status)).toEqual(["delivered", "delivered", "delivered"]);
    expect(outbox.list[0].signature).toBe("示例银行");
  });

  it("deletes contacts in bulk with per-item results", async () => {
    const contacts = (await list({ keyword: "138111100" })).list;
    const response = await inject("admin", "POST", "/crm_v2/contacts/v1/delete", { ids: [contacts[0].id, 999999] });
    expect(ContactDeleteResponseSchema.parse(response.json()).data).toEqual({ deleted: 1, missing: [999999] });
    expect(await refusal(await inject("agent", "POST", "/crm_v2/contacts/v1/delete", { ids: [contacts[1].id] }), 403)).toBe(
      "仅管理员可以维护客户资料",
    );
    expect(await refusal(await inject("admin", "POST", "/crm_v2/contacts/v1/delete", { ids: [] }), 400)).toBe("请先勾选要删除的联系人");
  });
});
