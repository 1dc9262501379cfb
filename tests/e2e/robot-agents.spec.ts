import { expect, test, type Page } from "@playwright/test";
import { expectAccessible, menuNames, PLATFORM_URL, platformToken, signIn, signOut } from "./support";

// 坐席配置 (decision 031): a page that ships no script, so its flows run once, without JavaScript
// (@noscript), axe included; the 强制下线 confirmation loads one (Escape follows 取消), so that flow
// runs in both projects (@nojs). 钱磊 (agent02) is the agent no other test signs in as.

const toast = (page: Page) => page.locator(".sb-toast");

test("an administrator makes an agent a text agent in another queue: a 工号 in use is refused with the values kept, the agent's menu follows @noscript", async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  // 钱磊 is signed in elsewhere, as a voice agent, while the administrator changes their type.
  const elsewhere = await browser.newContext();
  const agent = await elsewhere.newPage();
  await signIn(agent, "agent02");
  expect(await menuNames(agent)).toContain("语音工作台");
  await page.goto("/robot/agent");
  await signIn(page, "admin");
  await expect(page.getByRole("heading", { name: "坐席配置", level: 1 })).toBeVisible();
  const list = page.getByRole("table", { name: "坐席列表" });
  await expect(list).toContainText("钱磊");
  await expect(list).toContainText("刘洋");
  await expectAccessible(page);

  // A page past the last shows the last page and says so, never "暂无坐席" beside the total.
  await page.goto("/robot/agent?page=5");
  await expect(page.getByRole("status").filter({ hasText: "第 5 页不存在" })).toHaveText("第 5 页不存在，已显示最后一页（第 1 页）");
  await expect(list).toContainText("钱磊");
  await expect(list).not.toContainText("暂无坐席");
  await expect(page.getByLabel("第 1 页", { exact: true })).toHaveAttribute("aria-current", "page");
  await page.goto("/robot/agent");

  // Filters: the text agents only.
  await page.getByLabel("类型").selectOption({ label: "文本" });
  await page.getByRole("button", { name: "查询" }).click();
  await expect(list.getByRole("row")).toHaveCount(2);
  await expect(list).toContainText("刘洋");
  await expect(list).not.toContainText("钱磊");

  // The agent's form opens under the filters (a nested route), from the full list.
  await page.getByRole("link", { name: "重置" }).click();
  await page.getByLabel("姓名或工号").fill("钱磊");
  await page.getByRole("button", { name: "查询" }).click();
  await list.getByRole("link", { name: "编辑坐席「钱磊」" }).click();
  await expect(page.getByRole("heading", { name: "编辑坐席：钱磊" })).toBeVisible();
  const form = page.getByRole("form", { name: "编辑坐席：钱磊" });
  await expect(form.getByLabel("工号")).toHaveValue("1102");
  await expect(form.getByLabel("默认队列")).toHaveValue("demo-sales");
  await expectAccessible(page);

  // A 工号 of the wrong shape does not even post (the browser checks the pattern without JavaScript).
  await form.getByLabel("工号").fill("12a");
  expect(await form.getByLabel("工号").evaluate((input: HTMLInputElement) => input.validity.patternMismatch)).toBe(true);

  // A 工号 another agent has: refused by the platform, every value typed kept.
  await form.getByLabel("类型").selectOption({ label: "文本" });
  await form.getByLabel("工号").fill("1002");
  await form.getByLabel("默认队列").selectOption("demo-text");
  await form.getByLabel("修改原因").fill("转岗做在线客服");
  await form.getByRole("button", { name: "保存" }).click();
  await expect(page.getByText("工号「1002」已被坐席「张伟」使用，请换一个工号")).toBeVisible();
  await expect(form.getByLabel("工号")).toHaveAttribute("aria-invalid", "true");
  // The focus is on the field in error, not at the top of the page.
  await expect(form.getByLabel("工号")).toBeFocused();
  await expect(form.getByLabel("类型")).toHaveValue("3");
  await expect(form.getByLabel("默认队列")).toHaveValue("demo-text");
  await expect(form.getByLabel("修改原因")).toHaveValue("转岗做在线客服");
  await expectAccessible(page);

  // A free 工号: saved, back to the list as it was, the row changed.
  await form.getByLabel("工号").fill("1202");
  await form.getByRole("button", { name: "保存" }).click();
  await expect(toast(page)).toHaveText("坐席「钱磊」的配置已保存");
  await expect(page).toHaveURL(/\/robot\/agent\?name=/);
  const row = list.getByRole("row", { name: /钱磊/ });
  await expect(row).toContainText("1202");
  await expect(row).toContainText("文本");
  await expect(row).toContainText("demo-text");

  // Their open session ended with the old type: the next page is the sign-in.
  await agent.goto("/agentTask/workOrder");
  await expect(agent).toHaveURL(/\/user\/login/);
  await elsewhere.close();

  // The change is in the audit log with its reason.
  await page.goto("/audit?action=agent.config");
  await expect(page.getByRole("table")).toContainText(
    "坐席 钱磊：语音，工号 1102，默认队列 demo-sales → 文本，工号 1202，默认队列 demo-text",
  );
  await expect(page.getByRole("table")).toContainText("转岗做在线客服");

  // Another tenant's agent is not found.
  const foreign = await page.request.get(`${PLATFORM_URL}/uaa/oauth/user_auth`, {
    headers: { authorization: `Bearer ${await platformToken(page.request, "other-admin")}` },
  });
  expect((await page.goto(`/robot/agent/${(await foreign.json()).data.id}`))?.status()).toBe(404);
  await expect(page.getByText("您访问的页面不存在")).toBeVisible();
  await signOut(page);

  // At the agent's next sign-in: the text workbench, not the voice one; and no 坐席配置.
  await signIn(page, "agent02");
  const menu = await menuNames(page);
  expect(menu).toContain("文本工作台");
  expect(menu).not.toContain("语音工作台");
  await page.goto("/robot/agent");
  await expect(page.getByRole("heading", { name: "无权访问该页面" })).toBeVisible();
});

