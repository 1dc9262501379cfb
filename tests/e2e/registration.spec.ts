import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { expectAccessible, menuNames, signIn } from "./support";

// Each flow asks for pictures and codes and signs in more than once: about 20 s alone, more on a
// busy 2-core machine.
test.describe.configure({ timeout: 60_000 });

/** The e2e platform (port + 1): its SMS simulator shows the codes the carrier delivered (SIMULATOR_CONTROL=1). */
const platformUrl = baseURL.replace(/:(\d+)$/, (_, port: string) => `:${Number(port) + 1}`).replace("localhost", "127.0.0.1");
const CLIENT = { Authorization: `Basic ${Buffer.from("web-console:web-console-secret").toString("base64")}` };
const PASSWORD = "Newcomer2026";

/** A number of its own for each test and project (never ending in 0000 or 4444, which the carrier fails). */
const freshMobile = () => `13${String(Math.floor(Math.random() * 1e8)).padStart(8, "0")}${Math.floor(Math.random() * 8) + 1}`;

/** The newest code sent to a number, read from the platform's outbox as the phone would show it. */
async function codeSentTo(request: APIRequestContext, mobile: string): Promise<string> {
  const response = await request.get(`${platformUrl}/sms/simulator/codes`, { params: { mobile }, headers: CLIENT });
  const [latest] = ((await response.json()) as { data: Array<{ content: string }> }).data;
  expect(latest, `a code was sent to ${mobile}`).toBeDefined();
  return /(\d{6})/.exec(latest.content)![1];
}

/** The answer of a picture challenge, as a person reads it (the simulator tells it; the platform keeps a hash). */
async function challengeAnswer(request: APIRequestContext, id: string): Promise<string> {
  const response = await request.get(`${platformUrl}/sms/simulator/challenge`, { params: { id }, headers: CLIENT });
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { data: { answer: string } }).data.answer;
}

/** Types the answer of the picture the page shows. */
async function solveChallenge(page: Page, request: APIRequestContext) {
  const id = await page.locator('input[name="challengeId"]').inputValue();
  await page.getByLabel("图形验证码").fill(await challengeAnswer(request, id));
}

const jsOn = () => test.info().project.use.javaScriptEnabled !== false;

/** A tenant signed up straight on the platform (for the tests that start from an account). */
async function signUpOnPlatform(request: APIRequestContext, mobile: string) {
  const made = await request.post(`${platformUrl}/crm/open/code/challenge`, { headers: CLIENT });
  const { id } = ((await made.json()) as { data: { id: string } }).data;
  const answer = await challengeAnswer(request, id);
  const sent = await request.get(`${platformUrl}/crm/open/code/sms`, {
    params: { mobile, purpose: "register", challengeId: id, challengeAnswer: answer },
    headers: CLIENT,
  });
  expect(sent.status()).toBe(200);
  const code = await codeSentTo(request, mobile);
  const registered = await request.post(`${platformUrl}/crm/open/register`, {
    headers: CLIENT,
    data: { mobile, code, password: PASSWORD, companyName: `测试企业${mobile}` },
  });
  expect(registered.status(), await registered.text()).toBe(200);
}

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0");

async function fillSignUp(page: Page, values: { code: string; company: string }) {
  await page.getByLabel("短信验证码").fill(values.code);
  await page.getByLabel("密码", { exact: true }).fill(PASSWORD);
  await page.getByLabel("公司名称").fill(values.company);
  await page.getByRole("button", { name: "注册", exact: true }).click();
}

