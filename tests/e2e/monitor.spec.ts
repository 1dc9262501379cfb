import { expect, test } from "@playwright/test";
import { codesOf, MONITOR_RULE_KEYS } from "#contracts/codes";
import { expectAccessible, PASSWORD, readyOnWorkbench, signIn } from "./support";

/**
 * The supervisor's live monitor against the real platform. The agent is 郑浩 (agent06) of the demo
 * sales queue, whom no other test uses; the agent population simulator is off in the e2e platform.
 */
const AGENT = { user: "agent06", name: "郑浩", agentId: "1106" };

test("an agent goes ready and the supervisor sees it live; a sign-out with a reason reaches the agent's workbench @cluster", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const agentContext = await browser.newContext();
  const supervisorContext = await browser.newContext();
  const agent = await agentContext.newPage();
  const supervisor = await supervisorContext.newPage();

  await signIn(supervisor, "supervisor");
  await supervisor.goto("/monitor/agent?queueName=demo-sales");
  await expect(supervisor.getByRole("heading", { level: 1 })).toHaveText("坐席监控");
  await expect(supervisor.getByRole("status").filter({ hasText: "实时连接" })).toHaveText("实时连接：已连接");
  const row = supervisor.getByRole("row").filter({ hasText: AGENT.agentId });
  await expect(row).toContainText("已签出");
  await expectAccessible(supervisor);

  await signIn(agent, AGENT.user);
  await agent.goto("/workBench");
  await expect(agent.getByTestId("connection")).toHaveText("已连接");
  await agent.getByRole("button", { name: "签入" }).click();
  await expect(row).toContainText("未就绪", { timeout: 2_000 });
  await agent.keyboard.press("Alt+R");
  await expect(agent.getByTestId("agent-state")).toHaveText("就绪");
  // The state change reaches the supervisor's screen within a second, without a reload.
  await expect(row).toContainText("就绪", { timeout: 1_000 });
  // The queue's figures count the agent as ready (签入, 就绪 are the first two columns).
  const queue = supervisor.getByRole("table", { name: "队列概况" }).getByRole("row", { name: /^demo-sales/ });
  await expect(queue.locator("td").nth(1)).toHaveText("1");

  await row.getByRole("link", { name: `操作坐席 ${AGENT.name}` }).click();
  await expect(supervisor.getByRole("heading", { level: 1 })).toHaveText(`坐席详情：${AGENT.name}`);
  await expect(supervisor.getByRole("status").filter({ hasText: "实时连接" })).toHaveText("实时连接：已连接");
  // The agent's page follows the agent live too, without a reload.
  await agent.keyboard.press("Alt+N");
  await expect(agent.getByTestId("agent-state")).toContainText("未就绪");
  await expect(supervisor.getByTestId("agent-state")).toContainText("未就绪", { timeout: 1_000 });
  await agent.keyboard.press("Alt+R");
  await expect(supervisor.getByTestId("agent-state")).toHaveText("就绪", { timeout: 1_000 });
  await expectAccessible(supervisor);
  const signOut = supervisor.getByRole("region", { name: "强制签出" });
  await signOut.getByLabel("原因").fill("  ");
  await signOut.getByRole("button", { name: "签出" }).click();
  await expect(signOut.getByText("请填写原因")).toBeVisible();
  await signOut.getByLabel("原因").fill("交接班");
  await signOut.getByRole("button", { name: "签出" }).click();
  await expect(supervisor.getByRole("status").filter({ hasText: `已将 ${AGENT.name} 签出` })).toBeVisible();
  await expect(supervisor.getByTestId("agent-state")).toHaveText("已签出");

  await expect(agent.getByRole("alert").filter({ hasText: "主管李秀英已将您签出。原因：交接班" })).toBeVisible();
  await expect(agent.getByTestId("agent-state")).toHaveText("已签出");
  await expectAccessible(agent);

  // A whisper reaches only the agent, on their workbench.
  const whisper = supervisor.getByRole("region", { name: "密语" });
  await whisper.getByLabel("密语内容（仅该坐席可见）").fill("下一通是投诉客户，先安抚");
  await whisper.getByRole("button", { name: "发送密语" }).click();
  await expect(agent.getByText("主管李秀英的密语：下一通是投诉客户，先安抚")).toBeVisible();

  await agentContext.close();
  await supervisorContext.close();
});

