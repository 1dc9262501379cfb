import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { missingVoiceParts } from "../../scripts/voice-servers.mjs";
import { expectAccessible, platformPost, platformToken, signIn } from "./support";
import { AGENT_TONE_HZ, CUSTOMER_TONE_HZ, listenOnPage, voiceLaunchOptions } from "./voice-ear";

/**
 * 通话测试 (decision 053) against the real voice servers of decision 036: it passes with the
 * servers up and a microphone that makes sound (Chromium's fake one, 880 Hz); it fails, naming
 * the reason in Chinese, when the browser denies the microphone or the SIP server cannot be
 * reached; with simulated media it is not offered, and says why.
 */

// 朱琳 (agent16) of the sales queue: no other test signs in as her.
const AGENT = "agent16";

test.use({ launchOptions: voiceLaunchOptions });
test.describe.configure({ mode: "serial" });

let token: string;
test.beforeAll(async ({ request }) => {
  expect(missingVoiceParts(), "real voice needs the Debian packages .ci/run installs").toEqual([]);
  token = await platformToken(request, AGENT);
});
test.afterEach(async ({ request }) => {
  await platformPost(request, token, "/cti/api/agent/state", { command: "signOut" }).catch(() => undefined);
});

/** On the workbench, signed in (签入, so 未就绪) with the softphone registered. */
async function signedInNotReady(page: Page) {
  await signIn(page, AGENT);
  await page.goto("/workBench");
  await expect(page.getByTestId("softphone-status")).toHaveText("软电话已就绪", { timeout: 20_000 });
  await page.getByRole("button", { name: "签入" }).click();
  await expect(page.getByTestId("agent-state")).toContainText("未就绪");
}

async function runTest(page: Page) {
  await page.getByRole("button", { name: "通话测试" }).click();
  const dialog = page.getByRole("dialog", { name: "通话测试" });
  await dialog.getByRole("button", { name: "开始测试" }).click();
  // The whole test ends within 30 s.
  await expect(dialog.getByTestId("precall-verdict")).not.toBeEmpty({ timeout: 30_000 });
  return dialog;
}

/**
 * The share of `hz` in a 16-bit mono WAV's sound (Goertzel over 100 ms blocks, so the packets'
 * placement in time does not smear the tone; near 1 for a pure tone), in the median block with sound.
 */
function toneShare(wav: Buffer, hz: number) {
  const rate = wav.readUInt32LE(24);
  const block = rate / 10;
  const k = 2 * Math.cos((2 * Math.PI * hz) / rate);
  const shares: number[] = [];
  for (let start = 44; start + block * 2 <= wav.length; start += block * 2) {
    let [s1, s2, energy] = [0, 0, 0];
    for (let at = start; at < start + block * 2; at += 2) {
      const x = wav.readInt16LE(at) / 32768;
      [s1, s2] = [x + k * s1 - s2, s1];
      energy += x * x;
    }
    if (energy / block > 1e-4) shares.push((2 * (s1 * s1 + s2 * s2 - k * s1 * s2)) / (block * energy));
  }
  // The median block: a few blocks the media server concealed (lost packets on a loaded machine)
  // do not outweigh the rest.
  return shares.sort((a, b) => a - b)[Math.floor(shares.length / 2)] ?? 0;
}

