import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { expectAccessible, PLATFORM_URL, platformToken, readyOnWorkbench, signIn } from "./support";

const contacts = (page: Page) => page.getByRole("table", { name: "联系人列表" });
const contactRow = (page: Page, text: string) => contacts(page).getByRole("row").filter({ hasText: text });
const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });

async function upload(page: Page, name: string, content: string, mimeType = "text/csv") {
  await page.getByLabel("联系人文件").setInputFiles({ name, mimeType, buffer: Buffer.from(content) });
  await page.getByRole("button", { name: "上传并导入" }).click();
}

/** 孙丽 (agent03, whom no other test signs in as) takes a call from `phone` and texts the caller. */
async function textFromWorkbench(browser: Browser, request: APIRequestContext, phone: string, template: string, text: string) {
  const token = await platformToken(request, "agent03");
  const context = await browser.newContext();
  const agent = await context.newPage();
  await signIn(agent, "agent03");
  await readyOnWorkbench(agent);
  // The first read of the SMS card's templates is lost on the way (a platform restarting, say).
  await agent.route(/\/workBench\/phone\?sms=/, (route) => route.abort("connectionreset"), { times: 1 });
  const offer = await request.post(`${PLATFORM_URL}/cti/simulator/offer`, {
    headers: { authorization: `Bearer ${token}` },
    data: { phone, agentUserName: "agent03" },
  });
  expect(offer.ok(), await offer.text()).toBe(true);
  await expect(agent.getByTestId("agent-state")).toContainText("振铃中");
  await agent.keyboard.press("Alt+A");
  await expect(agent.getByTestId("agent-state")).toContainText("通话中");

  const card = agent.getByRole("region", { name: "发送短信" });
  await expect(card).toContainText("短信模板加载失败");
  await card.getByRole("button", { name: "重试" }).click();
  await card.getByLabel("短信模板（已审核通过）").selectOption({ label: template });
  await expect(card.getByTestId("sms-preview")).toContainText(text);
  await expect(card.getByTestId("sms-preview")).toContainText(/共 \d+ 字（含签名），按 1 条计费/);
  await expectAccessible(agent);
  await agent.keyboard.press("Alt+H");
  await expect(agent.getByTestId("agent-state")).not.toContainText("通话中");
  // The call is over; its conclusion is still open, and so is the SMS to its customer.
  await card.getByRole("button", { name: "发送短信" }).click();
  await expect(card.getByRole("status")).toHaveText("短信已提交发送，发送结果见短信发送记录");
  await request.post(`${PLATFORM_URL}/cti/api/agent/state`, {
    headers: { authorization: `Bearer ${token}` },
    data: { command: "signOut" },
  });
  await context.close();
}

