import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, test, type APIRequestContext, type Browser, type Page } from "@playwright/test";
import { baseURL } from "../../playwright.config";

/**
 * Demo accounts seeded by the reference platform (README). Files run at once, so a test that signs
 * a sales agent in, readies them or moves their queue owns that agent alone:
 * agent01 real-voice, agent02 robot-agents, agent03 customers, agent04 voice-workbench-shift,
 * agent05 voice-workbench (time zone), agent06 monitor and operations (own platform),
 * agent07 work-orders, agent08/agent09 monitor without JavaScript (js/no-js project), agent10 softphone,
 * agent11 layout (the phone bar), agent12 real-voice (the colleague a call is transferred to),
 * agent13/agent14 real-voice (consultation and conference), agent15 media-loss, agent16 precall-test. A call a test offers rings at its own
 * agent (`agentUserName`, a direct line), never at whoever of the queue happens to be ready.
 */
export const PASSWORD = "Switchboard@2026";

/** The embedded platform beside the e2e console: the console's port + 1, on loopback. */
export const PLATFORM_URL = `http://127.0.0.1:${Number(new URL(baseURL).port) + 1}`;

/** A demo account's platform token, got with the console's client credential (the tests play the network and the simulators). */
export async function platformToken(request: APIRequestContext, username: string, platformURL = PLATFORM_URL): Promise<string> {
  const response = await request.post(`${platformURL}/uaa/oauth/token`, {
    headers: { authorization: `Basic ${Buffer.from("web-console:web-console-secret").toString("base64")}` },
    form: { grant_type: "password", username, password: PASSWORD },
  });
  expect(response.ok()).toBe(true);
  return (await response.json()).access_token;
}

/** A POST to the platform as `token`'s user; its envelope's data. */
export async function platformPost(request: APIRequestContext, token: string, path: string, data: object = {}, platformURL = PLATFORM_URL) {
  const response = await request.post(`${platformURL}${path}`, { headers: { authorization: `Bearer ${token}` }, data });
  expect(response.ok(), await response.text()).toBe(true);
  return (await response.json()).data;
}

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

/** Chooses a list's page size (spec §9 "sizes"): open the sizes, follow the size's link. */
export async function choosePageSize(page: Page, size: number) {
  await page.locator(".sb-paginator-sizes > summary").click();
  await page.getByRole("link", { name: `${size}条/页` }).click();
}

/** The names of every menu link in the sidebar, open groups or not. */
export async function menuNames(page: Page): Promise<string[]> {
  return page.locator('nav[aria-label="主菜单"] a').allTextContents();
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/**
 * Runs axe-core on the page as it is now and expects no violation (WCAG 2.1 A and AA rules).
 * Injected through the DevTools protocol, so the page's CSP does not apply. With JavaScript off
 * nothing runs in the page, axe included (its timers never fire): the page as the no-JS user has
 * it is then checked in a scratch page that has JavaScript for axe alone, the same HTML served at
 * the same address with its stylesheets and images, and every script of its own forbidden by CSP.
 */
export async function expectAccessible(page: Page, { exclude = [] as string[] } = {}) {
  if (test.info().project.use.javaScriptEnabled !== false) {
    expect(await axeViolations(page, exclude), "axe-core violations").toEqual([]);
    return;
  }
  const html = await page.content();
  const copy = await scratchPage(page.context().browser()!);
  // Without the fragment: a fragment-only change would not load the page anew.
  const address = new URL(page.url());
  address.hash = "";
  copy.serve = { url: address.href, html };
  await copy.page.goto(address.href);
  expect(await axeViolations(copy.page, exclude), "axe-core violations (the page without JavaScript)").toEqual([]);
}

type ScratchPage = { browser: Browser; page: Page; serve: { url: string; html: string } };
let scratch: ScratchPage | undefined;

/**
 * The worker's scratch page for the no-JS axe check, made once per browser: a context and a page
 * each call cost a renderer process's start, most of the check's CPU. Its route serves the HTML of
 * the page being checked at that page's address; every other request (stylesheets, images) goes
 * to the server.
 */
async function scratchPage(browser: Browser): Promise<ScratchPage> {
  if (scratch?.browser === browser && !scratch.page.isClosed()) return scratch;
  const context = await browser.newContext({ javaScriptEnabled: true, locale: "zh-CN" });
  const made: ScratchPage = { browser, page: await context.newPage(), serve: { url: "", html: "" } };
  await made.page.route(
    (url) => url.href === made.serve.url,
    (route) =>
      route.fulfill({
        body: made.serve.html,
        contentType: "text/html; charset=utf-8",
        headers: { "content-security-policy": "script-src 'none'" },
      }),
  );
  scratch = made;
  return made;
}

async function axeViolations(page: Page, exclude: string[]): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async (excluded) => {
    const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> } })
      .axe;
    const result = await axe.run(
      { exclude: excluded.map((selector) => [selector]) },
      { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"] } },
    );
    return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
  }, exclude);
}
type AxeViolation = { id: string; help: string; nodes: Array<{ target: string[] }> };

/**
 * Holds back a hydrating page's entry script, so that the test acts on the server's page as a
 * user on a slow link does before it hydrates. The page hydrates once the returned function is
 * called (and every later page at once).
 */
export async function holdHydration(page: Page): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/entry\.client-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** A built console or platform (`script`) started by a test with its own env, once its /ready answers 200. */
export async function startUntilReady(script: string, env: NodeJS.ProcessEnv, url: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [script], { env, stdio: "ignore" });
  try {
    await expect
      .poll(
        () =>
          fetch(`${url}/ready`).then(
            (r) => r.status,
            () => 0,
          ),
        { timeout: 120_000, intervals: [250] },
      )
      .toBe(200);
  } catch (error) {
    child.kill("SIGTERM");
    throw error;
  }
  return child;
}

/** Opens the voice workbench of the signed-in agent, signs the phone in and readies it (Alt+R). */
export async function readyOnWorkbench(page: Page) {
  await page.goto("/workBench");
  await expect(page.getByTestId("connection")).toHaveText("已连接");
  await page.getByRole("button", { name: "签入" }).click();
  await expect(page.getByTestId("agent-state")).toContainText("未就绪");
  await page.keyboard.press("Alt+R");
  await expect(page.getByTestId("agent-state")).toHaveText("就绪");
}
