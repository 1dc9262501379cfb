import { expect, test, type Browser, type Page } from "@playwright/test";
import { choosePageSize, expectAccessible, holdHydration, platformPost, platformToken, signIn, signOut } from "./support";

/**
 * The inspection screens (/inspectionSuccess, /achievement, /access), as these tests use them.
 * Every test that scores the demo tenant's calls is in this file, so that they run one after
 * another: while one has a scoring form active in the tenant, another's score would need it.
 */
const calls = (page: Page) => page.getByRole("table", { name: "质检通话列表" });
const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });
const rowOf = (page: Page, callId: string) =>
  calls(page)
    .getByRole("row")
    .filter({ has: page.locator(`input[value="${callId}"]`) });
const live = (page: Page) => page.getByRole("status").filter({ hasText: "实时更新：已连接" });

/** `use` on a page of a context without JavaScript, signed in as `account` and opened at `url`; the context closed after. */
async function withoutJavaScript(browser: Browser, account: string, url: string, use: (page: Page) => Promise<void>) {
  const context = await browser.newContext({ javaScriptEnabled: false, locale: "zh-CN", timezoneId: "Asia/Shanghai" });
  try {
    const page = await context.newPage();
    await page.goto(url);
    await signIn(page, account);
    await page.goto(url);
    await use(page);
  } finally {
    await context.close();
  }
}

