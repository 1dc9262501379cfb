import { expect, test, type Page } from "@playwright/test";
import { expectAccessible, signIn } from "./support";

/** The live inspection queue (decision 033): one inspector's change shows on another's open queue. */
const calls = (page: Page) => page.getByRole("table", { name: "质检通话列表" });
const rowOf = (page: Page, callId: string) =>
  calls(page)
    .getByRole("row")
    .filter({ has: page.locator(`input[value="${callId}"]`) });
const live = (page: Page) => page.getByRole("status").filter({ hasText: "实时更新：已连接" });
/** Marks the document: still marked later means the page was not reloaded. */
const mark = (page: Page) => page.evaluate(() => Object.assign(window, { liveMark: true }));
const marked = (page: Page) => page.evaluate(() => (window as unknown as { liveMark?: boolean }).liveMark === true);

test("two inspectors: a call locked and scored by one changes on the other's open queue without a reload", async ({ browser }) => {
  test.setTimeout(60_000);
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

    // The administrator (王建国) takes the newest waiting call of 张伟.
    const admin = await acting.newPage();
    await admin.goto(`/inspectionSuccess?agentId=${agentId}&qcStatus=-1`);
    await signIn(admin, "admin");
    await admin.goto(`/inspectionSuccess?agentId=${agentId}&qcStatus=-1`);
    const box = calls(admin).getByRole("checkbox", { name: "选择第 1 行" });
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
