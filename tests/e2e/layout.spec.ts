import { fileURLToPath } from "node:url";
import { expect, test, type Locator, type Page } from "@playwright/test";
import { PLATFORM_URL, platformToken, signIn } from "./support";

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
  const problems = await page.evaluate((size) => {
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
    // Every filter bar ends with 查询 (primary) and 重置 (secondary): one size, and 重置 a button, not link-coloured.
    for (const actions of document.querySelectorAll(".sb-filter-actions")) {
      const [search, reset] = [...actions.children] as HTMLElement[];
      if (search.textContent?.trim() !== "查询") continue; // a form of its own (预览), not a list's filters
      const looks = (element: HTMLElement) => {
        const style = getComputedStyle(element);
        return `${Math.round(element.getBoundingClientRect().height)}px ${style.fontSize} ${style.fontWeight}`;
      };
      if (reset?.textContent?.trim() !== "重置") found.push("a filter bar has no 重置");
      else {
        if (looks(search) !== looks(reset)) found.push(`查询 (${looks(search)}) and 重置 (${looks(reset)}) differ in size`);
        const link = getComputedStyle(document.querySelector("#main a:not(.p-button)") ?? document.body).color;
        const style = getComputedStyle(reset);
        if (style.color === link || style.textDecorationLine !== "none") found.push(`重置 looks like a link (${style.color})`);
      }
    }
    // On a phone a list's text column keeps a few characters a line (the table scrolls in its box instead).
    if (size === "phone")
      for (const cell of document.querySelectorAll<HTMLElement>(
        ".p-datatable-tbody > tr > td:not(.p-selection-column, .sb-index-column, .sb-actions-column)",
      )) {
        const text = cell.textContent?.trim() ?? "";
        const em = Number.parseFloat(getComputedStyle(cell).fontSize);
        if (text.length >= 4 && cell.getBoundingClientRect().width < 5 * em) {
          found.push(`「${text}」 is squeezed to ${Math.round(cell.getBoundingClientRect().width)}px`);
          break;
        }
      }
    // On a phone a row's sticky actions leave most of the row in sight: the row it acts on shows.
    if (size === "phone")
      for (const cell of document.querySelectorAll<HTMLElement>(".p-datatable-tbody > tr > td.sb-actions-column")) {
        const box = cell.closest(".p-datatable-wrapper")!.getBoundingClientRect();
        if (cell.getBoundingClientRect().width > 0.45 * box.width) {
          found.push(`a row's actions cover ${Math.round(cell.getBoundingClientRect().width)}px of the ${Math.round(box.width)}px list`);
          break;
        }
      }
    // On a laptop a list's every column is in its box, not scrolled away behind the row's action.
    if (size === "laptop")
      for (const table of document.querySelectorAll(".p-datatable-wrapper"))
        if (table.scrollWidth > table.clientWidth + 1)
          found.push(`「${table.querySelector("caption")?.textContent}」 is ${table.scrollWidth - table.clientWidth}px wider than its box`);
    // A status column: a code table's states, each its own colour, so two states never look alike
    // (spec §4 alone gives the result codes their colours by range: 404 and 5xx red, others blue).
    for (const table of document.querySelectorAll(".p-datatable-wrapper")) {
      const headers = [...table.querySelectorAll(":scope > table > .p-datatable-thead th")].map((th) => th.textContent?.trim() ?? "");
      const labelByColour = new Map<string, string>();
      for (const tag of table.querySelectorAll(":scope > table > .p-datatable-tbody td .p-tag")) {
        const column = headers[(tag.closest("td") as HTMLTableCellElement).cellIndex];
        if (column === "结果码") continue;
        const label = tag.textContent?.trim() ?? "";
        const key = `${column} ${getComputedStyle(tag).backgroundColor}`;
        const seen = labelByColour.get(key);
        if (seen !== undefined && seen !== label) found.push(`「${seen}」 and 「${label}」 of ${column} have one colour`);
        labelByColour.set(key, label);
      }
    }
    return found;
  }, size);
  if (size === "phone") {
    const menu = page.getByRole("navigation", { name: "主菜单" });
    if (await menu.isVisible()) problems.push("the menu is open after the page loaded");
  }
  return problems;
}

/** Compares the window with its committed picture; what changes from run to run is masked. */
async function expectPicture(page: Page, name: string) {
  const dynamic: Locator[] = [
    // A table's box, held to one height by layout-pictures.css: its rows change with the hour and
    // with what other tests add, and its header's column widths follow them.
    page.locator(".p-datatable-wrapper"),
    page.locator(".sb-paginator, .p-paginator"),
    page.locator('input[type="date"]'),
    page.locator(".sb-facts dd, .sb-kb-group-list, .sb-kb-groups, time"),
    page.locator(".sb-toast"),
  ];
  await expect.soft(page).toHaveScreenshot(`${name}.png`, {
    mask: dynamic,
    stylePath: fileURLToPath(new URL("./layout-pictures.css", import.meta.url)),
    animations: "disabled",
    caret: "hide",
    // A count or a name another test changed meanwhile moves a few pixels; a layout that breaks moves many.
    maxDiffPixelRatio: 0.01,
  });
}

/**
 * The voice workbench's phone bar at a phone's width, in each state of the phone: at most two rows
 * (what is happening, then the controls, which scroll sideways inside the bar), the action that
 * matters now in sight and marked, and every enabled control reached with Tab. 卫东 (agent11) stays
 * not ready except for a moment, dials out herself (so no test's call rings at her) and is signed out
 * at the end.
 */
