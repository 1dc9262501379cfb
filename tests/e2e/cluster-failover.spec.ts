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

/** A platform process's own address (scripts/cluster.mjs: PORT+4 and PORT+5), not the balancer's. */
const platformAt = (baseURL: string, index: number) => `http://127.0.0.1:${Number(new URL(baseURL).port) + 4 + index}`;

/** Which platform process owns the CTI. */
async function ctiOwner(request: APIRequestContext, baseURL: string): Promise<number | null> {
  for (const index of [0, 1]) {
    const health = await request.get(`${platformAt(baseURL, index)}/health`, { timeout: 2_000 }).catch(() => null);
    if (health?.ok() && (await health.json()).ctiOwner) return index;
  }
  return null;
}

/**
 * Reads an event stream (the platform's, with a bearer token, or the console's, with the page's
 * cookie) and pushes each event's id into `ids` until the stream ends, its process dies or
 * `signal` aborts.
 */
async function readIds(url: string, headers: Record<string, string>, ids: number[], signal: AbortSignal): Promise<void> {
  try {
    const response = await fetch(url, { headers, signal });
    const decoder = new TextDecoder();
    let buffer = "";
    const reader = response.body!.getReader();
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      buffer += decoder.decode(read.value, { stream: true });
      const frames = buffer.split("\n\n");
      buffer = frames.pop()!;
      for (const frame of frames) {
        const id = /^id: ?(\d+)$/m.exec(frame);
        if (id) ids.push(Number(id[1]));
      }
    }
  } catch {
    // the process was killed, or the reader was stopped
  }
}

/** Every event a fresh stream replays after `after`, read for `ms` (the replay comes first, at once). */
async function replayIds(url: string, headers: Record<string, string>, after: number, ms = 3_000): Promise<number[]> {
  const ids: number[] = [];
  await readIds(url, { ...headers, "Last-Event-ID": String(after) }, ids, AbortSignal.timeout(ms));
  return ids;
}

test("@cluster the process that holds the calls is killed mid-call: another owns within seconds, the call is recorded once, its result saved, the agent told and the next call taken, and no stream that reconnects misses an event", async ({
  page,
  request,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const owner = await ctiOwner(request, baseURL!);
  expect(owner, "one platform process owns the CTI").not.toBeNull();
  const token = await platformToken(request, AGENT);
  // What the agent's page receives on its event streams, whatever process each one went through.
  await page.addInitScript(() => {
    const seen: Array<{ url: string; id: number }> = [];
    Object.assign(window, { seenEvents: seen });
    const Native = window.EventSource;
    window.EventSource = class extends Native {
      constructor(url: string | URL, init?: EventSourceInit) {
        super(url, init);
        this.addEventListener("message", (event) => seen.push({ url: String(url), id: Number(event.lastEventId) }));
      }
    };
  });
  await signIn(page, AGENT);
  await readyOnWorkbench(page);
  // A supervisor's view of the tenant, streamed from the very process that is about to be killed.
  const supervisor = { authorization: `Bearer ${await platformToken(request, "supervisor")}` };
  const streamPath = "/events/api/stream?scope=tenant";
  const streamed: number[] = [];
  const readers = new AbortController();
  const firstStream = readIds(`${platformAt(baseURL!, owner!)}${streamPath}`, supervisor, streamed, readers.signal);
  const { ctiCallId } = await platformPost(request, token, "/cti/simulator/offer", { phone: PHONE, agentUserName: AGENT });
  await page.getByRole("button", { name: /^接听/ }).click();
  await expect(page.getByTestId("agent-state")).toContainText("通话中");

  const pid = Number(readFileSync(join(process.env.E2E_DATA_DIR!, "cluster", `platform-${owner! + 1}.pid`), "utf8"));
  process.kill(pid, "SIGKILL");
  const killedAt = Date.now();
  await expect.poll(() => ctiOwner(request, baseURL!), { timeout: 15_000, intervals: [250] }).toBe(1 - owner!);
  test.info().annotations.push({ type: "another process owns the CTI after (ms)", description: String(Date.now() - killedAt) });
  // The supervisor's stream died with its process; it reconnects to the other after the last event it had.
  await firstStream;
  expect(streamed.length, "events streamed before the kill (the call's offer and answer)").toBeGreaterThan(0);
  const beforeKill = streamed.length;
  const secondStream = readIds(
    `${platformAt(baseURL!, 1 - owner!)}${streamPath}`,
    { ...supervisor, "Last-Event-ID": String(streamed.at(-1)) },
    streamed,
    readers.signal,
  );

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

  // No event missed by a stream that reconnected: what the supervisor's stream got, before and
  // after its process died, is exactly what a fresh stream replays for that span, in order.
  await expect.poll(() => streamed.length, { message: "events after the kill reach the reconnected stream" }).toBeGreaterThan(beforeKill);
  readers.abort();
  await secondStream;
  const replayed = await replayIds(`${platformAt(baseURL!, 1 - owner!)}${streamPath}`, supervisor, streamed[0] - 1);
  expect(streamed).toEqual(replayed.filter((id) => id <= streamed.at(-1)!));
  // The same for the agent's page, through the balancer and a console: every event its streams
  // got, and none a fresh stream of the same page replays for that span is missing.
  const seen: Array<{ url: string; id: number }> = await page.evaluate(() => (window as unknown as { seenEvents: [] }).seenEvents);
  const workbench = seen.filter((event) => new URL(event.url, baseURL).pathname === "/workBench/events").map((event) => event.id);
  expect(workbench.length, "events the workbench received").toBeGreaterThan(0);
  const pageReplay = await page.evaluate(
    async ({ after }) => {
      const response = await fetch(`/workBench/events?lastEventId=${after}`, { signal: AbortSignal.timeout(3_000) });
      let text = "";
      try {
        for (const decoder = new TextDecoder(), reader = response.body!.getReader(); ;) {
          const { done, value } = await reader.read();
          if (done) break;
          text += decoder.decode(value, { stream: true });
        }
      } catch {
        // read for three seconds
      }
      return [...text.matchAll(/^id: ?(\d+)$/gm)].map((match) => Number(match[1]));
    },
    { after: workbench[0] - 1 },
  );
  expect(workbench).toEqual(pageReplay.filter((id) => id <= workbench.at(-1)!));
  await platformPost(request, token, "/cti/api/agent/state", { command: "signOut" }).catch(() => undefined);
});
