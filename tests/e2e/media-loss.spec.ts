import { expect, test } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { missingVoiceParts, voicePorts } from "../../scripts/voice-servers.mjs";
import { expectAccessible, platformPost, platformToken, signIn } from "./support";
import { CUSTOMER_TONE_HZ, hears, listenOnPage, loudest, voiceLaunchOptions } from "./voice-ear";

/**
 * Real loss on the media path (decision 053): the e2e server's test-only relay between the phone
 * line and rtpengine (scripts/lossy-media.mjs, on with SIMULATOR_CONTROL=1) drops 5 % of the
 * customer's packets on the next call answered. The agent's browser sees the loss in its own
 * statistics, the quality badge warns, and the call is marked poor for supervisors.
 */

// 杨帆 (agent15) of the sales queue: no other test signs in as him.
const AGENT = "agent15";
const LOSS_CONTROL = `http://127.0.0.1:${voicePorts(Number(process.env.VOICE_PORT ?? Number(new URL(baseURL).port) + 10)).lossControl}`;

test.use({ launchOptions: voiceLaunchOptions });

test("5 % of the customer's packets lost on the way to the media server: the badge warns of loss and supervisors see the call marked poor", async ({
  page,
  context,
  request,
  browser,
}) => {
  expect(missingVoiceParts(), "real voice needs the Debian packages .ci/run installs").toEqual([]);
  test.setTimeout(120_000);
  const token = await platformToken(request, AGENT);
  await listenOnPage(context);
  await signIn(page, AGENT);
  await page.goto("/workBench");
  await expect(page.getByTestId("softphone-status")).toHaveText("软电话已就绪", { timeout: 20_000 });
  await page.getByRole("button", { name: "签入" }).click();
  await expect(page.getByTestId("agent-state")).toContainText("未就绪");
  await page.getByRole("button", { name: /^就绪/ }).click();
  await expect(page.getByTestId("agent-state")).toHaveText("就绪");
  try {
    await platformPost(request, token, "/cti/simulator/offer", { phone: "13900139300", agentUserName: AGENT });
    await expect(page.getByTestId("agent-state")).toContainText("振铃中");
    // Asked as late as can be, so the loss lands on this call (the relay takes the next call answered).
    expect((await request.post(`${LOSS_CONTROL}/loss?percent=5`)).ok()).toBe(true);
    await page.getByRole("button", { name: /^接听/ }).click();
    await expect(page.getByTestId("agent-state")).toContainText("通话中");
    await expect.poll(async () => hears(await loudest(page), CUSTOMER_TONE_HZ), { timeout: 30_000, intervals: [250] }).toBe(true);

    const badge = page.getByTestId("call-quality");
    await expect(badge).toContainText("通话质量：较差（丢包", { timeout: 10_000 });
    // The loss the browser counts is the loss injected: 5 % (4–6 % over a 2 s reading).
    const loss = Number(/丢包 ([\d.]+)%/.exec((await badge.textContent()) ?? "")?.[1]);
    expect(loss).toBeGreaterThanOrEqual(3);
    expect(loss).toBeLessThanOrEqual(8);
    await expectAccessible(page);
    // Poor for longer than the 10 s that make a call poor for supervisors; the customer still heard.
    await page.waitForTimeout(12_000);
    await expect(badge).toContainText("通话质量：较差（丢包");
    await page.getByRole("button", { name: /^挂机/ }).click();
    await expect(page.getByTestId("agent-state")).toContainText("话后整理");
  } finally {
    await request.post(`${LOSS_CONTROL}/loss?percent=0`).catch(() => undefined);
    await platformPost(request, token, "/cti/api/agent/state", { command: "signOut" }).catch(() => undefined);
  }

  const supervisor = await (await browser.newContext()).newPage();
  await signIn(supervisor, "supervisor");
  await supervisor.goto("/incoming/call?phone=13900139300");
  const row = supervisor.getByRole("row").filter({ has: supervisor.getByRole("link", { name: "查看 139****9300 的通话详情" }) });
  await expect(row.first()).toContainText("通话质量较差");
  await row.first().getByRole("link", { name: /^查看/ }).click();
  await expect(supervisor.getByRole("dialog")).toContainText(/通话质量较差（丢包.*约 \d+ 秒）/);
  await supervisor.context().close();
});
