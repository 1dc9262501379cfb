// Real voice (decisions 036 and 053). Not part of a plain `npm run bench` (it needs the
// telephony servers and takes minutes): `npm run bench -- --only=voice` (BENCH_VOICE_CALLS=10 for
// a short run, BENCH_VOICE_LEVELS=5,10 for a short ramp). It starts a stack of its own: rtpengine,
// Kamailio and baresip (scripts/voice-servers.mjs, RTP on VOICE.rtpPorts), the bench platform with
// their settings and the console in front, with bench agents; the agents' softphones are pages of
// one headless Chromium (fake microphone), one page and one browser context per agent, signed in
// as the agent and on the voice workbench, as an agent would be.
// - Setup times, over VOICE.calls calls one after another on one agent: dial (the platform asked
//   to offer a call) → the workbench shows 振铃中, and → the SIP INVITE reaches the page's
//   softphone; 接听 clicked in the page → the first sound of the customer's 440 Hz tone on the
//   softphone's remote stream (a WebAudio analyser polled every 10 ms in the page, as
//   tests/e2e/real-voice.spec.ts hears it). p50/p95/p99, times read on the page's clock.
// - Concurrency: for each level in VOICE.levels, that many agents answer a call each at once; the
//   calls are held VOICE.holdSeconds, while each page checks every 250 ms that it hears the tone
//   and reads its concealed samples (audio the browser had to invent for lost or late packets).
//   A level is intact when every call heard the tone in ≥ 95 % of the checks with ≤ 2 % concealed
//   samples. The ramp stops at the first level that is not; the limit is the last intact one.
// - CPU per concurrent call of each server (rtpengine, all Kamailio processes, baresip, and the
//   browser, platform and console besides), from /proc, over the hold of the highest intact level,
//   less the same servers' idle rate, divided by the calls. The machine's load average is printed
//   with the figures: the softphones' browser shares the two cores with the servers it measures.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { chromium } from "@playwright/test";
import { benchAgent, VOICE } from "../config.mjs";
import { platformToken, signIn } from "../lib/http.mjs";
import { cpuMs, startServers, stop } from "../lib/processes.mjs";
import { missingVoiceParts, startVoiceServers, toneWav } from "../../scripts/voice-servers.mjs";

const COMMAND = "npm run bench -- --only=voice";
const CUSTOMER_TONE_HZ = 440;

export async function voice({ quick, tmp, log }) {
  const missing = missingVoiceParts();
  if (missing.length > 0) throw new Error(`real voice needs ${missing.join(", ")} (see README, Real voice)`);
  const load = [loadavg()];
  const dataDir = join(tmp, "voice-data");
  const servers = await startVoiceServers({
    basePort: VOICE.ports.voice,
    dataDir,
    rtpPorts: VOICE.rtpPorts,
    log: (line) => log.write(`${line}\n`),
  });
  if (!servers) throw new Error("VOICE=simulated: no real media to measure");
  const levels = VOICE.levels;
  let stack;
  let browser;
  try {
    stack = await startServers({
      ports: VOICE.ports,
      dataDir,
      platformEnv: {
        ...servers.platformEnv,
        BENCH_AGENTS: String(Math.max(...levels)),
        SIMULATOR_CONTROL: "1",
        CTI_RING_SECONDS: "120",
      },
      consoleEnv: servers.consoleEnv,
      log,
    });
    const agentTone = join(tmp, "agent-tone.wav");
    writeFileSync(agentTone, toneWav(880, 60, 48_000));
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: browserArgs(agentTone) });
    const floor = new Floor(browser, stack);
    const calls = quick ? VOICE.quickCalls : VOICE.calls;

    const setup = await setupTimes(floor, calls);
    const ramp = await concurrency(floor, levels, dataDir, stack);
    load.push(loadavg());
    return report(setup, ramp, calls, load);
  } finally {
    await browser?.close();
    await stop(stack?.consoleProcess);
    await stop(stack?.platform);
    await servers.stop();
  }
}

/** Headless Chromium as the e2e's real-voice files launch it: a fake microphone playing the agent's tone, sound without a gesture. */
function browserArgs(agentTone) {
  return [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--use-fake-ui-for-media-stream",
    "--use-fake-device-for-media-stream",
    `--use-file-for-fake-audio-capture=${agentTone}`,
    "--autoplay-policy=no-user-gesture-required",
  ];
}

/**
 * What each page keeps for the bench, installed before the workbench loads: when a SIP INVITE
 * arrived on its WebSocket, its peer connections (the latest is the call's), and an ear on the softphone's remote stream (the loudest frequency
 * now, from an analyser without smoothing, so the first sound is seen within a 43 ms window).
 */
