import { expect, test, type Page } from "@playwright/test";
import { formatDate } from "#app/lib/format";
import { choosePageSize, expectAccessible, PLATFORM_URL, platformToken, readyOnWorkbench, signIn } from "./support";

/**
 * Work orders (decision 021): an administrator's template, an agent's work order made from a call
 * in the voice workbench, received, followed and completed on the agent's own screen, and the
 * refusals a user meets on the way. 王军 (agent07) takes the call: no other test signs in as him.
 */

const toast = (page: Page) => page.getByRole("status").filter({ hasText: /./ }).first();

test("a work order's life: template, made from a call, received, followed, completed, its call opened", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(60_000);
  const name = `上门维修${Date.now() % 1_000_000}`;

  // The administrator writes the template: two required fields, a 4-hour SLA.
  await signIn(page, "admin");
  await page.goto("/businessTemplate/template");
  await page.getByRole("link", { name: "新建模板" }).click();
  await page.getByLabel("模板名称").fill(name);
  await page.getByLabel("处理时限（小时）").fill("4");
  await page.getByLabel("字段 1 名称").fill("设备型号");
  await page.getByLabel("字段 1 必填").check();
  await page.getByRole("button", { name: "添加字段" }).click();
  // The added row came back with everything typed so far.
  await expect(page.getByLabel("模板名称")).toHaveValue(name);
  await expect(page.getByLabel("字段 1 名称")).toHaveValue("设备型号");
  await page.getByLabel("字段 2 名称").fill("故障类型");
  await page.getByLabel("字段 2 类型").selectOption({ label: "选项" });
  await page.getByLabel(/字段 2 选项/).fill("无法开机，噪音大");
  await page.getByLabel("字段 2 必填").check();
  await page.getByRole("button", { name: "保存模板" }).click();
  await expect(toast(page)).toHaveText(`模板「${name}」已创建`);
  const row = page.getByRole("table", { name: "工单模板列表" }).getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("设备型号（文本，必填）、故障类型（选项，必填）");
  await expect(row).toContainText("4 小时");
  await expectAccessible(page);

  // On a call's detail (no hydration), choosing the new template shows its fields at once, with
  // what was typed kept: the page's script posts 换用此模板, the button pressed without JavaScript.
  const day = 86_400_000;
  await page.goto(`/callHistory?start=${formatDate(Date.now() - 30 * day)}&end=${formatDate(Date.now() - day)}&result=200`);
  // A call without a work order yet: call-records.spec.ts makes one from a call of this month,
  // which, depending on the hour the seed was made, may be one of these rows.
  const card = page.getByRole("dialog", { name: "通话详情" }).getByRole("region", { name: "创建工单" });
  for (let row = 6; ; row++) {
    expect(row, "a call without a work order among the month's connected calls").toBeLessThan(12);
    await page.locator(".p-datatable-tbody > tr").nth(row).getByRole("link", { name: /查看/ }).click();
    await expect(page.getByRole("dialog", { name: "通话详情" })).toBeVisible();
    if ((await card.count()) > 0) break;
    await page.goBack();
  }
  await card.getByLabel("工单标题").fill("上门检修");
  await expect(card.getByRole("button", { name: "换用此模板" })).toBeHidden();
  await card.getByLabel("工单模板").selectOption({ label: name });
  await expect(card.getByLabel("设备型号（必填）")).toBeVisible();
  await expect(card.getByLabel("投诉类型（必填）")).toHaveCount(0);
  await expect(card.getByLabel("工单标题")).toHaveValue("上门检修");
  await expect(card.getByLabel("工单模板")).toHaveValue(/\d+/);

  // 周强 takes an inbound call and opens a work order of the new template from the screen pop.
  const agentContext = await browser.newContext();
  const agent = await agentContext.newPage();
  const token = await platformToken(request, "agent07");
  await signIn(agent, "agent07");
  await readyOnWorkbench(agent);
  const offer = await request.post(`${PLATFORM_URL}/cti/simulator/offer`, {
    headers: { authorization: `Bearer ${token}` },
    data: { phone: "13911112222", agentUserName: "agent07" },
  });
  expect(offer.ok(), await offer.text()).toBe(true);
  const { ctiCallId } = (await offer.json()).data;
  await expect(agent.getByTestId("agent-state")).toContainText("振铃中");
  await agent.keyboard.press("Alt+A");
  await expect(agent.getByTestId("agent-state")).toContainText("通话中");
  const form = agent.getByRole("region", { name: "创建工单" });
  await form.getByLabel("工单模板").selectOption({ label: name });
  await form.getByLabel("工单标题").fill("空调噪音大");
  await form.getByLabel("设备型号（必填）").fill("KFR-35GW");
  await form.getByRole("button", { name: "创建工单" }).click();
  await expect(form.getByText("请填写故障类型")).toBeVisible();
  await form.getByLabel("故障类型（必填）").selectOption("噪音大");
  await form.getByRole("button", { name: "创建工单" }).click();
  const linked = agent.getByRole("region", { name: "关联工单" });
  await expect(linked).toContainText("空调噪音大");
  const number = (await linked.getByRole("heading").textContent())!.match(/GD\d{12}/)![0];
  await agent.keyboard.press("Alt+H");
  await expect(agent.getByTestId("agent-state")).not.toContainText("通话中");
  await request.post(`${PLATFORM_URL}/cti/api/agent/state`, {
    headers: { authorization: `Bearer ${token}` },
    data: { command: "signOut" },
  });

  // On 我的工单 the agent receives it, follows it to 处理中 and completes it.
  await agent.goto("/agentTask/workOrder");
  await agent.getByRole("link", { name: `工单 ${number}` }).click();
  await expect(agent.getByRole("heading", { level: 1, name: `工单 ${number}` })).toBeVisible();
  await expect(agent.getByText("待接收")).toBeVisible();
  await expect(agent.getByText("KFR-35GW")).toBeVisible();
  await agent.getByRole("button", { name: "接收工单" }).click();
  await expect(toast(agent)).toHaveText(`已接收工单 ${number}`);
  await agent.getByLabel("变更为").selectOption({ label: "处理中" });
  await agent.getByLabel("跟进说明").fill("已联系师傅上门");
  await agent.getByRole("button", { name: "提交跟进" }).click();
  await expect(toast(agent)).toHaveText(`工单 ${number} 已变更为「处理中」`);
  await expectAccessible(agent);

  // A second tab still shows 处理中 when the first completes the order: its 关闭 is refused, the note kept.
  const stale = await agentContext.newPage();
  await stale.goto(agent.url());
  await agent.getByLabel("变更为").selectOption({ label: "已完成" });
  await agent.getByLabel("跟进说明").fill("已上门修好");
  await agent.getByRole("button", { name: "提交跟进" }).click();
  await expect(toast(agent)).toHaveText(`工单 ${number} 已变更为「已完成」`);
  await stale.getByLabel("变更为").selectOption({ label: "已关闭" });
  await stale.getByLabel("跟进说明").fill("客户撤销报修");
  await stale.getByRole("button", { name: "提交跟进" }).click();
  await expect(stale.getByRole("alert")).toContainText("工单已完成，不能再变更状态");
  await expect(stale.getByLabel("跟进说明")).toHaveValue("客户撤销报修");

  const history = agent.getByRole("region", { name: "处理记录" });
  await expect(history).toContainText("创建了工单");
  await expect(history).toContainText("将状态由「待处理」变更为「处理中」：已联系师傅上门");
  await expect(history).toContainText("将状态由「处理中」变更为「已完成」：已上门修好");

  // The linked call opens in its call detail, with its recording.
  await expect(agent.getByRole("region", { name: "关联通话" })).toContainText("139****2222");
  await agent.getByRole("link", { name: "查看通话详情" }).click();
  await expect(agent).toHaveURL(/\/callHistory\/\d+$/);
  await expect(agent.getByRole("dialog", { name: "通话详情" })).toBeVisible();
  expect(ctiCallId).toBeTruthy();
  await agentContext.close();
});

