import ExcelJS from "exceljs";
import { afterAll, beforeAll, expect, it } from "vitest";
import { QuickReplyListResponseSchema } from "#contracts/chat";
import { FailureSchema } from "#contracts/envelope";
import {
  KnowledgeBatchDeleteResponseSchema,
  KnowledgeCountResponseSchema,
  KnowledgeGapListResponseSchema,
  KnowledgeGroupListResponseSchema,
  KnowledgeGroupResponseSchema,
  KnowledgeImportResponseSchema,
  KnowledgeLabelListResponseSchema,
  KnowledgeLabelResponseSchema,
  KnowledgeNodePageResponseSchema,
  KnowledgeNodeResponseSchema,
  KnowledgeUsageResponseSchema,
} from "#contracts/knowledge";
import { KnowledgeNodesResponseSchema } from "#contracts/workbench";
import { countAudit } from "#upstream/repositories/audit-log";
import { bearer, describeDb, loginAs, TEST_DB, testPlatform } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";

/** A multipart body with the group id and one file. */
function multipart(groupId: number | string, fileName: string, content: string | Buffer) {
  const boundary = "----switchboard-knowledge";
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="groupId"\r\n\r\n${groupId}\r\n`),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload: body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}

describeDb(`the knowledge base on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  const tokens: Record<string, string> = {};
  let demoTenant: number;

  beforeAll(async () => {
    platform = await testPlatform();
    for (const account of ["admin", "agent", "chat", "supervisor", "other-admin"]) tokens[account] = await loginAs(platform.app, account);
    demoTenant = (await platform.db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => platform?.close());

  const inject = (account: string, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) =>
    platform.app.inject({ method, url, headers: bearer(tokens[account]), payload: payload as object });
  const refusal = async (response: Awaited<ReturnType<typeof inject>>, status: number) => {
    expect(response.statusCode, response.body).toBe(status);
    return FailureSchema.parse(response.json()).msg;
  };
  const groups = async (account = "admin") =>
    KnowledgeGroupListResponseSchema.parse((await inject(account, "GET", "/config/knowledge/group/agent")).json()).data!.list;
  const nodes = async (query: string, account = "admin") => {
    const response = await inject(account, "GET", `/config/knowledge/node/agent?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return KnowledgeNodePageResponseSchema.parse(response.json()).data!;
  };
  const quickReplies = async () =>
    QuickReplyListResponseSchema.parse((await inject("chat", "GET", "/chat/api/quick-replies")).json()).data!.list;
  const createGroup = async (name: string) => {
    const response = await inject("admin", "POST", "/config/knowledge/group", { name });
    expect(response.statusCode, response.body).toBe(200);
    return KnowledgeGroupResponseSchema.parse(response.json()).data!;
  };
  const createNode = async (groupId: number, question: string, answer: string, labels: string[] = [], state = 1) => {
    const response = await inject("admin", "POST", "/config/knowledge/node", { groupId, question, answer, labels, state });
    expect(response.statusCode, response.body).toBe(200);
    return KnowledgeNodeResponseSchema.parse(response.json()).data!;
  };

  it("seeds the demo groups, with the chat quick replies among the knowledge", async () => {
    const names = (await groups()).map((g) => g.name);
    expect(names).toEqual(expect.arrayContaining(["分期业务", "账户服务", "快捷回复"]));
    const quick = (await groups()).find((g) => g.name === "快捷回复")!;
    expect(quick.nodeCount).toBe(5);
    expect((await nodes(`groupId=${quick.id}`)).list.map((n) => n.question)).toContain("请稍等");
    expect((await groups("other-admin")).find((g) => g.name === "快捷回复")!.nodeCount).toBe(1);
  });

  it("manages groups: create, rename, refuse a duplicate or empty name, delete only when empty, audited", async () => {
    const group = await createGroup("售后政策");
    expect(await refusal(await inject("admin", "POST", "/config/knowledge/group", { name: "售后政策" }), 400)).toBe("分组名称已存在");
    expect(await refusal(await inject("admin", "POST", "/config/knowledge/group", { name: "  " }), 400)).toBe("请输入分组名称");
    expect(await refusal(await inject("admin", "PUT", `/config/knowledge/group/${group.id}`, { name: "分期业务" }), 400)).toBe(
      "分组名称已存在",
    );

    const renamed = await inject("admin", "PUT", `/config/knowledge/group/${group.id}`, { name: "退换货政策" });
    expect(KnowledgeGroupResponseSchema.parse(renamed.json()).data!.name).toBe("退换货政策");

    // Another tenant may use the same name, and cannot see or touch this group.
    expect((await inject("other-admin", "POST", "/config/knowledge/group", { name: "退换货政策" })).statusCode).toBe(200);
    expect(await refusal(await inject("other-admin", "PUT", `/config/knowledge/group/${group.id}`, { name: "x" }), 404)).toBe("分组不存在");
    expect(await refusal(await inject("other-admin", "DELETE", `/config/knowledge/group/${group.id}`), 404)).toBe("分组不存在");

    const node = await createNode(group.id, "退货时限", "签收后7天内可无理由退货。");
    expect(await refusal(await inject("admin", "DELETE", `/config/knowledge/group/${group.id}`), 400)).toBe(
      "分组「退换货政策」下还有 1 条知识，请先删除或移走",
    );
    expect((await inject("admin", "DELETE", `/config/knowledge/node/${node.id}`)).statusCode).toBe(200);
    expect((await inject("admin", "DELETE", `/config/knowledge/group/${group.id}`)).statusCode).toBe(200);
    expect((await groups()).map((g) => g.name)).not.toContain("退换货政策");

    for (const action of ["knowledge.group.create", "knowledge.group.update", "knowledge.group.delete"])
      expect(await countAudit(platform.db, demoTenant, action)).toBeGreaterThanOrEqual(1);
  });

  it("lets agents look up what is published but keeps the configuration to administrators, in Chinese", async () => {
    const [group] = await groups();
    const [published] = (await nodes(`groupId=${group.id}&state=1`)).list;
    // The workbenches look knowledge up; the groups and nodes with drafts are 知识库配置's (decision 044).
    for (const account of ["agent", "chat"]) {
      const lookup = await inject(account, "GET", `/config/knowledge/node/platform?keyword=${encodeURIComponent(published.question)}`);
      expect(
        KnowledgeNodesResponseSchema.parse(lookup.json()).data!.list.map((n) => n.id),
        account,
      ).toContain(published.id);
    }
    const refused = "无权访问：需要「知识库配置」菜单";
    for (const account of ["agent", "chat", "supervisor"]) {
      expect(await refusal(await inject(account, "GET", "/config/knowledge/group/agent"), 403)).toBe(refused);
      expect(await refusal(await inject(account, "GET", `/config/knowledge/node/agent?groupId=${group.id}`), 403)).toBe(refused);
      expect(await refusal(await inject(account, "POST", "/config/knowledge/group", { name: "坐席分组" }), 403)).toBe(refused);
      expect(
        await refusal(await inject(account, "POST", "/config/knowledge/node", { groupId: group.id, question: "q", answer: "a" }), 403),
      ).toBe(refused);
      expect(await refusal(await inject(account, "GET", "/config/knowledge/gap"), 403)).toBe(refused);
    }
  });

  it("creates, edits, searches, enables and disables nodes; quick replies follow at once", async () => {
    const group = await createGroup("会员权益");
    expect(
      await refusal(await inject("admin", "POST", "/config/knowledge/node", { groupId: group.id, question: " ", answer: "a" }), 400),
    ).toBe("请输入问题");
    expect(
      await refusal(await inject("admin", "POST", "/config/knowledge/node", { groupId: group.id, question: "q", answer: "" }), 400),
    ).toBe("请输入答案");
    const foreignGroup = (await groups("other-admin"))[0];
    expect(
      await refusal(await inject("admin", "POST", "/config/knowledge/node", { groupId: foreignGroup.id, question: "q", answer: "a" }), 404),
    ).toBe("分组不存在");

    const node = await createNode(group.id, "会员积分有效期", "积分自获得之日起12个月内有效。", ["会员", "积分"]);
    expect(node).toMatchObject({ groupName: "会员权益", labels: ["会员", "积分"], state: 1, usageCount: 0 });
    expect((await quickReplies()).map((r) => r.title)).toContain("会员积分有效期");

    // Search across question, answer and label; the other tenant finds nothing.
    expect((await nodes(`keyword=${encodeURIComponent("有效期")}`)).list.map((n) => n.id)).toContain(node.id);
    expect((await nodes(`keyword=${encodeURIComponent("12个月")}`)).list.map((n) => n.id)).toContain(node.id);
    expect((await nodes(`groupId=${group.id}&keyword=${encodeURIComponent("积分")}`)).list.map((n) => n.id)).toEqual([node.id]);
    expect((await nodes(`keyword=${encodeURIComponent("会员")}`, "other-admin")).total).toBe(0);
    expect((await nodes(`keyword=${encodeURIComponent("_")}`)).total).toBe(0); // a literal, not a wildcard
    expect((await nodes(`keyword=${encodeURIComponent("0.8%")}`)).list.map((n) => n.question)).toEqual(["分期手续费标准"]);

    const edited = await inject("admin", "PUT", `/config/knowledge/node/${node.id}`, {
      groupId: group.id,
      question: "会员积分多久过期",
      answer: "积分12个月内有效，到期自动清零。",
      labels: ["积分"],
      state: 1,
    });
    expect(KnowledgeNodeResponseSchema.parse(edited.json()).data).toMatchObject({ question: "会员积分多久过期", labels: ["积分"] });
    expect((await quickReplies()).find((r) => r.id === node.id)?.content).toBe("积分12个月内有效，到期自动清零。");

    // Disabled: gone from the quick replies and from the agents' lookup, still listed for the editor.
    const disabled = await inject("admin", "PUT", `/config/knowledge/node/${node.id}/state/0`);
    expect(KnowledgeNodeResponseSchema.parse(disabled.json()).data!.state).toBe(0);
    expect((await quickReplies()).map((r) => r.id)).not.toContain(node.id);
    const lookup = await inject("agent", "GET", `/config/knowledge/node/platform?keyword=${encodeURIComponent("积分")}`);
    expect(KnowledgeNodesResponseSchema.parse(lookup.json()).data!.list.map((n) => n.id)).not.toContain(node.id);
    expect((await nodes(`groupId=${group.id}&state=0`)).list.map((n) => n.id)).toEqual([node.id]);
    expect(
      KnowledgeCountResponseSchema.parse((await inject("admin", "GET", `/config/knowledge/node/count/${group.id}`)).json()).data,
    ).toEqual({
      total: 1,
      enabled: 0,
    });
    expect(await refusal(await inject("admin", "PUT", `/config/knowledge/node/${node.id}/state/7`), 400)).toBe("状态无效");
    expect(await refusal(await inject("agent", "PUT", `/config/knowledge/node/${node.id}/usage`), 404)).toBe("知识不存在或已停用");

    await inject("admin", "PUT", `/config/knowledge/node/${node.id}/state/1`);
    expect((await quickReplies()).map((r) => r.id)).toContain(node.id);

    // Another tenant cannot touch it.
    expect(await refusal(await inject("other-admin", "PUT", `/config/knowledge/node/${node.id}/state/0`), 404)).toBe("知识不存在");
    expect(await refusal(await inject("other-admin", "DELETE", `/config/knowledge/node/${node.id}`), 404)).toBe("知识不存在");
    expect(await refusal(await inject("other-admin", "GET", `/config/knowledge/node/count/${group.id}`), 404)).toBe("分组不存在");

    for (const action of ["knowledge.node.create", "knowledge.node.update", "knowledge.node.state"])
      expect(await countAudit(platform.db, demoTenant, action)).toBeGreaterThanOrEqual(1);
  });

  it("counts a node's uses by agents and reports the searches that found nothing", async () => {
    const group = await createGroup("物流问题");
    const node = await createNode(group.id, "快递多久到", "一般3天内送达。");
    for (let i = 0; i < 2; i++) {
      const used = await inject("chat", "PUT", `/config/knowledge/node/${node.id}/usage`);
      expect(used.statusCode, used.body).toBe(200);
    }
    expect(
      KnowledgeUsageResponseSchema.parse((await inject("agent", "PUT", `/config/knowledge/node/${node.id}/usage`)).json()).data!.usageCount,
    ).toBe(3);
    expect((await nodes(`groupId=${group.id}`)).list[0].usageCount).toBe(3);
    expect((await quickReplies())[0].id).toBe(node.id); // most used first
    expect((await inject("other-admin", "PUT", `/config/knowledge/node/${node.id}/usage`)).statusCode).toBe(404);

    // Two searches for 发票抬头 and one for 保价 find nothing; a search that finds something is no gap.
    for (const keyword of ["发票抬头", "发票抬头", "保价", "快递"])
      expect((await inject("agent", "GET", `/config/knowledge/node/platform?keyword=${encodeURIComponent(keyword)}`)).statusCode).toBe(200);
    const gaps = KnowledgeGapListResponseSchema.parse((await inject("admin", "GET", "/config/knowledge/gap")).json()).data!;
    expect(gaps.list.map((g) => [g.keyword, g.times])).toEqual([
      ["发票抬头", 2],
      ["保价", 1],
    ]);
    expect(KnowledgeGapListResponseSchema.parse((await inject("other-admin", "GET", "/config/knowledge/gap")).json()).data!.total).toBe(0);

    // Once knowledge answers it, the gap leaves the report.
    await createNode(group.id, "快递保价怎么收费", "按声明价值的1%收取。");
    const after = KnowledgeGapListResponseSchema.parse((await inject("admin", "GET", "/config/knowledge/gap")).json()).data!;
    expect(after.list.map((g) => g.keyword)).toEqual(["发票抬头"]);
  });

  it("imports a CSV or XLSX file with per-row errors, and deletes in batches", async () => {
    const group = await createGroup("导入分组");
    const csv =
      "问题,答案,标签,状态\n营业时间,每天9:00-21:00,门店、时间,启用\n,没有问题的答案,,\n停用的知识,答案,,停用\n坏状态,答案,,暂停\n\n";
    const imported = KnowledgeImportResponseSchema.parse(
      (
        await platform.app.inject({
          method: "POST",
          url: "/config/knowledge/node/createBatch",
          ...withAuth(multipart(group.id, "知识.csv", csv)),
        })
      ).json(),
    ).data!;
    expect(imported).toEqual({
      accepted: 2,
      rejected: 2,
      errors: [
        { row: 3, message: "请输入问题" },
        { row: 5, message: "状态须为“启用”或“停用”" },
      ],
    });
    const page = await nodes(`groupId=${group.id}`);
    expect(page.list.map((n) => [n.question, n.state, n.labels])).toEqual([
      ["停用的知识", 0, []],
      ["营业时间", 1, ["门店", "时间"]],
    ]);
    expect((await inject("admin", "GET", "/config/knowledge/label")).json().data.list.map((l: { name: string }) => l.name)).toContain(
      "门店",
    );

    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet("知识").addRows([
      ["问题", "答案"],
      ["XLSX问题", "XLSX答案"],
    ]);
    const xlsx = Buffer.from(await workbook.xlsx.writeBuffer());
    const fromXlsx = await platform.app.inject({
      method: "POST",
      url: "/config/knowledge/node/createBatch",
      ...withAuth(multipart(group.id, "知识.xlsx", xlsx)),
    });
    expect(KnowledgeImportResponseSchema.parse(fromXlsx.json()).data).toEqual({ accepted: 1, rejected: 0, errors: [] });

    const badHeader = await platform.app.inject({
      method: "POST",
      url: "/config/knowledge/node/createBatch",
      ...withAuth(multipart(group.id, "x.csv", "a,b\n1,2\n")),
    });
    expect(await refusal(badHeader, 400)).toBe("文件第一行须为表头，至少包含“问题”和“答案”两列");
    const badType = await platform.app.inject({
      method: "POST",
      url: "/config/knowledge/node/createBatch",
      ...withAuth(multipart(group.id, "x.txt", "问题,答案\n")),
    });
    expect(await refusal(badType, 400)).toBe("只支持 CSV 或 XLSX 文件");
    const brokenXlsx = await platform.app.inject({
      method: "POST",
      url: "/config/knowledge/node/createBatch",
      ...withAuth(multipart(group.id, "x.xlsx", "not a zip")),
    });
    expect(await refusal(brokenXlsx, 400)).toMatch(/文件无法读取/);
    const foreign = await platform.app.inject({
      method: "POST",
      url: "/config/knowledge/node/createBatch",
      ...withAuth(multipart(group.id, "x.csv", csv), "other-admin"),
    });
    expect(await refusal(foreign, 404)).toBe("分组不存在");
    expect(await countAudit(platform.db, demoTenant, "knowledge.node.import")).toBe(2);

    // Batch delete: only the tenant's own ids count; none of them is a 404.
    const ids = (await nodes(`groupId=${group.id}`)).list.map((n) => n.id);
    expect(await refusal(await inject("other-admin", "POST", "/config/knowledge/node/batch/delete", { ids }), 404)).toBe("知识不存在");
    expect(await refusal(await inject("admin", "POST", "/config/knowledge/node/batch/delete", { ids: [] }), 400)).toBe(
      "请选择要删除的知识",
    );
    const deleted = await inject("admin", "POST", "/config/knowledge/node/batch/delete", { ids: [...ids, 999999] });
    expect(KnowledgeBatchDeleteResponseSchema.parse(deleted.json()).data!.deleted).toBe(3);
    expect((await nodes(`groupId=${group.id}`)).total).toBe(0);
  });

  it("keeps the tenant's labels: create, read, refuse duplicates, delete takes the label off the nodes", async () => {
    const created = await inject("admin", "POST", "/config/knowledge/label", { name: "高频" });
    const label = KnowledgeLabelResponseSchema.parse(created.json()).data!;
    expect(await refusal(await inject("admin", "POST", "/config/knowledge/label", { name: "高频" }), 400)).toBe("标签已存在");
    const group = await createGroup("标签分组");
    const node = await createNode(group.id, "标签问题", "标签答案", ["高频", "其他"]);
    expect(
      KnowledgeLabelResponseSchema.parse((await inject("admin", "GET", `/config/knowledge/label/${label.id}`)).json()).data,
    ).toMatchObject({
      name: "高频",
      nodeCount: 1,
    });
    expect((await inject("other-admin", "GET", `/config/knowledge/label/${label.id}`)).statusCode).toBe(404);
    expect(
      KnowledgeLabelListResponseSchema.parse((await inject("other-admin", "GET", "/config/knowledge/label")).json()).data!.list.map(
        (l) => l.name,
      ),
    ).not.toContain("高频");
    expect(await refusal(await inject("agent", "DELETE", `/config/knowledge/label/${label.id}`), 403)).toBe(
      "无权访问：需要「知识库配置」菜单",
    );
    expect((await inject("admin", "DELETE", `/config/knowledge/label/${label.id}`)).statusCode).toBe(200);
    expect((await nodes(`groupId=${group.id}`)).list.find((n) => n.id === node.id)!.labels).toEqual(["其他"]);
    expect(await countAudit(platform.db, demoTenant, "knowledge.label.delete")).toBe(1);
  });

  function withAuth(request: { payload: Buffer; headers: Record<string, string> }, account = "admin") {
    return { payload: request.payload, headers: { ...request.headers, ...bearer(tokens[account]) } };
  }
});