test("a new customer signs up with the SMS code, fills in the company and lands signed in on an empty tenant @nojs", async ({
  page,
  request,
}) => {
  const mobile = freshMobile();
  const company = `新星科技${mobile.slice(-6)}`;
  await page.goto("/user/login");
  await page.getByRole("link", { name: "注册新账号" }).click();
  await expect(page).toHaveURL(/\/user\/registe$/);
  await expect(page.getByText("密码长度8-32位，须同时包含字母和数字，不能含空格")).toBeVisible();
  await expectAccessible(page);

  await page.getByLabel("手机号").fill(mobile);
  // A code needs the picture's answer first; 「换一张」 draws another, keeping the number.
  await page.getByRole("button", { name: "获取验证码" }).click();
  await expect(page.getByText("请输入图形验证码")).toBeVisible();
  const challengeId = page.locator('input[name="challengeId"]');
  const first = await challengeId.inputValue();
  await page.getByRole("button", { name: "换一张" }).click();
  await expect(challengeId).not.toHaveValue(first);
  await expect(page.getByLabel("手机号")).toHaveValue(mobile);
  await expect(page.getByRole("img", { name: "图形验证码图片，图中为5位数字" })).toBeVisible();
  const answer = await challengeAnswer(request, await challengeId.inputValue());
  await page.getByLabel("图形验证码").fill(answer === "00000" ? "11111" : "00000");
  await page.getByRole("button", { name: "获取验证码" }).click();
  await expect(page.getByRole("alert")).toContainText("图形验证码错误，请输入新图片中的数字");
  await expect(page.getByLabel("手机号")).toHaveValue(mobile);
  await expect(page.getByLabel("图形验证码")).toHaveValue("");

  await solveChallenge(page, request);
  await page.getByRole("button", { name: "获取验证码" }).click();
  await expect(page.getByRole("status")).toContainText(`验证码已发送至 ${mobile.slice(0, 3)}****${mobile.slice(7)}`);
  await expect(page.getByRole("status")).toContainText("60 秒后可重新获取");
  await expect(page.getByLabel("手机号")).toHaveValue(mobile);
  const again = page.getByRole("button", { name: /^重新获取/ });
  if (jsOn()) {
    // With JavaScript the button waits out the seconds the platform gave, counting them down.
    await expect(again).toBeDisabled();
    await expect(again).toHaveText(/^重新获取（\d+ 秒）$/);
    // The wait is the number's: another number may ask at once.
    await page.getByLabel("手机号").fill(freshMobile());
    await expect(again).toBeEnabled();
    await page.getByLabel("手机号").fill(mobile);
  } else {
    // Without, it stays usable and the platform refuses a second code at once, in Chinese.
    await solveChallenge(page, request);
    await again.click();
    await expect(page.getByRole("alert")).toContainText(/验证码发送过于频繁，请在 \d+ 秒后重新获取/);
  }
  await expectAccessible(page);

  // A password against the rules is refused, and what was typed (but the password) is kept.
  await page.getByLabel("短信验证码").fill("123456");
  await page.getByLabel("密码", { exact: true }).fill("onlyletters");
  await page.getByLabel("公司名称").fill(company);
  await page.getByRole("button", { name: "注册", exact: true }).click();
  await expect(page.getByText("密码须同时包含字母和数字")).toBeVisible();
  await expect(page.getByLabel("公司名称")).toHaveValue(company);
  await expect(page.getByLabel("手机号")).toHaveValue(mobile);
  await expect(page.getByLabel("密码", { exact: true })).toHaveValue("");

  await fillSignUp(page, { code: await codeSentTo(request, mobile), company });
  await expect(page).toHaveURL(/\/user\/fillInformation$/);
  await expect(page.getByLabel("公司名称")).toHaveValue(company);
  await expectAccessible(page);
  await page.getByRole("button", { name: "保存并进入控制台" }).click();
  await expect(page.getByText("请选择所属行业")).toBeVisible();
  await page.getByLabel("所属行业").selectOption({ label: "金融" });
  await page.getByLabel("联系人").fill("赵敏");
  await page.getByRole("button", { name: "保存并进入控制台" }).click();

  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("status")).toContainText("企业信息已保存");
  expect(await menuNames(page)).toContain("外呼活动管理");
  // An empty tenant: none of the demo tenant's calls or campaigns.
  await page.goto("/callHistory");
  await expect(page.getByText("没有符合条件的通话记录")).toBeVisible();
  await expect(page.getByText("共 0 条")).toBeVisible();
  await expect(page.getByLabel("坐席")).toHaveText("全部管理员");
  await page.goto("/campaign");
  await expect(page.getByText("共 0 条")).toBeVisible();
});

