import { expect, type Page } from "@playwright/test";

/** Demo accounts seeded by the reference platform (README). */
export const PASSWORD = "Switchboard@2026";

export async function signIn(page: Page, username: string, password = PASSWORD) {
  if (!page.url().includes("/user/login")) await page.goto("/user/login");
  await page.getByLabel("用户名").fill(username);
  await page.getByLabel("密码", { exact: true }).fill(password);
  await page.getByRole("button", { name: "登录" }).click();
}

export async function signOut(page: Page) {
  await page.getByRole("button", { name: "退出登录" }).click();
  await expect(page).toHaveURL(/\/user\/login$/);
}

/** The names of every menu link in the sidebar, open groups or not. */
export async function menuNames(page: Page): Promise<string[]> {
  return page.locator('nav[aria-label="主菜单"] a').allTextContents();
}
