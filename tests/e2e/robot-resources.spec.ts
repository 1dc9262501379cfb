import { expect, test, type Page } from "@playwright/test";
import { expectAccessible, menuNames, signIn } from "./support";

// The resources a robot uses (decision 030): pages that ship no script, so each flow runs once,
// without JavaScript (@noscript), axe included.

const toast = (page: Page) => page.locator(".sb-toast");
const patternBox = (page: Page) => page.getByRole("textbox", { name: "正则表达式", exact: true });

test("an administrator keeps the regular-expression library: a pattern that does not compile is refused with its position, a sample shows the matches @noscript", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.goto("/robot/regex");
  await signIn(page, "admin");
  await expect(page.getByRole("heading", { name: "正则表达式", level: 1 })).toBeVisible();
  const list = page.getByRole("table", { name: "正则表达式列表" });
  await expect(list).toContainText("手机号");
  await expect(list).toContainText("1[3-9]\\d{9}");
  await expectAccessible(page);

  // A pattern that does not compile: refused in Chinese, naming the position; every value kept.
  await page.getByRole("link", { name: "新建正则表达式" }).click();
  await page.getByLabel("名称", { exact: true }).fill("订单号");
  await patternBox(page).fill("订单(\\d+");
  await page.getByLabel("说明").fill("六位订单号");
  await page.getByLabel(/^测试句子/).fill("您好，我的订单123456还没到，另一个订单654321也是");
  await page.getByRole("button", { name: "测试" }).click();
  await expect(page.getByText("正则表达式无法编译：第3个字符处括号未闭合")).toBeVisible();
  await expect(page.getByLabel("名称", { exact: true })).toHaveValue("订单号");
  await expect(patternBox(page)).toHaveValue("订单(\\d+");
  await expect(patternBox(page)).toHaveAttribute("aria-invalid", "true");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("正则表达式无法编译：第3个字符处括号未闭合")).toBeVisible();
  await expectAccessible(page);

  // Fixed, it is tried on the sample: the matches marked, with their positions and groups.
  await patternBox(page).fill("订单(\\d{6})");
  await page.getByRole("button", { name: "测试" }).click();
  await expect(page.getByRole("heading", { name: "测试结果：共 2 处匹配" })).toBeVisible();
  await expect(page.locator("mark")).toHaveText(["订单123456", "订单654321"]);
  const matches = page.getByRole("table", { name: "匹配明细" });
  await expect(matches.getByRole("row").nth(1)).toHaveText(/^6订单1234561：123456$/);
  await expect(page.getByLabel("说明")).toHaveValue("六位订单号");
  await expectAccessible(page);
  await page.getByRole("button", { name: "保存" }).click();
  await expect(toast(page)).toHaveText("正则表达式「订单号」已保存");
  await expect(list).toContainText("订单(\\d{6})");

  // A name already taken: refused, the values kept.
  await page.getByRole("link", { name: "新建正则表达式" }).click();
  await page.getByLabel("名称", { exact: true }).fill("手机号");
  await patternBox(page).fill("\\d+");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("保存正则表达式失败：名称「手机号」已存在")).toBeVisible();
  await expect(patternBox(page)).toHaveValue("\\d+");

  // Edit, then delete after a confirmation.
  await page.goto("/robot/regex?name=订单号");
  await list.getByRole("link", { name: "编辑「订单号」" }).click();
  await expect(patternBox(page)).toHaveValue("订单(\\d{6})");
  // A refused edit is still the edit of that row: its title, what was typed; saved, it changes the row.
  await patternBox(page).fill("订单(\\d{6,8}");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("正则表达式无法编译：第3个字符处括号未闭合")).toBeVisible();
  await expect(page.getByRole("heading", { name: "编辑正则表达式" })).toBeVisible();
  await expect(patternBox(page)).toHaveValue("订单(\\d{6,8}");
  await patternBox(page).fill("订单(\\d{6,8})");
  await page.getByRole("button", { name: "保存" }).click();
  await expect(toast(page)).toHaveText("正则表达式「订单号」已保存");
  await expect(list).toContainText("订单(\\d{6,8})");
  await list.getByRole("button", { name: "删除「订单号」" }).click();
  const confirm = page.getByRole("alertdialog", { name: "删除正则表达式" });
  await expect(confirm).toContainText("确定删除正则表达式「订单号」吗？");
  await expect(confirm.getByRole("link", { name: "取消" })).toBeFocused();
  await expectAccessible(page);
  await confirm.getByRole("button", { name: "确认删除" }).click();
  await expect(toast(page)).toHaveText("正则表达式已删除");
  await expect(list).not.toContainText("订单号");
});