test("the phone bar keeps to two rows on a phone, in every state of the phone", async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.setViewportSize(PHONE);
  await signIn(page, "agent11");
  await page.goto("/workBench");
  const state = page.getByTestId("agent-state");
  await expect(page.getByTestId("connection")).toHaveText("已连接");
  // The bar is whole once the softphone's own controls (loaded after the page) are in: a Tab walk
  // started before they come would miss them.
  await expect(page.getByRole("region", { name: "电话条" }).getByRole("button", { name: "通话测试" })).toBeVisible();
  try {
    await expectPhoneBarFits(page, "签出", "签入");
    await page.getByRole("button", { name: "签入" }).click();
    await expect(state).toContainText("未就绪");
    await expectPhoneBarFits(page, "未就绪", /^就绪/);
    await page.getByRole("button", { name: /^就绪/ }).click();
    await expect(state).toHaveText("就绪");
    await expectPhoneBarFits(page, "就绪", null);
    await page.getByRole("button", { name: /^未就绪/ }).click();
    await expect(state).toContainText("未就绪");

    // A call out: it rings (挂机 cancels it) for a moment, then the customer answers.
    await page.getByLabel("外呼号码").fill("13700003333");
    await page.getByRole("button", { name: "呼叫" }).click();
    await expect(state).toContainText("振铃中");
    // (No Tab walk while it rings: it rings for a moment only.)
    await expectPhoneBarFits(page, "振铃中", /挂机/, { tab: false });
    await expect(state).toContainText("通话中", { timeout: 10_000 });
    await expectPhoneBarFits(page, "通话中", /挂机/);
    await page.getByRole("button", { name: /挂机/ }).click();
    await expect(state).toContainText("话后整理");
    await expectPhoneBarFits(page, "话后整理", null);
  } finally {
    const token = await platformToken(request, "agent11");
    const headers = { authorization: `Bearer ${token}` };
    // Whatever state a failure left her in: a call on is ended, then she signs out.
    await request.post(`${PLATFORM_URL}/cti/api/call/hangup`, { headers });
    await request.post(`${PLATFORM_URL}/cti/api/agent/state`, { headers, data: { command: "signOut" } });
  }
});

/** The phone bar in `state`: two rows, `primary` (the action that matters now) in sight, Tab reaches every control. */
async function expectPhoneBarFits(page: Page, state: string, primary: string | RegExp | null, { tab = true } = {}) {
  const bar = page.getByRole("region", { name: "电话条" });
  const rows = await bar.evaluate((section) => {
    // Each text and control drawn in the bar, as the band of height it takes; bands that overlap are one row.
    const items = [
      ...section.querySelectorAll("button, select, input, label, small, .sb-phonebar-state, .sb-phonebar-call p, .sb-phonebar-link"),
    ]
      .map((item) => item.getBoundingClientRect())
      .filter((rect) => rect.width > 0 && rect.height > 0)
      .sort((a, b) => a.top - b.top);
    const bands: Array<{ top: number; bottom: number }> = [];
    for (const rect of items) {
      const last = bands.at(-1);
      if (last && rect.top < last.bottom - 2) last.bottom = Math.max(last.bottom, rect.bottom);
      else bands.push({ top: rect.top, bottom: rect.bottom });
    }
    return bands.length;
  });
  expect(rows, `the phone bar's rows while ${state}`).toBeLessThanOrEqual(2);
  const box = (await bar.boundingBox())!;
  expect(box.width, `the phone bar's width while ${state}`).toBeLessThanOrEqual(PHONE.width);
  // The controls' row reaches the bar's border alike on both sides: the control it cuts is cut
  // by the border, not some way short of it, where it looked broken.
  const edges = await bar.evaluate((section) => {
    const row = section.querySelector(".sb-phonebar-controls")!.getBoundingClientRect();
    const outer = section.getBoundingClientRect();
    return { left: Math.round(row.left - outer.left), right: Math.round(outer.right - row.right) };
  });
  expect(
    Math.abs(edges.left - edges.right),
    `the controls' row from the bar's edges while ${state}: ${JSON.stringify(edges)}`,
  ).toBeLessThanOrEqual(1);
  if (primary !== null) {
    const action = bar.getByRole("button", { name: primary }).and(bar.locator(".sb-primary-action"));
    await expect(action, `the action that matters while ${state}`).toBeEnabled();
    const rect = (await action.boundingBox())!;
    expect(rect.x >= box.x && rect.x + rect.width <= box.x + box.width, `「${primary}」 in sight while ${state}`).toBe(true);
  }
  if (!tab) return;
  // Tab from the bar's start reaches every enabled control in it, in order, and the focused one is scrolled into sight.
  const controls = await bar.locator("button:enabled, select:enabled, input:enabled").evaluateAll((all) =>
    // Named by id first: a select's text is its options, which change as colleagues change state.
    all.filter((c) => !c.closest("fieldset:disabled")).map((c) => c.id || c.textContent?.trim() || c.getAttribute("type")),
  );
  await bar.evaluate((section) => {
    section.tabIndex = -1;
    section.focus();
  });
  const reached: Array<string | null> = [];
  for (let i = 0; i < controls.length; i++) {
    await page.keyboard.press("Tab");
    const focused = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement;
      const rect = el.getBoundingClientRect();
      const inSight = rect.left >= -1 && rect.right <= window.innerWidth + 1;
      return { name: el.id || el.textContent?.trim() || el.getAttribute("type"), inSight, where: `${rect.left} ${rect.right}` };
    });
    expect(focused.inSight, `「${focused.name}」 (${focused.where}) scrolled into sight when focused`).toBe(true);
    reached.push(focused.name);
  }
  expect(reached, `Tab through the phone bar while ${state}`).toEqual(controls);
}
