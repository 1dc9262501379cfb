import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { baseURL } from "../../playwright.config";
import { PASSWORD, platformPost, platformToken, readyOnWorkbench, signIn, startUntilReady } from "./support";

/**
 * Running it (README "Running it", decision 038): this file starts its own console and platform
 * (on the e2e port + 20 … + 23: + 10 … + 14 are the e2e console's voice servers), restarts each while an agent is on a call and a supervisor
 * watches, then reads both processes' logs and metrics of that real run.
 */
const base = Number(new URL(baseURL).port) + 20;
const ports = { console: base, platform: base + 1, consoleMetrics: base + 2, platformMetrics: base + 3 };
const consoleURL = `http://localhost:${ports.console}`;
const platformURL = `http://127.0.0.1:${ports.platform}`;
const dir = mkdtempSync(join(tmpdir(), "switchboard-ops-"));
const logs = { console: join(dir, "console.log"), platform: join(dir, "platform.log") };
const AGENT = { user: "agent06", agentId: "1106" };
const PHONE = "13912345678";

// Simulated media: the real voice servers belong to the e2e console (tests/e2e/real-voice.spec.ts).
const common: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: "production", LOG_LEVEL: "info", VOICE: "simulated" };
const platformEnv: NodeJS.ProcessEnv = {
  ...common,
  UPSTREAM_PORT: String(ports.platform),
  DATA_DIR: dir,
  LOG_FILE: logs.platform,
  METRICS_PORT: String(ports.platformMetrics),
  DIALER_SPEED: "0",
  CHAT_SIMULATOR: "0",
  CTI_SIMULATED_TRAFFIC: "0",
  AGENT_SIMULATOR: "0",
  SIMULATOR_CONTROL: "1",
  CTI_RING_SECONDS: "300",
  CTI_ACW_SECONDS: "300",
};
const consoleEnv: NodeJS.ProcessEnv = {
  ...common,
  PORT: String(ports.console),
  UPSTREAM_URL: platformURL,
  SESSION_SECRET: "ops-e2e-only-secret",
  COOKIE_SECURE: "1",
  LOG_FILE: logs.console,
  METRICS_PORT: String(ports.consoleMetrics),
};

const processes: { console?: ChildProcess; platform?: ChildProcess } = {};

async function start(name: "console" | "platform"): Promise<void> {
  const [script, env, url] =
    name === "console" ? ["server.mjs", consoleEnv, consoleURL] : ["build/upstream/server.mjs", platformEnv, platformURL];
  processes[name] = await startUntilReady(script, env, url);
}

/** SIGTERM, and how long the process took to exit (it drains first). */
async function stop(name: "console" | "platform"): Promise<number> {
  const child = processes[name]!;
  const started = Date.now();
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
  return Date.now() - started;
}

/** A platform token from this test's own platform. */
const tokenFor = (request: APIRequestContext, username: string) => platformToken(request, username, platformURL);

/** A POST to this test's own platform. */
const network = (request: APIRequestContext, token: string, path: string, data: object = {}) =>
  platformPost(request, token, path, data, platformURL);

async function scrape(port: number): Promise<string> {
  return (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
}

test.describe.configure({ mode: "serial" });
test.use({ baseURL: consoleURL });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await start("platform");
  await start("console");
});
test.afterAll(async () => {
  for (const child of Object.values(processes)) child?.kill("SIGTERM");
});

test("a post from another site is a Chinese 403, logged with its request id; /ready and /health answer", async ({ request }) => {
  for (const accept of ["text/html", "application/json"]) {
    const response = await request.post("/user/login", {
      headers: { Origin: "https://evil.example", Accept: accept },
      form: { username: "admin", password: PASSWORD },
    });
    expect(response.status()).toBe(403);
    expect(await response.text()).toContain("不接受来自其他网站的提交");
    const id = response.headers()["x-request-id"];
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    await expect
      .poll(() => readFileSync(logs.console, "utf8"))
      .toMatch(new RegExp(`"reqId":"${id}","event":"refusal","reason":"foreign origin"`));
  }
  expect((await request.get("/ready")).status()).toBe(200);
  expect((await request.get("/health")).status()).toBe(200);
});

test("both processes' metrics count what happened, on their loopback ports", async ({ page }) => {
  await signIn(page, "agent");
  await page.goto("/workBench");
  await expect(page.getByTestId("connection")).toHaveText("已连接");
  await page.getByRole("button", { name: "签入" }).click();
  await expect(page.getByTestId("agent-state")).toContainText("未就绪");
  const consoleText = await scrape(ports.consoleMetrics);
  expect(consoleText).toMatch(/http_request_duration_seconds_count\{route="\/workBench",method="GET",status="200"\} [1-9]/);
  expect(consoleText).toMatch(/http_request_duration_seconds_count\{route="\/user\/login",method="POST",status="403"\} [1-9]/);
  expect(consoleText).toMatch(/upstream_request_duration_seconds_count\{endpoint="\/uaa\/oauth\/token",method="POST",status="200"\} [1-9]/);
  expect(consoleText).toMatch(/event_streams_open\{kind="\/workBench\/events"\} 1/);
  const platformText = await scrape(ports.platformMetrics);
  expect(platformText).toMatch(/http_request_duration_seconds_count\{route="\/uaa\/oauth\/token",method="POST",status="200"\} [1-9]/);
  expect(platformText).toMatch(/notification_delivery_lag_seconds_count [1-9]/);
  expect(platformText).toMatch(/event_streams_open\{kind="user"\} [1-9]/);
  expect(platformText).toMatch(/db_pool_connections\{state="total"\} 1/);
  // Not on the public port.
  expect((await fetch(`${consoleURL}/metrics`)).status).toBe(404);
});

