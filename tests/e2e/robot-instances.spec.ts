import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectAccessible, menuNames, PASSWORD, signIn } from "./support";

const platformUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 1}`;

/**
 * A campaign of its own that the robot works, started on the platform: other tests move the
 * dialer's clock, which may finish the seeded campaigns, but not 300 contacts in a few minutes.
 */
async function callingCampaign(request: APIRequestContext, robotName: string): Promise<string> {
  const token = await request.post(`${platformUrl}/uaa/oauth/token`, {
    headers: { Authorization: `Basic ${Buffer.from("web-console:web-console-secret").toString("base64")}` },
    form: { grant_type: "password", username: "admin", password: PASSWORD },
  });
  const headers = { Authorization: `Bearer ${((await token.json()) as { access_token: string }).access_token}` };
  const data = async <T>(answer: Promise<{ json: () => Promise<unknown> }>) => ((await (await answer).json()) as { data: T }).data;
  const robots = await data<{ list: Array<{ id: number; name: string }> }>(
    request.post(`${platformUrl}/robot/api/robot/instance/list`, { headers, data: { name: robotName } }),
  );
  const name = `机器人占用${Date.now().toString(36)}`;
  const campaign = await data<{ id: number }>(
    request.post(`${platformUrl}/outbound/campaign/save`, {
      headers,
      data: {
        ...{ name, type: 1, taskType: 1, cycle: 3, ratio: 0.2, callingListName: null, robotId: robots.list[0]!.id },
        ...{ queueName: null, callerNumber: null, transTemplateId: null, windows: [{ start: "00:00", end: "24:00" }] },
        ...{ startDate: null, endDate: null, maxAttempts: 1 },
      },
    }),
  );
  const contacts = ["手机号", ...Array.from({ length: 300 }, (_, i) => `1551234${String(i).padStart(4, "0")}`)].join("\n");
  const file = { name: "占用名单.csv", mimeType: "text/csv", buffer: Buffer.from(contacts) };
  expect(
    (await request.post(`${platformUrl}/api/file/upload`, { headers, multipart: { campaignId: String(campaign.id), file } })).status(),
  ).toBe(200);
  const started = await request.put(`${platformUrl}/outbound/campaign/change/state`, {
    headers,
    data: { campaignId: campaign.id, state: 1 },
  });
  expect(started.status(), await started.text()).toBe(200);
  return name;
}

const toast = (page: Page) => page.locator(".sb-toast");
const robots = (page: Page) => page.getByRole("table", { name: "机器人列表" });
const section = (page: Page, name: string) => page.getByRole("region", { name });

test("an administrator lists, filters, copies, edits, transfers, allocates and deletes robots; one a calling campaign uses stays @noscript", async ({
  page,
  request,
}) => {
  test.setTimeout(90_000);
  const calling = await callingCampaign(request, "营销推广机器人");
  await page.goto("/robot/instance");
  await signIn(page, "admin");
  await expect(page.getByRole("heading", { name: "机器人实例", level: 1 })).toBeVisible();
  expect(await menuNames(page)).toContain("机器人实例");
  await expect(robots(page)).toContainText("营销推广机器人");
  await expect(robots(page).getByRole("row", { name: /^营销推广机器人/ })).toContainText(`${calling}（外呼中）`);
  await expectAccessible(page);

  // Filters are a GET form: by name, by flow.
  await page.getByLabel("按名称搜索").fill("催缴");
  await page.getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(/name=%E5%82%AC%E7%BC%B4/);
  await expect(robots(page)).toContainText("催缴提醒机器人");
  await expect(robots(page)).not.toContainText("营销推广机器人");
  await page.getByRole("link", { name: "重置" }).click();
  await page.getByLabel("运行的流程").selectOption({ label: "信用卡分期" });
  await page.getByRole("button", { name: "查询" }).click();
  await expect(robots(page)).toContainText("营销推广机器人");
  await expect(robots(page)).not.toContainText("催缴提醒机器人");

  // A copy, then its settings; a name already taken is refused with everything typed kept.
  await robots(page).getByRole("link", { name: "编辑「营销推广机器人」" }).click();
  await expect(page.getByRole("heading", { name: "机器人：营销推广机器人", level: 1 })).toBeVisible();
  await expectAccessible(page);
  // A copy under a name already taken is refused under its field, the name typed kept.
  const copyName = section(page, "复制机器人").getByLabel("副本名称");
  await copyName.fill("催缴提醒机器人");
  await page.getByRole("button", { name: "复制", exact: true }).click();
  await expect(section(page, "复制机器人").getByText(/「催缴提醒机器人」已存在/)).toBeVisible();
  await expect(copyName).toHaveValue("催缴提醒机器人");
  await copyName.fill("营销机器人乙");
  await page.getByRole("button", { name: "复制", exact: true }).click();
  await expect(toast(page)).toHaveText("已复制为「营销机器人乙」");
  await expect(page.getByRole("heading", { name: "机器人：营销机器人乙", level: 1 })).toBeVisible();

  const edit = section(page, "基本信息");
  await edit.getByLabel("机器人名称").fill("营销推广机器人");
  await edit.getByLabel("并发数（同时通话数）").fill("7");
  await edit.getByLabel("发音人").selectOption({ label: "晓美（女，温柔播报）" });
  const line = await edit.getByLabel("外呼线路").locator("option").nth(1).getAttribute("value");
  await edit.getByLabel("外呼线路").selectOption(line!);
  await edit.getByLabel("按工作日历外呼").check();
  const refused = page.waitForResponse((r) => r.request().method() === "POST");
  await edit.getByRole("button", { name: "保存" }).click();
  expect((await refused).status()).toBe(400);
  await expect(edit.getByText("保存机器人失败：机器人名称「营销推广机器人」已存在")).toBeVisible();
  await expect(edit.getByLabel("机器人名称")).toHaveValue("营销推广机器人");
  await expect(edit.getByLabel("并发数（同时通话数）")).toHaveValue("7");
  await expect(edit.getByLabel("发音人")).toHaveValue("xiaomei");
  await expect(edit.getByLabel("外呼线路")).toHaveValue(line!);
  await expect(edit.getByLabel("按工作日历外呼")).toBeChecked();
  await expectAccessible(page);
  await edit.getByLabel("机器人名称").fill("营销机器人丙");
  const number = await edit.getByLabel("主叫号码").locator("option").nth(1).getAttribute("value");
  await edit.getByLabel("主叫号码").selectOption(number!);
  await edit.getByRole("button", { name: "保存" }).click();
  await expect(toast(page)).toHaveText("机器人「营销机器人丙」已保存");
  await expect(edit.getByLabel("并发数（同时通话数）")).toHaveValue("7");
  await expect(edit.getByLabel("主叫号码")).toHaveValue(number!);
  await expect(edit.getByLabel("发音人")).toHaveValue("xiaomei");
  await expect(edit.getByLabel("外呼线路")).toHaveValue(line!);
  await expect(edit.getByLabel("按工作日历外呼")).toBeChecked();

  // Another flow; the queue its hand-offs go to.
  await section(page, "运行的流程").getByLabel("转到流程").selectOption({ label: "满意度回访（v1.0）" });
  await page.getByRole("button", { name: "转移" }).click();
  await expect(toast(page)).toHaveText("机器人已转到流程「满意度回访」");
  await expect(section(page, "运行的流程")).toContainText("当前：满意度回访 v1.0");
  const queue = section(page, "分配转人工队列").getByLabel("坐席队列");
  const queueName = await queue.locator("option").nth(1).getAttribute("value");
  await queue.selectOption(queueName!);
  await page.getByRole("button", { name: "分配", exact: true }).click();
  await expect(toast(page)).toHaveText(`转人工已分配到队列「${queueName}」`);
  await expect(queue).toHaveValue(queueName!);

  // Delete: a confirmation first; a robot no campaign uses goes.
  await page.getByRole("button", { name: "删除机器人" }).click();
  const confirm = page.getByRole("alertdialog", { name: "删除机器人「营销机器人丙」" });
  await expect(confirm).toContainText("没有活动使用这个机器人");
  await expectAccessible(page);
  await confirm.getByRole("button", { name: "确认删除" }).click();
  await expect(toast(page)).toHaveText("机器人已删除");
  await expect(page.getByRole("heading", { name: "机器人实例", level: 1 })).toBeVisible();
  await expect(robots(page)).not.toContainText("营销机器人丙");

  // One a calling campaign uses: the confirmation names the campaign, and the platform refuses.
  await robots(page).getByRole("link", { name: "编辑「营销推广机器人」" }).click();
  await page.getByRole("button", { name: "删除机器人" }).click();
  const named = page.getByRole("alertdialog", { name: "删除机器人「营销推广机器人」" });
  await expect(named).toContainText("以下活动仍在使用这个机器人：");
  await expect(named).toContainText(`「${calling}」（外呼中）`);
  await named.getByRole("button", { name: "确认删除" }).click();
  await expect(page.getByRole("alert")).toContainText(
    new RegExp(`删除机器人失败：机器人「营销推广机器人」正被运行中的活动使用：.*${calling}.*，请先暂停或结束这些活动`),
  );
  await expect(page.getByRole("heading", { name: "机器人：营销推广机器人", level: 1 })).toBeVisible();

  // Every change is in the audit log.
  await page.goto("/audit?targetType=robot&keyword=%E8%90%A5%E9%94%80%E6%9C%BA%E5%99%A8%E4%BA%BA");
  for (const action of ["复制机器人", "编辑机器人", "转移机器人", "分配机器人", "删除机器人"])
    await expect(page.getByRole("table").first()).toContainText(action);
});

test("supervisors and agents are refused the robot pages and their actions @noscript", async ({ page }) => {
  for (const account of ["supervisor", "agent"]) {
    await page.context().clearCookies();
    await signIn(page, account);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    expect(await menuNames(page)).not.toContain("机器人实例");
    const csrf = (await page.locator('input[name="csrf"]').first().getAttribute("value")) ?? "";
    for (const path of ["/robot/instance", "/robot/instance/1", "/robot/flow/nlu-template", "/robot/flow/1/definition?versionId=1"])
      expect((await page.request.get(path)).status(), `${account} ${path}`).toBe(403);
    const post = await page.request.post("/robot/instance/1", { form: { csrf, intent: "robot.delete", confirmed: "1" }, maxRedirects: 0 });
    expect(post.status()).toBe(403);
  }
});

test("parameters edited on a draft that was changed meanwhile are refused (409) with the rows kept, never saved over it @noscript", async ({
  page,
}) => {
  await page.goto("/robot/flow");
  await signIn(page, "admin");
  await page.getByLabel("流程名称", { exact: true }).fill("参数并发流程");
  await page.getByRole("button", { name: "新建", exact: true }).click();
  await expect(toast(page)).toHaveText("流程「参数并发流程」已创建，请设计草稿 v1.0");
  await page.goto("/robot/flow?name=参数并发流程");
  await page.getByRole("table", { name: "流程列表" }).getByRole("link", { name: "参数并发流程", exact: true }).click();
  const flowUrl = page.url();

  // A second tab loads the same draft and saves its parameters first.
  const other = await page.context().newPage();
  await other.goto(flowUrl);
  const first = page.getByRole("form", { name: "编辑流程参数" });
  const second = other.getByRole("form", { name: "编辑流程参数" });
  await second.getByLabel("入参1 名称").fill("客户姓名");
  await second.getByLabel("入参1 变量名").fill("customerName");
  await second.getByRole("button", { name: "保存参数" }).click();
  await expect(toast(other)).toHaveText("v1.0 的参数已保存");
  await other.close();

  // The first tab, loaded before that save, is refused: nothing of it saved, every row typed kept.
  await first.getByLabel("入参1 名称").fill("会员等级");
  await first.getByLabel("入参1 变量名").fill("level");
  const refused = page.waitForResponse((r) => r.request().method() === "POST");
  await first.getByRole("button", { name: "保存参数" }).click();
  expect((await refused).status()).toBe(409);
  await expect(first.getByRole("alert")).toHaveText("保存流程参数失败：v1.0 在你打开之后已被修改，修改未保存，请重新打开后再修改");
  await expect(first.getByLabel("入参1 名称")).toHaveValue("会员等级");
  await expect(first.getByLabel("入参1 变量名")).toHaveValue("level");
  await expectAccessible(page);
  // Saving the kept rows again is refused again: they were typed on the draft as it was.
  const again = page.waitForResponse((r) => r.request().method() === "POST");
  await first.getByRole("button", { name: "保存参数" }).click();
  expect((await again).status()).toBe(409);
  await page.goto(flowUrl);
  await expect(first.getByLabel("入参1 变量名")).toHaveValue("customerName");
});

test("a node saved on a design page read before another tab's save is refused (409) with what was typed kept, never saved over it @noscript", async ({
  page,
}) => {
  await page.goto("/robot/flow");
  await signIn(page, "admin");
  await page.getByLabel("流程名称", { exact: true }).fill("设计并发流程");
  await page.getByRole("button", { name: "新建", exact: true }).click();
  await expect(toast(page)).toHaveText("流程「设计并发流程」已创建，请设计草稿 v1.0");
  const designUrl = page.url();
  const greeting = (tab: Page) => tab.getByRole("group", { name: /开场白/ });

  // A second tab loads the same draft and saves the greeting first.
  const other = await page.context().newPage();
  await other.goto(designUrl);
  await greeting(other).getByLabel(/^话术/).fill("您好，这里是第二个标签页。");
  await greeting(other)
    .getByRole("button", { name: /^保存节点/ })
    .click();
  await expect(toast(other)).toHaveText(/^节点「开场白」已保存/);
  await other.close();

  // The first tab, read before that save, is refused: nothing of it saved, what was typed kept.
  await greeting(page).getByLabel(/^话术/).fill("您好，这里是第一个标签页。");
  const refused = page.waitForResponse((r) => r.request().method() === "POST");
  await greeting(page)
    .getByRole("button", { name: /^保存节点/ })
    .click();
  expect((await refused).status()).toBe(409);
  await expect(greeting(page).getByRole("alert")).toHaveText("保存流程设计失败：v1.0 在你打开之后已被修改，修改未保存，请重新打开后再修改");
  await expect(greeting(page).getByLabel(/^话术/)).toHaveValue("您好，这里是第一个标签页。");
  await expectAccessible(page);
  // Saved again from the same page, it is refused again; reloaded, the page shows the other save.
  const again = page.waitForResponse((r) => r.request().method() === "POST");
  await greeting(page)
    .getByRole("button", { name: /^保存节点/ })
    .click();
  expect((await again).status()).toBe(409);
  await page.goto(designUrl);
  await expect(greeting(page).getByLabel(/^话术/)).toHaveValue("您好，这里是第二个标签页。");
});

test("an administrator edits a draft's input parameters and output states; a bad variable is refused with the rows kept @noscript", async ({
  page,
}) => {
  await page.goto("/robot/flow");
  await signIn(page, "admin");
  await page.getByRole("table", { name: "流程列表" }).getByRole("link", { name: "满意度回访", exact: true }).click();
  const params = page.getByRole("form", { name: "编辑流程参数" });
  await expect(page.getByRole("heading", { name: "流程参数（v1.1）" })).toBeVisible();
  await params.getByLabel("入参1 名称").fill("客户姓名");
  await params.getByLabel("入参1 变量名").fill("customerName");
  await params.getByLabel("入参2 名称").fill("会员等级");
  await params.getByLabel("入参2 变量名").fill("9level");
  await params.getByLabel("输出状态1 名称").fill("满意度");
  await params.getByLabel("输出状态1 变量名").fill("satisfaction");
  const refused = page.waitForResponse((r) => r.request().method() === "POST");
  await params.getByRole("button", { name: "保存参数" }).click();
  expect((await refused).status()).toBe(400);
  await expect(params.getByText("变量名只能是1-30位字母、数字或下划线，且不能以数字开头")).toBeVisible();
  await expect(params.getByLabel("入参2 名称")).toHaveValue("会员等级");
  await expect(params.getByLabel("入参2 变量名")).toHaveValue("9level");
  await expect(params.getByLabel("输出状态1 变量名")).toHaveValue("satisfaction");
  await expectAccessible(page);
  await params.getByLabel("入参2 变量名").fill("level");
  await params.getByRole("button", { name: "保存参数" }).click();
  await expect(toast(page)).toHaveText("v1.1 的参数已保存");
  await expect(params.getByLabel("入参2 变量名")).toHaveValue("level");
  await expect(params.getByLabel("输出状态1 名称")).toHaveValue("满意度");
  // Clearing a row removes the parameter.
  await params.getByLabel("入参1 名称").fill("");
  await params.getByLabel("入参1 变量名").fill("");
  await params.getByRole("button", { name: "保存参数" }).click();
  await expect(toast(page)).toHaveText("v1.1 的参数已保存");
  await expect(params.getByLabel("入参1 变量名")).toHaveValue("level");
  await expectAccessible(page);
  // The change is in the flow's history.
  await expect(page.getByRole("table", { name: "变更记录" })).toContainText(
    "保存流程「满意度回访」草稿 v1.1 的参数：入参 1 个，输出状态 1 个",
  );

  // The transfer node names the queue its calls are handed to.
  await page.getByRole("link", { name: "设计", exact: true }).click();
  const transfer = page.getByRole("group", { name: /转人工（agent）/ });
  const queue = transfer.getByLabel("转人工队列");
  const queueName = await queue.locator("option").nth(1).getAttribute("value");
  await queue.selectOption(queueName!);
  await transfer.getByRole("button", { name: /^保存节点/ }).click();
  await expect(toast(page)).toHaveText("节点「转人工」已保存");
  await expect(page.getByRole("group", { name: /转人工（agent）/ }).getByLabel("转人工队列")).toHaveValue(queueName!);
  await expectAccessible(page);
});