test("five wrong codes lock the number for 30 minutes @nojs", async ({ page, request }) => {
  const mobile = freshMobile();
  await page.goto("/user/registe");
  await page.getByLabel("手机号").fill(mobile);
  await solveChallenge(page, request);
  await page.getByRole("button", { name: "获取验证码" }).click();
  await expect(page.getByRole("status")).toContainText("验证码已发送");
  const code = await codeSentTo(request, mobile);
  for (const left of [4, 3, 2, 1]) {
    await fillSignUp(page, { code: wrong(code), company: `锁定测试${mobile.slice(-6)}` });
    await expect(page.getByRole("alert")).toContainText(`验证码错误，还可尝试${left}次`);
    await expect(page.getByLabel("短信验证码")).toHaveValue("");
  }
  await fillSignUp(page, { code: wrong(code), company: `锁定测试${mobile.slice(-6)}` });
  await expect(page.getByRole("alert")).toContainText("验证码错误次数过多，该手机号已锁定30分钟");
  // Locked: the right code no longer works.
  await fillSignUp(page, { code, company: `锁定测试${mobile.slice(-6)}` });
  await expect(page.getByRole("alert")).toContainText("该手机号已锁定");
  await expect(page).toHaveURL(/\/user\/registe$/);
});

// With JavaScript only: without it the voice code posts as the SMS code does (the test above).
test("after the second SMS a voice code is offered, counted down, and signs up like the SMS one", async ({ page, request }) => {
  const mobile = freshMobile();
  // The e2e cannot wait the 60 s between codes: the simulator makes the number's codes older, and
  // the browser's clock (for the countdown) is moved as much.
  await page.clock.install();
  const later = async () => {
    await request.post(`${platformUrl}/sms/simulator/codes/age`, { headers: CLIENT, data: { mobile, seconds: 61 } });
    await page.clock.fastForward(61_000);
  };
  await page.goto("/user/registe");
  await page.getByLabel("手机号").fill(mobile);
  await solveChallenge(page, request);
  await page.getByRole("button", { name: "获取验证码" }).click();
  await expect(page.getByRole("status")).toContainText("验证码已发送");
  await expect(page.getByRole("button", { name: /改用语音验证码/ })).toHaveCount(0);
  await later();
  await solveChallenge(page, request);
  await page.getByRole("button", { name: /^重新获取/ }).click();
  await expect(page.getByRole("status")).toContainText("验证码已发送");
  const voice = page.getByRole("button", { name: /^收不到短信？改用语音验证码/ });
  await expect(voice).toBeDisabled();
  await expect(voice).toHaveText(/（\d+ 秒）$/);
  await expectAccessible(page);
  await later();
  await expect(voice).toBeEnabled();
  await solveChallenge(page, request);
  await voice.click();
  await expect(page.getByRole("status")).toContainText(`将致电 ${mobile.slice(0, 3)}****${mobile.slice(7)} 播报验证码`);
  const [call] = (
    (await (await request.get(`${platformUrl}/sms/simulator/codes`, { params: { mobile }, headers: CLIENT })).json()) as {
      data: Array<{ channel: string; content: string }>;
    }
  ).data;
  expect(call!.channel).toBe("voice");
  await fillSignUp(page, { code: /(\d{6})/.exec(call!.content)![1]!, company: `语音科技${mobile.slice(-6)}` });
  await expect(page).toHaveURL(/\/user\/fillInformation$/);
});