test("an administrator sets the working week and festivals; impossible times and overlapping festivals are refused with the values kept @noscript", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const year = new Date().getFullYear();
  await page.goto("/robot/calendar");
  await signIn(page, "admin");
  await expect(page.getByRole("heading", { name: "工作日历", level: 1 })).toBeVisible();
  await expect(page.getByLabel("星期六结束时间")).toHaveValue("12:00");
  await expect(page.getByLabel("星期日拨打")).not.toBeChecked();
  await expectAccessible(page);

  // An end before the start: refused in Chinese, what was typed kept.
  await page.getByLabel("星期二开始时间").fill("19:00");
  await page.getByLabel("星期日拨打").check();
  await page.getByRole("button", { name: "保存工作时间" }).click();
  await expect(page.getByText("结束时间应晚于开始时间")).toBeVisible();
  await expect(page.getByLabel("星期二开始时间")).toHaveValue("19:00");
  await expect(page.getByLabel("星期日拨打")).toBeChecked();
  await expectAccessible(page);
  await page.getByLabel("星期二开始时间").fill("08:00");
  await page.getByRole("button", { name: "保存工作时间" }).click();
  await expect(toast(page)).toHaveText("工作日历已保存");
  await expect(page.getByLabel("星期二开始时间")).toHaveValue("08:00");
  await expect(page.getByLabel("星期日拨打")).toBeChecked();

  // A festival overlapping the National Day holiday: refused, naming it; the dates kept.
  const festivals = page.getByRole("table", { name: "节假日列表" });
  await expect(festivals).toContainText("国庆节");
  await page.getByRole("link", { name: "新建节假日" }).click();
  await page.getByLabel("节日名称").fill("秋假");
  await page.getByLabel("开始日期").fill(`${year}-10-06`);
  await page.getByLabel(/^结束日期/).fill(`${year}-10-09`);
  await page.getByRole("button", { name: "添加节假日" }).click();
  await expect(page.getByText(`日期与节假日「国庆节」（${year}-10-01 至 ${year}-10-07）重叠，请调整日期`)).toBeVisible();
  await expect(page.getByLabel("节日名称")).toHaveValue("秋假");
  await expect(page.getByLabel("开始日期")).toHaveValue(`${year}-10-06`);
  await expectAccessible(page);
  await page.getByLabel("开始日期").fill(`${year}-10-08`);
  await page.getByRole("button", { name: "添加节假日" }).click();
  await expect(toast(page)).toHaveText("节假日「秋假」已保存");
  await expect(festivals.getByRole("row", { name: /秋假/ })).toContainText(`${year}-10-08${year}-10-092`);
  // A refused edit is still the edit of that festival, with what was typed.
  await festivals.getByRole("link", { name: "编辑「秋假」" }).click();
  await page.getByLabel("开始日期").fill(`${year}-10-05`);
  await page.getByRole("button", { name: "保存节假日" }).click();
  await expect(page.getByText(`日期与节假日「国庆节」（${year}-10-01 至 ${year}-10-07）重叠，请调整日期`)).toBeVisible();
  await expect(page.getByRole("form", { name: "编辑节假日" })).toBeVisible();
  await expect(page.getByLabel("开始日期")).toHaveValue(`${year}-10-05`);
  await page.getByRole("link", { name: "取消" }).click();

  // Delete after a confirmation.
  await festivals.getByRole("button", { name: "删除「秋假」" }).click();
  const confirm = page.getByRole("alertdialog", { name: "删除节假日" });
  await expect(confirm).toContainText("确定删除节假日「秋假」吗？");
  await confirm.getByRole("button", { name: "确认删除" }).click();
  await expect(toast(page)).toHaveText("节假日已删除");
  await expect(festivals).not.toContainText("秋假");

  // A campaign's calls over the next days, as the calendars allow them.
  await page.getByLabel("外呼活动", { exact: true }).selectOption({ index: 1 });
  await page.getByRole("button", { name: "预览" }).click();
  const plan = page.getByRole("table", { name: /的拨打时段$/ });
  await expect(plan.getByRole("row")).toHaveCount(8);
  await expect(plan.getByRole("row", { name: /星期二/ })).toContainText(/\d\d:\d\d–\d\d:\d\d|不拨打（/);
  await expectAccessible(page);
});

