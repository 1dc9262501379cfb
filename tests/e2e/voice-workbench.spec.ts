import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { expectAccessible, PLATFORM_URL, platformPost, platformToken, readyOnWorkbench, signIn } from "./support";

/**
 * The voice workbench from ring to recorded result, against the real platform's CTI simulator
 * (its control routes are on because the e2e server sets SIMULATOR_CONTROL=1). The test plays
 * the telephone network: it offers calls and speaks for the robot and the customer.
 */
const CALLER = { phone: "13800138000", name: "赵敏", prevCtiCallId: "cti-demo-prev-0001" };

const agentState = (page: Page) => page.getByTestId("agent-state");

test("an agent takes a robot hand-off from ring to recorded result, through a network cut @cluster", async ({ page, context, request }) => {
  test.setTimeout(90_000);
  const admin = await platformToken(request, "admin");

  await signIn(page, "agent");
  await page.goto("/workBench");
  await expect(page.getByRole("heading", { name: "语音工作台" })).toBeVisible();
  await expect(page.getByTestId("connection")).toHaveText("已连接");
  // Shortcuts are shown on the buttons.
  await expect(page.getByRole("button", { name: /接听/ })).toContainText("Alt+A");
  await expect(page.getByRole("button", { name: /挂机/ })).toContainText("Alt+H");

  // Ready by keyboard.
  await page.getByRole("button", { name: "签入" }).click();
  await expect(agentState(page)).toContainText("未就绪");
  await page.keyboard.press("Alt+R");
  await expect(agentState(page)).toHaveText("就绪");
  await expect(page.getByText("等待来电…")).toBeVisible();

  // The collaborative campaign's robot hands the customer over, speaking the installment flow.
  const flows = await platformPost(request, admin, "/robot/api/flow/list", { name: "信用卡分期回访" });
  const { ctiCallId } = await platformPost(request, admin, "/cti/simulator/offer", {
    phone: CALLER.phone,
    agentUserName: "agent",
    flowId: flows.list[0].id,
    prevCtiCallId: CALLER.prevCtiCallId,
    transcript: [
      { segmentId: 0, thisRole: 1, nluResult: null, dialogContent: "您好，这里是信用卡中心，您的账单可以办理分期", gender: -1 },
      { segmentId: 1, thisRole: 3, nluResult: "ASK_FEE", dialogContent: "手续费是多少？我要找人工", gender: 1 },
    ],
  });

  // The screen pops: customer, robot transcript, script, previous record, work order.
  await expect(agentState(page)).toContainText("振铃中");
  await expect(page.getByText("来电 138****8000（机器人转人工）")).toBeVisible();
  await expect(page.getByTestId("customer-name")).toHaveText(CALLER.name);
  const transcript = page.getByRole("region", { name: "对话记录" });
  await expect(transcript).toContainText("您的账单可以办理分期");
  await expect(transcript).toContainText("手续费是多少？我要找人工");
  await expect(page.getByRole("region", { name: "服务话术" })).toContainText("请您提供身份证后四位");
  await expect(page.getByRole("region", { name: "上次业务记录" })).toContainText("客户对手续费有疑问，已建工单跟进");
  await expect(page.getByRole("region", { name: "关联工单" })).toContainText("分期手续费争议");

  // Answer by keyboard; the conversation continues live.
  await page.keyboard.press("Alt+A");
  await expect(agentState(page)).toContainText("通话中");
  await platformPost(request, admin, `/cti/simulator/call/${ctiCallId}/asr`, {
    segmentId: 2,
    thisRole: 2,
    nluResult: null,
    dialogContent: "您好，我是人工客服",
    gender: -1,
  });
  await expect(transcript).toContainText("您好，我是人工客服");

  // The network to the console drops; the customer keeps talking; nothing is lost when it returns.
  await context.setOffline(true);
  await expect(page.getByTestId("connection")).toHaveText("网络已断开");
  await platformPost(request, admin, `/cti/simulator/call/${ctiCallId}/asr`, {
    segmentId: 3,
    thisRole: 3,
    nluResult: "CHANGE_INSTALMENTS",
    dialogContent: "那我分6期吧",
    gender: 1,
  });
  await expect(transcript).not.toContainText("那我分6期吧");
  await context.setOffline(false);
  await expect(page.getByTestId("connection")).toHaveText("已连接", { timeout: 15_000 });
  await expect(transcript).toContainText("那我分6期吧");

  // Hang up by keyboard. With a conclusion typed but not saved, Alt+H asks first; Escape goes back
  // to the call with the focus where it was.
  const form = page.getByRole("form", { name: "通话结论" });
  await form.getByLabel("备注").fill("客户要改分期");
  await page.keyboard.press("Alt+H");
  const ask = page.getByRole("alertdialog", { name: "挂断通话" });
  await expect(ask).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press("Escape");
  await expect(ask).toBeHidden();
  await expect(form.getByLabel("备注")).toBeFocused();
  await expect(agentState(page)).toContainText("通话中");
  await page.keyboard.press("Alt+H");
  await ask.getByRole("button", { name: "挂断" }).click();
  // After-call work with its countdown.
  await expect(agentState(page)).toContainText("话后整理");
  await expect(page.getByTestId("acw-countdown")).toHaveText(/剩余 1?\d 秒/);

  // The draft survives a reload.
  await form.getByLabel("处理成功").check();
  await form.getByLabel("意向标签").selectOption({ label: "更改分期数" });
  await form.getByLabel("备注").fill("客户改为6期，已说明手续费");
  await page.reload();
  await expect(form.getByLabel("备注")).toHaveValue("客户改为6期，已说明手续费");
  await expect(form.getByLabel("处理成功")).toBeChecked();

  // Saved while offline: queued, visibly, and sent when the network returns.
  await context.setOffline(true);
  await form.getByRole("button", { name: "保存结论" }).click();
  const outbox = page.getByTestId("outbox");
  await expect(outbox).toContainText("138****8000");
  await expect(outbox).toContainText(/等待发送|发送中/);
  await expect(outbox).toContainText("网络已断开，恢复后自动重试");
  await context.setOffline(false);
  await expect(outbox).toContainText("已保存", { timeout: 15_000 });

  // The after-call timer ends and the agent is ready again.
  await expect(agentState(page)).toContainText("就绪", { timeout: 20_000 });
  await expect(agentState(page)).not.toContainText("话后整理");

  // The call is in the agent's call history with its result, saved once on the platform.
  await page.getByRole("tab", { name: "今日通话" }).click();
  const row = page.getByRole("table", { name: "今日通话" }).getByRole("row").filter({ hasText: "138****8000" }).first();
  await expect(row).toContainText("机器人转人工");
  await expect(row).toContainText("处理成功");
  const agentToken = await platformToken(request, "agent");
  const record = await request.get(`${PLATFORM_URL}/config/business/record/${ctiCallId}`, {
    headers: { authorization: `Bearer ${agentToken}` },
  });
  expect((await record.json()).data).toMatchObject({ callResult: 1, intent: "CHANGE_INSTALMENTS", remark: "客户改为6期，已说明手续费" });

  // …and in the call history screen, among the agent's calls of today. Other tests call this
  // number too, so the row is found by the record's own id.
  const history = await request.get(`${PLATFORM_URL}/contact/business/callhistory?phone=${CALLER.phone}&pageSize=100`, {
    headers: { authorization: `Bearer ${agentToken}` },
  });
  const { callId } = (await history.json()).data.list.find((row: { ctiCallId: string }) => row.ctiCallId === ctiCallId);
  await page.goto(`/callHistory?phone=${CALLER.phone}`);
  await page.locator(`a[href^="/callHistory/${callId}?"]`).click();
  // Opening it plays the hand-off's recording, with its transcript timed to the audio.
  const detail = page.getByRole("dialog", { name: "通话详情" });
  const audio = detail.locator("audio");
  await expect(audio).toHaveAttribute("src", `/callHistory/${callId}/recording`);
  const customer = detail.locator(".sb-line--left");
  await expect(customer.first()).toContainText("我想找人工客服");
  await customer.nth(1).getByRole("button").click();
  await expect.poll(() => audio.evaluate((a: HTMLAudioElement) => a.currentTime)).toBeGreaterThan(20);
});