test("an inspection day: apply, score by keyboard with a draft, next, bad input, appeal and decision", async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto("/inspectionSuccess");
  await signIn(page, "supervisor");
  await expect(page.getByRole("heading", { name: "质检结果", level: 1 })).toBeVisible();
  await expectAccessible(page);

  // An unknown status in the URL: a Chinese 400, not a 500.
  const bad = await page.goto("/inspectionSuccess?qcStatus=9");
  expect(bad?.status()).toBe(400);
  await expect(page.getByText("查询条件不正确，请检查后重试")).toBeVisible();

  // Apply for two calls: they are locked to the supervisor (their queue).
  await page.goto("/inspectionSuccess");
  await page.getByLabel(/领取数量/).fill("2");
  await page.getByRole("button", { name: "领取待质检" }).click();
  await expect(toast(page, "已领取 2 条通话")).toBeVisible();
  await expect(page).toHaveURL(/mine=1/);
  await expect(calls(page).getByRole("link", { name: /^质检通话/ })).toHaveCount(2);

  // What is clicked and typed on the shown page before it hydrates (its script held back here)
  // stays when it does, the default influence included.
  const hydrate = await holdHydration(page);
  await calls(page)
    .getByRole("link", { name: /^质检通话/ })
    .first()
    .click();
  const first = page.url();
  // The page hydrates, so its data is in it: no number or dialogue digit beyond what it shows.
  const source = await (await page.request.get(first)).text();
  expect(source).toContain("****");
  expect(source).not.toMatch(/(?<!\d)(\+86|0086)?1[3-9]\d{9}(?!\d)/);
  const form = page.getByRole("form", { name: "质检评分" });
  await form.getByRole("radio", { name: /无意向/ }).check();
  await form.getByRole("radio", { name: "负面影响" }).check();
  await form.getByLabel(/备注/).fill("水合前填写");
  await expect(form).not.toHaveAttribute("data-ready", "1");
  hydrate();
  await expect(form).toHaveAttribute("data-ready", "1"); // the island's keys are listening
  await expect(form.getByRole("radio", { name: /无意向/ })).toBeChecked();
  await expect(form.getByRole("radio", { name: "负面影响" })).toBeChecked();
  await expect(form.getByLabel(/备注/)).toHaveValue("水合前填写");

  // Keys choose the result; the draft survives a reload.
  await page.getByRole("heading", { name: /通话质检/ }).click();
  await page.keyboard.press("2");
  await expect(form.getByRole("radio", { name: /明确办理/ })).toBeChecked();
  await form.getByLabel(/备注/).fill("开场白规范，确认了分期期数");
  await expectAccessible(page);
  await page.reload();
  await expect(form).toHaveAttribute("data-ready", "1");
  await expect(form.getByRole("radio", { name: /明确办理/ })).toBeChecked();
  await expect(form.getByLabel(/备注/)).toHaveValue("开场白规范，确认了分期期数");
  await expect(form.getByText("已输入 13/500 字")).toBeVisible();
  // A paste over the limit is cut by the browser: the count shows it.
  await form.getByLabel(/备注/).fill("长".repeat(600));
  await expect(form.getByLabel(/备注/)).toHaveValue("长".repeat(500));
  await expect(form.getByText("已输入 500/500 字")).toBeVisible();
  await expect(form.getByText("已输入 500/500 字")).toHaveAttribute("aria-live", "polite");

  // A remark over its limit (the browser's own limit removed): a Chinese 400, the values kept.
  await form.getByLabel(/备注/).evaluate((el) => el.removeAttribute("maxlength"));
  await form.getByLabel(/备注/).fill("长".repeat(501));
  await form.getByRole("button", { name: "保存", exact: true }).click();
  await expect(page.getByRole("alert")).toContainText("备注不能超过500个字符");
  await expect(form.getByLabel(/备注/)).toHaveValue("长".repeat(501));
  await expect(form.getByRole("radio", { name: /明确办理/ })).toBeChecked();

  // Save and next by keyboard: the next locked call opens.
  await expect(form).toHaveAttribute("data-ready", "1");
  await form.getByLabel(/备注/).fill("开场白规范");
  await expect(form.getByText("已输入 5/500 字")).toBeVisible();
  await page.getByRole("heading", { name: /通话质检/ }).click();
  await page.keyboard.press("n");
  await expect(toast(page, "已保存：明确办理，已打开下一条")).toBeVisible();
  expect(page.url()).not.toBe(first);
  await expect(page.getByRole("form", { name: "质检评分" })).toHaveAttribute("data-ready", "1");
  await page.getByRole("heading", { name: /通话质检/ }).click();
  await page.keyboard.press("3");
  await page.keyboard.press("Control+Enter");
  await expect(toast(page, /已保存：无意向/)).toBeVisible();

  // The first call is inspected; scoring it again is refused in Chinese.
  await page.goto(first);
  await expect(page.getByText("质检状态").locator("..")).toContainText("明确办理");
  await expect(page.getByRole("form", { name: "质检评分" })).toHaveCount(0);
  // A call that is not there (or another tenant's): 404, the page of spec §8.
  expect((await page.goto("/inspectionSuccess/999999999"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This page could not be found" })).toBeVisible();

  // The queue holds the call "next" claimed: recover it, confirmed, with per-item results.
  await page.goto("/inspectionSuccess?mine=1");
  const held = calls(page).getByRole("checkbox");
  for (const box of await held.all()) await box.check();
  await page.getByRole("button", { name: "收回所选" }).click();
  await expect(page.getByRole("alertdialog", { name: "批量收回质检" })).toContainText("一次最多 500 条");
  await page.getByRole("button", { name: "确认收回" }).click();
  await expect(toast(page, /收回完成：成功 \d+ 条，失败 0 条/)).toBeVisible();
  await signOut(page);

  // The agent appeals one of their results, once.
  await signIn(page, "agent");
  await page.goto("/inspectionSuccess");
  await expect(calls(page)).toBeVisible();
  const appealed = new URL(
    (await calls(page)
      .getByRole("link", { name: /^查看通话/ })
      .first()
      .getAttribute("href"))!,
    page.url(),
  ).href;
  // Opened afresh and typed in before it hydrates (a slow link, a loaded machine): the reason is
  // still there once it has.
  const hydrateAppeal = await holdHydration(page);
  await page.goto(appealed);
  await page.getByLabel(/申诉理由/).fill("客户在通话最后明确同意办理");
  hydrateAppeal();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "1");
  await expect(page.getByLabel(/申诉理由/)).toHaveValue("客户在通话最后明确同意办理");
  await page.getByRole("button", { name: "提交申诉" }).click();
  await expect(toast(page, "申诉已提交，等待质检员处理")).toBeVisible();
  await expect(page.getByText("申诉中")).toBeVisible();
  await expect(page.getByRole("button", { name: "提交申诉" })).toHaveCount(0);
  await signOut(page);

  // The supervisor accepts it with a reason: the result is corrected, each step in the history.
  await signIn(page, "supervisor");
  await page.goto(appealed);
  const decision = page.getByRole("form", { name: "处理申诉" });
  await decision.getByLabel("处理结果").selectOption("accepted");
  await decision.getByLabel("处理意见").fill("  "); // passes the browser's required check, not the server's
  const hydrateRefused = await holdHydration(page);
  await decision.getByRole("button", { name: "提交处理" }).click();
  await expect(page.getByRole("alert")).toContainText("请填写处理意见");
  await expect(decision.getByLabel("处理结果")).toHaveValue("accepted");
  // Typed while the refused page is still loading, and kept when it hydrates (React's hydration
  // puts a textarea's default text, here the blank one refused, back).
  await decision.getByLabel("处理意见").fill("复听确认客户同意办理");
  hydrateRefused();
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "1");
  await expect(decision.getByLabel("处理意见")).toHaveValue("复听确认客户同意办理");
  // Accepted with the result and influence as they are (the form starts from them): refused.
  await decision.getByRole("button", { name: "提交处理" }).click();
  await expect(page.getByRole("alert")).toContainText("通过申诉须更正质检结果、影响或评分；维持原结果请选择驳回申诉");
  await expect(decision.getByLabel("处理意见")).toHaveValue("复听确认客户同意办理");
  // The refused page hydrates before the correction is chosen (a select changed before then was
  // seen set back once in a loaded full run: noted, not yet fixed).
  await expect(page.locator("html")).toHaveAttribute("data-hydrated", "1");
  const influence = decision.getByLabel(/更正后的影响/);
  await influence.selectOption((await influence.inputValue()) === "1" ? "0" : "1");
  await decision.getByRole("button", { name: "提交处理" }).click();
  await expect(toast(page, "申诉已通过，结果已更正")).toBeVisible();
  await expect(page.getByText("申诉通过")).toBeVisible();
  await expect(page.getByRole("list").filter({ hasText: "处理质检申诉" })).toContainText("复听确认客户同意办理");
  await expectAccessible(page);
});

/** A figure of the only row of 我的业绩, by its column's name. */
async function ownFigure(page: Page, column: string): Promise<number> {
  const table = page.getByRole("table", { name: "坐席业绩" });
  const headers = (await table.locator("thead th").allTextContents()).map((text) => text.trim());
  const index = headers.findIndex((text) => text.startsWith(column));
  expect(index, `the column ${column} among ${headers.join("、")}`).toBeGreaterThanOrEqual(0);
  return Number.parseInt((await table.locator("tbody tr").first().locator("td").nth(index).textContent())!, 10);
}

