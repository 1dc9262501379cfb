import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { choosePageSize, expectAccessible, PASSWORD, signIn } from "./support";

// The platform of the e2e run listens on E2E_PORT + 1 and, started with SIMULATOR_CONTROL=1,
// lets a test move the dialer's clock. Nothing in the console can reach that route.
const platformUrl = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 3100) + 1}`;

async function tickDialer(request: APIRequestContext, times = 1) {
  const token = await request.post(`${platformUrl}/uaa/oauth/token`, {
    headers: { Authorization: `Basic ${Buffer.from("web-console:web-console-secret").toString("base64")}` },
    form: { grant_type: "password", username: "admin", password: PASSWORD },
  });
  const { access_token } = (await token.json()) as { access_token: string };
  const tick = await request.post(`${platformUrl}/outbound/simulator/tick`, {
    headers: { Authorization: `Bearer ${access_token}` },
    data: { minutes: 1, times },
  });
  expect(tick.status()).toBe(200);
}

const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

async function fillCampaignForm(page: Page, name: string) {
  await page.getByLabel("活动名称").fill(name);
  await page.getByLabel("活动类型").selectOption({ label: "机器人外呼" });
  await page.getByLabel("调度周期").selectOption({ label: "长期" });
  await page.getByLabel("外呼比例").fill("0.2");
  await page.getByLabel("机器人").selectOption("营销推广机器人");
  await page.getByLabel("主叫号码").selectOption("02588887777");
  await page.getByLabel("转接模板").selectOption("转人工队列");
  await page.getByLabel("时段一开始").fill("00:00");
  await page.getByLabel("时段一结束").fill("24:00");
  await page.getByLabel("时段二开始").fill("");
  await page.getByLabel("时段二结束").fill("");
}

const stateTag = (page: Page) => page.getByTestId("campaign-state");

test("an administrator creates a campaign, imports contacts, runs, pauses, resumes and cancels it @nojs @cluster", async ({
  page,
  request,
}, testInfo) => {
  test.slow(); // a whole campaign's life: some twenty page loads
  await signIn(page, "admin");
  await page.goto("/campaign");
  await page.getByRole("link", { name: "新建活动" }).click();
  const name = unique("端到端活动");
  await fillCampaignForm(page, name);
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByRole("heading", { name: `外呼活动详情：${name}` })).toBeVisible();
  await expect(stateTag(page)).toHaveText("未启动");
  // The robot, caller number and transfer template are the tenant's, as the platform lists them.
  const facts = page.locator(".sb-facts");
  for (const fact of ["营销推广机器人", "02588887777", "转人工队列"]) await expect(facts).toContainText(fact);

  // The scheduler refuses to start a campaign without contacts, and says why.
  await page.getByRole("button", { name: "启动" }).click();
  await expect(page.getByRole("alert")).toHaveText("调度检查未通过：活动尚未导入名单，不能启动");

  const good = Array.from({ length: 40 }, (_, i) => `1881234${String(i).padStart(4, "0")},客户${i}`);
  const csv = ["手机号,姓名", ...good, "12345,坏号码", "18812340000,重复", "13800000000,黑名单"].join("\n");
  await page.getByLabel(/名单文件/).setInputFiles({ name: "名单.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  // The answer replaces the page without breaking the page's Content-Security-Policy.
  const cspReports: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) cspReports.push(message.text());
  });
  const posted = page.waitForRequest((r) => r.method() === "POST");
  await page.getByRole("button", { name: "上传并导入" }).click();
  // With JavaScript the upload goes through XMLHttpRequest (for its progress bar); without, a plain form post.
  expect((await posted).resourceType()).toBe(testInfo.project.use.javaScriptEnabled ? "xhr" : "document");
  await expect(page.getByRole("status")).toContainText("导入完成：成功 40 条，失败 3 条。");
  const errors = page.getByRole("table", { name: "导入失败的行" });
  await expect(errors.getByRole("row")).toHaveCount(4);
  await expect(errors).toContainText("手机号码格式不正确");
  await expect(errors).toContainText("号码在文件中重复");
  await expect(errors).toContainText("号码在黑名单中");
  const download = await page.request.get((await page.getByRole("link", { name: "下载失败数据" }).getAttribute("href")) ?? "");
  expect(download.status()).toBe(200);
  expect(await download.text()).toContain("44,13800000000,黑名单,号码在黑名单中");
  expect(cspReports).toEqual([]);

  await page.getByRole("button", { name: "启动" }).click();
  await expect(stateTag(page)).toHaveText("运行中");
  const batches = page.getByRole("table", { name: "批次", exact: true });
  // The other project's test may tick the dialer at any moment, so the batch may already be scheduling.
  await expect(batches).toContainText(/准备中|调度中/);

  await tickDialer(request, 2);
  await page.getByRole("link", { name: "名单", exact: true }).click();
  await expect(page.getByTestId("batch-status")).toHaveText("调度中");
  const history = page.getByRole("table", { name: "批次状态历史" });
  await expect(history).toContainText("名单准备完成");
  const callMoves = page.getByRole("table", { name: "呼叫状态变化" });
  await expect(callMoves).toContainText("开始呼叫");
  await expect(callMoves).toContainText(/机器人外呼：/);
  await expect(page.getByRole("table", { name: "呼叫", exact: true })).toContainText(/呼叫完成|未接通|异常终止/);

  await page.getByRole("link", { name: "返回活动" }).click();
  await page.getByRole("button", { name: "暂停" }).click();
  await expect(stateTag(page)).toHaveText("已暂停");
  await expect(batches).toContainText("已暂停");
  await tickDialer(request);
  await page.reload();
  await expect(batches).toContainText("已暂停");

  await page.getByRole("button", { name: "恢复" }).click();
  await expect(stateTag(page)).toHaveText("运行中");
  await expect(batches).toContainText("调度中");

  await page.getByRole("button", { name: "取消活动" }).click();
  await expect(stateTag(page)).toHaveText("已取消");
  await expect(batches).toContainText("已取消");
  await page.getByRole("link", { name: "名单", exact: true }).click();
  await expect(page.getByRole("table", { name: "呼叫", exact: true })).toContainText("已取消（批次取消）");
  await expect(history).toContainText("活动已暂停");
  await expect(history).toContainText("活动运行中");
  await expect(history).toContainText("活动已取消");
});

test("the campaign form keeps every value and explains each error @noscript", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/campaign/new");
  await fillCampaignForm(page, "信用卡分期推广");
  await page.getByLabel("时段一结束").fill("25:00");
  await page.getByLabel("外呼比例").fill("9");
  await page.getByLabel("机器人").selectOption("");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("时段一结束时间格式应为 时:分，如 09:00")).toBeVisible();
  await expect(page.getByText("外呼比例应在0.1到5之间")).toBeVisible();
  await expect(page.getByText("机器人外呼和人机协同外呼需选择机器人")).toBeVisible();
  await expect(page.getByLabel("活动名称")).toHaveValue("信用卡分期推广");
  await expect(page.getByLabel("时段一结束")).toHaveValue("25:00");

  await page.getByLabel("时段一结束").fill("24:00");
  await page.getByLabel("外呼比例").fill("1");
  // A robot that is not the tenant's (a forged post) is refused on its field.
  await page.getByLabel("机器人").evaluate((select: HTMLSelectElement) => {
    select.options[1].value = "999999";
    select.selectedIndex = 1;
  });
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("所选机器人不存在，请重新选择")).toBeVisible();
  await page.getByLabel("机器人").selectOption("营销推广机器人");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("活动名称已存在，请换一个名称")).toBeVisible();
  // The robot is chosen by id (the tenant's own); the option shows its name.
  await expect(page.getByLabel("机器人").locator("option:checked")).toHaveText("营销推广机器人");
});

test("campaign lists filter in the URL and show batches and calls with their states @nojs", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/campaign");
  await page.getByLabel("状态").selectOption({ label: "已取消" });
  await page.getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(/state=4/);
  const list = page.getByRole("table", { name: "外呼活动" });
  await expect(list).toContainText("满意度回访（已取消）");
  await expect(list).not.toContainText("信用卡分期推广");
  await page.goto("/campaign?name=信用卡分期推广");
  await page.getByRole("link", { name: "信用卡分期推广" }).click();
  const batches = page.getByRole("table", { name: "批次", exact: true });
  for (const status of ["已完成", "准备失败", "已暂停"]) await expect(batches).toContainText(status);
  await page.getByRole("link", { name: "十一月第一批" }).click();
  const calls = page.getByRole("table", { name: "呼叫", exact: true });
  await expect(calls).toContainText("黑名单（未呼叫）");
  await expect(calls).toContainText("用户未接听");
  await page.getByLabel("呼叫状态", { exact: true }).selectOption({ label: "未接通" });
  await page.getByRole("button", { name: "查询" }).click();
  await expect(calls).not.toContainText("呼叫完成");
  await page.goto("/campaign/999999");
  await expect(page.getByRole("heading", { name: "This page could not be found" })).toBeVisible();
});

test("a batch's calls page by links, a page size and the jumper, keeping the filter @nojs", async ({ page }) => {
  await signIn(page, "admin");
  await page.goto("/campaign/new");
  await fillCampaignForm(page, unique("分页活动"));
  await page.getByRole("button", { name: "保存" }).click();
  const csv = ["手机号", ...Array.from({ length: 25 }, (_, i) => `1771234${String(i).padStart(4, "0")}`)].join("\n");
  await page.getByLabel(/名单文件/).setInputFiles({ name: "分页名单.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "上传并导入" }).click();
  await expect(page.getByRole("status")).toContainText("导入完成：成功 25 条");
  await page.getByRole("link", { name: "分页名单", exact: true }).click();

  const rows = page.getByRole("table", { name: "呼叫", exact: true }).locator("tbody tr");
  await expect(page.getByText("共 25 条")).toBeVisible();
  await expect(rows).toHaveCount(20);
  const firstPage = await rows.allTextContents();
  await page.getByRole("link", { name: "下一页" }).click();
  await expect(page).toHaveURL(/page=2&after=\d+/);
  await expect(rows).toHaveCount(5);
  await expect(page.getByRole("link", { name: "第 2 页" })).toHaveAttribute("aria-current", "page");
  await page.getByRole("link", { name: "上一页" }).click();
  await expect(page).toHaveURL(/before=\d+/);
  expect(await rows.allTextContents()).toEqual(firstPage);

  await choosePageSize(page, 10);
  await expect(page).toHaveURL(/size=10/);
  await expect(rows).toHaveCount(10);
  await page.getByLabel("前往").fill("2");
  await page.getByRole("button", { name: "跳转" }).click();
  await expect(page).toHaveURL(/size=10/);
  await expect(rows).toHaveCount(10);
  await expect(page.getByRole("link", { name: "第 2 页" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("link", { name: "第 3 页" })).toBeVisible();
  // A filter starts again at page 1 and keeps the page size.
  await page.getByLabel("呼叫状态", { exact: true }).selectOption({ label: "等待呼叫" });
  await page.getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(/status=0/);
  await expect(page).toHaveURL(/size=10/);
  await expect(rows).toHaveCount(10);
  await expect(page.getByRole("link", { name: "第 1 页" })).toHaveAttribute("aria-current", "page");
});

test("a list of 70,000 contacts is read in the background, its progress on the campaign page @nojs", async ({ page }) => {
  test.slow(); // the platform reads 70,000 rows
  await signIn(page, "admin");
  await page.goto("/campaign/new");
  const name = unique("大名单活动");
  await fillCampaignForm(page, name);
  await page.getByRole("button", { name: "保存" }).click();
  const rows = Array.from({ length: 70_000 }, (_, i) => `166${String(i).padStart(8, "0")},客户${i},华东区`);
  const csv = Buffer.from(["手机号,姓名,地区", ...rows].join("\n"));
  expect(csv.length).toBeGreaterThan(2 * 1024 * 1024); // above what is read at once
  await page.getByLabel(/名单文件/).setInputFiles({ name: "大名单.csv", mimeType: "text/csv", buffer: csv });
  await page.getByRole("button", { name: "上传并导入" }).click();
  await expect(page.getByText("名单较大，正在后台导入；进度见下方导入记录")).toBeVisible();
  const imports = page.getByRole("table", { name: "导入记录" });
  await expect(imports).toContainText(/导入中 已读 \d+ 行|已完成/);
  await expectAccessible(page);
  // 刷新进度 reloads the page until the import is done; then the batch has every contact.
  await expect(async () => {
    const refresh = page.getByRole("link", { name: "刷新进度" });
    if ((await refresh.count()) > 0) await refresh.click();
    await expect(imports.locator("tbody tr").first()).toContainText("已完成", { timeout: 1_000 });
  }).toPass({ timeout: 90_000 });
  await expect(imports.locator("tbody tr").first()).toContainText("70000");
  await expect(page.getByRole("link", { name: "刷新进度" })).toHaveCount(0);
  await expect(page.getByRole("table", { name: "批次", exact: true })).toContainText("70000");
});

test("a supervisor distributes a preview campaign's data among agents @noscript", async ({ page }) => {
  await signIn(page, "supervisor");
  await page.goto("/manual/dataDistribution");
  await page.getByLabel("活动", { exact: true }).selectOption({ label: "贵宾客户预览外呼（人工预览外呼）" });
  await page.getByRole("button", { name: "查看" }).click();
  await expect(page.getByTestId("unassigned")).toContainText("贵宾客户预览外呼：待分配");
  // Refused: the error beside the agents, and the mode and count typed come back.
  await page.getByLabel("按数量分配").check();
  await page.getByLabel("张伟的分配数量").fill("1");
  await page.getByRole("button", { name: "分配" }).click();
  await expect(page.getByRole("group", { name: "坐席（按数量分配时填写每人数量）" })).toContainText("请至少选择一名坐席");
  await expect(page.getByRole("checkbox", { name: "张伟（agent）" })).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByLabel("按数量分配")).toBeChecked();
  await expect(page.getByLabel("张伟的分配数量")).toHaveValue("1");
  await expectAccessible(page);
  await page.getByRole("checkbox", { name: "张伟（agent）" }).check();
  await page.getByRole("button", { name: "分配" }).click();
  await expect(page.getByRole("status")).toHaveText("已分配 1 条数据。");
});

test("an agent may see what waits for distribution but not distribute it, by the page or by a crafted post @noscript", async ({ page }) => {
  await signIn(page, "agent");
  await page.goto("/manual/dataDistribution");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByTestId("unassigned")).toContainText("待分配");
  await expect(page.getByRole("status")).toContainText("仅主管或管理员可以分配数据");
  await expect(page.getByRole("button", { name: "分配" })).toHaveCount(0);
  await expectAccessible(page);
  // A post made by hand is refused with the same words, and nothing is distributed.
  const csrf = (await page.locator('input[name="csrf"]').first().getAttribute("value")) ?? "";
  const campaignId = await page.getByLabel("活动", { exact: true }).inputValue();
  const before = await page.getByTestId("unassigned").textContent();
  const refused = await page.request.post("/manual/dataDistribution", {
    form: { csrf, campaignId, mode: "even", agent: "1" },
    maxRedirects: 0,
  });
  expect(refused.status()).toBe(403);
  expect(await refused.text()).toContain("仅主管或管理员可以分配数据");
  await page.reload();
  await expect(page.getByTestId("unassigned")).toHaveText(before!);
});
