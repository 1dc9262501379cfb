import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test } from "@playwright/test";
import { missingVoiceParts } from "../../scripts/voice-servers.mjs";
import { PLATFORM_URL, expectAccessible, platformPost, platformToken, readyOnWorkbench, signIn } from "./support";
import { CUSTOMER_TONE_HZ, hears, listenOnPage, loudest, voiceLaunchOptions } from "./voice-ear";

/**
 * The media server (rtpengine) stops mid-call. It carries every call's audio, so this file runs in
 * a project of its own after all the others (playwright.config.ts): no other test's call is on it.
 * The platform notices within seconds (upstream/voice/media-server.ts) and ends the call cleanly;
 * the start script starts the media server again, and the next call has its audio.
 */

// 赵敏 (agent01), the real-voice file's agent: that file has finished when this one runs.
const AGENT = "agent01";

test.use({ launchOptions: voiceLaunchOptions });

const MEDIA_LOST = "语音服务器故障，本次通话已中断。请填写通话结果，稍后可回拨客户。";

/** Kills this server's rtpengine outright (found by its configuration's path in /proc; no tool needed). */
function stopMediaServer() {
  const config = join(process.env.E2E_DATA_DIR!, "voice-run", "rtpengine.conf");
  const pids = readdirSync("/proc").filter((entry) => {
    if (!/^\d+$/.test(entry)) return false;
    try {
      return readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0").includes(config);
    } catch {
      return false; // a process that ended meanwhile
    }
  });
  expect(pids, "this server's rtpengine runs").toHaveLength(1);
  process.kill(Number(pids[0]), "SIGKILL");
}

test("the media server stops mid-call: the agent is told in Chinese, the call ends to its result form and is kept; the next call has audio again", async ({
  page,
  request,
}) => {
  expect(missingVoiceParts(), "real voice needs the Debian packages .ci/run installs").toEqual([]);
  test.setTimeout(120_000);
  const token = await platformToken(request, AGENT);
  await listenOnPage(page);
  await signIn(page, AGENT);
  await readyOnWorkbench(page);

  const call = await platformPost(request, token, "/cti/simulator/offer", { phone: "13900139050", agentUserName: AGENT });
  await page.getByRole("button", { name: /^接听/ }).click();
  await expect(page.getByTestId("agent-state")).toContainText("通话中");
  await expect.poll(async () => hears(await loudest(page), CUSTOMER_TONE_HZ), { timeout: 30_000, intervals: [250] }).toBe(true);

  stopMediaServer();
  // Told why, and the call is over: the result form is there as after any call.
  await expect(page.getByRole("alert").filter({ hasText: MEDIA_LOST })).toBeVisible({ timeout: 10_000 });
  await expect(page.getByTestId("agent-state")).toContainText("话后整理");
  await expectAccessible(page);
  const result = page.getByRole("form", { name: /通话结论/ });
  await result.getByLabel("处理成功").check();
  await result.getByRole("button", { name: "保存结论" }).click();
  await expect(page.getByTestId("outbox")).toContainText("已保存");
  await page.getByRole("button", { name: "知道了" }).click();
  await expect(page.getByRole("alert").filter({ hasText: MEDIA_LOST })).toHaveCount(0);

  // The call is kept in the agent's call history, and its result on the platform.
  await page.goto("/callHistory");
  const row = page.getByRole("row").filter({ hasText: "139****9050" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("已接通");
  const record = await request.get(`${PLATFORM_URL}/config/business/record/${call.ctiCallId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect((await record.json()).data).toMatchObject({ ctiCallId: call.ctiCallId, callResult: 1 });

  // The media server was started again: the next call carries the customer's voice.
  await page.goto("/workBench");
  await expect(page.getByTestId("softphone-status")).toHaveText("软电话已就绪", { timeout: 20_000 });
  await page.getByRole("button", { name: /^就绪/ }).click();
  await expect(page.getByTestId("agent-state")).toHaveText("就绪");
  await platformPost(request, token, "/cti/simulator/offer", { phone: "13900139051", agentUserName: AGENT });
  await page.getByRole("button", { name: /^接听/ }).click();
  await expect(page.getByTestId("agent-state")).toContainText("通话中");
  await expect.poll(async () => hears(await loudest(page), CUSTOMER_TONE_HZ), { timeout: 30_000, intervals: [250] }).toBe(true);
  await page.getByRole("button", { name: /^挂机/ }).click();
  await expect(page.getByTestId("agent-state")).toContainText("话后整理");
  await platformPost(request, token, "/cti/api/agent/state", { command: "signOut" }).catch(() => undefined);
});
