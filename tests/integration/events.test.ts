import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSseParser, type RealtimeNotification } from "#contracts/events";
import { consoleAgainstPlatform } from "./support";

type Setup = Awaited<ReturnType<typeof consoleAgainstPlatform>>;
let setup: Setup;
beforeAll(async () => {
  setup = await consoleAgainstPlatform(["agent", "chat", "supervisor"]);
}, 60_000);
afterAll(async () => setup?.platform.close());

type Loader = (args: { request: Request; params: object; context: object }) => Promise<Response>;
const voice = async () => (await import("#app/routes/work-bench/events")).loader as Loader;
const text = async () => (await import("#app/routes/text-work-bench/events")).loader as Loader;
const queue = async () => (await import("#app/routes/inspection-success/events")).loader as Loader;
const monitor = async () => (await import("#app/routes/monitor-agent/events")).loader as Loader;

/** Opens a workbench event stream as the browser would, collecting the events it relays. */
async function open(loader: Loader, path: string, account: string, lastEventId?: number) {
  const abort = new AbortController();
  const headers = new Headers({ Cookie: setup.cookies[account] });
  if (lastEventId !== undefined) headers.set("Last-Event-ID", String(lastEventId));
  const response = await loader({
    request: new Request(`http://console.test${path}`, { headers, signal: abort.signal }),
    params: {},
    context: {},
  });
  const events: RealtimeNotification[] = [];
  let heartbeats = 0;
  const parse = createSseParser();
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        for (const frame of parse(value)) {
          if (frame.id) events.push(JSON.parse(frame.data));
          else heartbeats++;
        }
      }
    } catch {
      // closed
    }
  })();
  const until = async (check: () => boolean) => {
    const deadline = Date.now() + 5_000;
    while (!check()) {
      if (Date.now() > deadline) throw new Error("timed out");
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  await until(() => heartbeats > 0);
  // The relay subscribes upstream right after its first heartbeat; give it a moment.
  await new Promise((r) => setTimeout(r, 150));
  return { response, events, until, close: () => abort.abort() };
}

const publish = (account: string, type: string, payload: unknown) =>
  setup.platform.app.notifications.publish({ tenantId: setup.users[account].tenantId, userId: setup.users[account].id }, type, payload);

describe("the workbenches' event streams relay the platform's events", () => {
  it("relays the voice agent's cti events, and only those, as an event stream, numbers masked", async () => {
    const stream = await open(await voice(), "/workBench/events", "agent");
    expect(stream.response.headers.get("Content-Type")).toContain("text/event-stream");
    expect(stream.response.headers.get("Cache-Control")).toContain("no-transform");
    await publish("agent", "chat.message", { text: "不属于语音工作台" });
    const ring = await publish("agent", "cti.ringing", { phone: "13800138000" });
    await stream.until(() => stream.events.length > 0);
    expect(stream.events).toEqual([{ ...ring, payload: { phone: "138****8000" } }]);
    stream.close();
  });

  it("passes Last-Event-ID on, so events missed during a drop are replayed once, in order", async () => {
    const seen = await publish("agent", "cti.state", { state: "READY" });
    const missed = [await publish("agent", "cti.ringing", { n: 1 }), await publish("agent", "cti.answered", { n: 2 })];
    const stream = await open(await voice(), "/workBench/events", "agent", seen.id);
    await stream.until(() => stream.events.length === 2);
    expect(stream.events.map((e) => e.id)).toEqual(missed.map((e) => e.id));
    stream.close();
  });

  it("relays the text agent's chat events on the text workbench's stream", async () => {
    const stream = await open(await text(), "/textWorkBench/events", "chat");
    const message = await publish("chat", "chat.message", { text: "您好" });
    await stream.until(() => stream.events.length === 1);
    expect(stream.events[0]).toEqual(message);
    stream.close();
  });

  it("refuses the voice stream to a text agent (403)", async () => {
    const request = new Request("http://console.test/workBench/events", { headers: { Cookie: setup.cookies.chat } });
    await expect((await voice())({ request, params: {}, context: {} })).rejects.toMatchObject({ init: { status: 403 } });
  });
});

describe("the live inspection queue's stream (decision 033)", () => {
  const tenantWide = (type: string, payload: unknown) =>
    setup.platform.app.notifications.publish({ tenantId: setup.users.supervisor.tenantId, supervisors: true }, type, payload);

  it("relays the tenant's inspection changes to an inspector, and nothing else of the tenant's", async () => {
    const stream = await open(await queue(), "/inspectionSuccess/events", "supervisor");
    await tenantWide("monitor.agent", { userId: 1 });
    const changed = await tenantWide("inspection.calls", { calls: [] });
    await stream.until(() => stream.events.length > 0);
    expect(stream.events).toEqual([changed]);
    stream.close();
  });

  it("refuses it to an agent (403)", async () => {
    const request = new Request("http://console.test/inspectionSuccess/events", { headers: { Cookie: setup.cookies.agent } });
    await expect((await queue())({ request, params: {}, context: {} })).rejects.toMatchObject({ init: { status: 403 } });
  });
});

describe("the monitor's stream", () => {
  it("sends an agent's call with the party masked as the monitor shows it, and the queue's changes", async () => {
    const stream = await open(await monitor(), "/monitor/agent/events", "supervisor");
    const tenantId = setup.users.supervisor.tenantId;
    const state = {
      userId: setup.users.agent.id,
      state: "TALKING",
      reason: null,
      since: new Date().toISOString(),
      queueName: "demo-sales",
      work: {
        kind: "call",
        id: "cti-mask-1",
        party: "13800138000",
        direction: "inbound",
        campaignId: null,
        campaignName: null,
        startedAt: new Date().toISOString(),
      },
      chats: 0,
      signOutPending: false,
    };
    const agent = await setup.platform.app.notifications.publish({ tenantId, supervisors: true }, "monitor.agent", state);
    const queued = await setup.platform.app.notifications.publish({ tenantId, supervisors: true }, "monitor.queue", {
      queueName: "demo-sales",
      waiting: 1,
      oldestWaitingSince: null,
    });
    await stream.until(() => stream.events.length === 2);
    expect(stream.events[0]).toEqual({ ...agent, payload: { ...state, work: { ...state.work, party: "138****8000" } } });
    expect(stream.events[1]).toEqual(queued);
    expect(JSON.stringify(stream.events)).not.toContain("13800138000");
    stream.close();
  });
});