test("an administrator previews each speaker and reads the robots' lines, caller numbers and the store @noscript", async ({ page }) => {
  await page.goto("/robot/speaker");
  await signIn(page, "admin");
  expect(await menuNames(page)).toEqual(expect.arrayContaining(["正则表达式", "工作日历", "发音人", "线路与号码", "流程市场"]));
  const speakers = page.getByRole("table", { name: "发音人列表" });
  await expect(speakers.getByRole("row")).toHaveCount(5);
  await expect(speakers).toContainText("晓云");
  const audio = speakers.locator('audio[aria-label="试听「晓刚」"]');
  await expect(audio).toHaveAttribute("controls", "");
  const preview = await page.request.get((await audio.getAttribute("src"))!);
  expect(preview.status()).toBe(200);
  expect(preview.headers()["content-type"]).toBe("audio/wav");
  const wav = await preview.body();
  expect(wav.subarray(0, 4).toString("ascii")).toBe("RIFF");
  expect(wav.length).toBeGreaterThan(10_000);
  await expectAccessible(page);

  await page.goto("/robot/resources");
  await expect(page.getByRole("heading", { name: "线路与号码", level: 1 })).toBeVisible();
  const lines = page.getByRole("table", { name: "网关线路" });
  await expect(lines).toContainText("北京移动线路");
  await expect(lines.getByRole("row", { name: /广州联通备用线路/ })).toContainText("停用");
  // Its capacity and the robot calls on it now.
  await expect(lines.getByRole("row", { name: /北京移动线路/ })).toContainText(/\d+ \/ 30/);
  await expect(lines).not.toContainText("其他租户线路");
  await expect(page.getByRole("table", { name: "主叫号码" }).getByRole("row")).not.toHaveCount(1);
  await expectAccessible(page);

  await page.goto("/robot/store");
  const store = page.getByRole("table", { name: "已上架的流程版本" });
  await expect(store.getByRole("row", { name: /满意度回访/ })).toContainText("v1.0");
  await page.getByRole("searchbox", { name: "按流程名称搜索" }).fill("账单");
  await page.getByRole("button", { name: "查询" }).click();
  await expect(store).toContainText("暂无已上架的流程版本");
  await expectAccessible(page);
});

test("supervisors and agents get 403 on the robots' resources, and no menu entries for them @noscript", async ({ page }) => {
  for (const account of ["supervisor", "agent"]) {
    await page.context().clearCookies();
    await page.goto("/user/login");
    await signIn(page, account);
    await expect(page).not.toHaveURL(/\/user\/login/);
    expect(await menuNames(page)).not.toContain("正则表达式");
    for (const url of [
      "/robot/regex",
      "/robot/calendar",
      "/robot/speaker",
      "/robot/resources",
      "/robot/store",
      "/robot/speaker/xiaoyun/preview",
    ]) {
      const response = await page.goto(url);
      expect(response?.status(), `${account} ${url}`).toBe(403);
    }
  }
});
