import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { createGroup, importFile, row } from "./knowledge-screen";
import { expectAccessible, holdHydration, signIn } from "./support";

/** The e2e platform (port + 1), whose chat simulator the tests drive (SIMULATOR_CONTROL=1). */
const platformUrl = baseURL.replace(/:(\d+)$/, (_, port: string) => `:${Number(port) + 1}`).replace("localhost", "127.0.0.1");

/** A chat as the platform's own API reads it. */
type StoredSession = {
  state: string;
  dialogs: Array<{ role: string; content: string }>;
  businessRecord: { category: string; result: number; remark: string } | null;
};

/** The customer side of a chat, driven through the platform's simulator control routes. */
async function customers(request: APIRequestContext) {
  const token = await request
    .post(`${platformUrl}/uaa/oauth/token`, {
      headers: { Authorization: `Basic ${Buffer.from("web-console:web-console-secret").toString("base64")}` },
      form: { grant_type: "password", username: "chat", password: "Switchboard@2026" },
    })
    .then(async (r) => ((await r.json()) as { access_token: string }).access_token);
  const headers = { Authorization: `Bearer ${token}` };
  return {
    async arrive(name: string, content: string): Promise<string> {
      const response = await request.post(`${platformUrl}/chat/simulator/customers`, { headers, data: { customer: { name }, content } });
      expect(response.ok()).toBe(true);
      return ((await response.json()) as { data: { sessionId: string } }).data.sessionId;
    },
    async write(sessionId: string, content: string) {
      const response = await request.post(`${platformUrl}/chat/simulator/sessions/${sessionId}/messages`, { headers, data: { content } });
      expect(response.ok()).toBe(true);
    },
    async stored(sessionId: string): Promise<StoredSession> {
      const response = await request.get(`${platformUrl}/chat/api/sessions/${sessionId}`, { headers });
      return ((await response.json()) as { data: StoredSession }).data;
    },
  };
}

const sessionButton = (page: Page, name: string) =>
  page.getByRole("navigation", { name: "会话列表" }).getByRole("button", { name: new RegExp(name) });
const log = (page: Page) => page.getByRole("list", { name: "消息记录" });
const replyBox = (page: Page) => page.getByLabel("回复内容");
/** Ends the open session that has no business record: asked, and confirmed. */
async function endSession(page: Page) {
  await page.getByRole("button", { name: "结束会话" }).click();
  const asked = page.getByRole("alertdialog", { name: "结束会话" });
  await expect(asked).toContainText("本会话尚未保存业务记录");
  await asked.getByRole("button", { name: "结束会话" }).click();
}

