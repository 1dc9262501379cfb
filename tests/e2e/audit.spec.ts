import { expect, test } from "@playwright/test";
import { expectAccessible, signIn } from "./support";

test.describe("the audit log @noscript", () => {
  test("an administrator's change is in the audit log, with who, when and what; filters stay in the URL", async ({ page }) => {
    await signIn(page, "admin");
    await page.goto("/campaign");
    await page.locator("tbody tr a").first().click();
    const ratio = page.getByLabel("外呼比例（0.1–5）");
    const next = (await ratio.inputValue()) === "1.5" ? "1.2" : "1.5";
    await ratio.fill(next);
    await page.getByRole("button", { name: "保存比例" }).click();

    await page.goto("/audit");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("操作日志");
    const row = page.getByRole("row").filter({ hasText: `外呼比例` }).first();
    await expect(row).toContainText("王建国");
    await expect(row).toContainText("设置外呼比例");
    await expect(row).toContainText(`→ ${next}`);
    await expectAccessible(page);

    await page.getByLabel("操作", { exact: true }).selectOption({ label: "新建外呼活动" });
    await page.getByRole("button", { name: "查询" }).click();
    await expect(page).toHaveURL(/action=campaign\.create/);
    for (const cell of await page.locator("tbody tr td:nth-child(3)").allTextContents()) expect(cell).toBe("新建外呼活动");

    await page.goto("/audit?from=2026-13-01");
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("查询条件不正确，请检查后重试");
  });

  test("supervisors and agents are refused the audit log", async ({ page }) => {
    await signIn(page, "supervisor");
    const response = await page.goto("/audit");
    expect(response?.status()).toBe(403);
  });
});