function instrumentPage() {
  const bench = { invites: [], connections: [] };
  window.bench = bench;
  const clock = () => performance.timeOrigin + performance.now();
  const Connection = window.RTCPeerConnection;
  window.RTCPeerConnection = class extends Connection {
    constructor(...args) {
      super(...args);
      bench.connections.push(this);
    }
  };
  const Socket = window.WebSocket;
  window.WebSocket = class extends Socket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        if (typeof event.data === "string" && event.data.startsWith("INVITE ")) bench.invites.push(clock());
      });
    }
  };
  bench.clock = clock;
  bench.loudest = () => {
    const stream = document.querySelector("[data-testid=softphone-audio]")?.srcObject;
    if (!stream) return { hz: 0, db: -Infinity };
    if (bench.stream !== stream) {
      bench.context ??= new AudioContext();
      void bench.context.resume();
      bench.source?.disconnect();
      bench.analyser = bench.context.createAnalyser();
      bench.analyser.fftSize = 2048;
      bench.analyser.smoothingTimeConstant = 0;
      bench.source = bench.context.createMediaStreamSource(stream);
      bench.source.connect(bench.analyser);
      bench.stream = stream;
    }
    const bins = new Float32Array(bench.analyser.frequencyBinCount);
    bench.analyser.getFloatFrequencyData(bins);
    let top = 1;
    for (let i = 2; i < bins.length; i++) if (bins[i] > bins[top]) top = i;
    return { hz: (top * bench.context.sampleRate) / bench.analyser.fftSize, db: bins[top] };
  };
  bench.hears = (hz) => {
    const sound = bench.loudest();
    return Math.abs(sound.hz - hz) < 30 && sound.db > -70;
  };
}

/** The bench agents' softphones: one page each, opened when first needed, signed in (签入) and registered. */
class Floor {
  constructor(browser, stack) {
    this.browser = browser;
    this.stack = stack;
    this.agents = [];
  }

  /** The first `count` agents, each with a registered softphone on the workbench. */
  async first(count) {
    while (this.agents.length < count) {
      const name = benchAgent(this.agents.length);
      const { consoleUrl, platformUrl } = this.stack;
      const [cookie, token] = await Promise.all([signIn(consoleUrl, name), platformToken(platformUrl, name)]);
      const context = await this.browser.newContext({ locale: "zh-CN" });
      await context.addCookies(
        cookie.split("; ").map((pair) => ({ name: pair.split("=")[0], value: pair.slice(pair.indexOf("=") + 1), url: consoleUrl })),
      );
      await context.addInitScript(instrumentPage);
      const page = await context.newPage();
      await page.goto(`${consoleUrl}/workBench`);
      await page.waitForFunction(() => document.querySelector("[data-testid=softphone-status]")?.textContent === "软电话已就绪", null, {
        timeout: 60_000,
      });
      const agent = { name, page, token };
      await this.platform(agent, "/cti/api/agent/state", { command: "signIn" });
      this.agents.push(agent);
    }
    return this.agents.slice(0, count);
  }