test("a text agent serves two customers at once without missing a word @cluster", async ({ page, request }) => {
  const customer = await customers(request);
  await page.goto("/textWorkBench");
  await signIn(page, "chat");
  await expect(page).toHaveURL(/\/textWorkBench$/);
  await expect(page.getByText("实时连接：已连接")).toBeVisible();
  await expect(page.getByText("快捷键：Alt+↑ / Alt+↓ 切换会话，Alt+E 结束当前会话")).toBeVisible();

  // Two customers arrive; both sessions appear without a reload.
  const first = await customer.arrive("顾客甲", "你好，我想查账单");
  const second = await customer.arrive("顾客乙", "在吗？");
  await expect(sessionButton(page, "顾客甲")).toBeVisible();
  await expect(sessionButton(page, "顾客乙")).toBeVisible();
  await sessionButton(page, "顾客甲").click();
  await expect(page.getByRole("heading", { name: "与 顾客甲 的会话" })).toBeVisible();
  await expect(page.getByRole("region", { name: "客户名片" })).toContainText("顾客甲");

  // The one not open gets an unread marker, and the page title counts it.
  await customer.write(second, "我的订单还没到");
  await expect(sessionButton(page, "顾客乙")).toHaveAccessibleName(/有未读消息/);
  await expect(sessionButton(page, "顾客甲")).not.toHaveAccessibleName(/有未读消息/);
  await expect(page).toHaveTitle(/^\(1\) 文本工作台/);

  // Reply with Enter; Shift+Enter is a new line.
  await replyBox(page).fill("您好，请稍候");
  await replyBox(page).press("Shift+Enter");
  await replyBox(page).pressSequentially("马上为您查询");
  await expect(replyBox(page)).toHaveValue("您好，请稍候\n马上为您查询");
  await replyBox(page).press("Enter");
  await expect(replyBox(page)).toHaveValue("");
  await expect(log(page).getByText("马上为您查询")).toBeVisible();
  await expect(log(page).getByText("待发送")).toHaveCount(0);
  await expect.poll(async () => (await customer.stored(first)).dialogs.map((d) => d.content)).toContain("您好，请稍候\n马上为您查询");

  // Bad input: a clear message, and the text stays.
  await replyBox(page).press("Enter");
  await expect(page.getByRole("alert")).toHaveText("请输入消息内容");
  const long = "长".repeat(2001);
  await replyBox(page).fill(long);
  await replyBox(page).press("Enter");
  await expect(page.getByRole("alert")).toHaveText("消息不能超过2000个字符");
  await expect(replyBox(page)).toHaveValue(long);

  // A quick reply from the knowledge base, found by typing '/'.
  await replyBox(page).fill("/稍等");
  const quick = page.getByRole("listbox", { name: "快捷回复" });
  await expect(quick.getByRole("option")).toHaveCount(1);
  await replyBox(page).press("Enter");
  await expect(replyBox(page)).toHaveValue("好的，请您稍等，我马上为您查询。");
  await replyBox(page).press("Enter");
  await expect(log(page).getByText("好的，请您稍等，我马上为您查询。")).toBeVisible();

  // The business record of this session.
  await page.getByLabel("业务类型").selectOption({ label: "业务咨询" });
  await page.getByLabel("处理结果").selectOption({ label: "处理成功" });
  await page.getByLabel("备注").fill("账单已解释");
  await page.getByRole("button", { name: "保存业务记录" }).click();
  await expect(page.getByText("业务记录已保存")).toBeVisible();
  // A work order made from this chat: the voice workbench's card, linked to the session.
  const workOrder = page.getByRole("region", { name: "创建工单" });
  await workOrder.getByLabel("工单标题").fill("账单疑问回访");
  await workOrder.getByLabel("投诉类型（必填）").selectOption("业务办理");
  await workOrder.getByRole("button", { name: "创建工单" }).click();
  await expect(page.getByRole("region", { name: "关联工单" })).toContainText("账单疑问回访");
  // After a reload the chat still shows its work order, not the form for a second one.
  await page.reload();
  await sessionButton(page, "顾客甲").click();
  await expect(page.getByRole("region", { name: "关联工单" })).toContainText("账单疑问回访");
  await expect(page.getByRole("region", { name: "创建工单" })).toHaveCount(0);

  // Alt+↓ moves to the other session, which reads it.
  await page.keyboard.press("Alt+ArrowDown");
  await expect(page.getByRole("heading", { name: "与 顾客乙 的会话" })).toBeVisible();
  await expect(sessionButton(page, "顾客乙")).not.toHaveAccessibleName(/有未读消息/);
  await expect(page).toHaveTitle(/^文本工作台/);

  // The connection drops: the customer writes meanwhile, the agent answers meanwhile.
  await page.context().setOffline(true);
  await expect(page.getByText("实时连接：网络已断开")).toBeVisible();
  await customer.write(second, "断线期间的消息");
  await replyBox(page).fill("离线时写的回复");
  await replyBox(page).press("Enter");
  await expect(log(page).locator(".is-pending")).toContainText("离线时写的回复");
  await expect(log(page).getByText("待发送")).toBeVisible();
  // Nothing reaches the page while offline: what follows comes from the replay.
  await expect(log(page).getByText("断线期间的消息")).toHaveCount(0);

  // It returns: the missed message appears once, in order, and the pending reply goes out once.
  await page.context().setOffline(false);
  await expect(page.getByText("实时连接：已连接")).toBeVisible({ timeout: 15_000 });
  await expect(log(page).getByText("断线期间的消息")).toHaveCount(1);
  await expect(log(page).getByText("待发送")).toHaveCount(0, { timeout: 15_000 });
  await expect(log(page).getByText("离线时写的回复")).toHaveCount(1);
  await expect(log(page).locator("li p")).toHaveText(["在吗？", "我的订单还没到", "断线期间的消息", "离线时写的回复"]);
  expect((await customer.stored(second)).dialogs.filter((d) => d.content === "离线时写的回复")).toHaveLength(1);

  // Close this one with its button: it has no business record, so the agent is asked first;
  // Escape goes back to the conversation, focus where it was.
  const endButton = page.getByRole("button", { name: "结束会话" });
  await endButton.click();
  const asked = page.getByRole("alertdialog", { name: "结束会话" });
  await expect(asked).toContainText("本会话尚未保存业务记录");
  await expect(asked).toContainText("确定结束与 顾客乙 的会话吗？");
  await expectAccessible(page);
  await page.keyboard.press("Escape");
  await expect(asked).toBeHidden();
  await expect(endButton).toBeFocused();
  await expect(sessionButton(page, "顾客乙")).toHaveCount(1);
  await endButton.click();
  await asked.getByRole("button", { name: "结束会话" }).click();
  await expect(sessionButton(page, "顾客乙")).toHaveCount(0);
  // The other with Alt+E: a reply still being typed is asked about; with none, it ends at once.
  await expect(page.getByRole("heading", { name: "与 顾客甲 的会话" })).toBeVisible();
  await replyBox(page).fill("还没发出去的话");
  await page.keyboard.press("Alt+KeyE");
  await expect(asked).toContainText("回复框中还有 7 个字未发送");
  await page.keyboard.press("Escape");
  await expect(replyBox(page)).toBeFocused();
  await replyBox(page).fill("");
  await page.keyboard.press("Alt+KeyE");
  await expect(sessionButton(page, "顾客甲")).toHaveCount(0);
  await expect(page.getByText("暂无会话，新的客户消息会自动出现在这里")).toBeVisible();
  expect((await customer.stored(first)).state).toBe("closed");
  expect((await customer.stored(second)).state).toBe("closed");

  // The chat records list the closed conversation, with the whole of it in its detail.
  await page.goto("/text/call");
  const row = page.getByRole("row", { name: /顾客甲/ });
  await expect(row).toContainText("已结束");
  await row.getByRole("link", { name: "查看会话" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("会话详情：顾客甲");
  await expect(page.getByRole("list", { name: "会话内容" }).locator("li p")).toHaveText([
    "你好，我想查账单",
    "您好，请稍候\n马上为您查询",
    "好的，请您稍等，我马上为您查询。",
  ]);
  await expect(page.getByText("账单已解释")).toBeVisible();
});

test("a reply being written survives a reload of the workbench, and goes once it is sent", async ({ page, request }) => {
  const customer = await customers(request);
  await page.goto("/textWorkBench");
  await signIn(page, "chat");
  await expect(page.getByText("实时连接：已连接")).toBeVisible();
  await customer.arrive("顾客丙", "请问营业时间？");
  await sessionButton(page, "顾客丙").click();
  await replyBox(page).fill("我们的营业时间是");

  await page.reload();
  await sessionButton(page, "顾客丙").click();
  await expect(replyBox(page)).toHaveValue("我们的营业时间是");
  await replyBox(page).pressSequentially("每天九点到十八点");
  await replyBox(page).press("Enter");
  await expect(log(page).getByText("我们的营业时间是每天九点到十八点")).toBeVisible();
  await expect(log(page).getByText("待发送")).toHaveCount(0);

  await page.reload();
  await sessionButton(page, "顾客丙").click();
  await expect(log(page).getByText("我们的营业时间是每天九点到十八点")).toBeVisible();
  await expect(replyBox(page)).toHaveValue("");

  // What is typed while the page is still loading stays in the chat open then.
  const hydrate = await holdHydration(page);
  await page.reload();
  await replyBox(page).fill("还有其他问题吗？");
  hydrate();
  await expect(page.getByText("实时连接：已连接")).toBeVisible();
  await expect(replyBox(page)).toHaveValue("还有其他问题吗？");
  await replyBox(page).fill("");
  await sessionButton(page, "顾客丙").click();
  await endSession(page);
  await expect(sessionButton(page, "顾客丙")).toHaveCount(0);
});

test("a reply sent while the console cannot be reached survives a reload and is stored once", async ({ page, request }) => {
  const customer = await customers(request);
  await page.goto("/textWorkBench");
  await signIn(page, "chat");
  await expect(page.getByText("实时连接：已连接")).toBeVisible();
  const sessionId = await customer.arrive("顾客丁", "我要退货");
  await sessionButton(page, "顾客丁").click();

  // Sends are lost on the way, as on a dropped network.
  await page.route("**/textWorkBench/actions", (route) => route.abort());
  await replyBox(page).fill("请提供订单号");
  await replyBox(page).press("Enter");
  await expect(log(page).locator(".is-pending")).toContainText("请提供订单号");
  await expect(page.getByText("暂时无法连接平台，待发送的消息将在恢复后自动发送")).toBeVisible();

  await page.reload();
  await sessionButton(page, "顾客丁").click();
  await expect(log(page).locator(".is-pending")).toContainText("请提供订单号");
  expect((await customer.stored(sessionId)).dialogs.map((d) => d.content)).not.toContain("请提供订单号");

  // The way is open again: the reply goes out, once.
  await page.unroute("**/textWorkBench/actions");
  await expect(log(page).getByText("待发送")).toHaveCount(0, { timeout: 15_000 });
  await page.reload();
  await sessionButton(page, "顾客丁").click();
  await expect(log(page).getByText("请提供订单号")).toHaveCount(1);
  await expect(log(page).getByText("待发送")).toHaveCount(0);
  expect((await customer.stored(sessionId)).dialogs.filter((d) => d.content === "请提供订单号")).toHaveLength(1);
  await endSession(page);
  await expect(sessionButton(page, "顾客丁")).toHaveCount(0);
});

test.describe("chat records @noscript", () => {
  test("text/call lists closed conversations and shows a whole one", async ({ page }) => {
    await page.goto("/text/call");
    await signIn(page, "chat");
    await expect(page.getByRole("heading", { level: 1, name: "文本会话记录" })).toBeVisible();
    const row = page.getByRole("row", { name: /李娜/ });
    await expect(row).toContainText("已结束");
    await expect(row).toContainText("136****2222");
    await row.getByRole("link", { name: "查看会话" }).click();
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("会话详情：李娜");
    await expect(page.getByRole("list", { name: "会话内容" }).locator("li")).toHaveCount(5);
    await expect(page.getByText("已为您催促配送站，预计明天送达。")).toBeVisible();
  });

  test("filters and paging stay in the URL; bad ones get a clear message; foreign ids are 404", async ({ page }) => {
    await page.goto("/text/call");
    await signIn(page, "chat");
    await page.getByLabel("客户姓名或手机号").fill("王磊");
    await page.getByRole("button", { name: "查询" }).click();
    await expect(page).toHaveURL(/keyword=%E7%8E%8B%E7%A3%8A/);
    await expect(page.getByRole("row", { name: /王磊/ })).toBeVisible();
    await expect(page.getByRole("row", { name: /李娜/ })).toHaveCount(0);
    await page.goto("/text/call?page=abc");
    await expect(page.getByRole("alert")).toHaveText("筛选或分页参数无效，已显示第一页");
    await page.goto("/text/call?page=99");
    await expect(page.getByText("没有更多记录了。")).toBeVisible();
    const response = await page.goto("/text/call/cs_doesnotexist");
    expect(response?.status()).toBe(404);
  });

  test("text/businessRecord lists the saved business records", async ({ page }) => {
    await page.goto("/text/businessRecord");
    await signIn(page, "chat");
    const row = page.getByRole("row", { name: /李娜/ });
    await expect(row).toContainText("业务咨询");
    await expect(row).toContainText("处理成功");
  });
});

test("knowledge an editor imports is a quick reply at once; its use and a search that found nothing go back to the editor", async ({
  browser,
  page,
  request,
}) => {
  const customer = await customers(request);
  const editor = await (await browser.newContext()).newPage();
  await editor.goto("/knowledgeBase/config");
  await signIn(editor, "admin");
  await createGroup(editor, "会员服务");
  await importFile(editor, "会员.csv", "问题,答案,标签\n会员退货地址,请寄回：上海市浦东新区张江路88号 售后部收,退货\n");
  await expect(editor.getByRole("status").filter({ hasText: "导入完成" })).toContainText("导入完成：成功 1 条，失败 0 条。");

  // The text agent types '/' and finds the new answer.
  await page.goto("/textWorkBench");
  await signIn(page, "chat");
  await expect(page.getByText("实时连接：已连接")).toBeVisible();
  await customer.arrive("顾客戊", "退货寄到哪里？");
  await sessionButton(page, "顾客戊").click();
  await replyBox(page).fill("/退货地址");
  await expect(page.getByRole("listbox", { name: "快捷回复" }).getByRole("option")).toHaveText([
    "会员退货地址 请寄回：上海市浦东新区张江路88号 售后部收",
  ]);
  const used = page.waitForResponse(
    (r) => r.url().endsWith("/textWorkBench/actions") && r.request().postData()?.includes("useReply") === true,
  );
  await replyBox(page).press("Enter");
  await expect(replyBox(page)).toHaveValue("请寄回：上海市浦东新区张江路88号 售后部收");
  expect((await used).ok()).toBe(true);

  // A search that finds nothing is reported after a moment.
  const missed = page.waitForResponse(
    (r) => r.url().endsWith("/textWorkBench/actions") && r.request().postData()?.includes("noReply") === true,
  );
  await replyBox(page).fill("/积分兑换");
  await expect(page.getByRole("listbox", { name: "快捷回复" })).toHaveCount(0);
  expect((await missed).ok()).toBe(true);
  await replyBox(page).fill("");
  await endSession(page);
  await expect(sessionButton(page, "顾客戊")).toHaveCount(0);

  // The editor sees the use (cells: selection, question, answer, labels, state, uses) and the gap.
  await editor.reload();
  await expect(row(editor, "会员退货地址").getByRole("cell").nth(5)).toHaveText("1");
  await expect(editor.getByRole("table", { name: "无结果搜索" }).getByRole("row").filter({ hasText: "积分兑换" })).toContainText("1");
  await expectAccessible(editor);
});

/**
 * The next post of `content` to the workbench's endpoint fails once, as when the platform is
 * briefly unreachable: refused with the console's 503, lost on the way there, or stored by the
 * platform with its answer lost on the way back. Resolves once it has failed.
 */
async function failOnce(page: Page, content: string, how: "unreachable" | "lost" | "answerLost"): Promise<{ failed: Promise<void> }> {
  let failed: () => void = () => {};
  const done = new Promise<void>((resolve) => (failed = resolve));
  let once = false;
  await page.route("**/textWorkBench/actions", async (route) => {
    if (once || !route.request().postDataBuffer()?.toString("utf8").includes(content)) return route.fallback();
    once = true;
    if (how === "unreachable") {
      await route.fulfill({ status: 503, json: { ok: false, error: "发送消息失败：暂时无法连接平台，请稍后重试" } });
    } else if (how === "lost") await route.abort();
    else {
      await route.fetch();
      await route.abort();
    }
    failed();
  });
  return { failed: done };
}

// In this file, not one of its own: `chat` is the one text agent, and tests of different files
// run at the same time, where each would see the other's chats.
test("an hour without a slip: three chats at once, a reload and an outage in the middle, every reply stored once", async ({
  page,
  request,
}) => {
  // About 30 s on a loaded machine: three chats, a reload and three failed sends retried.
  test.setTimeout(60_000);
  const customer = await customers(request);
  await page.goto("/textWorkBench");
  await signIn(page, "chat");
  await expect(page.getByText("实时连接：已连接")).toBeVisible();
  const chats = {
    zhou: { name: "周一鸣", id: await customer.arrive("周一鸣", "我想改套餐") },
    wu: { name: "吴二娘", id: await customer.arrive("吴二娘", "发票怎么开") },
    zheng: { name: "郑三元", id: await customer.arrive("郑三元", "宽带报修") },
  };
  for (const chat of Object.values(chats)) await expect(sessionButton(page, chat.name)).toBeVisible();
  const openChat = async (name: string) => {
    await sessionButton(page, name).click();
    await expect(page.getByRole("heading", { name: `与 ${name} 的会话` })).toBeVisible();
  };
  /** Types on where the draft ends, and sends the whole reply. */
  const reply = async (text: string, whole = text) => {
    await replyBox(page).pressSequentially(text);
    await expect(replyBox(page)).toHaveValue(whole);
    await replyBox(page).press("Enter");
    await expect(replyBox(page)).toHaveValue("");
    await expect(log(page).getByText(whole, { exact: true })).toHaveCount(1);
  };

  await openChat("周一鸣");
  await reply("您好，请问想改成哪个套餐？");
  // Typing in one chat while the other two receive messages: the draft stays where it is typed.
  await openChat("吴二娘");
  await replyBox(page).pressSequentially("发票可以在");
  await customer.write(chats.zhou.id, "月租低一点的");
  await customer.write(chats.zheng.id, "网速很慢");
  await expect(sessionButton(page, "周一鸣")).toHaveAccessibleName(/有未读消息/);
  await expect(sessionButton(page, "郑三元")).toHaveAccessibleName(/有未读消息/);
  await replyBox(page).pressSequentially("APP里申请");
  await expect(replyBox(page)).toHaveValue("发票可以在APP里申请");
  await replyBox(page).press("Enter");
  await expect(log(page).getByText("发票可以在APP里申请")).toHaveCount(1);
  await page.keyboard.press("Alt+ArrowDown");
  await expect(page.getByRole("heading", { name: "与 郑三元 的会话" })).toBeVisible();
  await expect(log(page).getByText("网速很慢")).toHaveCount(1);
  await reply("请问您的宽带账号是？");

  // Two replies half written, then the page is reloaded: each comes back in its own chat.
  await openChat("周一鸣");
  await expect(log(page).getByText("月租低一点的")).toHaveCount(1);
  await replyBox(page).pressSequentially("推荐您");
  await openChat("郑三元");
  await replyBox(page).pressSequentially("收到，正在");
  await expect(log(page).getByText("待发送")).toHaveCount(0);
  await page.reload();
  await expect(page.getByText("实时连接：已连接")).toBeVisible();
  await openChat("吴二娘");
  await expect(replyBox(page)).toHaveValue("");
  await openChat("周一鸣");
  await expect(replyBox(page)).toHaveValue("推荐您");
  await reply("39元套餐", "推荐您39元套餐");
  await openChat("郑三元");
  await expect(replyBox(page)).toHaveValue("收到，正在");

  // Stored by the platform, its answer lost: sent again, stored once.
  const answerLost = await failOnce(page, "为您检测线路", "answerLost");
  await reply("为您检测线路", "收到，正在为您检测线路");
  await answerLost.failed;
  // The platform cannot be reached for a moment: the reply waits while the customer writes, then goes.
  await openChat("吴二娘");
  const unreachable = await failOnce(page, "您的发票已开具", "unreachable");
  await reply("您的发票已开具");
  await unreachable.failed;
  await customer.write(chats.wu.id, "好的谢谢");
  await expect(log(page).getByText("好的谢谢")).toHaveCount(1);
  await expect(log(page).getByText("待发送")).toHaveCount(0, { timeout: 15_000 });

  // Each chat ends with its result. 吴二娘's last reply cannot go: the chat ends once it has.
  // 周一鸣's goodbye is lost on its first try, and the chat is ended at once (Alt+E, the record
  // saved): the goodbye still reaches the customer, before the end.
  const results = {
    wu: { category: "consult", label: "业务咨询", result: 1, resultLabel: "处理成功", remark: "发票已开具" },
    zheng: { category: "after_sales", label: "售后服务", result: 2, resultLabel: "处理失败", remark: "线路故障待上门" },
    zhou: { category: "other", label: "其他", result: 1, resultLabel: "处理成功", remark: "改为39元套餐" },
  };
  for (const key of ["wu", "zheng", "zhou"] as const) {
    const chat = chats[key];
    const result = results[key];
    await openChat(chat.name);
    await page.getByLabel("业务类型").selectOption({ label: result.label });
    await page.getByLabel("处理结果").selectOption({ label: result.resultLabel });
    await page.getByLabel("备注").fill(result.remark);
    await page.getByRole("button", { name: "保存业务记录" }).click();
    await expect(page.getByText("业务记录已保存")).toBeVisible();
    if (key === "wu") {
      // While a reply cannot go, the chat does not end: the agent is told, and the chat stays.
      await page.route("**/textWorkBench/actions", (route) =>
        route.request().postDataBuffer()?.toString("utf8").includes("稍后短信通知您") ? route.abort() : route.fallback(),
      );
      await replyBox(page).click();
      await reply("稍后短信通知您");
      await page.keyboard.press("Alt+KeyE");
      await expect(page.getByRole("alert")).toHaveText("结束会话失败：还有回复未发出，请恢复连接后重试");
      await expect(sessionButton(page, chat.name)).toHaveCount(1);
      await page.unroute("**/textWorkBench/actions");
    }
    if (key === "zhou") {
      const lost = await failOnce(page, "感谢您的咨询，再见", "lost");
      await replyBox(page).click();
      await reply("感谢您的咨询，再见");
      await lost.failed;
    }
    await replyBox(page).click();
    await page.keyboard.press("Alt+KeyE");
    await expect(sessionButton(page, chat.name)).toHaveCount(0);
  }

  // The platform's records: every reply once, on its own chat, in order; each chat's result on it.
  const said = (session: StoredSession, role: string) => session.dialogs.filter((d) => d.role === role).map((d) => d.content);
  const expected = {
    zhou: { user: ["我想改套餐", "月租低一点的"], agent: ["您好，请问想改成哪个套餐？", "推荐您39元套餐", "感谢您的咨询，再见"] },
    wu: { user: ["发票怎么开", "好的谢谢"], agent: ["发票可以在APP里申请", "您的发票已开具", "稍后短信通知您"] },
    zheng: { user: ["宽带报修", "网速很慢"], agent: ["请问您的宽带账号是？", "收到，正在为您检测线路"] },
  };
  for (const key of ["zhou", "wu", "zheng"] as const) {
    const stored = await customer.stored(chats[key].id);
    expect(stored.state, chats[key].name).toBe("closed");
    expect(said(stored, "user"), chats[key].name).toEqual(expected[key].user);
    expect(said(stored, "agent"), chats[key].name).toEqual(expected[key].agent);
    const { category, result, remark } = results[key];
    expect(stored.businessRecord, chats[key].name).toMatchObject({ category, result, remark });
  }
});
