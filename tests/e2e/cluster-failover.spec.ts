import { readFileSync } from "node:fs";
import { join } from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { PLATFORM_URL, platformPost, platformToken, readyOnWorkbench, signIn } from "./support";

/**
 * Through `npm run cluster` only (playwright.cluster.config.ts; the single-server projects ignore
 * this file): the platform process that owns the CTI is killed mid-call (decisions 037 and 051).
 * Every call in the cluster is on that process, so this runs after the other @cluster flows.
 */

// 吴凡 (agent07): in the cluster's own database no other @cluster flow signs in as him.
const AGENT = "agent07";
const PHONE = "13900139070";

/** The platform processes' own ports (scripts/cluster.mjs: PORT+4 and PORT+5) and which of them owns the CTI. */
async function ctiOwner(request: APIRequestContext, baseURL: string): Promise<number | null> {
  const first = Number(new URL(baseURL).port) + 4;
  for (const index of [0, 1]) {
    const health = await request.get(`http://127.0.0.1:${first + index}/health`, { timeout: 2_000 }).catch(() => null);
    if (health?.ok() && (await health.json()).ctiOwner) return index;
  }
  return null;
}

test("@cluster the process that holds the calls is killed mid-call: another owns within seconds, the call is recorded once, its result saved, the agent told and the next call taken", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const owner = await ctiOwner(request, baseURL!);
  expect(owner, "one platform process owns the CTI").not.toBeNull();
  const token = await platformToken(request, AGENT);
  await signIn(page, AGENT);
  await readyOnWorkbench(page);
  const { ctiCallId } = await platformPost(request, token, "/cti/simulator/offer", { phone: PHONE, agentUserName: AGENT });
  await page.getByRole("button", { name: /^接听/ }).click();
  await expect(page.getByTestId("agent-state")).toContainText("通话中");

  const pid = Number(readFileSync(join(process.env.E2E_DATA_DIR!, "cluster", `platform-${owner! + 1}.pid`), "utf8"));
  process.kill(pid, "SIGKILL");
  const killedAt = Date.now();
  await expect.poll(() => ctiOwner(request, baseURL!), { timeout: 15_000, intervals: [250] }).toBe(1 - owner!);
  test.info().annotations.push({ type: "another process owns the CTI after (ms)", description: String(Date.now() - killedAt) });

  // The agent's workbench learns that the phone was signed out, with no error page on the way.
  await expect(page.getByTestId("agent-state")).toHaveText("已签出", { timeout: 30_000 });
  await expect(page.getByRole("heading", { name: "语音工作台" })).toBeVisible();

  // The cut call is in the call lists, once.
  const history = await request.get(`${PLATFORM_URL}/contact/business/callhistory?phone=${PHONE}&pageSize=100`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const rows = (await history.json()).data.list.filter((row: { ctiCallId: string }) => row.ctiCallId === ctiCallId);
  expect(rows).toHaveLength(1);

  // Its result is still asked for, and saved on the new owner.
  const form = page.getByRole("form", { name: /通话结论/ });
  await form.getByLabel("处理成功").check();
  await form.getByRole("button", { name: "保存结论" }).click();
  await expect(page.getByTestId("outbox")).toContainText("已保存");
  const record = await request.get(`${PLATFORM_URL}/config/business/record/${ctiCallId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect((await record.json()).data).toMatchObject({ ctiCallId, callResult: 1 });

  // The new owner takes the next call.
  await readyOnWorkbench(page);
  await platformPost(request, token, "/cti/simulator/offer", { phone: "13900139071", agentUserName: AGENT });
  await page.getByRole("button", { name: /^接听/ }).click();
  await expect(page.getByTestId("agent-state")).toContainText("通话中");
  await page.getByRole("button", { name: /^挂机/ }).click();
  await expect(page.getByTestId("agent-state")).toContainText("话后整理");
  await platformPost(request, token, "/cti/api/agent/state", { command: "signOut" }).catch(() => undefined);
});