test("我的业绩: a text agent reads their chats, a voice agent their calls, on screen and in the CSV @nojs", async ({ page, request }) => {
  await signIn(page, "agent");
  await page.goto("/achievement");
  await expect(page.getByRole("heading", { name: "我的业绩", level: 1 })).toBeVisible();
  const voice = page.getByRole("table", { name: "坐席业绩" });
  await expect(voice.getByRole("columnheader", { name: /通话量/ })).toBeVisible();
  await expect(voice.getByRole("columnheader", { name: /会话量/ })).toHaveCount(0);
  await signOut(page);

  // 刘洋's chats as the platform counts them, read before and after the screen (a test beside this
  // one may serve a chat meanwhile): the screen shows figures between the two.
  const token = await platformToken(request, "chat");
  const platformFigures = async () => (await platformPost(request, token, "/ccb/agent/performance", {})).list[0];
  const before = await platformFigures();
  await signIn(page, "chat");
  await page.goto("/achievement");
  const table = page.getByRole("table", { name: "坐席业绩" });
  await expect(table.getByRole("columnheader", { name: /通话量/ })).toHaveCount(0);
  const chats = await ownFigure(page, "会话量");
  const replies = await ownFigure(page, "回复数");
  const after = await platformFigures();
  expect(before.chats, "the demo's chats").toBeGreaterThan(0);
  expect(chats).toBeGreaterThanOrEqual(before.chats);
  expect(chats).toBeLessThanOrEqual(after.chats);
  expect(replies).toBeGreaterThanOrEqual(before.replies);
  expect(replies).toBeLessThanOrEqual(after.replies);
  await expect(table.locator("tbody tr").first()).toContainText(/\d+秒/);
  await expect(page.getByText(/平均会话时长 = 会话时长 ÷ 会话量/)).toBeVisible();
  await expectAccessible(page);
  const csv = await (await page.request.get("/achievement/export")).text();
  expect(csv.split("\r\n")[0]).toBe('\uFEFF"坐席","坐席组","会话量","回复数","会话时长(秒)","平均会话时长(秒)"');
});

test("坐席业绩: the team's voice agents by their calls, its text agents by their chats, on screen and in the CSV @nojs", async ({
  page,
}) => {
  await signIn(page, "supervisor");
  await page.goto("/achievement");
  const table = page.getByRole("table", { name: "坐席业绩" });
  await expect(page.getByLabel("坐席类型")).toHaveValue("1");
  await expect(table.getByRole("columnheader", { name: /通话量/ })).toBeVisible();
  await expect(table).toContainText("张伟");
  await expect(table).not.toContainText("刘洋");

  await page.getByLabel("坐席类型").selectOption({ label: "文本" });
  await page.getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(/workType=3/);
  await expect(table.getByRole("columnheader", { name: /会话量/ })).toBeVisible();
  await expect(table.getByRole("columnheader", { name: /通话量/ })).toHaveCount(0);
  await expect(table).toContainText("刘洋");
  await expect(table).not.toContainText("张伟");
  // The demo's text agent has served chats: the team view reads them, not a row of zeros.
  const row = table.locator("tbody tr").filter({ hasText: "刘洋" });
  const chats = Number.parseInt((await row.locator("td").nth(2).textContent())!, 10);
  expect(chats).toBeGreaterThan(0);
  await expectAccessible(page);
  const csv = await (await page.request.get((await page.getByRole("link", { name: "导出 CSV" }).getAttribute("href"))!)).text();
  expect(csv.split("\r\n")[0]).toBe('\uFEFF"坐席","坐席组","会话量","回复数","会话时长(秒)","平均会话时长(秒)"');
  expect(csv).toContain("刘洋");
});