test("work-order screens refuse bad input in Chinese and keep what was typed; lists filter past due @noscript", async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  // A template field without a name.
  await signIn(page, "admin");
  await page.goto("/businessTemplate/template?edit=new");
  const name = `无名字段${Date.now() % 1_000_000}`;
  await page.getByLabel("模板名称").fill(name);
  await page.getByLabel("字段 1 名称").fill(" ");
  await page.getByRole("button", { name: "保存模板" }).click();
  await expect(page.getByText("请填写字段名称")).toBeVisible();
  await expect(page.getByLabel("模板名称")).toHaveValue(name);
  await expectAccessible(page);

  // Another tenant's work order is not found.
  const other = await platformToken(request, "other-admin");
  const foreign = await request.post(`${PLATFORM_URL}/config/workorder/record/list`, {
    headers: { authorization: `Bearer ${other}` },
    data: {},
  });
  const foreignId = (await foreign.json()).data.list[0].id as number;
  const response = await page.goto(`/businessTemplate/record/${foreignId}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByText("您访问的页面不存在")).toBeVisible();
  await expect(page.locator("main")).not.toContainText("其他租户工单");

  // A supervisor filters the records past due, and changes the page size in one step.
  await page.getByRole("button", { name: "退出登录" }).click();
  await signIn(page, "supervisor");
  await page.goto("/businessTemplate/record");
  await page.getByLabel("只看已超时").check();
  await page.getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(/overdue=1/);
  const seeded = page.getByRole("table", { name: "工单列表" }).getByRole("row").filter({ hasText: "分期手续费争议" });
  await expect(seeded).toContainText("已超时");
  await expect(seeded).toContainText("处理中");
  await choosePageSize(page, 10);
  await expect(page).toHaveURL(/overdue=1&size=10|size=10&overdue=1/);

  // The supervisor opens an order of a template from the list, a required field first left out, and hands it to 张伟.
  await page.getByRole("link", { name: "新建工单" }).click();
  await expect(page.getByRole("heading", { name: /新建工单（编号将为 GD\d{12}）/ })).toBeVisible();
  await page.getByLabel("工单模板", { exact: true }).selectOption({ label: "客户投诉" });
  await page.getByRole("button", { name: "选择模板" }).click();
  await page.getByLabel("工单标题（必填）").fill("回访投诉客户");
  await page.getByRole("button", { name: "创建工单" }).click();
  await expect(page.getByText("请填写投诉类型")).toBeVisible();
  await expect(page.getByLabel("工单标题（必填）")).toHaveValue("回访投诉客户");
  await page.getByLabel("投诉类型（必填）").selectOption("服务态度");
  await page.getByRole("button", { name: "创建工单" }).click();
  await expect(toast(page)).toHaveText(/工单 GD\d{12} 已创建/);
  await page.getByLabel("转派给").selectOption({ label: "张伟" });
  await page.getByRole("button", { name: "转派" }).click();
  await expect(toast(page)).toHaveText(/已转派给张伟/);
  await page.goto("/businessTemplate/record?overdue=1");
  await choosePageSize(page, 10);
  await expect(page).toHaveURL(/overdue=1&size=10|size=10&overdue=1/);
  await expectAccessible(page);
  // Templates are the administrators' screen.
  expect((await page.goto("/businessTemplate/template"))?.status()).toBe(403);
});
