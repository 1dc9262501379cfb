import { afterAll, beforeAll, expect, it } from "vitest";
import { PhoneSnapshotResponseSchema } from "#contracts/cti";
import { TAKE_OVER_MESSAGE } from "#upstream/cluster/forwarding";
import {
  basicAuth,
  bearer,
  describeDb,
  loginAs,
  platformsOnOneDatabase,
  TEST_DB,
  testPlatform,
  type ClusterMember,
} from "#upstream/test-db";
import { until } from "#upstream/test-stream";

// Two platform processes on one PostgreSQL: one owns the CTI and the simulators, the other
// forwards the CTI's requests to it; when the owner goes, the other takes over (decision 037).
if (TEST_DB === "postgres")
  describeDb("one CTI owner per cluster on PostgreSQL", () => {
    let cluster: Awaited<ReturnType<typeof platformsOnOneDatabase>>;
    let a: ClusterMember;
    let b: ClusterMember;

    beforeAll(async () => {
      cluster = await platformsOnOneDatabase(2);
      [a, b] = cluster.members;
    });
    afterAll(() => cluster?.close());

    const phone = async (member: ClusterMember, token: string, method: "GET" | "POST", url: string, payload?: object) => {
      const response = await fetch(`${member.url}${url}`, {
        method,
        headers: { ...bearer(token), ...(payload ? { "content-type": "application/json" } : {}) },
        body: payload ? JSON.stringify(payload) : undefined,
      });
      return { status: response.status, body: (await response.json()) as unknown };
    };
    const stateOn = async (member: ClusterMember, token: string) =>
      PhoneSnapshotResponseSchema.parse((await phone(member, token, "GET", "/cti/api/agent")).body).data!.agent.state;

    it("has one owner, which alone ran the dialer and simulators", async () => {
      expect([a.ownership.isOwner(), b.ownership.isOwner()]).toEqual([true, false]);
      expect([a.duties.started, b.duties.started]).toEqual([1, 0]);
      expect(await b.ownership.ownerUrl()).toBe(a.url);
    });

    it("keeps one phone per agent whichever process a request reaches", async () => {
      const token = await loginAs(a.app, "agent");
      expect((await phone(b, token, "POST", "/cti/api/agent/state", { command: "signIn" })).status).toBe(200);
      expect((await phone(a, token, "POST", "/cti/api/agent/state", { command: "ready" })).status).toBe(200);
      expect([await stateOn(a, token), await stateOn(b, token)]).toEqual(["READY", "READY"]);
      // The phone lives on the owner alone: B's own CTI never saw it.
      const me = (
        await a.app.inject({ url: "/uaa/oauth/user_auth", query: { access_token: token }, headers: { authorization: basicAuth() } })
      ).json().data;
      expect([a.app.cti.phoneState(me.tenantId, me.id), b.app.cti.phoneState(me.tenantId, me.id)]).toEqual(["READY", "SIGNED_OUT"]);
    });

    it("refuses a forwarded request that reached a process which does not own, in Chinese, without forwarding it again", async () => {
      const token = await loginAs(a.app, "agent");
      const response = await fetch(`${b.url}/cti/api/agent`, {
        headers: { ...bearer(token), "x-switchboard-forwarded": "http://elsewhere" },
      });
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ code: 503, msg: TAKE_OVER_MESSAGE });
    });

    it("hands the CTI and the simulators to the other process within seconds when the owner goes", async () => {
      const token = await loginAs(b.app, "agent");
      // The owner's lock connection ends, as when its process dies.
      await a.ownership.stop();
      const since = Date.now();
      await until(() => b.ownership.isOwner(), "B to take over", 3_000);
      expect(Date.now() - since).toBeLessThan(3_000);
      expect([a.duties.started, b.duties.started]).toEqual([1, 1]);
      // B's phones start signed out: the agent signs in again, on B itself.
      expect(await stateOn(b, token)).toBe("SIGNED_OUT");
      expect((await phone(b, token, "POST", "/cti/api/agent/state", { command: "signIn" })).status).toBe(200);
      expect(await stateOn(b, token)).toBe("NOT_READY");
    });
  });

describeDb(`the CTI on a single process (${TEST_DB})`, () => {
  it("is always owned by the one process: nothing is forwarded", async () => {
    const platform = await testPlatform();
    try {
      const token = await loginAs(platform.app, "agent");
      const response = await platform.app.inject({
        url: "/cti/api/agent",
        headers: { ...bearer(token), "x-switchboard-forwarded": "http://elsewhere" },
      });
      expect(response.statusCode).toBe(200);
    } finally {
      await platform.close();
    }
  });
});