test("the list, bulk reallocation, achievement and access, with and without JavaScript @nojs", async ({ page }) => {
  test.setTimeout(60_000);
  const reversed = "/inspectionSuccess?start=2026-11-25&end=2026-11-20";
  await page.goto(reversed);
  await signIn(page, "admin");
  await expect(page).toHaveURL(/\/inspectionSuccess/);

  // Filters that can match nothing are named in Chinese (a 400), the filters kept.
  expect((await page.goto(reversed))?.status()).toBe(400);
  await expect(page.getByRole("alert")).toContainText("开始日期（2026-11-25）晚于结束日期（2026-11-20）");
  await expect(page.getByLabel("开始日期")).toHaveValue("2026-11-25");
  await expect(page.getByLabel("结束日期")).toHaveValue("2026-11-20");
  await expect(calls(page)).not.toContainText("没有符合条件的通话");
  expect((await page.goto("/inspectionSuccess?minDuration=40&maxDuration=10"))?.status()).toBe(400);
  await expect(page.getByRole("alert")).toContainText("最短时长（40 秒）大于最长时长（10 秒）");
  await expect(page.getByLabel(/最短时长/)).toHaveValue("40");
  await expect(page.getByLabel(/最长时长/)).toHaveValue("10");
  await expectAccessible(page);

  await page.goto("/inspectionSuccess?qcStatus=-1&minDuration=10");
  await expect(calls(page).getByRole("row").nth(1)).toContainText("未质检");

  // Reallot two waiting calls evenly between the two inspectors, after a confirmation step. Without
  // an inspector it is refused, the ticked rows and the reason kept.
  const firstRow = page.getByRole("checkbox", { name: "选择第 1 行" });
  const secondRow = page.getByRole("checkbox", { name: "选择第 2 行" });
  await firstRow.check();
  await secondRow.check();
  await page.getByLabel("原因（选填）").fill("均衡工作量");
  await page.getByRole("button", { name: "改派所选" }).click();
  await expect(page.getByRole("alert")).toContainText("请选择质检员");
  await expect(firstRow).toBeChecked();
  await expect(secondRow).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "选择第 3 行" })).not.toBeChecked();
  await expect(page.getByLabel("原因（选填）")).toHaveValue("均衡工作量");
  await page.getByRole("checkbox", { name: "李秀英" }).check();
  await page.getByRole("checkbox", { name: "王建国" }).check();
  await page.getByRole("button", { name: "改派所选" }).click();
  const step = page.getByRole("alertdialog", { name: "批量改派质检" });
  await expect(step).toContainText("平均改派给 2 名质检员");
  // The focus starts on 取消; with JavaScript, Escape leaves the step as 取消 does.
  await expect(step.getByRole("link", { name: "取消" })).toBeFocused();
  if (test.info().project.use.javaScriptEnabled !== false) {
    await page.keyboard.press("Escape");
    await expect(step).toHaveCount(0);
    // 取消 loads the list again: rows checked before it has loaded would be lost with the old page.
    await page.waitForLoadState("load");
    await firstRow.check();
    await secondRow.check();
    await page.getByRole("checkbox", { name: "李秀英" }).check();
    await page.getByRole("checkbox", { name: "王建国" }).check();
    await page.getByLabel("原因（选填）").fill("均衡工作量");
    await page.getByRole("button", { name: "改派所选" }).click();
  }
  await page.getByRole("button", { name: "确认改派" }).click();
  await expect(toast(page, /改派完成：成功 \d 条/)).toBeVisible();
  await expectAccessible(page);
  const exported = await page.request.get("/inspectionSuccess/export?qcStatus=-1&format=csv");
  expect(exported.headers()["content-type"]).toContain("text/csv");
  expect((await exported.text()).split("\r\n")[1]).toContain("未质检");

  // Achievement: sorted by a column link; each agent opens their calls; the CSV export.
  await page.goto("/achievement");
  // An administrator reads the team's figures, under the team's title, in the menu and the window's title too.
  await expect(page.getByRole("heading", { name: "坐席业绩", level: 1 })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "主菜单" }).getByRole("link", { name: "坐席业绩" })).toBeVisible();
  await expect(page).toHaveTitle(/^坐席业绩/);
  await expect(page.getByRole("table", { name: "坐席业绩" })).toContainText("张伟");
  await page.getByRole("link", { name: /接通量/ }).click();
  await expect(page).toHaveURL(/sort=connected/);
  // A page at a time, the sort kept across pages.
  await choosePageSize(page, 10);
  const agentRows = page.getByRole("table", { name: "坐席业绩" }).locator("tbody tr");
  const total = Number((await page.getByText(/^共 \d+ 条$/).textContent())!.match(/\d+/)![0]);
  await expect(agentRows).toHaveCount(Math.min(total, 10));
  if (total > 10) {
    await page.getByRole("link", { name: "下一页" }).click();
    await expect(page).toHaveURL(/sort=connected/);
    await expect(agentRows).toHaveCount(Math.min(total - 10, 10));
  }
  await page.goto("/achievement");
  const csv = await page.request.get("/achievement/export?sort=calls");
  expect(csv.headers()["content-type"]).toContain("text/csv");
  expect(await csv.text()).toContain("质检合格率");
  await expectAccessible(page);
  await page.getByRole("table", { name: "坐席业绩" }).getByRole("link", { name: "张伟" }).click();
  await expect(page).toHaveURL(/\/inspectionSuccess\?agentId=\d+/);

  // Access: grant the supervisor a campaign, then revoke it after a confirmation step.
  await page.goto("/access");
  await page.getByLabel("质检员").selectOption({ label: "李秀英" });
  const target = page.getByLabel("坐席组或外呼活动");
  const campaigns = await target.locator("optgroup[label='外呼活动'] option").all();
  const campaign = (await campaigns[0].textContent())!;
  await target.selectOption({ label: campaign });
  await page.getByRole("button", { name: "授予权限" }).click();
  await expect(toast(page, `已授予 李秀英 质检「${campaign}」的权限`)).toBeVisible();
  await expectAccessible(page);
  // The same grant again: refused in Chinese, both choices kept.
  await page.getByLabel("质检员").selectOption({ label: "李秀英" });
  await target.selectOption({ label: campaign });
  await page.getByRole("button", { name: "授予权限" }).click();
  await expect(page.getByRole("alert")).toContainText("李秀英 已有该权限");
  await expect(page.getByLabel("质检员").locator("option:checked")).toHaveText("李秀英");
  await expect(target.locator("option:checked")).toHaveText(campaign);
  await page.getByRole("button", { name: `收回 李秀英 的「${campaign}」权限` }).click();
  await page.getByRole("alertdialog", { name: "收回质检权限" }).getByRole("button", { name: "确认收回" }).click();
  await expect(toast(page, "权限已收回")).toBeVisible();
  await expect(page.getByRole("button", { name: `收回 李秀英 的「${campaign}」权限` })).toHaveCount(0);
});

