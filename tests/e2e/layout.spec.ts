import { expect, test, type Locator, type Page } from "@playwright/test";
import { signIn } from "./support";

/**
 * Every screen of every role's menu at a phone's size and a laptop's: nothing scrolls
 * sideways as a whole page, the menu is a closed drawer on the phone after each load, the header
 * keeps one line, and every list row's action is in sight. The ten most used screens are also
 * compared with their committed pictures, with what changes from run to run (times, counters, the
 * rows other tests add) masked.
 */

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1280, height: 800 };
const SIZES = [
  { name: "phone", ...PHONE },
  { name: "laptop", ...LAPTOP },
] as const;

/** The ten most used screens, each pictured for the role that uses it most. */
const PICTURED: Record<string, readonly string[]> = {
  admin: ["/campaign", "/knowledgeBase/config", "/contacts"],
  supervisor: ["/callLog", "/inspectionSuccess"],
  agent: ["/", "/callHistory", "/incoming/history", "/agentTask/my"],
  chat: ["/text/call"],
};

test.describe.configure({ mode: "parallel" });

for (const role of Object.keys(PICTURED)) {
  test(`every screen of ${role}'s menu fits a phone and a laptop`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(LAPTOP);
    await signIn(page, role);
    await expect(page.locator("#main")).toBeVisible();
    const screens = [
      ...new Set(await page.locator('nav[aria-label="主菜单"] a').evaluateAll((links) => links.map((a) => a.getAttribute("href") ?? ""))),
    ];
    expect(screens.length).toBeGreaterThan(3);

    const problems: string[] = [];
    for (const size of SIZES) {
      await page.setViewportSize(size);
      for (const path of screens) {
        await page.goto(path);
        await expect(page.locator("#screen-title, main h1").first()).toBeVisible();
        problems.push(...(await layoutProblems(page, size.name)).map((problem) => `${size.name} ${path}: ${problem}`));
        if (PICTURED[role].includes(path))
          await expectPicture(page, `${role}-${size.name}${path === "/" ? "-home" : path.replaceAll("/", "-")}`);
      }
    }
    expect(problems).toEqual([]);
  });
}

test("the phone's menu opens as a drawer over the page and its links lead on, with or without JavaScript @nojs", async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signIn(page, "agent");
  const menu = page.getByRole("navigation", { name: "主菜单" });
  await expect(menu).toBeHidden();
  await page.locator("label.sb-drawer-toggle").click();
  await expect(menu).toBeVisible();
  await menu.getByText("通话记录").click();
  await menu.getByRole("link", { name: "通话历史" }).click();
  await expect(page).toHaveURL(/\/callHistory$/);
  await expect(page.getByRole("heading", { name: "通话历史", level: 1 })).toBeVisible();
  await expect(menu).toBeHidden();

  // The account's actions sit in a menu of their own, so the bar keeps one line.
  await expect(page.getByRole("button", { name: "退出登录" })).toBeHidden();
  await page.locator("label.sb-account-toggle").click();
  await page.getByRole("button", { name: "退出登录" }).click();
  await expect(page).toHaveURL(/\/user\/login$/);
});

/** What a user would see wrong with the page as it is now, in words. */
async function layoutProblems(page: Page, size: string): Promise<string[]> {
  const problems = await page.evaluate(() => {
    const found: string[] = [];
    const width = window.innerWidth;
    const page = document.scrollingElement!;
    if (page.scrollWidth > width) found.push(`the page is ${page.scrollWidth - width}px wider than the window`);
    const main = document.getElementById("main")!;
    if (main.scrollWidth > main.clientWidth) found.push(`the screen is ${main.scrollWidth - main.clientWidth}px wider than its column`);
    const bar = document.querySelector(".sb-topbar")!;
    if (bar.scrollHeight > bar.clientHeight || bar.scrollWidth > bar.clientWidth) found.push("the header does not fit one line");
    // A list row's action: the links and buttons of its last cell, inside the window and inside
    // the table's own box (not scrolled away in it).
    for (const table of document.querySelectorAll(".p-datatable-wrapper")) {
      const box = table.getBoundingClientRect();
      const rows = table.querySelectorAll(":scope > table > .p-datatable-tbody > tr:not(.p-datatable-emptymessage)");
      rows.forEach((row, index) => {
        const actions = row.lastElementChild?.querySelectorAll("a, button") ?? [];
        for (const action of actions) {
          const rect = action.getBoundingClientRect();
          if (rect.width === 0) continue;
          if (rect.left < Math.max(0, box.left) - 1 || rect.right > Math.min(width, box.right) + 1) {
            found.push(
              `row ${index + 1}'s action 「${action.textContent?.trim()}」 of 「${table.querySelector("caption")?.textContent}」 is out of sight`,
            );
            return;
          }
        }
      });
    }
    return found;
  });
  if (size === "phone") {
    const menu = page.getByRole("navigation", { name: "主菜单" });
    if (await menu.isVisible()) problems.push("the menu is open after the page loaded");
  }
  return problems;
}

/** Compares the window with its committed picture; what changes from run to run is masked. */
async function expectPicture(page: Page, name: string) {
  const dynamic: Locator[] = [
    // A table's rows, and its header, whose column widths follow the rows (other tests add rows).
    page.locator(".p-datatable-tbody, .p-datatable-thead"),
    page.locator(".sb-paginator, .p-paginator"),
    page.locator('input[type="date"]'),
    page.locator(".sb-facts dd, .sb-kb-group-list, .sb-kb-groups, time"),
    page.locator(".sb-toast"),
  ];
  await expect.soft(page).toHaveScreenshot(`${name}.png`, {
    mask: dynamic,
    animations: "disabled",
    caret: "hide",
    // A count or a name another test changed meanwhile moves a few pixels; a layout that breaks moves many.
    maxDiffPixelRatio: 0.01,
  });
}
