import { createHash } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { RevocationSchema, REVOCATION_EVENT } from "#contracts/uaa";
import { AgentResponseSchema } from "#contracts/config";
import {
  basicAuth,
  bearer,
  describeDb,
  loginAs,
  platformsOnOneDatabase,
  testPlatform,
  TEST_DB,
  type ClusterMember,
} from "#upstream/test-db";
import { DEMO_PASSWORD, type PreparedPlatform } from "#upstream/testing";
import { openSse, openStream, until } from "#upstream/test-stream";

/** How soon every other process must have forgotten a revoked session. */
const ACROSS_PROCESSES_MS = 1_000;

// Two platform processes on one PostgreSQL: a session ended on A is refused on B, and B's open
// streams of it end, within a second (decision 037). PGlite is one process's database: nothing crosses.
if (TEST_DB === "postgres")
  describeDb("revocation across platform processes on PostgreSQL", () => {
    let cluster: Awaited<ReturnType<typeof platformsOnOneDatabase>>;
    let a: ClusterMember;
    let b: ClusterMember;

    beforeAll(async () => {
      cluster = await platformsOnOneDatabase(2);
      [a, b] = cluster.members;
    });
    afterAll(() => cluster?.close());

    /** A session on A, known to B (B's cache holds it) with a stream open on B. */
    async function sessionSeenByB(userName: string, password = DEMO_PASSWORD) {
      const token = await loginAs(a.app, userName, password);
      expect((await b.app.inject({ url: "/crm/api/user/menus", headers: bearer(token) })).statusCode).toBe(200);
      const stream = await openStream(b.url, token);
      return { token, stream };
    }

    /** B refuses the token and has ended its stream within the second of A's answer; answers how long it took. */
    async function refusedOnB(session: { token: string; stream: { state: { ended: boolean } } }, since: number) {
      await until(
        async () =>
          session.stream.state.ended &&
          (await b.app.inject({ url: "/crm/api/user/menus", headers: bearer(session.token) })).statusCode === 401,
        "B to refuse the session and end its stream",
        ACROSS_PROCESSES_MS,
      );
      return Date.now() - since;
    }

    it("ends a signed-out session on the other process", async () => {
      const session = await sessionSeenByB("supervisor");
      const other = await sessionSeenByB("supervisor");
      const revoked = await a.app.inject({
        method: "POST",
        url: "/uaa/oauth/revoke",
        headers: { authorization: basicAuth() },
        payload: { token: session.token },
      });
      expect(revoked.statusCode).toBe(200);
      const since = Date.now();
      expect(await refusedOnB(session, since)).toBeLessThan(ACROSS_PROCESSES_MS);
      // The same user's other session goes on.
      expect((await b.app.inject({ url: "/crm/api/user/menus", headers: bearer(other.token) })).statusCode).toBe(200);
      expect(other.stream.state.ended).toBe(false);
      other.stream.close();
    });

    it("ends every session of an account an administrator signs out (强制下线) on the other process", async () => {
      const admin = await loginAs(a.app, "admin");
      const session = await sessionSeenByB("agent02");
      const user = (
        await b.app.inject({ url: "/uaa/oauth/user_auth", query: { access_token: session.token }, headers: { authorization: basicAuth() } })
      ).json().data;
      const response = await a.app.inject({
        method: "POST",
        url: `/crm/api/user/${user.id}/logout`,
        headers: bearer(admin),
        payload: { reason: "设备丢失" },
      });
      expect(response.statusCode, response.body).toBe(200);
      const since = Date.now();
      expect(await refusedOnB(session, since)).toBeLessThan(ACROSS_PROCESSES_MS);
    });

    it("ends the other sessions of a user who changes the password, keeping the changer's", async () => {
      const changer = await sessionSeenByB("agent03");
      const elsewhere = await sessionSeenByB("agent03");
      const user = (
        await b.app.inject({ url: "/uaa/oauth/user_auth", query: { access_token: changer.token }, headers: { authorization: basicAuth() } })
      ).json().data;
      const response = await a.app.inject({
        method: "PUT",
        url: `/crm/api/user/${user.id}/password`,
        headers: bearer(changer.token),
        payload: { oldPassword: DEMO_PASSWORD, newPassword: "Changed2026!" },
      });
      expect(response.statusCode, response.body).toBe(200);
      const since = Date.now();
      expect(await refusedOnB(elsewhere, since)).toBeLessThan(ACROSS_PROCESSES_MS);
      expect((await b.app.inject({ url: "/crm/api/user/menus", headers: bearer(changer.token) })).statusCode).toBe(200);
      expect(changer.stream.state.ended).toBe(false);
      changer.stream.close();
    });

    it("keeps the sessions of an agent whose queue changes, and ends them when the work type changes", async () => {
      const admin = await loginAs(a.app, "admin");
      const session = await sessionSeenByB("agent04");
      const user = (
        await b.app.inject({ url: "/uaa/oauth/user_auth", query: { access_token: session.token }, headers: { authorization: basicAuth() } })
      ).json().data;
      const agent = AgentResponseSchema.parse(
        (await a.app.inject({ url: `/config/agents/${user.id}`, headers: bearer(admin) })).json(),
      ).data!;
      const put = (change: Record<string, unknown>) =>
        a.app.inject({
          method: "PUT",
          url: `/config/agents/${user.id}`,
          headers: bearer(admin),
          payload: { ...agent, reason: "调整", ...change },
        });

      // Same type, another queue: the session goes on, and B answers with the agent as it is now.
      expect((await put({ defaultQueueName: "demo-text" })).statusCode).toBe(200);
      await until(
        async () =>
          (
            await b.app.inject({
              url: "/uaa/oauth/user_auth",
              query: { access_token: session.token },
              headers: { authorization: basicAuth() },
            })
          ).statusCode === 200,
        "the session to go on",
        ACROSS_PROCESSES_MS,
      );
      expect(session.stream.state.ended).toBe(false);
      expect((await put({ workType: 3, defaultQueueName: "demo-text" })).statusCode).toBe(200);
      const since = Date.now();
      expect(await refusedOnB(session, since)).toBeLessThan(ACROSS_PROCESSES_MS);
    });

    it("tells a console listening on B of a session ended on A", async () => {
      const revocations = await openSse(`${b.url}/uaa/oauth/revocations`, { authorization: basicAuth() });
      const session = await sessionSeenByB("agent05");
      await a.app.inject({
        method: "POST",
        url: "/uaa/oauth/revoke",
        headers: { authorization: basicAuth() },
        payload: { token: session.token },
      });
      await until(() => revocations.frames.some((f) => f.event === REVOCATION_EVENT), "the console to hear it", ACROSS_PROCESSES_MS);
      const heard = revocations.frames.filter((f) => f.event === REVOCATION_EVENT).map((f) => RevocationSchema.parse(JSON.parse(f.data)));
      expect(heard).toEqual([{ kind: "token", tokenHash: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
      revocations.close();
    });
  });

describeDb(`the consoles' revocation stream on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  let url: string;
  beforeAll(async () => {
    platform = await testPlatform();
    url = await platform.app.listen({ host: "127.0.0.1", port: 0 });
  });
  afterAll(() => platform?.close());

  it("carries each sign-out of this process to the console holding the client credential, and nobody else", async () => {
    const agent = await loginAs(platform.app, "agent");
    const refused = await fetch(`${url}/uaa/oauth/revocations`, { headers: bearer(agent) });
    expect(refused.status).toBe(401);
    await refused.body?.cancel();

    const revocations = await openSse(`${url}/uaa/oauth/revocations`, { authorization: basicAuth() });
    await platform.app.inject({
      method: "POST",
      url: "/uaa/oauth/revoke",
      headers: { authorization: basicAuth() },
      payload: { token: agent },
    });
    await until(() => revocations.frames.some((f) => f.event === REVOCATION_EVENT), "the console to hear it");
    const heard = revocations.frames.filter((f) => f.event === REVOCATION_EVENT).map((f) => RevocationSchema.parse(JSON.parse(f.data)));
    expect(heard).toEqual([{ kind: "token", tokenHash: createHash("sha256").update(agent).digest("hex") }]);
    revocations.close();
  });
});
