import { expect, type Page } from "@playwright/test";

/** The knowledge base configuration screen (/knowledgeBase/config), as its tests use it. */
export const nodes = (page: Page) => page.getByRole("table", { name: "知识列表" });
export const row = (page: Page, question: string) => nodes(page).getByRole("row").filter({ hasText: question });
export const groups = (page: Page) => page.getByRole("navigation", { name: "知识分组" });

export async function createGroup(page: Page, name: string) {
  await groups(page).getByLabel("新分组名称").fill(name);
  await groups(page).getByRole("button", { name: "新建分组" }).click();
  await expect(page.getByRole("status")).toHaveText(`分组「${name}」已创建`);
  await expect(groups(page).getByRole("link", { name: new RegExp(`^${name}`) })).toHaveAttribute("aria-current", "page");
}

export async function importFile(page: Page, name: string, csv: string) {
  await page.getByLabel("知识文件").setInputFiles({ name, mimeType: "text/csv", buffer: Buffer.from(csv) });
  await page.getByRole("button", { name: "上传并导入" }).click();
}