test.describe("the monitor without JavaScript @nojs", () => {
  test("shows the snapshot with its time and a refresh link, filters in the URL, and every action works as a form", async ({ page }) => {
    // The two projects run at once: each moves an agent of its own.
    const [agentId, name] = test.info().project.name === "js" ? ["1108", "冯雪"] : ["1109", "陈刚"];
    await signIn(page, "supervisor");
    await page.goto("/monitor/agent");
    await expect(page.getByText(/数据截至 \d\d:\d\d:\d\d/)).toBeVisible();
    await expect(page.getByRole("link", { name: "刷新" })).toBeVisible();
    await expect(page.getByRole("table", { name: "队列概况" }).getByRole("row", { name: /^合计/ })).toBeVisible();
    await page.getByLabel("队列").selectOption("demo-sales");
    await page.getByLabel("排序").selectOption("since");
    await page.getByRole("button", { name: "查询" }).click();
    await expect(page).toHaveURL(/queueName=demo-sales/);
    await expect(page.getByRole("row").filter({ hasText: agentId })).toContainText(name);
    await expect(page.getByRole("row").filter({ hasText: "1002" })).toHaveCount(0);

    await page.getByRole("link", { name: `操作坐席 ${name}` }).click();
    // Without JavaScript the agent's page says it is the snapshot of its time, not that it is connecting.
    if (test.info().project.use.javaScriptEnabled === false) {
      await expect(page.getByText("页面内容截至加载时，刷新可查看最新")).toBeVisible();
      await expect(page.getByText("连接中")).toHaveCount(0);
    } else {
      await expect(page.getByRole("status").filter({ hasText: "实时连接" })).toHaveText("实时连接：已连接");
    }
    const move = page.getByRole("region", { name: "调整队列" });
    await move.getByLabel("目标队列").selectOption("demo-voice");
    await move.getByLabel("原因").fill("   ");
    await move.getByRole("button", { name: "调整" }).click();
    // Bad input (a reason of spaces only): a Chinese message, and what was chosen is kept.
    await expect(move.getByText("请填写原因")).toBeVisible();
    await expect(move.getByLabel("目标队列")).toHaveValue("demo-voice");
    await move.getByLabel("原因").fill("支援热线");
    await move.getByRole("button", { name: "调整" }).click();
    await expect(page.getByText(`已将 ${name} 调整到 demo-voice`)).toBeVisible();
    await expect(page.locator("dl.sb-facts")).toContainText("demo-voice");
    await move.getByLabel("目标队列").selectOption("demo-sales");
    await move.getByLabel("原因").fill("支援结束");
    await move.getByRole("button", { name: "调整" }).click();
    await expect(page.getByText(`已将 ${name} 调整到 demo-sales`)).toBeVisible();

    // A state the agent cannot be put in is refused in Chinese.
    const state = page.getByRole("region", { name: "变更状态" });
    await state.getByLabel("目标状态").selectOption("finishAcw");
    await state.getByLabel("原因", { exact: true }).fill("测试");
    await state.getByRole("button", { name: "变更" }).click();
    await expect(state.getByRole("alert")).toHaveText("变更坐席状态失败：该坐席不在话后整理中");
    await expectAccessible(page);
  });

  test("the thresholds form refuses bad input in Chinese and keeps the values", async ({ page }) => {
    await signIn(page, "supervisor");
    await page.goto("/monitor/rules");
    await page.getByLabel("话后整理预警（秒）").fill("200");
    await page.getByLabel("话后整理严重（秒）").fill("100");
    await page.getByLabel("修改原因", { exact: true }).fill("  ");
    await page.getByRole("button", { name: "保存阈值" }).click();
    await expect(page.getByText("严重阈值应大于预警阈值")).toBeVisible();
    await expect(page.getByText("请填写修改原因")).toBeVisible();
    await expect(page.getByLabel("话后整理预警（秒）")).toHaveValue("200");
    await expect(page.getByLabel("话后整理严重（秒）")).toHaveValue("100");
    await page.getByLabel("话后整理严重（秒）").fill("400");
    await page.getByLabel("修改原因", { exact: true }).fill("旺季调整");
    await page.getByRole("button", { name: "保存阈值" }).click();
    await expect(page.getByText("监控阈值已保存")).toBeVisible();
    await expect(page.getByLabel("话后整理严重（秒）")).toHaveValue("400");
    // A post naming no form of the screen (no intent, or one it does not have) is refused in
    // Chinese and saves nothing, though its thresholds would do.
    const csrf = (await page.locator('input[name="csrf"]').first().getAttribute("value")) ?? "";
    const thresholds: Record<string, string> = { csrf, reason: "无表单" };
    for (const key of codesOf(MONITOR_RULE_KEYS)) Object.assign(thresholds, { [`${key}_warning`]: "200", [`${key}_critical`]: "987" });
    for (const intent of [undefined, "thresholds", "constructor"]) {
      const post = await page.request.post("/monitor/rules", { form: intent ? { ...thresholds, intent } : thresholds, maxRedirects: 0 });
      expect(post.status(), `intent ${intent}`).toBe(400);
      expect(await post.text(), `intent ${intent}`).toContain("请求参数错误");
    }
    await page.reload();
    await expect(page.getByLabel("话后整理严重（秒）")).toHaveValue("400");
    await expectAccessible(page);
  });

  test("agents are refused the monitor, its actions and its stream; another tenant sees only its own agents", async ({ page, request }) => {
    await signIn(page, "agent");
    for (const path of ["/monitor/agent", "/monitor/agent/1", "/monitor/rules"]) {
      expect((await page.goto(path))?.status(), path).toBe(403);
    }
    const stream = await page.request.get("/monitor/agent/events");
    expect(stream.status()).toBe(403);
    const post = await page.request.post("/monitor/rules", { form: { reason: "x" } });
    expect(post.status()).toBe(403);
    void request;

    await page.context().clearCookies();
    await signIn(page, "other-admin");
    await page.goto("/monitor/agent");
    await expect(page.getByRole("table", { name: /坐席状态/ })).not.toContainText("张伟");
    await expect(page.getByRole("table", { name: /坐席状态/ })).not.toContainText("郑浩");
  });
});

