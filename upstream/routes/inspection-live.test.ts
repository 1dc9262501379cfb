import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { QC_CHECKING, QC_UNCHECKED } from "#contracts/codes";
import type { RealtimeNotification } from "#contracts/events";
import { INSPECTION_NOTIFICATIONS, InspectionCallsChangedSchema, type InspectionLiveCall } from "#contracts/inspection";
import { bearer, describeDb, loginAs, TEST_DB, testPlatform, waitingCalls } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";

/**
 * The live inspection queue (decision 033): every change of a call's inspection state is published
 * once committed, as `inspection.calls`, to the supervisors of the call's tenant and nobody else's.
 */
describeDb(`the inspection queue's notifications on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let demo: number;
  let other: number;
  const otherReceived: RealtimeNotification[] = [];
  let stopOther = () => {};

  beforeAll(async () => {
    platform = await testPlatform();
    for (const account of ["admin", "agent", "supervisor", "other-admin"]) tokens[account] = await loginAs(platform.app, account);
    for (const u of await platform.db.selectFrom("users").select(["id", "user_name"]).execute()) ids[u.user_name] = u.id;
    const tenants = await platform.db.selectFrom("tenants").select(["id", "code"]).execute();
    demo = tenants.find((t) => t.code === "demo")!.id;
    other = tenants.find((t) => t.code !== "demo")!.id;
    // The other tenant's supervisors listen live all along: none of demo's changes may reach them.
    stopOther = platform.app.notifications.subscribe({ kind: "tenant", tenantId: other }, (n) => otherReceived.push(n));
  });
  afterAll(async () => {
    stopOther();
    await platform?.close();
  });

  const inject = (account: string, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
    platform.app.inject({ method, url, headers: bearer(tokens[account]), payload: payload as object });
  const ok = async (account: string, method: "GET" | "POST" | "PUT", url: string, payload?: unknown) => {
    const response = await inject(account, method, url, payload);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { data: unknown };
  };
  const start = () => platform.app.notifications.latestId({ kind: "tenant", tenantId: demo });
  /** What demo's supervisors received after `since`: each inspection notification's calls. */
  const published = async (since: number) =>
    (await platform.app.notifications.replay({ kind: "tenant", tenantId: demo }, since))
      .filter((n) => n.type === INSPECTION_NOTIFICATIONS.calls)
      .map((n) => InspectionCallsChangedSchema.parse(n.payload).calls);
  const waiting = (n: number) => waitingCalls(platform.db, demo, n, "demo-voice");
  const one = (calls: InspectionLiveCall[][], callId: number) => calls.flat().filter((c) => c.callId === callId);

  it("publishes a claim, a score, a release and a reallotment with the call's state as it is now", async () => {
    const [a, b, c] = await waiting(3);
    let since = await start();
    await ok("supervisor", "POST", "/ccb/tasks/order", { ids: [a, b] });
    let calls = await published(since);
    expect(calls).toHaveLength(1); // one notification for the whole bulk change
    expect(calls[0].map((x) => x.callId).sort()).toEqual([a, b].sort());
    expect(calls[0][0]).toMatchObject({ qcStatus: QC_CHECKING, inspectorId: ids.supervisor, inspectorName: expect.any(String) });

    since = await start();
    await ok("supervisor", "PUT", `/ccb/callInfo/${a}`, { callId: a, checkResult: 1, influence: 1, remark: "好" });
    expect(one(await published(since), a)).toEqual([
      {
        callId: a,
        qcStatus: 1,
        inspectorId: ids.supervisor,
        inspectorName: expect.any(String),
        influence: 1,
        score: null,
        appealState: null,
      },
    ]);

    since = await start();
    await ok("admin", "POST", "/ccb/tasks/recovery", { ids: [b, a], reason: "重新分配" });
    calls = await published(since);
    // Only the call that moved: the scored one was refused and is not announced.
    expect(calls.flat().map((x) => x.callId)).toEqual([b]);
    expect(calls[0][0]).toMatchObject({ qcStatus: QC_UNCHECKED, inspectorId: null, inspectorName: null });

    since = await start();
    await ok("admin", "POST", "/ccb/tasks/reallot", { ids: [c], inspectorIds: [ids.supervisor], reason: "平均分配" });
    expect(one(await published(since), c)[0]).toMatchObject({ qcStatus: QC_CHECKING, inspectorId: ids.supervisor });

    since = await start();
    const applied = (await ok("admin", "POST", "/ccb/tasks/apply", { count: 2 })).data as { results: Array<{ callId: number }> };
    expect(
      (await published(since))
        .flat()
        .map((x) => x.callId)
        .sort(),
    ).toEqual(applied.results.map((r) => r.callId).sort());
  });

  it("publishes an appeal and its decision, and a lock expiring back to the pool", async () => {
    const [call] = await waiting(1);
    await platform.db.updateTable("call_records").set({ agent_user_id: ids.agent }).where("id", "=", call).execute();
    await ok("supervisor", "POST", "/ccb/tasks/order", { ids: [call] });
    await ok("supervisor", "PUT", `/ccb/callInfo/${call}`, { callId: call, checkResult: 3, influence: -1, remark: "" });

    let since = await start();
    const appeal = (await ok("agent", "POST", "/ccb/appeal", { callId: call, reason: "客户其实有意向" })).data as { id: number };
    expect(one(await published(since), call)[0]).toMatchObject({ qcStatus: 3, appealState: "pending" });

    since = await start();
    await ok("supervisor", "POST", `/ccb/appeal/${appeal.id}/decision`, {
      decision: "accepted",
      checkResult: 1,
      influence: 0,
      reason: "复听确认",
    });
    expect(one(await published(since), call)[0]).toMatchObject({ qcStatus: 1, influence: 0, appealState: "accepted" });

    // A lock held past its time goes back to the pool at the next queue operation, announced too.
    const [stale] = await waiting(1);
    await ok("supervisor", "POST", "/ccb/tasks/order", { ids: [stale] });
    await platform.db
      .updateTable("call_records")
      .set({ qc_locked_at: sql<Date>`now() - interval '2 hours'` })
      .where("id", "=", stale)
      .execute();
    since = await start();
    await ok("admin", "POST", "/ccb/callInfo", { pageSize: 10 });
    expect(one(await published(since), stale)[0]).toMatchObject({ qcStatus: QC_UNCHECKED, inspectorId: null });
  });

  it("never carries one tenant's inspection changes to another tenant's supervisors", async () => {
    expect(otherReceived.filter((n) => n.type.startsWith("inspection."))).toEqual([]);
    const theirs = await platform.app.notifications.replay({ kind: "tenant", tenantId: other }, 0, 10_000);
    expect(theirs.filter((n) => n.type.startsWith("inspection."))).toEqual([]);
    // Their own change reaches them (so the silence above means something), and not demo's.
    const [foreign] = await waitingCalls(platform.db, other, 1);
    expect(foreign, "the other tenant has a call waiting").toBeDefined();
    const demoSince = await start();
    await ok("other-admin", "POST", "/ccb/tasks/order", { ids: [foreign] });
    expect(otherReceived.filter((n) => n.type === INSPECTION_NOTIFICATIONS.calls)).toHaveLength(1);
    expect(await published(demoSince)).toEqual([]);
    // An agent cannot open the tenant's stream at all.
    const stream = await inject("agent", "GET", "/events/api/stream?scope=tenant");
    expect(stream.statusCode).toBe(403);
  });
});