test("scoring forms: a draft edited row by row, refused in Chinese, deleted after a confirmation @noscript", async ({ page }) => {
  await page.goto("/inspectionForm");
  await signIn(page, "admin");
  await expect(page.getByRole("heading", { name: "质检评分表", level: 1 })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole("link", { name: "新建评分表" }).click();
  await page.getByLabel("评分表名称").fill("试用评分表");
  await page.getByLabel("评分项 1 名称").fill("服务态度");
  // Rows are added by posting the form: what was typed stays.
  await page.getByRole("button", { name: "添加评分项" }).click();
  await expect(page.getByLabel("评分项 1 名称")).toHaveValue("服务态度");
  await page.getByLabel("评分项 2 名称").fill("服务态度");
  // A weight of 0 (the browser's own minimum removed) and a repeated title: a Chinese 400, values kept.
  await page.getByLabel("评分项 2 分值").evaluate((el) => el.removeAttribute("min"));
  await page.getByLabel("评分项 2 分值").fill("0");
  const refused = page.waitForResponse((r) => r.request().method() === "POST");
  await page.getByRole("button", { name: "保存评分表" }).click();
  expect((await refused).status()).toBe(400);
  await expect(page.getByText("分值必须是正整数")).toBeVisible();
  await expect(page.getByText("评分项「服务态度」重复")).toBeVisible();
  await expect(page.getByLabel("评分项 2 名称")).toHaveValue("服务态度");
  await expectAccessible(page);
  await page.getByLabel("评分项 2 名称").fill("合规提示");
  await page.getByLabel("评分项 2 分值").fill("20");
  await page.getByLabel("评分项 2 一票否决").check();
  await page.getByRole("button", { name: "保存评分表" }).click();
  await expect(toast(page, "评分表「试用评分表」已创建（草稿）")).toBeVisible();
  const forms = page.getByRole("table", { name: "质检评分表列表" });
  await expect(forms.getByRole("row").filter({ hasText: "试用评分表" })).toContainText("2 项，共 30 分，含一票否决");
  // The same name again: refused in Chinese (the database holds it too), what was typed kept.
  await page.getByRole("link", { name: "新建评分表" }).click();
  await page.getByLabel("评分表名称").fill("试用评分表");
  await page.getByLabel("评分项 1 名称").fill("礼貌用语");
  const duplicate = page.waitForResponse((r) => r.request().method() === "POST");
  await page.getByRole("button", { name: "保存评分表" }).click();
  expect((await duplicate).status()).toBe(400);
  await expect(page.getByText("已有同名的评分表")).toBeVisible();
  await expect(page.getByLabel("评分项 1 名称")).toHaveValue("礼貌用语");
  await page.goto("/inspectionForm");

  // Edit the draft: remove a row.
  await forms.getByRole("link", { name: "编辑「试用评分表」" }).click();
  await page.getByRole("button", { name: "删除评分项 1" }).click();
  await expect(page.getByLabel("评分项 1 名称")).toHaveValue("合规提示");
  await page.getByRole("button", { name: "保存评分表" }).click();
  await expect(toast(page, "评分表「试用评分表」已保存")).toBeVisible();
  await expect(forms.getByRole("row").filter({ hasText: "试用评分表" })).toContainText("1 项，共 20 分");

  // Delete it, confirmed first.
  await forms.getByRole("button", { name: "删除「试用评分表」" }).click();
  await expect(page.getByRole("alertdialog", { name: "删除评分表" })).toContainText("删除后不可恢复");
  await page.getByRole("button", { name: "确认删除" }).click();
  await expect(toast(page, "评分表「试用评分表」已删除")).toBeVisible();
  await expect(forms).not.toContainText("试用评分表");
});

test("a scoring form in use: weighted items, N/A and a failed 一票否决 item fail the call, with and without JavaScript", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  // The other tenant's administrator: its form and its calls are nobody else's in these tests.
  await page.goto("/inspectionForm/new");
  await signIn(page, "other-admin");
  await page.getByLabel("评分表名称").fill("外呼服务质检表");
  const items: Array<[string, string, { na?: boolean; veto?: boolean }]> = [
    ["开场白规范", "10", {}],
    ["需求挖掘", "30", { na: true }],
    ["业务解答准确", "60", {}],
    ["违规承诺", "20", { veto: true }],
  ];
  for (const [i, [title, weight, flags]] of items.entries()) {
    if (i > 0) await page.getByRole("button", { name: "添加评分项" }).click();
    await page.getByLabel(`评分项 ${i + 1} 名称`).fill(title);
    await page.getByLabel(`评分项 ${i + 1} 分值`).fill(weight);
    if (flags.na) await page.getByLabel(`评分项 ${i + 1} 可选不适用`).check();
    if (flags.veto) await page.getByLabel(`评分项 ${i + 1} 一票否决`).check();
  }
  await page.getByRole("button", { name: "保存评分表" }).click();
  await expect(toast(page, "评分表「外呼服务质检表」已创建（草稿）")).toBeVisible();
  await page.getByRole("button", { name: "启用「外呼服务质检表」" }).click();
  const confirm = page.getByRole("alertdialog", { name: "启用评分表" });
  await expect(confirm).toContainText("启用后该评分表不能再修改");
  await confirm.getByLabel("原因（选填）").fill("外呼质检标准上线");
  await confirm.getByRole("button", { name: "确认启用" }).click();
  await expect(toast(page, "评分表「外呼服务质检表」已启用")).toBeVisible();
  await page.getByRole("link", { name: "查看「外呼服务质检表」" }).click();
  await expect(page.getByText("启用过的评分表不能修改")).toBeVisible();
  await expectAccessible(page);

  // Two calls for the administrator.
  await page.goto("/inspectionSuccess");
  await page.getByLabel(/领取数量/).fill("2");
  await page.getByRole("button", { name: "领取待质检" }).click();
  await expect(toast(page, "已领取 2 条通话")).toBeVisible();
  const links = calls(page).getByRole("link", { name: /^质检通话/ });
  await expect(links).toHaveCount(2);
  const [first, second] = await Promise.all([links.nth(0).getAttribute("href"), links.nth(1).getAttribute("href")]);

  // With JavaScript: the total as it is typed; digits typed into an item are points, not result keys.
  await page.goto(first!);
  const form = page.getByRole("form", { name: "质检评分" });
  await expect(form).toHaveAttribute("data-ready", "1");
  await form.getByLabel("开场白规范（0–10 分）").fill("8");
  await form.getByLabel("需求挖掘不适用").check();
  await form.getByLabel("业务解答准确（0–60 分）").fill("5");
  await expect(form.getByRole("radio", { name: /意向不明确/ })).not.toBeChecked();
  await form.getByLabel("业务解答准确（0–60 分）").fill("50");
  await form
    .getByRole("group", { name: /违规承诺/ })
    .getByRole("radio", { name: "通过", exact: true })
    .check();
  await expect(form.getByText("当前得分：86.7 分")).toBeVisible();
  await page.getByRole("heading", { name: /通话质检/ }).click();
  await page.keyboard.press("2");
  await expect(form.getByRole("radio", { name: /明确办理/ })).toBeChecked();
  await expectAccessible(page);
  await form.getByRole("button", { name: "保存", exact: true }).click();
  await expect(toast(page, "已保存：明确办理")).toBeVisible();
  await expect(page.getByText("质检得分").locator("..")).toContainText("86.7 分");
  const details = page.getByRole("table", { name: "评分明细" });
  await expect(details.getByRole("row").filter({ hasText: "需求挖掘" })).toContainText("不适用");

  // Without JavaScript: an item over its points is refused in Chinese with everything kept; a
  // failed veto item then fails the call although 正面影响 was chosen.
  await withoutJavaScript(browser, "other-admin", second!, async (plain) => {
    const plainForm = plain.getByRole("form", { name: "质检评分" });
    await plainForm.getByLabel("开场白规范（0–10 分）").evaluate((el) => el.removeAttribute("max"));
    await plainForm.getByLabel("开场白规范（0–10 分）").fill("12");
    await plainForm.getByLabel("需求挖掘（0–30 分）").fill("25");
    await plainForm.getByLabel("业务解答准确（0–60 分）").fill("60");
    await plainForm
      .getByRole("group", { name: /违规承诺/ })
      .getByRole("radio", { name: "不通过" })
      .check();
    await plainForm.getByRole("radio", { name: /无意向/ }).check();
    await plainForm.getByRole("radio", { name: "正面影响" }).check();
    await plainForm.getByRole("button", { name: "保存", exact: true }).click();
    await expect(plain.getByRole("alert")).toContainText("「开场白规范」的得分必须是 0 到 10 的整数");
    await expect(plainForm.getByLabel("需求挖掘（0–30 分）")).toHaveValue("25");
    await expect(plainForm.getByRole("group", { name: /违规承诺/ }).getByRole("radio", { name: "不通过" })).toBeChecked();
    await plainForm.getByLabel("开场白规范（0–10 分）").fill("10");
    await plainForm.getByRole("button", { name: "保存", exact: true }).click();
    await expect(plain.getByRole("status").filter({ hasText: "已保存：无意向" })).toBeVisible();
    await expect(plain.getByText("质检得分").locator("..")).toContainText("0 分");
    await expect(plain.getByText("影响", { exact: true }).locator("..")).toContainText("负面影响");
    await expect(plain.getByText("（一票否决，不合格）")).toBeVisible();
  });

  // Retired again, so the tenant scores without a form; the list shows both scores.
  await page.goto("/inspectionForm");
  await page.getByRole("button", { name: "停用「外呼服务质检表」" }).click();
  await page.getByRole("alertdialog", { name: "停用评分表" }).getByRole("button", { name: "确认停用" }).click();
  await expect(toast(page, "评分表「外呼服务质检表」已停用")).toBeVisible();
  await expect(page.getByRole("table", { name: "质检评分表列表" }).getByRole("row").filter({ hasText: "外呼服务质检表" })).toContainText(
    "2",
  );
});