  async platform(agent, path, body = {}) {
    const response = await fetch(`${this.stack.platformUrl}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${agent.token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return (await response.json()).data;
  }

  /** The agent is ready, and the workbench says so. */
  async ready(agent) {
    await this.platform(agent, "/cti/api/agent/state", { command: "ready" });
    await agent.page.waitForFunction(() => document.querySelector("[data-testid=agent-state]")?.textContent === "就绪");
  }

  /** A customer calls the agent (on the agent's direct line); answers the CTI call's id. */
  async offer(agent, phone) {
    return (await this.platform(agent, "/cti/simulator/offer", { phone, agentUserName: agent.name })).ctiCallId;
  }

  /** The customer hangs up; the workbench leaves the call. */
  async hangUp(agent, ctiCallId) {
    await this.platform(agent, `/cti/simulator/call/${ctiCallId}/hangup`);
    await agent.page.waitForFunction(
      () => !/振铃中|通话中|保持中/.test(document.querySelector("[data-testid=agent-state]")?.textContent ?? ""),
    );
  }
}

/** The page waits for the call to ring, clicks 接听 and answers how long until it heard the customer (null: not within 20 s). */
function answerAndListen(hz) {
  const { bench } = window;
  const state = () => document.querySelector("[data-testid=agent-state]")?.textContent ?? "";
  return new Promise((resolve) => {
    const ringing = setInterval(() => {
      if (!state().includes("振铃中")) return;
      clearInterval(ringing);
      const answer = [...document.querySelectorAll("button")].find((button) => button.textContent?.startsWith("接听"));
      const clicked = bench.clock();
      answer?.click();
      const listening = setInterval(() => {
        if (bench.hears(hz)) {
          clearInterval(listening);
          resolve(bench.clock() - clicked);
        } else if (bench.clock() - clicked > 20_000) {
          clearInterval(listening);
          resolve(null);
        }
      }, 10);
    }, 5);
  });
}

/** Dial → ringing (workbench and SIP INVITE) and answer → first audio, call after call on the first agent. */
async function setupTimes(floor, calls) {
  const [agent] = await floor.first(1);
  const { page } = agent;
  const ringShown = [];
  const inviteIn = [];
  const audioIn = [];
  let unheard = 0;
  for (let i = 0; i < calls; i++) {
    await floor.ready(agent);
    const invites = await page.evaluate(() => window.bench.invites.length);
    // The moment the page first shows 振铃中, seen by a MutationObserver on the phone bar's state.
    await page.evaluate(() => {
      const { bench } = window;
      bench.ringAt = null;
      const state = document.querySelector("[data-testid=agent-state]");
      const observer = new MutationObserver(() => {
        if (state.textContent.includes("振铃中")) {
          bench.ringAt = bench.clock();
          observer.disconnect();
        }
      });
      observer.observe(state, { subtree: true, childList: true, characterData: true });
    });
    const listening = page.evaluate(answerAndListen, CUSTOMER_TONE_HZ);
    const dialled = performance.timeOrigin + performance.now();
    const ctiCallId = await floor.offer(agent, `1390000${String(i).padStart(4, "0")}`);
    const heardAfter = await listening;
    const { ringAt, inviteAt } = await page.evaluate(
      (before) => ({ ringAt: window.bench.ringAt, inviteAt: window.bench.invites[before] }),
      invites,
    );
    ringShown.push(ringAt - dialled);
    inviteIn.push(inviteAt - dialled);
    if (heardAfter === null) unheard += 1;
    else audioIn.push(heardAfter);
    await floor.hangUp(agent, ctiCallId);
  }
  return { ringShown, inviteIn, audioIn, unheard };
}

/** CPU time so far (ms) of each server of this run, found in /proc by their command lines. */
function serverCpu(dataDir, stack, browserPid) {
  const run = join(dataDir, "voice-run");
  const byCommand = { rtpengine: join(run, "rtpengine.conf"), kamailio: join(run, "kamailio.cfg"), baresip: join(run, "baresip") };
  const cpu = { rtpengine: 0, kamailio: 0, baresip: 0, browser: 0 };
  const parents = new Map();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      const server = Object.keys(byCommand).find((name) => args.includes(byCommand[name]));
      if (server) cpu[server] += cpuMs(entry);
      parents.set(entry, readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ")[1]);
    } catch {
      // a process that ended meanwhile
    }
  }
  // The browser: its main process and every descendant (renderers, the GPU and audio services).
  const inBrowser = (pid) => pid === String(browserPid) || (parents.has(pid) && pid !== "1" && inBrowser(parents.get(pid)));
  for (const pid of parents.keys()) {
    try {
      if (inBrowser(pid)) cpu.browser += cpuMs(pid);
    } catch {
      // ended meanwhile
    }
  }
  cpu.platform = cpuMs(stack.platform.pid);
  cpu.console = cpuMs(stack.consoleProcess.pid);
  return cpu;
}

/** What a page heard while its call was held: the share of checks that heard the tone, and the concealed share of samples. */
function holdAndListen({ hz, seconds }) {
  const { bench } = window;
  const concealment = async () => {
    const connection = bench.connections.at(-1);
    let concealed = 0;
    let total = 0;
    (await connection?.getStats())?.forEach((entry) => {
      if (entry.type === "inbound-rtp" && entry.kind === "audio")
        [concealed, total] = [entry.concealedSamples ?? 0, entry.totalSamplesReceived ?? 0];
    });
    return { concealed, total };
  };
  return (async () => {
    const before = await concealment();
    let [heard, checks] = [0, 0];
    await new Promise((resolve) => {
      const timer = setInterval(() => {
        checks += 1;
        if (bench.hears(hz)) heard += 1;
        if (checks >= seconds * 4) {
          clearInterval(timer);
          resolve();
        }
      }, 250);
    });
    const after = await concealment();
    const total = after.total - before.total;
    return { heard: heard / checks, concealed: total > 0 ? (after.concealed - before.concealed) / total : 1 };
  })();
}

/** Concurrent calls at each level until audio is no longer intact; CPU of each server meanwhile. */
async function concurrency(floor, levels, dataDir, stack) {
  const browserPid = browserProcessId();
  // The idle rate: every page of the first level registered, no call.
  await floor.first(levels[0]);
  const idleStart = serverCpu(dataDir, stack, browserPid);
  const idleAt = Date.now();
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  const idle = rate(idleStart, serverCpu(dataDir, stack, browserPid), Date.now() - idleAt);

  const results = [];
  for (const level of levels) {
    const agents = await floor.first(level);
    await Promise.all(agents.map((agent) => floor.ready(agent)));
    const answering = agents.map((agent) => agent.page.evaluate(answerAndListen, CUSTOMER_TONE_HZ));
    const calls = await Promise.all(
      agents.map((agent, i) => floor.offer(agent, `1391${String(level).padStart(3, "0")}${String(i).padStart(4, "0")}`)),
    );
    const answered = await Promise.all(answering);
    const start = serverCpu(dataDir, stack, browserPid);
    const at = Date.now();
    const heard = await Promise.all(
      agents.map((agent) => agent.page.evaluate(holdAndListen, { hz: CUSTOMER_TONE_HZ, seconds: VOICE.holdSeconds })),
    );
    const busy = rate(start, serverCpu(dataDir, stack, browserPid), Date.now() - at);
    await Promise.all(agents.map((agent, i) => floor.hangUp(agent, calls[i])));
    const intact = heard.filter((h, i) => answered[i] !== null && h.heard >= 0.95 && h.concealed <= 0.02).length;
    results.push({
      level,
      intact,
      worstHeard: Math.min(...heard.map((h) => h.heard)),
      worstConcealed: Math.max(...heard.map((h) => h.concealed)),
      perCall: Object.fromEntries(Object.keys(busy).map((name) => [name, (busy[name] - idle[name]) / level])),
      load: loadavg()[0],
    });
    if (intact < level) break;
  }
  return results;
}

/** Percent of one core each process used between two readings. */
function rate(before, after, ms) {
  return Object.fromEntries(Object.keys(after).map((name) => [name, ((after[name] - before[name]) / ms) * 100]));
}

/** The browser's main process: Playwright starts it as a child of this process. */
function browserProcessId() {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = stat.split(") ")[1].split(" ")[1];
      if (parent === String(process.pid) && /\((chromium|chrome)\)/.test(stat)) return Number(entry);
    } catch {
      // ended meanwhile
    }
  }
  return -1;
}

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const ms = (values) =>
  values.length === 0 ? "none" : [50, 95, 99].map((p) => `p${p} ${percentile(values, p).toFixed(0)}`).join(" / ") + " ms";

function report(setup, ramp, calls, load) {
  const loadNote = `load average ${load.map((l) => l.map((x) => x.toFixed(1)).join(" ")).join(" → ")} (1/5/15 min, before → after)`;
  const limit = ramp.filter((r) => r.intact === r.level).at(-1);
  const measured = limit ?? ramp[0];
  const cpu = (name) => (measured ? `${measured.perCall[name].toFixed(2)} % of a core` : "not measured");
  const rows = [
    { figure: `dial → 振铃中 on the workbench (${calls} calls)`, value: ms(setup.ringShown), target: "", note: loadNote },
    { figure: `dial → SIP INVITE at the softphone (${calls} calls)`, value: ms(setup.inviteIn), target: "", note: loadNote },
    {
      figure: `接听 → first audio heard (${calls} calls)`,
      value: `${ms(setup.audioIn)}${setup.unheard ? `; ${setup.unheard} not heard within 20 s` : ""}`,
      target: "p95 ≤ 1.5 s",
      met: setup.unheard === 0 && setup.audioIn.length > 0 && percentile(setup.audioIn, 95) <= 1_500,
      note: loadNote,
    },
    {
      figure: "concurrent calls with audio intact (one Chromium, one page per agent)",
      value: `${limit?.level ?? 0}${ramp.at(-1) !== limit ? ` (at ${ramp.at(-1).level}: ${ramp.at(-1).intact} intact)` : ` (the highest level tried)`}`,
      target: "≥ 20",
      met: (limit?.level ?? 0) >= 20,
      note: ramp
        .map(
          (r) =>
            `${r.level}: ${r.intact} intact, worst heard ${(r.worstHeard * 100).toFixed(0)} %, worst concealed ${(r.worstConcealed * 100).toFixed(1)} %, load ${r.load.toFixed(1)}`,
        )
        .join("; "),
    },
  ];
  for (const name of ["rtpengine", "kamailio", "baresip", "browser", "platform", "console"]) {
    rows.push({
      figure: `CPU per concurrent call: ${name}`,
      value: cpu(name),
      target: "",
      note: measured ? `over ${measured.level} calls held ${VOICE.holdSeconds} s, less idle` : "",
    });
  }
  return rows.map((row) => ({ command: COMMAND, ...row }));
}