test("通话测试 passes with the real servers: every step 通过, and the loopback plays the agent's own voice as the media server got it", async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  await listenOnPage(context);
  await signedInNotReady(page);
  // The recorded voice the page plays back, as the page read it (a blob: URL the page's CSP keeps from fetch).
  let recorded: string | null = null;
  page.on("response", async (response) => {
    if (!/\/workBench\/phone\?precall=/.test(response.url())) return;
    const audio = (await response.json().catch(() => null))?.precall?.audio;
    if (audio) recorded = audio;
  });
  const dialog = await runTest(page);
  await expect(dialog.getByTestId("precall-verdict")).toHaveText("通话测试通过，可以开始接听电话。");
  for (const step of ["microphone", "speaker", "sip", "media", "loopback"])
    await expect(dialog.getByTestId(`precall-${step}`)).toHaveAttribute("data-status", "passed");
  await expect(dialog.getByTestId("precall-media")).toContainText("通过媒体服务器听到了测试音");
  await expect(dialog.getByTestId("precall-loopback")).toContainText("媒体服务器收到了您的声音");
  // The loopback is the agent's microphone (880 Hz) as the media server recorded it.
  const playback = dialog.getByTestId("precall-playback");
  await expect(playback).toBeVisible();
  await expect(playback).toHaveAttribute("src", /^blob:/);
  expect(recorded, "the recorded voice the page got").not.toBeNull();
  // Its 880 Hz, clean (the recording places packets by their RTP time, so arrival jitter adds no
  // gaps: the median block is all tone), and not the phone line's tone.
  const loopback = Buffer.from(recorded!, "base64");
  expect(toneShare(loopback, AGENT_TONE_HZ)).toBeGreaterThan(0.9);
  expect(toneShare(loopback, CUSTOMER_TONE_HZ)).toBeLessThan(0.02);
  await expectAccessible(page);
  // Escape closes it; focus returns to the button.
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(page.getByRole("button", { name: "通话测试" })).toBeFocused();
  // The test call was no CTI call: the agent is still 未就绪, with no call.
  await expect(page.getByTestId("agent-state")).toContainText("未就绪");
});

test("通话测试 fails at the microphone when the browser denies it, and says what to do", async ({ page, context }) => {
  test.setTimeout(60_000);
  // The browser says no to the microphone, as after the agent blocked it in the site's settings.
  await context.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
  });
  await signedInNotReady(page);
  const dialog = await runTest(page);
  await expect(dialog.getByTestId("precall-verdict")).toHaveText(
    "通话测试未通过：麦克风——浏览器未允许使用麦克风。请点击地址栏左侧的网站设置，允许本站使用麦克风后重试。",
  );
  await expect(dialog.getByTestId("precall-sip")).toHaveAttribute("data-status", "passed");
  await expect(dialog.getByTestId("precall-media")).toContainText("未进行：需要可用的麦克风。");
  await expect(dialog.getByTestId("precall-playback")).toBeHidden();
  await expectAccessible(page);
});

/** Drops the page's SIP WebSocket and refuses new ones: the SIP server cannot be reached. */
async function cutSipServer(context: BrowserContext) {
  let up = true;
  const open: Array<{ close: () => Promise<void> }> = [];
  await context.routeWebSocket(/^ws:\/\/127\.0\.0\.1:\d+/, (socket) => {
    if (!up) return void socket.close();
    socket.connectToServer();
    open.push(socket);
  });
  return async () => {
    up = false;
    for (const socket of open) await socket.close();
  };
}

test("通话测试 fails at the SIP server when it cannot be reached, and says what to do", async ({ page, context }) => {
  test.setTimeout(60_000);
  await listenOnPage(context);
  const cut = await cutSipServer(context);
  await signedInNotReady(page);
  await cut();
  await expect(page.getByTestId("softphone-status")).toHaveText("与语音服务器的连接已断开，正在重新连接…");
  const dialog = await runTest(page);
  await expect(dialog.getByTestId("precall-verdict")).toHaveText(
    "通话测试未通过：语音服务器（注册）——无法注册到语音服务器（服务器无响应或拒绝注册）。请检查网络连接；若持续失败，请联系管理员检查语音服务器。",
  );
  await expect(dialog.getByTestId("precall-microphone")).toHaveAttribute("data-status", "passed");
  await expect(dialog.getByTestId("precall-media")).toContainText("未进行：软电话未注册到语音服务器。");
});

test("通话测试 is not offered when the media is simulated, and the workbench says why", async ({ page, context }) => {
  // The platform answers as one without SIP servers does.
  await context.route(/\/workBench\/phone\?.*sip=1/, (route) => route.fulfill({ json: { sip: { mode: "simulated" } } }));
  await signIn(page, AGENT);
  await page.goto("/workBench");
  await expect(page.getByTestId("precall-unavailable")).toHaveText(
    "通话测试不可用：当前为模拟语音（平台未配置语音服务器），没有真实的通话声音可测。",
  );
  await expect(page.getByRole("button", { name: "通话测试" })).toHaveCount(0);
  await expectAccessible(page);
});