// The live inspection queue (decision 033): one inspector's change shows on another's open queue.
/** Marks the document: still marked later means the page was not reloaded. */
const mark = (page: Page) => page.evaluate(() => Object.assign(window, { liveMark: true }));
const marked = (page: Page) => page.evaluate(() => (window as unknown as { liveMark?: boolean }).liveMark === true);

test("two inspectors: a call locked and scored by one changes on the other's open queue without a reload @cluster", async ({ browser }) => {
  // Three pages in two contexts; about 50 s through the cluster on a loaded machine.
  test.setTimeout(90_000);
  const watching = await browser.newContext();
  const acting = await browser.newContext();
  try {
    // The supervisor (李秀英) watches 张伟's calls, all of them and only the waiting ones.
    const all = await watching.newPage();
    await all.goto("/inspectionSuccess");
    await signIn(all, "supervisor");
    const agentId = await all.getByLabel("坐席", { exact: true }).locator("option", { hasText: "张伟" }).getAttribute("value");
    await all.goto(`/inspectionSuccess?agentId=${agentId}&size=100`);
    await expect(live(all)).toBeVisible();
    await expect(all.getByText(/^数据时间：/)).toBeVisible();
    await expectAccessible(all);
    const waiting = await watching.newPage();
    await waiting.goto(`/inspectionSuccess?agentId=${agentId}&qcStatus=-1&size=100`);
    await expect(live(waiting)).toBeVisible();
    await mark(all);
    await mark(waiting);

    // The administrator (王建国) takes a connected waiting call of 张伟 (the last of the page: the
    // newest are the ones the list's test, maybe running beside this one, reallots).
    const admin = await acting.newPage();
    await admin.goto(`/inspectionSuccess?agentId=${agentId}&qcStatus=-1&minDuration=1&callResult=200`);
    await signIn(admin, "admin");
    await admin.goto(`/inspectionSuccess?agentId=${agentId}&qcStatus=-1&minDuration=1&callResult=200`);
    const box = calls(admin).getByRole("checkbox").last();
    const callId = (await box.getAttribute("value"))!;
    await expect(rowOf(all, callId)).toContainText("未质检");
    await expect(rowOf(waiting, callId)).toHaveCount(1);
    await box.check();
    const clicked = Date.now();
    await admin.getByRole("button", { name: "领取所选" }).click();

    // Within a second or two, in place: locked to 王建国 on the full list; gone from the waiting one.
    await expect(rowOf(all, callId)).toContainText("质检中", { timeout: 2_000 });
    test.info().annotations.push({ type: "lock shown after", description: `${Date.now() - clicked} ms from the click` });
    await expect(admin.getByRole("status").filter({ hasText: /领取完成：成功 1 条/ })).toBeVisible();
    await expect(rowOf(all, callId)).toContainText("王建国");
    await expect(rowOf(all, callId).getByRole("link", { name: `查看通话 ${callId}` })).toBeVisible();
    await expect(rowOf(waiting, callId)).toHaveCount(0, { timeout: 3_000 });
    expect(await marked(all)).toBe(true);
    expect(await marked(waiting)).toBe(true);

    // Scored by the administrator: the result, the influence, the time of the data.
    const before = await all.getByText(/^数据时间：/).textContent();
    await admin.goto(`/inspectionSuccess/${callId}`);
    const form = admin.getByRole("form", { name: "质检评分" });
    await expect(form).toHaveAttribute("data-ready", "1");
    await form.getByRole("radio", { name: /明确办理/ }).check();
    await form.getByRole("radio", { name: "正面影响" }).check();
    await form.getByRole("button", { name: "保存", exact: true }).click();
    await expect(admin.getByRole("status").filter({ hasText: "已保存：明确办理" })).toBeVisible();
    await expect(rowOf(all, callId)).toContainText("明确办理", { timeout: 2_000 });
    await expect(rowOf(all, callId)).toContainText("正面影响");
    expect(await all.getByText(/^数据时间：/).textContent()).not.toBe(before);
    expect(await marked(all)).toBe(true);
    await expectAccessible(all);
  } finally {
    await watching.close();
    await acting.close();
  }
});