/**
 * Rings a call at an agent no other test signs in as (ready on the workbench), with its result form
 * to find once answered. Their phone is signed out again by `done`.
 */
async function ringAt(page: Page, request: APIRequestContext, agent: string, phone: string) {
  const token = await platformToken(request, agent);
  await signIn(page, agent);
  await readyOnWorkbench(page);
  const { ctiCallId } = await platformPost(request, token, "/cti/simulator/offer", { phone, agentUserName: agent });
  await expect(agentState(page)).toContainText("振铃中");
  const masked = `${phone.slice(0, 3)}\\*\\*\\*\\*${phone.slice(7)}`;
  const form = page.getByRole("form", { name: new RegExp(`通话结论 ${masked}`) });
  const done = () => platformPost(request, token, "/cti/api/agent/state", { command: "signOut" });
  return { ctiCallId, token, form, results: form.getByRole("group", { name: "通话结果" }), done };
}

test("an agent answers, hangs up and writes the result with the keyboard alone: the focus goes to the next step", async ({
  page,
  request,
}) => {
  const { ctiCallId, token, form, results, done } = await ringAt(page, request, "agent08", "13900008001");
  // Answered by its shortcut: the focus is on the call's next control, not the page's body.
  await page.keyboard.press("Alt+A");
  await expect(agentState(page)).toContainText("通话中");
  await expect(page.getByRole("button", { name: /挂机/ })).toBeFocused();
  // Hung up by its shortcut: the focus is on the result to choose (the first, none chosen yet).
  await page.keyboard.press("Alt+H");
  await expect(agentState(page)).toContainText("话后整理");
  await expect(results.getByLabel("未处理")).toBeFocused();
  await page.keyboard.press("Space");
  await expect(results.getByLabel("未处理")).toBeChecked();
  await page.keyboard.press("ArrowRight");
  await expect(results.getByLabel("处理成功")).toBeChecked();
  await expect(results.getByLabel("处理成功")).toBeFocused();
  // The save button is the form's own few Tabs on (意向标签, 业务类型, 回访日期's year, month and
  // day, 备注), not the 31 from the page's body it was; Enter saves.
  const save = form.getByRole("button", { name: "保存结论" });
  let tabs = 0;
  while (!(await save.evaluate((button) => button === document.activeElement)) && tabs < 10) {
    await page.keyboard.press("Tab");
    tabs += 1;
  }
  expect(tabs).toBeLessThanOrEqual(8);
  await page.keyboard.press("Enter");
  await expect(form).toHaveCount(0);
  await expect(page.getByTestId("outbox").getByRole("listitem").first()).toContainText("已保存");
  const record = await request.get(`${PLATFORM_URL}/config/business/record/${ctiCallId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect((await record.json()).data).toMatchObject({ ctiCallId, callResult: 1 });
  await done();
});

test.describe("an agent on a phone (390 × 844)", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("finds the result form first after the call, and a result left out is said at its group", async ({ page, request }) => {
    const { form, results, done } = await ringAt(page, request, "agent09", "13900009001");
    // The ringing banner stays inside the phone bar, its text (up to the queue's name) cut with an ellipsis.
    const bar = await page.getByRole("region", { name: "电话条" }).boundingBox();
    const banner = page.getByRole("alert").filter({ hasText: "来电 139****9001" });
    const right = await banner.evaluate((p) => p.getBoundingClientRect().right);
    expect(right).toBeLessThanOrEqual(bar!.x + bar!.width);
    await expect(banner).toHaveCSS("text-overflow", "ellipsis");
    await page.getByRole("button", { name: /接听/ }).click();
    await expect(agentState(page)).toContainText("通话中");
    await page.getByRole("button", { name: /挂机/ }).click();
    await expect(agentState(page)).toContainText("话后整理");
    // The result group is on the first screen of the page (its place in the page, whatever the scroll).
    await expect(results.getByLabel("未处理")).toBeFocused();
    const place = await results.evaluate((group) => {
      const box = group.getBoundingClientRect();
      return { top: box.top + window.scrollY, bottom: box.bottom + window.scrollY };
    });
    expect(place.top).toBeGreaterThan(0);
    expect(place.bottom).toBeLessThanOrEqual(844);

    // Saved without a result: the group says so, next to its choices, and has the focus.
    await form.getByRole("button", { name: "保存结论" }).click();
    await expect(results).toHaveAttribute("aria-invalid", "true");
    const message = results.getByText("请选择通话结果");
    await expect(message).toBeVisible();
    await expect(results).toHaveAttribute("aria-describedby", (await message.getAttribute("id"))!);
    await expect(results.getByLabel("未处理")).toBeFocused();
    const [below, next] = [await message.boundingBox(), await form.getByLabel("意向标签").boundingBox()];
    expect(below!.y + below!.height).toBeLessThanOrEqual(next!.y);
    await expectAccessible(page);

    await results.getByLabel("处理失败").check();
    await expect(results).not.toHaveAttribute("aria-invalid");
    await expect(message).toHaveCount(0);
    await form.getByRole("button", { name: "保存结论" }).click();
    await expect(form).toHaveCount(0);
    await done();
  });
});

test("the workbench shows itself while the softphone scripts are on their way, and works once they arrive", async ({ page }) => {
  await signIn(page, "agent");
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/cti\/softphone-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  await page.goto("/workBench", { waitUntil: "commit" });
  await expect(page.getByRole("heading", { name: "语音工作台" })).toBeVisible();
  await expect(page.getByRole("button", { name: /接听/ })).toBeVisible();
  // The console's own modules arrive first; they must not start the phone bar without its SDK.
  // Half a second is the window in which such an early start would break the page.
  await page.waitForFunction(() => "__remixRouteModules" in window);
  await page.waitForTimeout(500);
  await expect(page.getByRole("alert")).toHaveCount(0);
  // A number typed meanwhile is still there once the page works.
  await page.getByLabel("外呼号码").fill("13800138000");
  release();
  await expect(page.getByTestId("connection")).toHaveText("已连接");
  await expect(page.getByRole("button", { name: /接听/ })).toContainText("Alt+A");
  await expect(page.getByLabel("外呼号码")).toHaveValue("13800138000");

  // What the hydrated page throws and nobody catches reaches the platform's log.
  const logged = page.waitForResponse((response) => response.url().includes("/clientLog?"));
  await page.evaluate(() => setTimeout(() => Promise.reject(new Error("端到端测试的未处理错误")), 0));
  const answer = await logged;
  expect(answer.status()).toBe(200);
  expect(new URL(answer.url()).searchParams.get("message")).toBe("端到端测试的未处理错误");
});

test("manual dial validates the number and a busy line comes back to the agent", async ({ page, request }) => {
  const admin = await platformToken(request, "admin");
  await signIn(page, "admin");
  await page.goto("/workBench/ty");
  await expect(page.getByRole("heading", { name: "语音工作台（通用）" })).toBeVisible();
  await expect(page.getByTestId("connection")).toHaveText("已连接");
  await page.getByRole("button", { name: "签入" }).click();
  await expect(agentState(page)).toContainText("未就绪");

  const number = page.getByLabel("外呼号码");
  await number.fill("12345");
  await expect(page.getByText("请输入正确的电话号码")).toBeVisible();
  await expect(page.getByRole("button", { name: "呼叫" })).toBeDisabled();

  await platformPost(request, admin, "/cti/simulator/dial-outcome", { outcome: "BUSY" });
  await number.fill("13700001111");
  await page.getByRole("button", { name: "呼叫" }).click();
  await expect(page.getByText("正在呼叫 137****1111（外呼）")).toBeVisible();
  await expect(agentState(page)).toContainText("未就绪", { timeout: 10_000 });
  await page.getByRole("tab", { name: "今日通话" }).click();
  await expect(page.getByRole("table", { name: "今日通话" })).toContainText("未接通");

  // Knowledge lookup from the workbench.
  await page.getByRole("tab", { name: "知识库" }).click();
  await page.getByLabel("关键词").fill("手续费");
  await page.getByRole("button", { name: "查询" }).click();
  await expect(page.getByRole("region", { name: "知识库查询" })).toContainText("分期手续费标准");

  // A dial that is answered: the agent opens a work order for the call from the screen pop.
  await platformPost(request, admin, "/cti/simulator/dial-outcome", { outcome: "ANSWER" });
  await number.fill("13700002222");
  await page.getByRole("button", { name: "呼叫" }).click();
  await expect(agentState(page)).toContainText("通话中", { timeout: 10_000 });
  await page.getByRole("tab", { name: "业务处理" }).click();
  const workOrder = page.getByRole("region", { name: "创建工单" });
  await workOrder.getByRole("button", { name: "创建工单" }).click();
  await expect(workOrder.getByRole("alert")).toHaveText("请填写工单标题");
  await workOrder.getByLabel("工单标题").fill("客户申请调整分期期数");
  await workOrder.getByLabel("工单内容").fill("客户希望改为12期，请业务组回电确认");
  // The form is built from the enabled template (客户投诉): its required choice must be chosen.
  await workOrder.getByRole("button", { name: "创建工单" }).click();
  await expect(workOrder.getByText("请填写投诉类型")).toBeVisible();
  await workOrder.getByLabel("投诉类型（必填）").selectOption("业务办理");
  await workOrder.getByRole("button", { name: "创建工单" }).click();
  const linked = page.getByRole("region", { name: "关联工单" });
  await expect(linked).toContainText("客户申请调整分期期数");
  await expect(linked).toContainText("客户希望改为12期，请业务组回电确认");

  // Hold and resume, mute and unmute, from the phone bar.
  await page.getByRole("button", { name: "保持", exact: true }).click();
  await expect(agentState(page)).toContainText("保持中");
  await page.getByRole("button", { name: "恢复", exact: true }).click();
  await expect(agentState(page)).toContainText("通话中");
  await page.getByRole("button", { name: "静音", exact: true }).click();
  await expect(page.getByText("（已静音）")).toBeVisible();
  await page.getByRole("button", { name: "取消静音" }).click();
  await expect(page.getByText("（已静音）")).toBeHidden();
  await page.keyboard.press("Alt+H");
  await expect(agentState(page)).not.toContainText("通话中");
});

/** Puts an agent's phone in a known state (not ready, 小休) whatever an earlier test left it in. */
async function notReady(request: APIRequestContext, token: string) {
  const headers = { authorization: `Bearer ${token}` };
  await request.post(`${PLATFORM_URL}/cti/api/agent/state`, { headers, data: { command: "signIn" } });
  await request.post(`${PLATFORM_URL}/cti/api/agent/state`, { headers, data: { command: "notReady", reason: "BREAK" } });
}

test("an agent sends keys, consults a colleague, confers and hands the customer over; the colleague transfers back to the queue", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(60_000);
  const admin = await platformToken(request, "admin");
  await notReady(request, admin);
  await notReady(request, await platformToken(request, "agent"));

  // 王建国 (admin) takes the call; 张伟 (agent), not ready yet, is the colleague on another screen.
  await signIn(page, "admin");
  await page.goto("/workBench/ty");
  const colleagueContext = await browser.newContext();
  const colleague = await colleagueContext.newPage();
  await signIn(colleague, "agent");
  await colleague.goto("/workBench");
  for (const screen of [page, colleague]) {
    await expect(screen.getByTestId("connection")).toHaveText("已连接");
    await expect(agentState(screen)).toContainText("未就绪（小休）");
  }
  await page.getByRole("button", { name: /^就绪/ }).click();
  await expect(agentState(page)).toHaveText("就绪");
  const { ctiCallId } = await platformPost(request, admin, "/cti/simulator/offer", { phone: "13955550003", agentUserName: "admin" });
  await expect(page.getByText("来电 139****0003（呼入）")).toBeVisible();
  await page.getByRole("button", { name: /^接听/ }).click();
  await expect(agentState(page)).toContainText("通话中");

  // A colleague who is not ready cannot take the call: the agent is told why.
  const target = page.getByLabel("转接/咨询目标");
  await target.selectOption({ label: "张伟（未就绪）" });
  await page.getByRole("button", { name: "转接", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("转接失败：目标坐席不在就绪状态");
  await expect(agentState(page)).toContainText("通话中");

  // The keypad: every key pressed is sent, in order, and shown.
  await page.getByRole("button", { name: "拨号盘" }).click();
  const keypad = page.getByRole("group", { name: "拨号盘" });
  await expect(page.getByText("尚未发送按键")).toBeVisible();
  for (const key of ["1", "2", "#"]) await keypad.getByRole("button", { name: key, exact: true }).click();
  await expect(page.getByText("已发送按键：12#")).toBeVisible();

  // A colleague who is not ready cannot be consulted either.
  await target.selectOption({ label: "张伟（未就绪）" });
  await page.getByRole("button", { name: "咨询", exact: true }).click();
  await expect(page.getByRole("alert")).toHaveText("咨询失败：咨询的坐席不在就绪状态");

  // The colleague gets ready; the list shows it when the agent comes back to it.
  await colleague.getByRole("button", { name: /^就绪/ }).click();
  await expect(agentState(colleague)).toHaveText("就绪");
  await target.focus();
  await expect(target.locator("option", { hasText: "张伟（就绪）" })).toHaveCount(1);
  await target.selectOption({ label: "张伟（就绪）" });

  // Consult: the customer is held, the colleague's phone rings with the customer's screen.
  await page.getByRole("button", { name: "咨询", exact: true }).click();
  const consult = page.getByRole("group", { name: "咨询" });
  await expect(consult).toContainText("咨询 张伟：振铃中（客户保持中）");
  await expect(agentState(page)).toContainText("保持");
  await expect(consult.getByRole("button", { name: "完成转接" })).toBeDisabled();
  await expect(agentState(colleague)).toContainText("振铃中");
  await expect(colleague.getByText("王建国 请求咨询：来电 139****0003（呼入）")).toBeVisible();
  await colleague.getByRole("button", { name: /^接听/ }).click();
  await expect(consult).toContainText("咨询 张伟：通话中（客户保持中）");
  await expectAccessible(page);
  await expect(colleague.getByText("王建国 的咨询（通话中），挂机即结束咨询")).toBeVisible();

  // All three talk, then the agent hands the customer over and wraps up.
  await consult.getByRole("button", { name: "三方通话" }).click();
  await expect(consult).toContainText("咨询 张伟：三方通话中（挂机后由对方继续通话）");
  await expect(agentState(page)).toContainText("通话中");
  await expect(colleague.getByText("与 王建国 及客户三方通话中")).toBeVisible();
  await consult.getByRole("button", { name: "完成转接" }).click();
  await expect(agentState(page)).toContainText("话后整理");
  await expect(page.getByRole("group", { name: "咨询" })).toHaveCount(0);
  await expect(agentState(colleague)).toContainText("通话中");
  await expect(colleague.getByText("与 王建国 及客户三方通话中")).toHaveCount(0);

  // Back to the queue: it waits there until someone is ready, and rings at them.
  await colleague.getByLabel("转接/咨询目标").selectOption("demo-voice");
  await colleague.getByRole("button", { name: "转接", exact: true }).click();
  await expect(agentState(colleague)).toContainText("话后整理");
  await expect(colleague.getByText("已转回队列 demo-voice")).toBeVisible();
  await page.getByRole("button", { name: /^就绪/ }).click();
  await expect(agentState(page)).toContainText("振铃中");
  await expect(page.getByText("来电 139****0003（呼入）")).toBeVisible();
  await page.getByRole("button", { name: /^接听/ }).click();
  await expect(agentState(page)).toContainText("通话中");
  await platformPost(request, admin, `/cti/simulator/call/${ctiCallId}/hangup`);
  await expect(agentState(page)).toContainText("话后整理");
  await colleagueContext.close();
});

test("a supervisor reviewing an inbound call sees the result its agent saved; a callback before today is refused", async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(60_000);
  const admin = await platformToken(request, "admin");
  await notReady(request, await platformToken(request, "agent"));
  await signIn(page, "agent");
  await page.goto("/workBench");
  await expect(page.getByTestId("connection")).toHaveText("已连接");
  await page.getByRole("button", { name: /^就绪/ }).click();
  await expect(agentState(page)).toHaveText("就绪");
  const { ctiCallId } = await platformPost(request, admin, "/cti/simulator/offer", { phone: "13955550067", agentUserName: "agent" });
  await expect(page.getByText("来电 139****0067（呼入）")).toBeVisible();
  await page.getByRole("button", { name: /接听/ }).click();
  await expect(agentState(page)).toContainText("通话中");
  await page.getByRole("button", { name: /挂机/ }).click();
  await expect(agentState(page)).toContainText("话后整理");

  // A callback planned for yesterday (Beijing) is refused with why; what was typed comes back to correct.
  const beijingDay = (offsetDays: number) => new Date(Date.now() + 8 * 3_600_000 + offsetDays * 86_400_000).toISOString().slice(0, 10);
  const form = page.getByRole("form", { name: /^通话结论 139\*{4}0067/ });
  await form.getByLabel("处理成功").check();
  // The picker offers no earlier day; a date typed anyway is refused by the platform.
  await expect(form.getByLabel("回访日期")).toHaveAttribute("min", beijingDay(0));
  await form.getByLabel("回访日期").fill(beijingDay(-1));
  await form.getByLabel("备注").fill("客户已确认新地址");
  await form.getByRole("button", { name: "保存结论" }).click();
  const outbox = page.getByTestId("outbox");
  await expect(outbox).toContainText("回访日期不能早于今天");
  await outbox.getByRole("button", { name: "修改后重新保存" }).click();
  await expect(form.getByLabel("备注")).toHaveValue("客户已确认新地址");
  await expect(form.getByLabel("处理成功")).toBeChecked();
  await expect(form.getByLabel("回访日期")).toHaveValue(beijingDay(-1));
  await form.getByLabel("回访日期").fill(beijingDay(0));
  await expect(form.getByLabel("回访日期")).toHaveValue(beijingDay(0));
  await form.getByLabel("备注").fill("客户已确认新地址，明天回访");
  await form.getByRole("button", { name: "保存结论" }).click();
  await expect(outbox.getByRole("listitem").filter({ hasText: "139****0067" }).first()).toContainText("已保存", { timeout: 15_000 });

  // The supervisor opens the call from the call history: the agent's result and remark are in its detail.
  const agentToken = await platformToken(request, "agent");
  const history = await request.get(`${PLATFORM_URL}/contact/business/callhistory?phone=13955550067&pageSize=100`, {
    headers: { authorization: `Bearer ${agentToken}` },
  });
  const { callId } = (await history.json()).data.list.find((row: { ctiCallId: string }) => row.ctiCallId === ctiCallId);
  const supervisorContext = await browser.newContext();
  const supervisor = await supervisorContext.newPage();
  await signIn(supervisor, "supervisor");
  await supervisor.goto("/callHistory?phone=13955550067");
  await supervisor.locator(`a[href^="/callHistory/${callId}?"]`).click();
  const detail = supervisor.getByRole("dialog", { name: "通话详情" });
  const fact = (label: string) => detail.locator("dt", { hasText: new RegExp(`^${label}$`) }).locator("xpath=following-sibling::dd");
  await expect(fact("通话结论")).toHaveText("处理成功");
  await expect(fact("回访日期")).toHaveText(beijingDay(0));
  await expect(fact("结论备注")).toHaveText("客户已确认新地址，明天回访");

  // The business record's row opens the same call.
  await supervisor.goto("/incoming/businessRecord?phone=13955550067");
  const row = supervisor.getByRole("table", { name: "呼入业务记录" }).getByRole("row").filter({ hasText: "客户已确认新地址，明天回访" });
  await row.getByRole("link", { name: "查看 139****0067 的通话详情" }).click();
  await expect(supervisor).toHaveURL(new RegExp(`/incoming/history/${callId}$`));
  await expect(supervisor.getByRole("dialog", { name: "通话详情" })).toContainText("客户已确认新地址，明天回访");
  await supervisorContext.close();
});

test("inbound business records list the agent's saved results, filtered in the URL @noscript", async ({ page }) => {
  await signIn(page, "agent");
  await page.goto("/incoming/businessRecord");
  await expect(page.getByRole("heading", { name: "呼入业务记录" })).toBeVisible();
  const table = page.getByRole("table", { name: "呼入业务记录" });
  const seeded = table.getByRole("row").filter({ hasText: "客户对手续费有疑问，已建工单跟进" });
  await expect(seeded).toContainText("138****8000");
  await expect(seeded).toContainText("处理失败");
  await expect(seeded).toContainText("询问费用");

  await page.getByLabel("通话结果").selectOption({ label: "处理成功" });
  await page.getByLabel("客户电话").fill("13912345678");
  await page.getByRole("button", { name: "查询" }).click();
  await expect(page).toHaveURL(/callResult=1/);
  await expect(table).toContainText("暂无数据");

  await page.goto("/incoming/businessRecord?page=abc");
  await expect(page.getByText("查询条件不正确，请检查后重试")).toBeVisible();
});

test.describe("an agent whose computer is set to another time zone", () => {
  test.use({ timezoneId: "America/New_York" });

  test("still reads today's calls in China Standard Time, as every list shows them", async ({ page, request }) => {
    // A sales agent no other test signs in with, so the phone starts signed out.
    const admin = await platformToken(request, "admin");
    await signIn(page, "agent05");
    await page.goto("/workBench");
    await expect(page.getByTestId("connection")).toHaveText("已连接");
    await page.getByRole("button", { name: "签入" }).click();
    await expect(agentState(page)).toContainText("未就绪");
    await platformPost(request, admin, "/cti/simulator/dial-outcome", { outcome: "BUSY" });
    await page.getByLabel("外呼号码").fill("13700002222");
    await page.getByRole("button", { name: "呼叫" }).click();
    await expect(agentState(page)).toContainText("未就绪", { timeout: 10_000 });
    await page.getByRole("tab", { name: "今日通话" }).click();
    const row = page.getByRole("table", { name: "今日通话" }).getByRole("row").filter({ hasText: "137****2222" }).first();
    const shown = (await row.locator("td").first().textContent())!.trim();
    // Beijing time now, whatever the browser's zone (New York is 12 or 13 hours behind).
    const beijingNow = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(11, 19);
    const minutesApart = (a: string, b: string) => {
      const [ha, ma] = a.split(":").map(Number);
      const [hb, mb] = b.split(":").map(Number);
      const apart = Math.abs(ha * 60 + ma - (hb * 60 + mb));
      return Math.min(apart, 24 * 60 - apart);
    };
    expect(shown).toMatch(/^\d\d:\d\d:\d\d$/);
    expect(minutesApart(shown, beijingNow)).toBeLessThanOrEqual(2);
  });
});

test("an agent works a preview list: takes, sees and skips contacts @noscript", async ({ page }) => {
  // As admin: the agent's own preview tests (below, in this file) take contacts of the same list.
  await signIn(page, "admin");
  await page.goto("/manual/preview");
  await page.getByRole("button", { name: "获取下一个联系人" }).click();
  await expect(page.getByRole("heading", { name: "当前联系人" })).toBeVisible();
  await expect(page.getByText("贵宾客户预览外呼")).toBeVisible();
  // Dialling goes through the softphone (tests/e2e/voice-workbench.spec.ts); here the contact is skipped.
  await page.getByLabel("跳过原因").selectOption({ label: "号码有误" });
  await page.getByRole("button", { name: "跳过" }).click();
  await expect(page.getByRole("status")).toHaveText("已跳过该联系人。");

  await page.goto("/agentTask/businessRecord");
  await expect(page.getByRole("table", { name: "外呼业务记录" })).toContainText("号码有误");
  await page.goto("/agentTask/my");
  await page.getByRole("link", { name: "贵宾名单" }).click();
  await expect(page.getByRole("table", { name: "任务中的呼叫" })).toContainText("呼叫完成");
  await expect(page.getByRole("table", { name: "任务中的呼叫" })).toContainText("坐席挂机");
  await page.goto("/manMachine/coordination");
  await expect(page.getByRole("table", { name: "转人工记录" })).toContainText("已转人工");
});

test("a preview contact is dialled through the softphone: refused until signed in, then it rings, is answered and recorded", async ({
  page,
  request,
}) => {
  const agent = await platformToken(request, "agent");
  const headers = { authorization: `Bearer ${agent}` };
  await request.post(`${PLATFORM_URL}/cti/api/agent/state`, { headers, data: { command: "signOut" } });
  await signIn(page, "agent");
  await page.goto("/manual/preview");
  await page.getByRole("button", { name: "获取下一个联系人" }).click();
  await expect(page.getByRole("heading", { name: "当前联系人" })).toBeVisible();
  const phone = (await page.locator(".sb-facts dt:has-text('手机号码') + dd").textContent())!.trim();

  // Signed out on the phone: the page says where to go, and the contact stays.
  await page.getByRole("button", { name: "拨打" }).click();
  await expect(page.getByRole("alert")).toContainText("请先在语音工作台签入后再拨打");
  await expect(page.getByRole("heading", { name: "当前联系人" })).toBeVisible();
  await page.getByRole("link", { name: "打开语音工作台" }).click();
  await expect(page.getByTestId("connection")).toHaveText("已连接");
  await page.getByRole("button", { name: "签入" }).click();
  await expect(agentState(page)).toContainText("未就绪");

  // Back to the contact (the same one, until it is dialled or skipped): the call goes out through
  // the phone bar and rings before it connects.
  await page.goto("/manual/preview");
  await page.getByRole("button", { name: "获取下一个联系人" }).click();
  await expect(page.locator(".sb-facts dt:has-text('手机号码') + dd")).toHaveText(phone);
  await platformPost(request, agent, "/cti/simulator/dial-outcome", { outcome: "ANSWER" });
  await page.getByRole("button", { name: "拨打" }).click();
  await expect(page).toHaveURL(/\/workBench$/);
  await expect(page.getByText("正在拨打预览联系人，请在电话条中处理通话")).toBeVisible();
  // The network answers after 1.5 s: the phone bar shows the ring, or already the talk (the
  // platform test sees it ringing first).
  await expect(page.getByText(`正在呼叫 ${phone}（外呼）`).or(agentState(page).getByText("通话中"))).toBeVisible();
  await expect(agentState(page)).toContainText("通话中");
  await page.keyboard.press("Alt+H");
  await expect(agentState(page)).toContainText("话后整理");

  // The contact is done: called by the agent, who hung up.
  await page.goto("/agentTask/my");
  await page.getByRole("link", { name: "贵宾名单" }).click();
  const calls = page.getByRole("table", { name: "任务中的呼叫" });
  await expect(calls.getByRole("row").filter({ hasText: phone })).toContainText("呼叫完成");
  await expect(calls.getByRole("row").filter({ hasText: phone })).toContainText("坐席挂机");
  await request.post(`${PLATFORM_URL}/cti/api/agent/state`, { headers, data: { command: "signOut" } });
});