test("a reset answers unknown and known numbers alike, ends every session and takes its code once @nojs", async ({
  page,
  browser,
  request,
}) => {
  const mobile = freshMobile();
  await signUpOnPlatform(request, mobile);
  // A session elsewhere, signed in before the reset.
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await signIn(other, mobile, PASSWORD);
  await expect(other).toHaveURL(/\/$/);

  await page.goto("/user/reset");
  await expectAccessible(page);
  const askCode = async (number: string) => {
    await page.goto("/user/reset");
    await page.getByLabel("手机号").fill(number);
    await solveChallenge(page, request);
    await page.getByRole("button", { name: "获取验证码" }).click();
    await expect(page.getByRole("status")).toBeVisible();
    return page.getByRole("status").textContent();
  };
  const unknownAnswer = await askCode(freshMobile());
  const knownAnswer = await askCode(mobile);
  expect(knownAnswer).toBe(unknownAnswer);
  expect(knownAnswer).toContain("如该手机号已注册账号，验证码已发送");

  const code = await codeSentTo(request, mobile);
  const reset = async (password: string) => {
    await page.getByLabel("短信验证码").fill(code);
    await page.getByLabel("新密码", { exact: true }).fill(password);
    await page.getByLabel("确认新密码").fill(password);
    await page.getByRole("button", { name: "重置密码", exact: true }).click();
  };
  // The new password typed twice differently is refused; the number is kept, the passwords are not.
  await page.getByLabel("短信验证码").fill(code);
  await page.getByLabel("新密码", { exact: true }).fill("Renewed2026");
  await page.getByLabel("确认新密码").fill("Renewed2027");
  await page.getByRole("button", { name: "重置密码", exact: true }).click();
  await expect(page.getByText("两次输入的密码不一致")).toBeVisible();
  await expect(page.getByLabel("手机号")).toHaveValue(mobile);
  await expect(page.getByLabel("新密码", { exact: true })).toHaveValue("");
  await expect(page.getByLabel("确认新密码")).toHaveValue("");
  await reset("Renewed2026");
  await expect(page.getByRole("status")).toContainText("密码已重置");
  await expectAccessible(page);

  // The other session has ended.
  await other.goto("/callHistory");
  await expect(other).toHaveURL(/\/user\/login/);
  await elsewhere.close();

  // The code was used once.
  await page.goto("/user/reset");
  await page.getByLabel("手机号").fill(mobile);
  await reset("Another2026");
  await expect(page.getByRole("alert")).toContainText("验证码已失效，请重新获取");

  await signIn(page, mobile, "Renewed2026");
  await expect(page).toHaveURL(/\/$/);
});

test("a password change needs the current password and ends the user's other sessions @noscript", async ({ page, browser, request }) => {
  const mobile = freshMobile();
  await signUpOnPlatform(request, mobile);
  const elsewhere = await browser.newContext();
  const other = await elsewhere.newPage();
  await signIn(other, mobile, PASSWORD);
  await expect(other).toHaveURL(/\/$/);

  await signIn(page, mobile, PASSWORD);
  await expect(page).toHaveURL(/\/$/);
  await page.getByRole("link", { name: "修改密码" }).click();
  await expect(page).toHaveURL(/\/user\/password$/);
  await expectAccessible(page);
  const change = async (current: string, next: string) => {
    await page.getByLabel("当前密码").fill(current);
    await page.getByLabel("新密码", { exact: true }).fill(next);
    await page.getByLabel("确认新密码").fill(next);
    await page.getByRole("button", { name: "保存新密码" }).click();
  };
  await change("NotMine2026", "Changed2026");
  await expect(page.getByRole("alert")).toContainText("当前密码不正确");
  // Refused, no password typed comes back to the page.
  for (const label of ["当前密码", "新密码", "确认新密码"]) await expect(page.getByLabel(label, { exact: true })).toHaveValue("");
  await page.getByLabel("当前密码").fill(PASSWORD);
  await page.getByLabel("新密码", { exact: true }).fill("Changed2026");
  await page.getByLabel("确认新密码").fill("Changed2027");
  await page.getByRole("button", { name: "保存新密码" }).click();
  await expect(page.getByText("两次输入的密码不一致")).toBeVisible();
  await change(PASSWORD, "Changed2026");
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("status")).toContainText("密码已修改");

  // This session goes on; the other one has ended.
  await page.goto("/callHistory");
  await expect(page).toHaveURL(/\/callHistory$/);
  await other.goto("/callHistory");
  await expect(other).toHaveURL(/\/user\/login/);
  await elsewhere.close();
});
