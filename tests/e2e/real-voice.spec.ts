import { chromium, expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { missingVoiceParts } from "../../scripts/voice-servers.mjs";
import { PLATFORM_URL, platformPost, platformToken, readyOnWorkbench, signIn } from "./support";
import {
  AGENT_TONE_HZ,
  COLLEAGUE_TONE_HZ,
  CUSTOMER_TONE_HZ,
  hears,
  hearsTones,
  launchOptionsWithTone,
  listenOnPage,
  loudest,
  recordedCall,
  silent,
  toneIn,
  voiceLaunchOptions,
} from "./voice-ear";

/**
 * Real voice (decision 036): the e2e server runs Kamailio, rtpengine and the customers' phone line
 * (baresip), installed by .ci/run. The agent's Chromium has a fake microphone playing an 880 Hz
 * tone; the simulated customer plays 440 Hz. The agent answers from the workbench's own button,
 * the page hears the customer (WebAudio on the softphone's remote stream), and the customer's side
 * of the recorded call carries the agent.
 */

// 赵敏 (agent01) of the sales queue: no other test signs in as her; calls are offered to her alone (a direct line).
const AGENT = "agent01";
// 蒋涛 (agent12): the colleague a call is transferred to, signed in by this file alone.
const COLLEAGUE = "agent12";
// 沈冰 (agent13) consults 韩梅 (agent14): signed in by this file alone.
const ASKING = "agent13";
const CONSULTED = "agent14";

test.use({ launchOptions: voiceLaunchOptions });

/**
 * The longest quiet stretch, in ms, between sounds in one channel of a 16-bit stereo WAV (RMS per
 * 100 ms below `level`): the silence before the audio starts and after it stops is not counted.
 */
function longestQuiet(wav: Buffer, channel: 0 | 1, level = 0.01): number {
  const rate = wav.readUInt32LE(24);
  const window = rate / 10;
  let [run, longest, sum, count, heard] = [0, 0, 0, 0, false];
  for (let at = 44 + channel * 2; at + 2 <= wav.length; at += 4) {
    const x = wav.readInt16LE(at) / 32768;
    sum += x * x;
    if (++count < window) continue;
    if (Math.sqrt(sum / count) < level) run += 100;
    else {
      if (heard) longest = Math.max(longest, run);
      [heard, run] = [true, 0];
    }
    [sum, count] = [0, 0];
  }
  return longest;
}

/**
 * How many 100 ms windows of one channel of a 16-bit stereo WAV hold every one of `tones` (each
 * at least 3 % of the window's energy, Goertzel per window, the window not silent). A recorded
 * tone is far from pure (packets placed by capture time): a lone one measures 10-50 %.
 */
function windowsWithTones(wav: Buffer, channel: 0 | 1, tones: number[]): number {
  const rate = wav.readUInt32LE(24);
  const size = rate / 10;
  let count = 0;
  for (let start = 44 + channel * 2; start + size * 4 <= wav.length; start += size * 4) {
    const samples = Array.from({ length: size }, (_, i) => wav.readInt16LE(start + i * 4) / 32768);
    const energy = samples.reduce((sum, x) => sum + x * x, 0) / size;
    const share = (hz: number) => {
      const k = 2 * Math.cos((2 * Math.PI * hz) / rate);
      let [s1, s2] = [0, 0];
      for (const x of samples) [s1, s2] = [x + k * s1 - s2, s1];
      return (s1 * s1 + s2 * s2 - k * s1 * s2) / (size * size) / energy;
    };
    if (energy > 1e-4 && tones.every((hz) => share(hz) > 0.03)) count++;
  }
  return count;
}

/** Each agent signs in on their page, which the test listens to, and is ready on the workbench. */
async function readyToListen(...agents: Array<[Page, string]>) {
  for (const [page, user] of agents) {
    await listenOnPage(page);
    await signIn(page, user);
    await readyOnWorkbench(page);
  }
}

/** Signs the agents' phones out, so the file can run again on the same platform. */
async function signOutPhones(request: APIRequestContext, ...tokens: string[]) {
  for (const token of tokens) await platformPost(request, token, "/cti/api/agent/state", { command: "signOut" }).catch(() => undefined);
}

/** Chooses a ready colleague as the target of a transfer or a consultation (the list is read when focused). */
async function chooseColleague(page: Page, name: string) {
  const target = page.getByLabel("转接/咨询目标");
  await target.focus();
  await expect(target.locator("option", { hasText: `${name}（就绪）` })).toHaveCount(1);
  await target.selectOption({ label: `${name}（就绪）` });
}

/** The agent answers the call ringing on the workbench and hears the customer. */
async function answerAndHear(page: Page) {
  await expect(page.getByTestId("agent-state")).toContainText("振铃中");
  await page.getByRole("button", { name: /^接听/ }).click();
  await expect.poll(async () => hears(await loudest(page), CUSTOMER_TONE_HZ), { timeout: 30_000, intervals: [250] }).toBe(true);
}

const remoteEnded = (page: Page) =>
  page.evaluate(
    () =>
      (document.querySelector<HTMLAudioElement>("[data-testid=softphone-audio]")?.srcObject as MediaStream | null)
        ?.getTracks()
        .every((t) => t.readyState === "ended") ?? false,
  );

test("an inbound call carries audio both ways; hold and mute silence it; keypad keys reach the customer; hang-up from either side ends both; its recording plays both sides in the call detail", async ({
  page,
  request,
}) => {
  expect(missingVoiceParts(), "real voice needs the Debian packages .ci/run installs").toEqual([]);
  test.setTimeout(120_000);
  const token = await platformToken(request, AGENT);
  await listenOnPage(page);
  await signIn(page, AGENT);
  await page.goto("/workBench");
  await expect(page.getByTestId("connection")).toHaveText("已连接");
  await page.getByRole("button", { name: "签入" }).click();
  await expect(page.getByTestId("agent-state")).toContainText("未就绪");
  await page.getByRole("button", { name: /^就绪/ }).click();
  await expect(page.getByTestId("agent-state")).toHaveText("就绪");

  const first = await platformPost(request, token, "/cti/simulator/offer", { phone: "13900139000", agentUserName: AGENT });
  await expect(page.getByTestId("agent-state")).toContainText("振铃中");
  await page.getByRole("button", { name: /^接听/ }).click();
  await expect(page.getByTestId("agent-state")).toContainText("通话中");

  // The agent hears the customer's tone.
  await expect.poll(async () => hears(await loudest(page), CUSTOMER_TONE_HZ), { timeout: 30_000, intervals: [250] }).toBe(true);

  // Hold silences the customer for the agent; resuming brings the customer back.
  await page.getByRole("button", { name: "保持" }).click();
  await expect(page.getByTestId("agent-state")).toContainText("保持中");
  await expect.poll(async () => silent(await loudest(page)), { timeout: 15_000, intervals: [250] }).toBe(true);
  await page.getByRole("button", { name: "恢复" }).click();
  await expect(page.getByTestId("agent-state")).toContainText("通话中");
  await expect.poll(async () => hears(await loudest(page), CUSTOMER_TONE_HZ), { timeout: 15_000, intervals: [250] }).toBe(true);

  // Hang-up from the workbench ends the SIP call too: the remote stream stops.
  await page.getByRole("button", { name: /^挂机/ }).click();
  await expect(page.getByTestId("agent-state")).toContainText("话后整理");
  await expect.poll(() => remoteEnded(page), { timeout: 15_000 }).toBe(true);

  // The customer's side, as the media server recorded it: the customer said 440 Hz and heard the agent's 880 Hz.
  const wav = await recordedCall(request, token, first.ctiCallId);
  const said = { own: toneIn(wav, 0, CUSTOMER_TONE_HZ), other: toneIn(wav, 0, AGENT_TONE_HZ) };
  const heard = { own: toneIn(wav, 1, AGENT_TONE_HZ), other: toneIn(wav, 1, CUSTOMER_TONE_HZ) };
  expect(said.own.rms).toBeGreaterThan(0.05);
  expect(said.own.power).toBeGreaterThan(100 * said.other.power);
  expect(heard.own.rms).toBeGreaterThan(0.05);
  expect(heard.own.power).toBeGreaterThan(100 * heard.other.power);

  // The result is saved, then the agent is ready for a second call, which the customer ends: the
  // workbench leaves the call and the audio stops.
  const result = page.getByRole("form", { name: /通话结论/ });
  await result.getByLabel("处理成功").check();
  await result.getByRole("button", { name: "保存结论" }).click();
  await expect(page.getByTestId("outbox")).toContainText("已保存");
  await page.getByRole("button", { name: /^就绪/ }).click();
  await expect(page.getByTestId("agent-state")).toHaveText("就绪");
  const second = await platformPost(request, token, "/cti/simulator/offer", { phone: "13900139001", agentUserName: AGENT });
  await page.getByRole("button", { name: /^接听/ }).click();
  await expect(page.getByTestId("agent-state")).toContainText("通话中");
  await expect.poll(async () => hears(await loudest(page), CUSTOMER_TONE_HZ), { timeout: 30_000, intervals: [250] }).toBe(true);
  // Muted for two seconds: the customer hears nothing of the agent meanwhile, and still talks.
  await page.getByRole("button", { name: "静音" }).click();
  await expect(page.getByTestId("agent-state")).toContainText("已静音");
  await page.waitForTimeout(2_000);
  await page.getByRole("button", { name: "取消静音" }).click();
  await expect(page.getByTestId("agent-state")).not.toContainText("已静音");
  // Keys pressed on the keypad reach the customer's phone, in order.
  await page.getByRole("button", { name: "拨号盘" }).click();
  const keypad = page.getByRole("group", { name: "拨号盘" });
  for (const key of ["1", "2", "#"]) await keypad.getByRole("button", { name: key, exact: true }).click();
  await expect(page.getByText("已发送按键：12#")).toBeVisible();
  await expect
    .poll(
      async () =>
        (
          await request
            .get(`${PLATFORM_URL}/cti/simulator/call/${second.ctiCallId}/keys`, { headers: { authorization: `Bearer ${token}` } })
            .then((r) => r.json())
        ).data.keys,
      { timeout: 10_000 },
    )
    .toBe("12#");
  await platformPost(request, token, `/cti/simulator/call/${second.ctiCallId}/hangup`);
  await expect(page.getByTestId("agent-state")).toContainText("话后整理");
  await expect.poll(() => remoteEnded(page), { timeout: 15_000 }).toBe(true);
  const muted = await recordedCall(request, token, second.ctiCallId);
  expect(longestQuiet(muted, 1), "the customer heard silence while the agent was muted").toBeGreaterThanOrEqual(1_500);
  expect(toneIn(muted, 1, AGENT_TONE_HZ).rms, "and the agent before and after").toBeGreaterThan(0.03);
  expect(longestQuiet(muted, 0), "the customer went on talking").toBeLessThan(500);
  // Signed out, so the test can run again on the same platform.
  await platformPost(request, token, "/cti/api/agent/state", { command: "signOut" });

  // The first call's recording plays in the call detail, and both sides are in it.
  const history = await request.get(`${PLATFORM_URL}/contact/business/callhistory?phone=13900139000&pageSize=100`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const row = (await history.json()).data.list.find((r: { ctiCallId: string }) => r.ctiCallId === first.ctiCallId);
  expect(row, "the first call in the agent's call history").toBeDefined();
  await page.goto(`/callHistory?phone=13900139000`);
  await page.locator(`a[href^="/callHistory/${row.callId}?"]`).click();
  const audio = page.getByRole("dialog", { name: "通话详情" }).locator("audio");
  await expect(audio).toHaveAttribute("src", `/callHistory/${row.callId}/recording`);
  await audio.evaluate((element: HTMLAudioElement) => {
    // The test's ear on the player: each tone's level in what it plays.
    const context = new AudioContext();
    const analyser = context.createAnalyser();
    analyser.fftSize = 8192;
    context.createMediaElementSource(element).connect(analyser);
    (window as unknown as { player: { analyser: AnalyserNode; rate: number } }).player = { analyser, rate: context.sampleRate };
    void context.resume();
    return element.play();
  });
  const levelAt = (hz: number) =>
    page.evaluate((hz) => {
      const { analyser, rate } = (window as unknown as { player: { analyser: AnalyserNode; rate: number } }).player;
      const bins = new Float32Array(analyser.frequencyBinCount);
      analyser.getFloatFrequencyData(bins);
      return bins[Math.round((hz * analyser.fftSize) / rate)];
    }, hz);
  await expect
    .poll(async () => (await levelAt(CUSTOMER_TONE_HZ)) > -70 && (await levelAt(AGENT_TONE_HZ)) > -70, { timeout: 15_000 })
    .toBe(true);
  expect(await audio.evaluate((element: HTMLAudioElement) => element.duration)).toBeGreaterThan(1);
});

test("a robot hand-off carries the customer audio; transferred to a colleague it takes its audio along: the colleague hears the customer, the first agent no longer does", async ({
  page,
  browser,
  request,
}) => {
  expect(missingVoiceParts(), "real voice needs the Debian packages .ci/run installs").toEqual([]);
  test.setTimeout(120_000);
  const token = await platformToken(request, AGENT);
  const colleagueToken = await platformToken(request, COLLEAGUE);
  const colleagueContext = await browser.newContext();
  const colleague = await colleagueContext.newPage();
  await readyToListen([page, AGENT], [colleague, COLLEAGUE]);
  try {
    // A robot hands the customer over: after the robot's part, the customer is heard.
    const call = await platformPost(request, token, "/cti/simulator/offer", {
      phone: "13900139002",
      agentUserName: AGENT,
      transcript: [{ segmentId: 0, thisRole: 3, nluResult: null, dialogContent: "我要找人工", gender: 1 }],
    });
    await expect(page.getByRole("region", { name: "对话记录" })).toContainText("我要找人工");
    await answerAndHear(page);

    await chooseColleague(page, "蒋涛");
    await page.getByRole("button", { name: "转接", exact: true }).click();
    await expect(page.getByRole("status").filter({ hasText: "已转接给 蒋涛" })).toBeVisible();
    await expect.poll(() => remoteEnded(page), { timeout: 15_000 }).toBe(true);

    await expect(colleague.getByTestId("agent-state")).toContainText("振铃中");
    await colleague.getByRole("button", { name: /^接听/ }).click();
    await expect(colleague.getByTestId("agent-state")).toContainText("通话中");
    await expect.poll(async () => hears(await loudest(colleague), CUSTOMER_TONE_HZ), { timeout: 30_000, intervals: [250] }).toBe(true);
    await platformPost(request, token, `/cti/simulator/call/${call.ctiCallId}/hangup`);
    await expect(colleague.getByTestId("agent-state")).toContainText("话后整理");
    await expect.poll(() => remoteEnded(colleague), { timeout: 15_000 }).toBe(true);
  } finally {
    await signOutPhones(request, token, colleagueToken);
    await colleagueContext.close();
  }
});

test("a consultation carries the two agents' voices to each other with the customer held; a conference brings in the customer, hold and mute keep their meaning; handed over, the colleague keeps the customer's audio", async ({
  page,
  request,
  baseURL,
}) => {
  expect(missingVoiceParts(), "real voice needs the Debian packages .ci/run installs").toEqual([]);
  test.setTimeout(180_000);
  const token = await platformToken(request, ASKING);
  const colleagueToken = await platformToken(request, CONSULTED);
  // The colleague's microphone plays its own tone, so it has a browser of its own.
  const colleagueBrowser = await chromium.launch(launchOptionsWithTone(COLLEAGUE_TONE_HZ));
  const colleague = await (await colleagueBrowser.newContext({ baseURL, locale: "zh-CN", timezoneId: "Asia/Shanghai" })).newPage();
  const heardBy = (screen: Page, tones: number[]) => expect.poll(() => hearsTones(screen, tones), { timeout: 30_000, intervals: [250] });
  try {
    await readyToListen([page, ASKING], [colleague, CONSULTED]);
    const call = await platformPost(request, token, "/cti/simulator/offer", { phone: "13900139003", agentUserName: ASKING });
    await answerAndHear(page);

    // The agent consults the colleague: the customer is held, the two agents hear each other.
    await chooseColleague(page, "韩梅");
    await page.getByRole("button", { name: "咨询", exact: true }).click();
    await expect(colleague.getByTestId("agent-state")).toContainText("振铃中");
    await colleague.getByRole("button", { name: /^接听/ }).click();
    const consultation = page.getByRole("group", { name: "咨询" });
    await expect(consultation).toContainText("咨询 韩梅：通话中");
    await heardBy(page, [COLLEAGUE_TONE_HZ, CUSTOMER_TONE_HZ]).toEqual([true, false]);
    await heardBy(colleague, [AGENT_TONE_HZ, CUSTOMER_TONE_HZ]).toEqual([true, false]);

    // All three: the colleague hears the customer and the agent, the agent both others.
    await consultation.getByRole("button", { name: "三方通话" }).click();
    await expect(consultation).toContainText("三方通话中");
    await heardBy(colleague, [AGENT_TONE_HZ, CUSTOMER_TONE_HZ]).toEqual([true, true]);
    await heardBy(page, [COLLEAGUE_TONE_HZ, CUSTOMER_TONE_HZ]).toEqual([true, true]);
    // Two seconds of the conference reach the customer (100 packets of 20 ms on the customer's leg, the page's first).
    const sentToCustomer = () =>
      page.evaluate(async () => {
        let packets = 0;
        const customerLeg = (window as unknown as { peerConnections: RTCPeerConnection[] }).peerConnections[0];
        (await customerLeg.getStats()).forEach((entry: { type: string; packetsSent?: number }) => {
          if (entry.type === "outbound-rtp") packets += entry.packetsSent ?? 0;
        });
        return packets;
      });
    const conferenceFrom = await sentToCustomer();
    await expect.poll(sentToCustomer, { timeout: 15_000 }).toBeGreaterThan(conferenceFrom + 100);
    // Mute silences the agent only; hold silences the customer only.
    await page.getByRole("button", { name: "静音" }).click();
    await heardBy(colleague, [AGENT_TONE_HZ, CUSTOMER_TONE_HZ]).toEqual([false, true]);
    await page.getByRole("button", { name: "取消静音" }).click();
    await page.getByRole("button", { name: "保持" }).click();
    await expect(page.getByTestId("agent-state")).toContainText("保持中");
    await heardBy(colleague, [AGENT_TONE_HZ, CUSTOMER_TONE_HZ]).toEqual([true, false]);
    await heardBy(page, [COLLEAGUE_TONE_HZ, CUSTOMER_TONE_HZ]).toEqual([true, false]);
    await page.getByRole("button", { name: "恢复" }).click();
    await heardBy(colleague, [AGENT_TONE_HZ, CUSTOMER_TONE_HZ]).toEqual([true, true]);

    // The agent hands the customer over and leaves: their call ends, the colleague hears the customer.
    await consultation.getByRole("button", { name: "完成转接" }).click();
    await expect(page.getByTestId("agent-state")).toContainText("话后整理");
    await expect.poll(() => remoteEnded(page), { timeout: 15_000 }).toBe(true);
    await heardBy(colleague, [CUSTOMER_TONE_HZ, AGENT_TONE_HZ]).toEqual([true, false]);
    await expect(colleague.getByTestId("agent-state")).toContainText("通话中");

    // The customer's leg to the first agent, as recorded: the customer heard the colleague (only the
    // conference's mix sends it there) and, in the same moments, the agent.
    const wav = await recordedCall(request, token, call.ctiCallId);
    expect(windowsWithTones(wav, 1, [COLLEAGUE_TONE_HZ]), "100 ms windows with the colleague").toBeGreaterThanOrEqual(10);
    expect(windowsWithTones(wav, 1, [AGENT_TONE_HZ, COLLEAGUE_TONE_HZ]), "100 ms windows with both agents").toBeGreaterThanOrEqual(10);
    expect(windowsWithTones(wav, 0, [CUSTOMER_TONE_HZ]), "the customer talked").toBeGreaterThanOrEqual(10);

    await platformPost(request, token, `/cti/simulator/call/${call.ctiCallId}/hangup`);
    await expect(colleague.getByTestId("agent-state")).toContainText("话后整理");
    await expect.poll(() => remoteEnded(colleague), { timeout: 15_000 }).toBe(true);
  } finally {
    await signOutPhones(request, token, colleagueToken);
    await colleagueBrowser.close();
  }
});