test("an accepted appeal re-scores the form's items: a new evaluation version, the original kept, seen by agent and inspector", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  // A form active in the demo tenant just long enough to score one of 张伟's calls with it.
  await page.goto("/inspectionForm/new");
  await signIn(page, "admin");
  await page.getByLabel("评分表名称").fill("申诉复评表");
  await page.getByLabel("评分项 1 名称").fill("开场白规范");
  await page.getByLabel("评分项 1 分值").fill("10");
  await page.getByRole("button", { name: "添加评分项" }).click();
  await page.getByLabel("评分项 2 名称").fill("业务解答准确");
  await page.getByLabel("评分项 2 分值").fill("60");
  await page.getByRole("button", { name: "保存评分表" }).click();
  await expect(toast(page, "评分表「申诉复评表」已创建（草稿）")).toBeVisible();
  await page.getByRole("button", { name: "启用「申诉复评表」" }).click();
  await page.getByRole("alertdialog", { name: "启用评分表" }).getByRole("button", { name: "确认启用" }).click();
  await expect(toast(page, "评分表「申诉复评表」已启用")).toBeVisible();

  await page.goto("/inspectionSuccess");
  const agentId = await page.getByLabel("坐席", { exact: true }).locator("option", { hasText: "张伟" }).getAttribute("value");
  await page.goto(`/inspectionSuccess?agentId=${agentId}&qcStatus=-1&minDuration=1&callResult=200`);
  const box = calls(page).getByRole("checkbox").last();
  const callId = (await box.getAttribute("value"))!;
  await box.check();
  await page.getByRole("button", { name: "领取所选" }).click();
  await expect(toast(page, /领取完成：成功 1 条/)).toBeVisible();
  await page.goto(`/inspectionSuccess/${callId}`);
  const form = page.getByRole("form", { name: "质检评分" });
  await expect(form).toHaveAttribute("data-ready", "1");
  await form.getByLabel("开场白规范（0–10 分）").fill("8");
  await form.getByLabel("业务解答准确（0–60 分）").fill("30");
  await form.getByRole("radio", { name: /无意向/ }).check();
  await form.getByRole("radio", { name: "负面影响" }).check();
  await form.getByRole("button", { name: "保存", exact: true }).click();
  await expect(toast(page, "已保存：无意向")).toBeVisible();
  await expect(page.getByText("质检得分").locator("..")).toContainText("54.3 分"); // 38 of 70
  // Retired at once: the appeal's re-scoring keeps to the items the call was scored on.
  await page.goto("/inspectionForm");
  await page.getByRole("button", { name: "停用「申诉复评表」" }).click();
  await page.getByRole("alertdialog", { name: "停用评分表" }).getByRole("button", { name: "确认停用" }).click();
  await expect(toast(page, "评分表「申诉复评表」已停用")).toBeVisible();
  await signOut(page);

  // The agent appeals without JavaScript: a reason over its limit is refused in Chinese, kept as typed.
  await withoutJavaScript(browser, "agent", `/inspectionSuccess/${callId}`, async (plain) => {
    const reason = plain.getByLabel(/申诉理由/);
    await reason.evaluate((el) => el.removeAttribute("maxlength"));
    await reason.fill(`业务解答完整${"长".repeat(200)}`);
    await plain.getByRole("button", { name: "提交申诉" }).click();
    await expect(plain.getByRole("alert")).toContainText("申诉理由不能超过200个字符");
    await expect(reason).toHaveValue(`业务解答完整${"长".repeat(200)}`);
    await reason.fill("业务解答完整，客户当场同意");
    await plain.getByRole("button", { name: "提交申诉" }).click();
    await expect(plain.getByRole("status").filter({ hasText: "申诉已提交，等待质检员处理" })).toBeVisible();
  });
  await signIn(page, "supervisor");
  await page.goto(`/inspectionSuccess/${callId}`);
  await expect(page.getByRole("form", { name: "处理申诉" }).getByLabel("开场白规范（0–10 分）")).toHaveValue("8");
  await expectAccessible(page);
  await signOut(page);

  // The supervisor decides without JavaScript: the items prefilled with the original answers; an
  // item over its points is refused in Chinese with everything kept; then accepted re-scored.
  await withoutJavaScript(browser, "supervisor", `/inspectionSuccess/${callId}`, async (plain) => {
    const decision = plain.getByRole("form", { name: "处理申诉" });
    await expect(decision.getByLabel("开场白规范（0–10 分）")).toHaveValue("8");
    await expect(decision.getByLabel("业务解答准确（0–60 分）")).toHaveValue("30");
    await decision.getByLabel("处理结果").selectOption("accepted");
    await decision.getByLabel(/更正后的质检结果/).selectOption({ label: "明确办理" });
    await decision.getByLabel(/更正后的影响/).selectOption({ label: "正面影响" });
    await decision.getByLabel("业务解答准确（0–60 分）").evaluate((el) => el.removeAttribute("max"));
    await decision.getByLabel("业务解答准确（0–60 分）").fill("65");
    await decision.getByLabel("处理意见").fill("复听：业务解答完整");
    await decision.getByRole("button", { name: "提交处理" }).click();
    await expect(plain.getByRole("alert")).toContainText("「业务解答准确」的得分必须是 0 到 60 的整数");
    await expect(decision.getByLabel("业务解答准确（0–60 分）")).toHaveValue("65");
    await expect(decision.getByLabel("处理意见")).toHaveValue("复听：业务解答完整");
    await decision.getByLabel("业务解答准确（0–60 分）").fill("55");
    await decision.getByRole("button", { name: "提交处理" }).click();
    await expect(plain.getByRole("status").filter({ hasText: "申诉已通过，结果已更正" })).toBeVisible();
    await expect(plain.getByText("质检得分").locator("..")).toContainText("90 分"); // 63 of 70
  });

  // The agent and the inspector see the new score, the re-scored items, the original and why.
  for (const account of ["agent", "admin"]) {
    await page.goto(`/inspectionSuccess/${callId}`);
    await signIn(page, account);
    await page.goto(`/inspectionSuccess/${callId}`);
    await expect(page.getByText("质检得分").locator("..")).toContainText("90 分");
    await expect(page.getByText(/通过申诉重新评分（第 2 版，原因：复听：业务解答完整）/)).toBeVisible();
    await expect(
      page.getByRole("table", { name: "评分明细", exact: true }).getByRole("row").filter({ hasText: "业务解答准确" }),
    ).toContainText("55");
    const original = page.getByRole("table", { name: "原评分明细（第 1 版）" });
    await expect(original.getByRole("row").filter({ hasText: "业务解答准确" })).toContainText("30");
    await expect(page.getByRole("list").filter({ hasText: "处理质检申诉" })).toContainText("评分 54.3 → 90 分");
    await expectAccessible(page);
    await signOut(page);
  }
});