test("a tenant sets up properties, imports contacts, groups them, sends them to a campaign and texts them @nojs", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000); // some thirty form posts, three imports and a call; 55-70 s on a busy 2-core machine
  const s = test.info().project.name === "no-js" ? "乙" : "甲";
  // The two projects run at once on one platform: each its own tenant (a required property of one
  // would refuse the other's rows), numbers and names.
  const phone = (n: number) => `13${s === "甲" ? "7" : "6"}0000${String(n).padStart(4, "0")}`;

  // Properties: a required text and a single choice; a duplicate name is refused, typed values kept.
  await page.goto("/customerProperty?edit=new");
  await signIn(page, s === "甲" ? "admin" : "other-admin");
  await expect(page.getByRole("heading", { name: "客户属性", level: 1 })).toBeVisible();
  await page.getByLabel("属性名称").fill(`城市${s}`);
  await page.getByLabel("必填").check();
  await page.getByRole("button", { name: "保存" }).click();
  await expect(toast(page, `属性「城市${s}」已创建`)).toBeVisible();
  for (const attempt of [1, 2]) {
    await page.getByRole("link", { name: "新建属性" }).click();
    await page.getByLabel("属性名称").fill(`等级${s}`);
    await page.getByLabel("类型").selectOption("single");
    await page.getByLabel(/^选项/).fill("普通，VIP");
    await page.getByRole("button", { name: "保存" }).click();
    if (attempt === 1) await expect(toast(page, `属性「等级${s}」已创建`)).toBeVisible();
  }
  await expect(page.getByRole("alert")).toContainText("属性名称已存在");
  await expect(page.getByLabel("属性名称")).toHaveValue(`等级${s}`);
  await expect(page.getByLabel(/^选项/)).toHaveValue("普通，VIP");
  await expectAccessible(page);

  // Import with errors: a foreign number, a value not among the choices, a missing required value.
  await page.goto("/contacts");
  const header = `姓名,手机号,城市${s},等级${s}`;
  await upload(
    page,
    "客户.csv",
    [
      header,
      `甲一${s},${phone(1)},上海,VIP`,
      `乙二${s},+1 5550100,北京,普通`,
      `丙三${s},${phone(3)},广州,金卡`,
      `丁四${s},${phone(4)},,普通`,
    ].join("\n"),
  );
  const summary = toast(page, "导入完成");
  await expect(summary).toContainText("导入完成：新增 1 个，更新 0 个，失败 3 行。");
  const failures = page.getByRole("table", { name: "导入失败的行" });
  await expect(failures).toContainText("手机号须为中国大陆手机号");
  await expect(failures).toContainText(`「等级${s}」没有选项「金卡」`);
  await expect(failures).toContainText(`请填写「城市${s}」`);
  await expect(page.getByRole("link", { name: "下载全部失败行" })).toHaveAttribute("href", /\/contacts\/imports\/\d+\/errors$/);
  await expectAccessible(page);

  // A file that is not CSV or XLSX.
  await upload(page, "客户.txt", "hello", "text/plain");
  await expect(page.getByRole("alert")).toContainText("只支持 CSV 或 XLSX 文件");
  // A 25 MB file: over the 20 MB limit, refused by the console before it reaches the platform, with
  // the page the browser shows. (Posted from the test's side: a browser-picked 25 MB file crawls
  // through the automation protocol.)
  const big = await page.request.post("/contacts", {
    headers: { Accept: "text/html" },
    multipart: { intent: "import", file: { name: "大名单.csv", mimeType: "text/csv", buffer: Buffer.alloc(25 * 1024 * 1024, 0x31) } },
  });
  expect(big.status()).toBe(413);
  expect(await big.text()).toContain("上传的文件过大：文件不能超过 20MB，请拆分后分批导入");

  // Fixed and imported again from another system's export: its columns are named otherwise, so
  // they are mapped first. The new rows are added, the known phone updated.
  await upload(
    page,
    "客户-修正.csv",
    [
      `客户,电话,城市${s},等级${s},备注`,
      `甲一${s},${phone(1)},苏州,VIP,老客户`,
      `丙三${s},${phone(3)},广州,VIP,`,
      `丁四${s},${phone(4)},深圳,普通,`,
    ].join("\n"),
  );
  await expect(page.getByRole("table", { name: "文件的列" })).toContainText(`甲一${s}、丙三${s}、丁四${s}`);
  // Known headers come chosen (电话 is a usual name of the phone column); the others are not imported.
  await expect(page.getByLabel(`「城市${s}」导入为`)).toHaveValue(/^\d+$/);
  await expect(page.getByLabel("「电话」导入为")).toHaveValue("phone");
  await expect(page.getByLabel("「备注」导入为")).toHaveValue("none");
  await page.getByLabel("「客户」导入为").selectOption({ label: "姓名" });
  await page.getByLabel("「备注」导入为").selectOption({ label: "姓名" });
  await page.getByRole("button", { name: "按此对应导入" }).click();
  await expect(page.getByRole("alert")).toContainText("「姓名」只能对应一列");
  await expect(page.getByLabel("「客户」导入为")).toHaveValue("name");
  await page.getByLabel("「备注」导入为").selectOption({ label: "不导入" });
  await expectAccessible(page);
  await page.getByRole("button", { name: "按此对应导入" }).click();
  await expect(toast(page, "导入完成")).toContainText("新增 2 个，更新 1 个，失败 0 行。 未导入的列：备注。");

  // Editing with a foreign number is refused in Chinese with the values kept.
  await page.getByLabel("姓名或手机号").fill(phone(4));
  await page.getByRole("button", { name: "查询" }).click();
  await contactRow(page, phone(4)).getByRole("link", { name: /^编辑/ }).click();
  await page.getByLabel("手机号", { exact: true }).fill("+44 7700 900123");
  await page.getByLabel(`城市${s}（必填）`).fill("杭州");
  await page.getByRole("button", { name: "保存" }).click();
  // The error beside its field.
  await expect(page.getByLabel("手机号", { exact: true })).toHaveAccessibleDescription(/^手机号须为中国大陆手机号/);
  await expect(page.getByLabel("手机号", { exact: true })).toHaveValue("+44 7700 900123");
  await expect(page.getByLabel(`城市${s}（必填）`)).toHaveValue("杭州");
  await page.getByLabel("手机号", { exact: true }).fill(phone(4));
  await page.getByRole("button", { name: "保存" }).click();
  await expect(toast(page, `联系人「丁四${s}」已保存`)).toBeVisible();

  // Filter by a property value, select, group.
  await page.goto("/contacts");
  await page.getByText("按客户属性筛选").click();
  await page.getByLabel(`等级${s}`).selectOption("VIP");
  await page.getByRole("button", { name: "查询" }).click();
  await expect(contacts(page).getByRole("row")).toHaveCount(3);
  for (const name of [`甲一${s}`, `丙三${s}`]) await contactRow(page, name).getByRole("checkbox").check();
  await page.getByLabel("新分组名称").fill(`VIP客户${s}`);
  await page.getByRole("button", { name: "新建分组" }).click();
  await expect(toast(page, `分组「VIP客户${s}」已创建，2 人`)).toBeVisible();

  // The group as a campaign's source, from the campaign's page: a new batch named after it.
  await page.getByRole("link", { name: new RegExp(`^VIP客户${s}`) }).click();
  await expect(contacts(page).getByRole("row")).toHaveCount(3);
  const campaignId = await page.locator("#group-campaign option").nth(1).getAttribute("value");
  await page.goto(`/campaign/${campaignId}`);
  await page.getByLabel("联系人分组", { exact: true }).selectOption({ label: `VIP客户${s}（2 人）` });
  await page.getByRole("button", { name: "导入分组成员" }).click();
  await expect(toast(page, "已从分组导入")).toContainText("成功 2 个，失败 0 个");
  await expect(page.getByRole("table", { name: "批次" })).toContainText(`联系人分组「VIP客户${s}」`);
  await expectAccessible(page);

  // The same group again from the contacts page: each member refused with the reason.
  await page.goto("/contacts");
  await page.getByRole("link", { name: new RegExp(`^VIP客户${s}`) }).click();
  await page.locator("#group-campaign").selectOption(campaignId!);
  await page.getByRole("button", { name: "本组转入外呼活动" }).click();
  await expect(toast(page, "已转入外呼活动")).toContainText("成功 0 个，失败 2 个。 失败原因：");
  await expect(toast(page, "已转入外呼活动")).toContainText("号码已在活动名单中");

  // An SMS template: an unknown variable is refused; the count; approval.
  await page.goto("/sms/template?edit=new");
  await page.getByLabel("模板名称").fill(`回访${s}`);
  await page.getByLabel("短信签名（不含【】）").fill("示例银行");
  await page.getByLabel("短信内容").fill("${姓名}您好，您的${积分}即将到期。");
  await page.getByRole("button", { name: "保存并提交审核" }).click();
  await expect(page.getByRole("alert")).toContainText("变量 ${积分} 不是客户属性");
  await expect(page.getByLabel("短信内容")).toHaveValue("${姓名}您好，您的${积分}即将到期。");
  const content = `\${姓名}您好，您在\${城市${s}}的专属客户经理将与您联系。`;
  const length = [...`【示例银行】${content}`].length;
  await page.getByLabel("短信内容").fill(content);
  // With JavaScript the count follows the typing; the server's count is the one that decides.
  if (s === "甲") await expect(page.getByText(`输入中：共 ${length} 字（含签名），按 1 条计费`)).toBeVisible();
  await page.getByRole("button", { name: "计算字数" }).click();
  await expect(page.getByText(`共 ${length} 字（含签名），按 1 条计费。`, { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "保存并提交审核" }).click();
  await expect(toast(page, `模板「回访${s}」已提交审核`)).toBeVisible();
  const template = page
    .getByRole("table", { name: "短信模板" })
    .getByRole("row")
    .filter({ hasText: `回访${s}` });
  await expect(template).toContainText("待审核");
  // 不通过 needs a reason: one of (full-width) spaces only is refused on this row's field, as typed.
  const reason = template.getByLabel(`「回访${s}」不通过的原因`);
  await reason.fill("\u3000\u3000");
  await template.getByRole("button", { name: `不通过「回访${s}」` }).click();
  await expect(reason).toHaveAccessibleDescription("不通过时请填写原因");
  await expect(reason).toHaveValue("\u3000\u3000");
  await expect(page.getByText("不通过时请填写原因")).toHaveCount(1);
  await expect(template).toContainText("待审核");
  await expectAccessible(page);
  await template.getByRole("button", { name: `通过「回访${s}」`, exact: true }).click();
  await expect(toast(page, `模板「回访${s}」已通过`)).toBeVisible();

  // Text the group: a preview to confirm, then the outbox.
  await page.goto("/contacts");
  await page.getByRole("link", { name: new RegExp(`^VIP客户${s}`) }).click();
  const option = page.locator("#group-template option", { hasText: `回访${s}` });
  await page.locator("#group-template").selectOption((await option.getAttribute("value"))!);
  await page.getByRole("button", { name: "向本组发送短信" }).click();
  const confirm = page.getByRole("alertdialog", { name: "发送短信" });
  await expect(confirm).toContainText(`您在苏州的专属客户经理将与您联系。`);
  await confirm.getByRole("button", { name: "确认发送" }).click();
  await expect(toast(page, "已提交 2 条短信")).toBeVisible();

  // With JavaScript, an agent texts the customer of a call from the voice workbench: during the call
  // the approved template's text for this customer and its count; after hanging up, the send.
  if (s === "甲") await textFromWorkbench(browser, request, phone(1), `回访${s}`, `甲一${s}您好，您在苏州的专属客户经理将与您联系。`);

  await page.goto(`/sms/outbox?phone=${phone(1)}`);
  const outbox = page.getByRole("table", { name: "短信发送记录" });
  await expect(outbox).toContainText(`【示例银行】甲一${s}您好，您在苏州的专属客户经理将与您联系。`);
  // The group's message, and in the js run the one sent from the workbench too.
  await expect(outbox.getByRole("row").filter({ hasText: "示例银行" })).toHaveCount(s === "甲" ? 2 : 1);
  await expect(async () => {
    await page.reload();
    await expect(outbox).toContainText("已送达", { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  await expectAccessible(page);
});
