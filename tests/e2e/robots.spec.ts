import { expect, test, type Page } from "@playwright/test";
import { expectAccessible, signIn } from "./support";

const toast = (page: Page) => page.locator(".sb-toast");
const node = (page: Page, name: RegExp) => page.getByRole("group", { name });
const versionRow = (page: Page, version: string) =>
  page.getByRole("table", { name: "流程版本" }).getByRole("row", { name: new RegExp(`^${version.replace(".", "\\.")}[ （]`) });

/** Saves a node's prompt (and, when given, where it goes next) on the design page. */
async function saveNode(page: Page, name: RegExp, change: { prompt?: string; next?: string }) {
  const form = node(page, name);
  if (change.prompt !== undefined) await form.getByLabel(/^话术/).fill(change.prompt);
  if (change.next !== undefined) await form.getByLabel("下一节点").selectOption(change.next);
  await form.getByRole("button", { name: /^保存节点/ }).click();
}

test("an administrator takes a robot flow from draft through review to service, the market, a new draft and a rollback @noscript", async ({
  page,
}) => {
  // About 30 page loads, each a form post; some 30 s alone, more when the machine is shared.
  test.setTimeout(120_000);
  const flow = "回访流程乙";
  await page.goto("/robot/flow");
  await signIn(page, "admin");
  await expect(page.getByRole("heading", { name: "机器人流程", level: 1 })).toBeVisible();
  await expect(page.getByRole("table", { name: "流程列表" })).toContainText("满意度回访");
  await expectAccessible(page);

  // A new flow opens its draft; the same name again is refused, the name typed kept.
  await page.getByLabel("流程名称", { exact: true }).fill(flow);
  await page.getByRole("button", { name: "新建", exact: true }).click();
  await expect(toast(page)).toHaveText(`流程「${flow}」已创建，请设计草稿 v1.0`);
  await expect(page.getByRole("img", { name: `${flow} v1.0 流程图` })).toBeVisible();
  await expectAccessible(page);
  await page.goto("/robot/flow");
  await page.getByLabel("流程名称", { exact: true }).fill(flow);
  await page.getByRole("button", { name: "新建", exact: true }).click();
  await expect(page.getByText(`新建流程失败：流程名称「${flow}」已存在`)).toBeVisible();
  await expect(page.getByLabel("流程名称", { exact: true })).toHaveValue(flow);
  await page
    .getByRole("table", { name: "流程列表" })
    .getByRole("link", { name: `设计「${flow}」` })
    .click();

  // A dead end is named, and the submit is refused in Chinese; then it is fixed.
  await saveNode(page, /开场白/, { prompt: "您好，这里是回访专线。", next: "" });
  await expect(page.getByRole("link", { name: "节点「开场白」的下一节点没有设置去向" })).toBeVisible();
  await page.getByRole("link", { name: "返回版本列表" }).click();
  await versionRow(page, "v1.0").getByRole("button", { name: "提交审核 v1.0" }).click();
  await expect(page.getByText(/提交审核失败：流程设计有 4 个问题，请修改后再提交：节点「开场白」的下一节点没有设置去向/)).toBeVisible();
  await page.getByRole("link", { name: "设计", exact: true }).click();
  await saveNode(page, /开场白/, { next: "ask" });
  await expect(toast(page)).toHaveText("节点「开场白」已保存");
  await expect(page.getByText("没有发现问题，可以提交审核。")).toBeVisible();

  // A refused node edit (a keyword over 20 characters) is told on its row, every row as typed kept.
  const ask = node(page, /询问意向/);
  const keywords = (row: number) => ask.getByRole("textbox", { name: `关键词 ${row}（逗号分隔，留空用默认）` });
  const intent = (row: number) => ask.getByRole("combobox", { name: `意图 ${row}`, exact: true });
  await keywords(2).fill("不需要，请问这个套餐每个月到底需要多少钱才能办理呢");
  await intent(3).selectOption("ASK_FEE");
  await keywords(3).fill("多少钱");
  await ask.getByRole("combobox", { name: "意图 3 去向" }).selectOption("agent");
  await ask.getByRole("button", { name: /^保存节点/ }).click();
  await expect(ask.getByText("关键词不能超过20个字符")).toBeVisible();
  await expect(keywords(2)).toHaveValue("不需要，请问这个套餐每个月到底需要多少钱才能办理呢");
  await expect(intent(1)).toHaveValue("CONFIRM");
  await expect(intent(3)).toHaveValue("ASK_FEE");
  await expect(keywords(3)).toHaveValue("多少钱");
  await expect(ask.getByRole("combobox", { name: "意图 3 去向" })).toHaveValue("agent");
  await expect(intent(4)).toHaveValue("");
  await expectAccessible(page);

  // A node added, made the start, then deleted after a confirmation: the flow is as it was. A key
  // already taken is refused in Chinese, the name typed kept.
  const add = page.getByRole("form", { name: "添加节点" });
  await add.getByLabel("节点编号").fill("ask");
  await add.getByLabel("节点名称").fill("临时节点");
  await add.getByRole("button", { name: "添加节点" }).click();
  await expect(add.getByText("节点编号「ask」已存在")).toBeVisible();
  await expect(add.getByLabel("节点名称")).toHaveValue("临时节点");
  await add.getByLabel("节点编号").fill("extra");
  await add.getByRole("button", { name: "添加节点" }).click();
  await expect(toast(page)).toContainText("已添加节点「临时节点」");
  await page.getByRole("button", { name: "将「临时节点」设为开始节点" }).click();
  await expect(toast(page)).toContainText("「临时节点」已设为开始节点");
  await expect(page.getByRole("button", { name: "将「临时节点」设为开始节点" })).toHaveCount(0);
  await page.getByRole("button", { name: "删除节点「临时节点」" }).click();
  const removal = page.getByRole("alertdialog", { name: "删除节点" });
  await expect(removal).toContainText("确定删除节点「临时节点」吗？");
  await removal.getByRole("button", { name: "确认删除" }).click();
  await expect(toast(page)).toHaveText("节点「临时节点」已删除");
  await expect(node(page, /临时节点/)).toHaveCount(0);
  await expect(page.getByText("没有发现问题，可以提交审核。")).toBeVisible();

  // The NLU test: a sentence, the intent heard and the branch taken.
  await page.getByRole("link", { name: "返回版本列表" }).click();
  await page.getByLabel("客户说").fill("好的，我确认办理");
  await page.getByRole("button", { name: "测试" }).click();
  await expect(page.locator("#nlu-result")).toHaveText("节点「询问意向」识别为：确认办理（关键词“确认办理”），走向：转人工");
  await expect(page.getByLabel("客户说")).toHaveValue("好的，我确认办理");
  // The intent template and the version's definition download as Excel files.
  const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
  for (const link of [
    page.getByRole("link", { name: "下载意图模板（Excel）" }),
    page.getByRole("link", { name: "导出 Excel（v1.0 的流程定义）" }),
  ]) {
    const file = await page.request.get((await link.getAttribute("href"))!);
    expect(file.status()).toBe(200);
    expect(file.headers()["content-type"]).toContain(XLSX);
    expect((await file.body()).subarray(0, 2).toString()).toBe("PK"); // a zip: the workbook
  }

  // Submit, return with a reason, submit again, publish after reading the review.
  await versionRow(page, "v1.0").getByRole("button", { name: "提交审核 v1.0" }).click();
  await expect(toast(page)).toHaveText("已提交审核");
  await expect(versionRow(page, "v1.0")).toContainText("待审核");
  // A reason of spaces only is refused in Chinese, what was typed kept.
  await page.getByLabel("退回原因（必填）").fill("   ");
  await page.getByRole("button", { name: "退回为草稿" }).click();
  await expect(page.getByRole("form", { name: "退回审核" }).getByText("请填写退回原因")).toBeVisible();
  await expect(page.getByLabel("退回原因（必填）")).toHaveValue("   ");
  await page.getByLabel("退回原因（必填）").fill("开场白请加上称呼");
  await page.getByRole("button", { name: "退回为草稿" }).click();
  await expect(toast(page)).toHaveText("已退回为草稿");
  await expect(versionRow(page, "v1.0")).toContainText("开场白请加上称呼");
  await page.getByRole("link", { name: "设计 v1.0" }).click();
  await saveNode(page, /开场白/, { prompt: "{客户姓名}您好，这里是回访专线。" });
  await page.getByRole("link", { name: "返回版本列表" }).click();
  await versionRow(page, "v1.0").getByRole("button", { name: "提交审核 v1.0" }).click();
  await versionRow(page, "v1.0").getByRole("button", { name: "审核发布 v1.0" }).click();
  await expect(page.getByRole("alertdialog", { name: "发布 v1.0" })).toContainText("目前没有使用中的版本");
  await page.getByRole("button", { name: "确认发布" }).click();
  await expect(toast(page)).toHaveText("v1.0 已发布，机器人的下一通电话按此版本进行");
  await versionRow(page, "v1.0").getByRole("button", { name: "上架 v1.0" }).click();
  await expect(versionRow(page, "v1.0")).toContainText("已上架");

  // Cover into v1.1, change the prompt, see the diff, publish it; then roll back to v1.0.
  await versionRow(page, "v1.0").getByRole("button", { name: "复制为新草稿 v1.0" }).click();
  await expect(toast(page)).toHaveText("已复制为新草稿 v1.1");
  await saveNode(page, /开场白/, { prompt: "{客户姓名}您好，这里是第二版回访专线。" });
  const diff = page.getByRole("table", { name: "v1.1 与 v1.0 的差异" });
  await expect(diff).toContainText("第二版回访专线");
  await expectAccessible(page);
  await page.getByRole("link", { name: "返回版本列表" }).click();
  await versionRow(page, "v1.1").getByRole("button", { name: "提交审核 v1.1" }).click();
  await versionRow(page, "v1.1").getByRole("button", { name: "审核发布 v1.1" }).click();
  const review = page.getByRole("alertdialog", { name: "发布 v1.1" });
  await expect(review.getByRole("table")).toContainText("{客户姓名}您好，这里是回访专线。");
  await expect(review.getByRole("table")).toContainText("{客户姓名}您好，这里是第二版回访专线。");
  await expectAccessible(page);
  await review.getByRole("button", { name: "确认发布" }).click();
  await expect(versionRow(page, "v1.1")).toContainText("使用中");
  await versionRow(page, "v1.0").getByRole("button", { name: "回滚到此版本 v1.0" }).click();
  await page.getByRole("alertdialog", { name: "回滚到 v1.0" }).getByRole("button", { name: "确认回滚" }).click();
  await expect(versionRow(page, "v1.0")).toContainText("使用中");
  const history = page.getByRole("table", { name: "变更记录" });
  await expect(history).toContainText("回滚流程版本");
  await expect(history).toContainText("开场白请加上称呼");
  // A published version is read-only.
  await page.getByRole("link", { name: "查看 v1.0" }).click();
  await expect(page.getByText("已发布的版本不可修改；要修改请在版本列表中“复制为新草稿”。")).toBeVisible();
  await expect(page.getByRole("button", { name: /^保存节点/ })).toHaveCount(0);

  // Another tenant's flow, or none: not found (spec §8's 404 page).
  const response = await page.goto("/robot/flow/999999");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "This page could not be found", level: 1 })).toBeVisible();
});
