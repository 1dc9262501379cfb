import { afterAll, beforeAll, expect, it } from "vitest";
import { createSseParser, type AgentEvent, type SseFrame } from "#contracts/events";
import { MqConfigResponseSchema } from "#contracts/events";
import { UserAuthResponseSchema } from "#contracts/uaa";
import type { PreparedPlatform } from "#upstream/testing";
import { bearer, describeDb, loginAs, testPlatform, TEST_DB } from "#upstream/test-db";

/** Reads a live event stream over real HTTP, collecting the frames that carry events. */
async function openStream(url: string, token: string, lastEventId?: number) {
  const controller = new AbortController();
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (lastEventId !== undefined) headers["last-event-id"] = String(lastEventId);
  const response = await fetch(`${url}/events/api/stream`, { headers, signal: controller.signal });
  const events: AgentEvent[] = [];
  const parse = createSseParser();
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let first = true;
  let ready!: () => void;
  const opened = new Promise<void>((resolve) => (ready = resolve));
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        for (const frame of parse(value) as SseFrame[]) {
          if (first) {
            first = false;
            ready();
          }
          if (frame.id) events.push(JSON.parse(frame.data) as AgentEvent);
        }
      }
    } catch {
      // aborted
    }
  })();
  await opened; // the first heartbeat: the stream is subscribed
  return { response, events, close: () => controller.abort() };
}

async function until(check: () => boolean, what: string) {
  const deadline = Date.now() + 5_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describeDb(`real-time events on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  let url: string;
  const users: Record<string, { token: string; id: number; tenantId: number }> = {};

  beforeAll(async () => {
    platform = await testPlatform();
    url = await platform.app.listen({ host: "127.0.0.1", port: 0 });
    for (const name of ["agent", "chat", "other-admin"]) {
      const token = await loginAs(platform.app, name);
      const who = UserAuthResponseSchema.parse(
        (await platform.app.inject({ url: "/uaa/oauth/user_auth", headers: bearer(token) })).json(),
      ).data!;
      users[name] = { token, id: who.id, tenantId: who.tenantId };
    }
  });
  afterAll(async () => platform?.close());

  const publish = (name: string, type: string, payload: unknown) =>
    platform.app.events.publish({ tenantId: users[name].tenantId, userId: users[name].id }, type, payload);

  it("delivers a user's new events live, as Server-Sent Events", async () => {
    const stream = await openStream(url, users.agent.token);
    expect(stream.response.headers.get("content-type")).toContain("text/event-stream");
    const event = await publish("agent", "cti.ringing", { phone: "13800138000" });
    await until(() => stream.events.length === 1, "the live event");
    expect(stream.events[0]).toEqual(event);
    stream.close();
  });

  it("replays every event missed after Last-Event-ID, once and in order, then goes live", async () => {
    const seen = await publish("agent", "cti.state", { state: "READY" });
    const missed = [await publish("agent", "cti.ringing", { n: 1 }), await publish("agent", "cti.answered", { n: 2 })];
    const stream = await openStream(url, users.agent.token, seen.id);
    await until(() => stream.events.length === 2, "the replayed events");
    const live = await publish("agent", "cti.hangup", { n: 3 });
    await until(() => stream.events.length === 3, "the live event after replay");
    expect(stream.events.map((e) => e.id)).toEqual([...missed.map((e) => e.id), live.id]);
    stream.close();
  });

  it("never shows one user's events to another user or tenant", async () => {
    const chat = await openStream(url, users.chat.token, 0);
    const other = await openStream(url, users["other-admin"].token, 0);
    await publish("agent", "cti.ringing", { secret: true });
    const own = await publish("chat", "chat.message", { text: "您好" });
    await until(() => chat.events.some((e) => e.id === own.id), "the chat user's own event");
    expect(chat.events.every((e) => e.type.startsWith("chat."))).toBe(true);
    expect(other.events).toEqual([]);
    chat.close();
    other.close();
  });

  it("refuses a stream without a valid token", async () => {
    const response = await fetch(`${url}/events/api/stream`, { headers: { authorization: "Bearer nope" } });
    expect(response.status).toBe(401);
  });

  it("says where the real-time channel runs and where this user's events stand", async () => {
    const latest = await publish("agent", "cti.state", { state: "READY" });
    const response = await platform.app.inject({ url: "/config/global/mqconfig", headers: bearer(users.agent.token) });
    const config = MqConfigResponseSchema.parse(response.json()).data!;
    expect(config).toEqual({ streamPath: "/events/api/stream", heartbeatMs: 15_000, retentionSeconds: 3_600, lastEventId: latest.id });
  });

  it("forgets events past their retention", async () => {
    const old = await publish("agent", "cti.old", {});
    await platform.db
      .updateTable("agent_events")
      .set({ created_at: new Date(Date.now() - 2 * 3_600_000) })
      .where("id", "=", old.id)
      .execute();
    await platform.app.events.prune();
    expect((await platform.app.events.replay(users.agent.id, old.id - 1)).map((e) => e.id)).not.toContain(old.id);
  });
});