test("a call nobody answers rings for the queue's ring timeout, then the agent is not ready and the call rings again when they are back", async ({
  page,
  request,
}) => {
  test.setTimeout(60_000);
  // The other tenant's administrator, its only voice agent, so no other test's call rings here.
  await signIn(page, "other-admin");
  await page.goto("/monitor/rules");
  const ring = page.getByLabel("other-voice（1 名坐席）振铃超时（秒）");
  await ring.fill("3");
  await page.getByLabel("队列设置的修改原因").fill("坐席离座较多");
  await page.getByRole("button", { name: "保存队列设置" }).click();
  await expect(page.getByText("振铃超时至少 5 秒")).toBeVisible();
  await expect(ring).toHaveValue("3");
  await expect(page.getByLabel("队列设置的修改原因")).toHaveValue("坐席离座较多");
  await ring.fill("5");
  await page.getByRole("button", { name: "保存队列设置" }).click();
  await expect(page.getByText("队列设置已保存")).toBeVisible();
  await expect(ring).toHaveValue("5");
  await expectAccessible(page);

  await readyOnWorkbench(page);

  // A robot hands a customer over; nobody answers for 5 seconds.
  const platformURL = `http://127.0.0.1:${Number(new URL(page.url()).port) + 1}`;
  const token = await request.post(`${platformURL}/uaa/oauth/token`, {
    headers: { authorization: `Basic ${Buffer.from("web-console:web-console-secret").toString("base64")}` },
    form: { grant_type: "password", username: "other-admin", password: PASSWORD },
  });
  const offered = await request.post(`${platformURL}/cti/simulator/offer`, {
    headers: { authorization: `Bearer ${(await token.json()).access_token}` },
    data: { phone: "13911112222", transcript: [{ segmentId: 0, thisRole: 1, nluResult: null, dialogContent: "为您转接人工", gender: -1 }] },
  });
  expect(offered.ok(), await offered.text()).toBe(true);
  await expect(page.getByTestId("agent-state")).toContainText("振铃中");
  await expect(page.getByTestId("agent-state")).toHaveText("未就绪（未接来电）", { timeout: 10_000 });

  // Back at the desk: the customer still waits, and the call rings again.
  await page.keyboard.press("Alt+R");
  await expect(page.getByTestId("agent-state")).toContainText("振铃中");
  await page.keyboard.press("Alt+A");
  await expect(page.getByTestId("agent-state")).toContainText("通话中");
  await page.keyboard.press("Alt+H");
  await expect(page.getByTestId("agent-state")).toContainText("话后整理");
});
