import { expect, test, type Page } from "@playwright/test";
import { choosePageSize, expectAccessible, signIn, signOut } from "./support";

/** The inspection screens (/inspectionSuccess, /achievement, /access), as these tests use them. */
const calls = (page: Page) => page.getByRole("table", { name: "质检通话列表" });
const toast = (page: Page, text: string | RegExp) => page.getByRole("status").filter({ hasText: text });

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
  await calls(page)
    .getByRole("link", { name: /^质检通话/ })
    .first()
    .click();
  const first = page.url();

  // Keys choose the result; the draft survives a reload.
  const form = page.getByRole("form", { name: "质检评分" });
  await expect(form).toBeVisible();
  await expect(form).toHaveAttribute("data-ready", "1"); // the island's keys are listening
  await page.getByRole("heading", { name: /通话质检/ }).click();
  await page.keyboard.press("2");
  await expect(form.getByRole("radio", { name: /明确办理/ })).toBeChecked();
  await form.getByLabel(/备注/).fill("开场白规范，确认了分期期数");
  await expectAccessible(page);
  await page.reload();
  await expect(form).toHaveAttribute("data-ready", "1");
  await expect(form.getByRole("radio", { name: /明确办理/ })).toBeChecked();
  await expect(form.getByLabel(/备注/)).toHaveValue("开场白规范，确认了分期期数");

  // A remark over its limit (the browser's own limit removed): a Chinese 400, the values kept.
  await form.getByLabel(/备注/).evaluate((el) => el.removeAttribute("maxlength"));
  await form.getByLabel(/备注/).fill("长".repeat(501));
  await form.getByRole("button", { name: "保存", exact: true }).click();
  await expect(page.getByRole("alert")).toContainText("备注不能超过500个字符");
  await expect(form.getByLabel(/备注/)).toHaveValue("长".repeat(501));
  await expect(form.getByRole("radio", { name: /明确办理/ })).toBeChecked();

  // Save and next by keyboard: the next locked call opens.
  await form.getByLabel(/备注/).fill("开场白规范");
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
  await calls(page)
    .getByRole("link", { name: /^查看通话/ })
    .first()
    .click();
  const appealed = page.url();
  await page.getByLabel(/申诉理由/).fill("客户在通话最后明确同意办理");
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
  await decision.getByLabel(/更正后的质检结果/).selectOption({ label: "明确办理" });
  await decision.getByLabel(/更正后的影响/).selectOption({ label: "正面影响" });
  await decision.getByLabel("处理意见").fill("  "); // passes the browser's required check, not the server's
  await decision.getByRole("button", { name: "提交处理" }).click();
  await expect(page.getByRole("alert")).toContainText("请填写处理意见");
  await expect(decision.getByLabel("处理结果")).toHaveValue("accepted");
  await decision.getByLabel("处理意见").fill("复听确认客户同意办理");
  await decision.getByRole("button", { name: "提交处理" }).click();
  await expect(toast(page, "申诉已通过，结果已更正")).toBeVisible();
  await expect(page.getByText("申诉通过")).toBeVisible();
  await expect(page.getByRole("list").filter({ hasText: "处理质检申诉" })).toContainText("复听确认客户同意办理");
  await expectAccessible(page);
});

test("the list, bulk reallocation, achievement and access without JavaScript @noscript", async ({ page }) => {
  test.setTimeout(45_000);
  await page.goto("/inspectionSuccess?qcStatus=-1&minDuration=10");
  await signIn(page, "admin");
  await expect(calls(page).getByRole("row").nth(1)).toContainText("未质检");

  // Reallot two waiting calls evenly between the two inspectors, after a confirmation step.
  await page.getByRole("checkbox", { name: "选择第 1 行" }).check();
  await page.getByRole("checkbox", { name: "选择第 2 行" }).check();
  await page.getByRole("button", { name: "改派所选" }).click();
  await expect(page.getByRole("alert")).toContainText("请选择质检员");
  await page.getByRole("checkbox", { name: "选择第 1 行" }).check();
  await page.getByRole("checkbox", { name: "选择第 2 行" }).check();
  await page.getByRole("checkbox", { name: "李秀英" }).check();
  await page.getByRole("checkbox", { name: "王建国" }).check();
  await page.getByLabel("原因（选填）").fill("均衡工作量");
  await page.getByRole("button", { name: "改派所选" }).click();
  await expect(page.getByRole("alertdialog", { name: "批量改派质检" })).toContainText("平均改派给 2 名质检员");
  await page.getByRole("button", { name: "确认改派" }).click();
  await expect(toast(page, /改派完成：成功 \d 条/)).toBeVisible();
  await expectAccessible(page);
  const exported = await page.request.get("/inspectionSuccess/export?qcStatus=-1&format=csv");
  expect(exported.headers()["content-type"]).toContain("text/csv");
  expect((await exported.text()).split("\r\n")[1]).toContain("未质检");

  // Achievement: sorted by a column link; each agent opens their calls; the CSV export.
  await page.goto("/achievement");
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
  await page.getByRole("button", { name: `收回 李秀英 的「${campaign}」权限` }).click();
  await page.getByRole("alertdialog", { name: "收回质检权限" }).getByRole("button", { name: "确认收回" }).click();
  await expect(toast(page, "权限已收回")).toBeVisible();
  await expect(page.getByRole("button", { name: `收回 李秀英 的「${campaign}」权限` })).toHaveCount(0);
});