test("the console, then the platform, restart while an agent is on a call and a supervisor watches: nothing is lost", async ({
  browser,
  request,
}) => {
  test.setTimeout(240_000);
  const admin = await tokenFor(request, "admin");
  const supervisorContext = await browser.newContext({ baseURL: consoleURL });
  const agentContext = await browser.newContext({ baseURL: consoleURL });
  const supervisor = await supervisorContext.newPage();
  const agent = await agentContext.newPage();

  await signIn(supervisor, "supervisor");
  await supervisor.goto("/monitor/agent?queueName=demo-sales");
  const live = supervisor.getByRole("status").filter({ hasText: "实时连接" });
  await expect(live).toHaveText("实时连接：已连接");
  const row = supervisor.getByRole("row").filter({ hasText: AGENT.agentId });

  await signIn(agent, AGENT.user);
  await readyOnWorkbench(agent);
  await expect(row).toContainText("就绪");

  const { ctiCallId } = await network(request, admin, "/cti/simulator/offer", {
    phone: PHONE,
    agentUserName: AGENT.user,
    transcript: [{ segmentId: 0, thisRole: 3, nluResult: null, dialogContent: "我要找人工", gender: 1 }],
  });
  await expect(agent.getByTestId("agent-state")).toContainText("振铃中");
  await agent.keyboard.press("Alt+A");
  await expect(agent.getByTestId("agent-state")).toContainText("通话中");
  await expect(row).toContainText("通话中");
  const transcript = agent.getByRole("region", { name: "对话记录" });

  // The console restarts; the customer speaks meanwhile. Its streams ended with a retry hint,
  // the browsers reconnect with Last-Event-ID and the missed line is replayed.
  expect(await stop("console")).toBeLessThan(10_000);
  await network(request, admin, `/cti/simulator/call/${ctiCallId}/asr`, {
    segmentId: 1,
    thisRole: 3,
    nluResult: null,
    dialogContent: "重启期间说的话",
    gender: 1,
  });
  await start("console");
  await expect(transcript).toContainText("重启期间说的话", { timeout: 20_000 });
  await expect(agent.getByTestId("connection")).toHaveText("已连接");
  await expect(agent.getByTestId("agent-state")).toContainText("通话中");
  await expect(live).toHaveText("实时连接：已连接", { timeout: 20_000 });
  await expect(row).toContainText("通话中");

  // The agent hangs up and writes the result; the platform restarts as it is saved: the outbox
  // keeps it until the platform is back, and it is saved once.
  await agent.keyboard.press("Alt+H");
  await expect(agent.getByTestId("agent-state")).toContainText("话后整理");
  const form = agent.getByRole("form", { name: "通话结论" });
  await form.getByLabel("处理成功").check();
  await form.getByLabel("备注").fill("重启期间保存的结论");
  expect(await stop("platform")).toBeLessThan(10_000);
  await form.getByRole("button", { name: "保存结论" }).click();
  const outbox = agent.getByTestId("outbox");
  await expect(outbox).toContainText(/等待发送|发送中/);
  await start("platform");
  await expect(outbox).toContainText("已保存", { timeout: 60_000 });
  const agentToken = await tokenFor(request, AGENT.user);
  const record = await request.get(`${platformURL}/config/business/record/${ctiCallId}`, {
    headers: { authorization: `Bearer ${agentToken}` },
  });
  expect((await record.json()).data).toMatchObject({ callResult: 1, remark: "重启期间保存的结论" });

  // The monitor reconnects and shows what the platform says now: the restarted platform signed
  // the agent's phone out (its phones do not outlive it), and told the agent too.
  await expect(live).toHaveText("实时连接：已连接", { timeout: 30_000 });
  await expect(row).toContainText("已签出", { timeout: 30_000 });
  await expect(agent.getByTestId("agent-state")).toHaveText("已签出", { timeout: 30_000 });

  await supervisorContext.close();
  await agentContext.close();
});

test("the run's logs carry one request id across both processes and no password, token, cookie or whole phone number", async ({
  request,
}) => {
  const token = await tokenFor(request, "admin");
  const consoleLines = readFileSync(logs.console, "utf8").trim().split("\n");
  const platformLines = readFileSync(logs.platform, "utf8").trim().split("\n");
  for (const line of [...consoleLines, ...platformLines]) {
    expect(() => JSON.parse(line), line).not.toThrow();
    expect(line).not.toContain(PASSWORD);
    expect(line).not.toContain(PHONE);
    expect(line).not.toContain(token);
    expect(line).not.toMatch(/__session|Bearer [^[]|accessToken":"[^[]/i);
  }
  // A sign-in on the console is one id on both sides.
  const signIns = consoleLines.map((line) => JSON.parse(line)).filter((line) => line.event === "sign-in");
  expect(signIns.length).toBeGreaterThan(0);
  expect(platformLines.some((line) => line.includes(`"reqId":"${signIns[0].reqId}"`))).toBe(true);
  expect(platformLines.some((line) => line.includes('"event":"draining"'))).toBe(true);
});
