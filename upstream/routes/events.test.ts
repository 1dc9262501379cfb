import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RealtimeNotification } from "#contracts/events";
import { MqConfigResponseSchema } from "#contracts/events";
import { UserAuthResponseSchema } from "#contracts/uaa";
import type { PreparedPlatform } from "#upstream/testing";
import { createNotificationBus } from "#upstream/notifications/bus";
import { revokeAccessToken, revokeUserTokens } from "#upstream/plugins/auth";
import { bearer, describeDb, loginAs, testPlatform, TEST_DB } from "#upstream/test-db";
import { openStream, until } from "#upstream/test-stream";

describeDb(`real-time events on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  let url: string;
  const users: Record<string, { token: string; id: number; tenantId: number }> = {};

  beforeAll(async () => {
    platform = await testPlatform();
    url = await platform.app.listen({ host: "127.0.0.1", port: 0 });
    for (const name of ["agent", "chat", "supervisor", "other-admin"]) {
      const token = await loginAs(platform.app, name);
      const who = UserAuthResponseSchema.parse(
        (await platform.app.inject({ url: "/uaa/oauth/user_auth", headers: bearer(token) })).json(),
      ).data!;
      users[name] = { token, id: who.id, tenantId: who.tenantId };
    }
  });
  afterAll(async () => platform?.close());

  const publish = (name: string, type: string, payload: unknown) =>
    platform.app.notifications.publish({ tenantId: users[name].tenantId, userId: users[name].id }, type, payload);

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

  it("ends a stream when its session ends: the one token signed out, then every token of the account", async () => {
    const here = await loginAs(platform.app, "chat");
    const there = await loginAs(platform.app, "chat");
    const [first, second] = [await openStream(url, here, 0), await openStream(url, there, 0)];
    await revokeAccessToken(platform.app, here);
    await until(() => first.state.ended, "the signed-out session's stream to end");
    const still = await publish("chat", "chat.message", { text: "还在" });
    await until(() => second.events.some((e) => e.id === still.id), "the other session's stream to go on");
    expect(second.state.ended).toBe(false);
    await revokeUserTokens(platform.app, users.chat.id);
    await until(() => second.state.ended, "every stream of the account to end");
    users.chat.token = await loginAs(platform.app, "chat");
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
      .updateTable("notifications")
      .set({ created_at: new Date(Date.now() - 2 * 3_600_000) })
      .where("id", "=", old.id)
      .execute();
    await platform.app.notifications.prune();
    expect((await platform.app.notifications.replay({ kind: "user", userId: users.agent.id }, old.id - 1)).map((e) => e.id)).not.toContain(
      old.id,
    );
  });

  const toSupervisors = (name: string, type: string, payload: unknown, queueName?: string) =>
    platform.app.notifications.publish({ tenantId: users[name].tenantId, supervisors: true, queueName }, type, payload);

  it("delivers a tenant's notifications to its supervisors, one queue's when asked, and replays them", async () => {
    const all = await openStream(url, users.supervisor.token, undefined, "?scope=tenant");
    const voiceOnly = await openStream(url, users.supervisor.token, undefined, "?scope=tenant&queue=demo-voice");
    const own = await openStream(url, users.agent.token);
    const voice = await toSupervisors("agent", "monitor.agent", { userId: users.agent.id, state: "READY" }, "demo-voice");
    const text = await toSupervisors("chat", "monitor.agent", { userId: users.chat.id, state: "READY" }, "demo-text");
    await until(() => all.events.length === 2 && voiceOnly.events.length === 1, "the tenant's notifications");
    expect(all.events).toEqual([voice, text]);
    expect(voiceOnly.events).toEqual([voice]);
    // An agent's own stream carries none of the supervisors' notifications.
    const mine = await publish("agent", "cti.state", { state: "READY" });
    await until(() => own.events.length === 1, "the agent's own notification");
    expect(own.events).toEqual([mine]);

    const replayed = await openStream(url, users.supervisor.token, voice.id - 1, "?scope=tenant");
    await until(() => replayed.events.length === 2, "the replayed tenant notifications");
    expect(replayed.events.map((e) => e.id)).toEqual([voice.id, text.id]);
    const config = MqConfigResponseSchema.parse(
      (await platform.app.inject({ url: "/config/global/mqconfig?scope=tenant", headers: bearer(users.supervisor.token) })).json(),
    ).data!;
    expect(config.lastEventId).toBe(text.id);
    for (const stream of [all, voiceOnly, own, replayed]) stream.close();
  });

  it("keeps another tenant's notifications from its supervisors, and refuses agents the tenant's", async () => {
    const other = await openStream(url, users["other-admin"].token, 0, "?scope=tenant");
    const ours = await toSupervisors("agent", "monitor.agent", { secret: true });
    const theirs = await toSupervisors("other-admin", "monitor.agent", { theirs: true });
    await until(() => other.events.length === 1, "the other tenant's own notification");
    expect(other.events.map((e) => e.id)).toEqual([theirs.id]);
    expect(other.events.map((e) => e.id)).not.toContain(ours.id);
    other.close();

    const refused = await fetch(`${url}/events/api/stream?scope=tenant`, { headers: bearer(users.agent.token) });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { msg: string }).msg).toBe("仅主管或管理员可以查看坐席实时状态");
    const config = await platform.app.inject({ url: "/config/global/mqconfig?scope=tenant", headers: bearer(users.agent.token) });
    expect(config.statusCode).toBe(403);
  });

  it("records that a user's stream is open, so the monitor can tell a live client from a lost one", async () => {
    const before = new Date();
    const stream = await openStream(url, users.chat.token);
    const seen = async () =>
      (await platform.db.selectFrom("user_presence").select("last_seen_at").where("user_id", "=", users.chat.id).executeTakeFirst())
        ?.last_seen_at;
    const deadline = Date.now() + 5_000;
    while (!((await seen())?.getTime() ?? 0 >= before.getTime() - 1_000) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    expect((await seen())?.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1_000);
    stream.close();
  });

  if (TEST_DB === "postgres") {
    it("delivers a notification published by another platform process on the same database", async () => {
      const elsewhere = createNotificationBus(platform.db);
      const stopListening = await elsewhere.listenAcrossProcesses();
      const received: RealtimeNotification[] = [];
      const unsubscribe = elsewhere.subscribe({ kind: "tenant", tenantId: users.supervisor.tenantId }, (n) => received.push(n));
      const sent = await toSupervisors("agent", "monitor.agent", { from: "the other process" });
      await until(() => received.length === 1, "the notification of the other process");
      expect(received).toEqual([sent]);
      unsubscribe();
      await stopListening();
    });

    it("a stream gets every notification two processes publish at once, each once and in order", async () => {
      // Ids taken by several connections commit in any order: a stream that sent a later id
      // dropped an earlier one that arrived after it (seen through the cluster as a lost chat).
      const elsewhere = createNotificationBus(platform.db);
      const stopListening = await elsewhere.listenAcrossProcesses();
      // The stream's process listens to the others, as every platform process does.
      const stopHearing = await platform.app.notifications.listenAcrossProcesses();
      const stream = await openStream(url, users.agent.token);
      const audience = { tenantId: users.agent.tenantId, userId: users.agent.id };
      const sent = await Promise.all(
        Array.from({ length: 40 }, (_, n) => (n % 2 ? elsewhere : platform.app.notifications).publish(audience, "cti.state", { n })),
      );
      await until(() => stream.events.length >= sent.length, "every notification on the stream");
      expect(stream.events.map((e) => e.id)).toEqual(sent.map((e) => e.id).sort((a, b) => a - b));
      stream.close();
      await stopHearing();
      await stopListening();
    });

    it("a publish made while its process's listening connection is lost still answers and is delivered", async () => {
      // A listening process delivers its own publishes from their NOTIFY: with the connection
      // gone, the publish must not wait forever, and the row must still reach the streams.
      const bus = createNotificationBus(platform.db);
      const stopListening = await bus.listenAcrossProcesses();
      const received: RealtimeNotification[] = [];
      const unsubscribe = bus.subscribe({ kind: "user", userId: users.agent.id }, (n) => received.push(n));
      await sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN switchboard_notifications%'`.execute(
        platform.db,
      );
      const sent = await bus.publish({ tenantId: users.agent.tenantId, userId: users.agent.id }, "cti.state", { lost: true });
      await until(() => received.length === 1, "the notification published meanwhile");
      expect(received).toEqual([sent]);
      unsubscribe();
      await stopListening();
    });

    it("a notification too large for a NOTIFY still reaches every process, in its place", async () => {
      // A row travels in its NOTIFY; one over PostgreSQL's 8,000 bytes is announced empty and read.
      const elsewhere = createNotificationBus(platform.db);
      const stopListening = await elsewhere.listenAcrossProcesses();
      const stopHearing = await platform.app.notifications.listenAcrossProcesses();
      const stream = await openStream(url, users.agent.token);
      const audience = { tenantId: users.agent.tenantId, userId: users.agent.id };
      const note = (n: number) => ({ n, text: n % 3 === 1 ? "长".repeat(4_000) : "短" });
      const sent = [];
      for (let n = 0; n < 6; n++) sent.push(await (n % 2 ? elsewhere : platform.app.notifications).publish(audience, "cti.state", note(n)));
      // Several in one statement, a large one among them: still one NOTIFY each, in id order.
      sent.push(...(await elsewhere.publishAll([6, 7, 8].map((n) => ({ audience, type: "cti.state", payload: note(n) })))));
      await until(() => stream.events.length >= sent.length, "every notification on the stream");
      expect(stream.events.map((e) => [e.id, (e.payload as { n: number }).n])).toEqual(
        sent.map((e) => [e.id, (e.payload as { n: number }).n]),
      );
      expect((stream.events[1]!.payload as { text: string }).text).toHaveLength(4_000);
      stream.close();
      await stopHearing();
      await stopListening();
    });
  }
});
