import { expect, test, type Page } from "@playwright/test";
import { formatDate } from "#app/lib/format";
import { expectAccessible, signIn } from "./support";

// The call-detail dialog with the keyboard alone: focus goes into the dialog when it
// opens, stays in it (with JavaScript), Escape closes it (with JavaScript), and focus returns to
// the row's 查看 link that opened it. The list is the connected calls up to yesterday, which
// tests running beside this one cannot change.

const MONTH_AGO = formatDate(Date.now() - 30 * 86_400_000);
const YESTERDAY = formatDate(Date.now() - 86_400_000);
/** The seeded robot campaign's connected calls (upstream/seed/call-records.ts): they have every tab. */
const ROBOT_CAMPAIGN = "历史通话·机器人外呼";

const dialog = (page: Page) => page.getByRole("dialog", { name: "通话详情" });
const withJs = () => test.info().project.use.javaScriptEnabled !== false;

/** Presses Tab (or Shift+Tab) until the element `selector` picks has focus, as a keyboard user does; how many presses. */
async function tabTo(page: Page, selector: string, key: "Tab" | "Shift+Tab" = "Tab"): Promise<number> {
  for (let presses = 0; presses < 100; presses++) {
    if (await page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector)) return presses;
    await page.keyboard.press(key);
  }
  throw new Error(`${key} never reached ${selector}`);
}

/** Where focus is: inside the dialog, and on its 关闭. */
const focusIn = (page: Page) =>
  page.evaluate(() => ({
    dialog: !!document.activeElement?.closest("[role=dialog]"),
    close: document.activeElement?.matches("[data-dialog-close]") ?? false,
  }));

test("the call detail by keyboard: focus in, kept in, Escape closes, focus back on the row @nojs", async ({ page }) => {
  // Some sixty key presses and two axe runs, each a round trip to the browser (45 s seen on a loaded machine).
  test.setTimeout(90_000);
  await page.goto(`/callHistory?start=${MONTH_AGO}&end=${YESTERDAY}&result=200`);
  await signIn(page, "supervisor");
  await page.goto((await page.getByRole("link", { name: ROBOT_CAMPAIGN }).first().getAttribute("href"))!);
  await expect(page.locator(".p-datatable-tbody > tr").nth(2)).toContainText(ROBOT_CAMPAIGN);
  const listUrl = page.url();
  const opener = page.locator(".p-datatable-tbody > tr").nth(1).getByRole("link", { name: /查看/ });
  const openerId = await opener.getAttribute("id");
  expect(openerId).toMatch(/^call-\d+$/);

  // From the top of the page: the skip link to the content, then on to the row's link.
  await page.keyboard.press("Tab");
  await expect(page.getByRole("link", { name: "跳到主要内容" })).toBeFocused();
  await page.keyboard.press("Enter");
  await tabTo(page, `#${openerId}`);
  // Open it: focus is in the dialog, on 关闭.
  await page.keyboard.press("Enter");
  await expect(dialog(page)).toBeVisible();
  const close = dialog(page).getByRole("link", { name: "关闭" });
  await expect(close).toBeFocused();
  await expectAccessible(page);

  if (withJs()) {
    // Tab goes round the dialog and comes back to 关闭 without ever leaving it.
    let left = false;
    for (let presses = 0; presses < 60; presses++) {
      await page.keyboard.press("Tab");
      const focus = await focusIn(page);
      if (!focus.dialog) left = true;
      if (focus.close) break;
    }
    expect(left, "Tab left the dialog").toBe(false);
    await expect(close).toBeFocused();
    // Shift+Tab from 关闭 goes to the dialog's last control (创建工单), and back.
    await page.keyboard.press("Shift+Tab");
    await expect(dialog(page).getByRole("button", { name: "创建工单" })).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(close).toBeFocused();
    // Escape closes it; focus is back on the link that opened it.
    await page.keyboard.press("Escape");
    await expect(dialog(page)).toHaveCount(0);
    expect(page.url()).toBe(`${listUrl}#${openerId}`);
    await expect(opener).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(dialog(page)).toBeVisible();
    await expect(close).toBeFocused();
  }

  // Another tab of the dialog, chosen with the keyboard: focus stays on the tab chosen.
  const states = dialog(page).getByRole("tab", { name: "输出状态" });
  await tabTo(page, "[role=dialog] [role=tab][href*='tab=state']");
  await page.keyboard.press("Enter");
  await expect(states).toHaveAttribute("aria-selected", "true");
  await expect(dialog(page).getByRole("table")).toContainText("办理意向");
  await expect(states).toBeFocused();
  await expectAccessible(page);

  // Closed with the keyboard (Escape with JavaScript, 关闭 without): the list, focus on the row's link.
  if (withJs()) await page.keyboard.press("Escape");
  else {
    await tabTo(page, "[data-dialog-close]", "Shift+Tab");
    await page.keyboard.press("Enter");
  }
  await expect(dialog(page)).toHaveCount(0);
  expect(page.url()).toBe(`${listUrl}#${openerId}`);
  await expect(opener).toBeFocused();
  // Tab goes on from the row: the next row's 查看 is two presses away (its campaign link, then it).
  const next = await page.locator(".p-datatable-tbody > tr").nth(2).getByRole("link", { name: /查看/ }).getAttribute("id");
  expect(await tabTo(page, `#${next}`)).toBe(2);
});