test("an administrator signs an agent out everywhere: a reason, a confirmation, the agent's open session sent to sign-in, audited @nojs", async ({
  page,
  browser,
}) => {
  // 钱磊 (agent02) signed in elsewhere, a page open.
  const elsewhere = await browser.newContext();
  const agent = await elsewhere.newPage();
  await signIn(agent, "agent02");
  await expect(agent).not.toHaveURL(/\/user\/login/);

  await page.goto("/robot/agent?name=钱磊");
  await signIn(page, "admin");
  await page.getByRole("table", { name: "坐席列表" }).getByRole("link", { name: "编辑坐席「钱磊」" }).click();
  const logout = page.getByRole("form", { name: "强制下线" });
  // A reason of blanks is no reason: said in Chinese, nothing done.
  await logout.getByLabel("下线原因").fill("   ");
  await logout.getByRole("button", { name: "强制下线" }).click();
  await expect(logout.getByRole("alert")).toHaveText("请填写下线原因");
  // A reason over its limit (the browser's own limit removed): refused in Chinese, kept as typed.
  await logout.getByLabel("下线原因").evaluate((el) => el.removeAttribute("maxlength"));
  await logout.getByLabel("下线原因").fill(`设备遗失${"长".repeat(200)}`);
  await logout.getByRole("button", { name: "强制下线" }).click();
  await expect(logout.getByRole("alert")).toHaveText("下线原因不能超过200个字");
  await expect(logout.getByLabel("下线原因")).toHaveValue(`设备遗失${"长".repeat(200)}`);
  await expect(logout.getByLabel("下线原因")).toHaveAttribute("aria-invalid", "true");
  await logout.getByLabel("下线原因").fill("设备遗失");
  await logout.getByRole("button", { name: "强制下线" }).click();

  // The confirmation names who and why; the focus starts on 取消, the least destructive choice.
  const confirm = page.getByRole("alertdialog", { name: "强制下线坐席「钱磊」" });
  await expect(confirm).toContainText("账号 agent02");
  await expect(confirm).toContainText("原因：设备遗失");
  await expect(confirm.getByRole("link", { name: "取消" })).toBeFocused();
  await expectAccessible(page);
  // Escape (with JavaScript) or 取消 goes back to the agent's page: the reason typed kept, the
  // focus on the button that opened the step.
  if (test.info().project.use.javaScriptEnabled !== false) await page.keyboard.press("Escape");
  else await confirm.getByRole("link", { name: "取消" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(logout.getByLabel("下线原因")).toHaveValue("设备遗失");
  await expect(logout.getByRole("button", { name: "强制下线" })).toBeFocused();
  await logout.getByRole("button", { name: "强制下线" }).click();
  await confirm.getByRole("button", { name: "确认强制下线" }).click();
  await expect(toast(page)).toHaveText("已强制下线，该坐席需重新登录");

  // The agent's open session is gone: the next page that asks the platform is the sign-in (a page
  // that asks nothing, its menu kept 30 s, follows within those 30 s).
  await agent.goto("/agentTask/workOrder");
  await expect(agent).toHaveURL(/\/user\/login/);
  await elsewhere.close();

  await page.goto("/audit?action=account.logout");
  await expect(page.getByRole("table")).toContainText("强制下线账号「agent02」");
  await expect(page.getByRole("table")).toContainText("设备遗失");
});
