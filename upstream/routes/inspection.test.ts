import { sql } from "kysely";
import { afterAll, beforeAll, expect, it } from "vitest";
import { QC_CHECKING, QC_UNCHECKED, TEXT_AGENT_WORK_TYPE } from "#contracts/codes";
import { FailureSchema } from "#contracts/envelope";
import {
  InspectionDetailResponseSchema,
  InspectionNextResponseSchema,
  InspectionPageResponseSchema,
  InspectionRowResponseSchema,
  PerformanceResponseSchema,
  QcAccessListResponseSchema,
  QcAccessResponseSchema,
  QcAppealResponseSchema,
  QcBulkResponseSchema,
} from "#contracts/inspection";
import { countAudit } from "#upstream/repositories/audit-log";
import { bearer, describeDb, loginAs, TEST_DB, testPlatform, waitingCalls as waitingOf } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";

describeDb(`quality inspection on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  let demoTenant: number;

  beforeAll(async () => {
    platform = await testPlatform();
    for (const account of ["admin", "agent", "chat", "supervisor", "other-admin"]) tokens[account] = await loginAs(platform.app, account);
    demoTenant = (await platform.db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow()).id;
    for (const u of await platform.db.selectFrom("users").select(["id", "user_name"]).execute()) ids[u.user_name] = u.id;
  });
  afterAll(async () => platform?.close());

  const inject = (account: string, method: "GET" | "POST" | "PUT", url: string, payload?: unknown, headers: Record<string, string> = {}) =>
    platform.app.inject({ method, url, headers: { ...bearer(tokens[account]), ...headers }, payload: payload as object });
  const refusal = async (response: Awaited<ReturnType<typeof inject>>, status: number) => {
    expect(response.statusCode, response.body).toBe(status);
    return FailureSchema.parse(response.json()).msg;
  };
  const list = async (account: string, body: Record<string, unknown> = {}) => {
    const response = await inject(account, "POST", "/ccb/callInfo", body);
    expect(response.statusCode, response.body).toBe(200);
    return InspectionPageResponseSchema.parse(response.json()).data!;
  };
  const bulk = async (account: string, path: string, body: unknown) => {
    const response = await inject(account, "POST", path, body);
    expect(response.statusCode, response.body).toBe(200);
    return QcBulkResponseSchema.parse(response.json()).data!;
  };
  /** Waiting connected calls of the demo voice group, newest first. */
  const waitingCalls = (n: number) => waitingOf(platform.db, demoTenant, n, "demo-voice");
  const statusOf = async (callId: number) =>
    await platform.db
      .selectFrom("call_records")
      .select(["qc_status", "qc_inspector_id"])
      .where("id", "=", callId)
      .executeTakeFirstOrThrow();

  it("lists the tenant's calls with their inspection, filtered by status and paged by keyset", async () => {
    const first = await list("supervisor", { pageSize: 10 });
    expect(first.list).toHaveLength(10);
    expect(first.total).toBeGreaterThan(10);
    const waiting = await list("supervisor", { qcStatus: -1, pageSize: 50 });
    expect(waiting.list.every((row) => row.qcStatus === -1)).toBe(true);
    const last = first.list[first.list.length - 1];
    const byCursor = await list("supervisor", { pageSize: 10, pageNo: 2, after: `${last.callTime}_${last.callId}` });
    const byOffset = await list("supervisor", { pageSize: 10, pageNo: 2 });
    expect(byCursor.list.map((r) => r.callId)).toEqual(byOffset.list.map((r) => r.callId));
    const long = await list("supervisor", { minDuration: 30, pageSize: 100 });
    expect(long.list.every((row) => row.callDuration >= 30_000)).toBe(true);
  });

  it("refuses bad input in Chinese, and other tenants' calls as unknown", async () => {
    expect(await refusal(await inject("supervisor", "POST", "/ccb/callInfo", { qcStatus: 9 }), 400)).toBe("质检状态无效");
    const [callId] = await waitingCalls(1);
    await bulk("supervisor", "/ccb/tasks/order", { ids: [callId] });
    const long = await inject("supervisor", "PUT", `/ccb/callInfo/${callId}`, {
      callId,
      checkResult: 1,
      influence: 0,
      remark: "长".repeat(501),
    });
    expect(await refusal(long, 400)).toBe("备注不能超过500个字符");
    const unknown = await inject("supervisor", "PUT", `/ccb/callInfo/${callId}`, { callId, checkResult: 2, influence: 0 });
    expect(await refusal(unknown, 400)).toContain("质检结果无效");
    expect((await statusOf(callId)).qc_status).toBe(QC_CHECKING); // nothing changed
    // The other tenant's administrator: the demo call does not exist for them.
    expect(
      await refusal(await inject("other-admin", "PUT", `/ccb/callInfo/${callId}`, { callId, checkResult: 1, influence: 0 }), 404),
    ).toBe("通话不存在");
    expect(await refusal(await inject("other-admin", "GET", `/ccb/detail/${callId}/2`), 404)).toBe("通话不存在");
    const foreign = await bulk("other-admin", "/ccb/tasks/order", { ids: [callId] });
    expect(foreign.results[0]).toMatchObject({ ok: false, message: "通话不存在" });
    expect(await refusal(await inject("supervisor", "POST", "/ccb/callInfo", {}, { userId: "999" }), 403)).toBe(
      "请求头 userId 与登录用户不符",
    );
    expect(await refusal(await inject("agent", "POST", "/ccb/tasks/apply", { count: 1 }), 403)).toContain("仅质检员");
    const tooMany = Array.from({ length: 501 }, (_, i) => i + 1);
    expect(await refusal(await inject("admin", "POST", "/ccb/tasks/recovery", { ids: tooMany }), 400)).toBe("一次最多处理500条通话");
    await bulk("supervisor", "/ccb/tasks/recovery", { ids: [callId] });
  });

  it("locks a call to one inspector: of two racing for it exactly one wins, and only the holder scores", async () => {
    const [callId] = await waitingCalls(1);
    const [a, b] = await Promise.all([
      bulk("admin", "/ccb/tasks/order", { ids: [callId] }),
      bulk("supervisor", "/ccb/tasks/order", { ids: [callId] }),
    ]);
    const winners = [a, b].filter((r) => r.results[0].ok);
    expect(winners).toHaveLength(1);
    const loser = winners[0] === a ? b : a;
    expect(loser.results[0].message).toBe("该通话已被其他质检员领取");
    const holder = winners[0] === a ? "admin" : "supervisor";
    const other = holder === "admin" ? "supervisor" : "admin";
    expect(await refusal(await inject(other, "PUT", `/ccb/callInfo/${callId}`, { callId, checkResult: 1, influence: 1 }), 403)).toContain(
      "只有领取人",
    );
    const scored = await inject(holder, "PUT", `/ccb/callInfo/${callId}`, { callId, checkResult: 1, influence: 1, remark: "话术规范" });
    expect(scored.statusCode, scored.body).toBe(200);
    expect(InspectionRowResponseSchema.parse(scored.json()).data).toMatchObject({ qcStatus: 1, influence: 1, remark: "话术规范" });
    // A result is final: scoring again is a move the machine refuses.
    expect(await refusal(await inject(holder, "PUT", `/ccb/callInfo/${callId}`, { callId, checkResult: 3, influence: 0 }), 400)).toBe(
      "该通话不在质检中，不能提交结果",
    );
    const history = InspectionDetailResponseSchema.parse((await inject("supervisor", "GET", `/ccb/detail/${callId}/2`)).json()).data!
      .history;
    expect(history.map((h) => h.action).slice(-2)).toEqual(["inspection.claim", "inspection.score"]);
  });

  it("applies for a batch within the inspector's access, walks it with next, and takes back expired locks", async () => {
    const applied = await bulk("supervisor", "/ccb/tasks/apply", { count: 3 });
    expect(applied.done).toBe(3);
    const mine = await list("supervisor", { mine: true });
    expect(mine.list.map((r) => r.callId).sort()).toEqual(applied.results.map((r) => r.callId).sort());
    expect(mine.list.every((r) => r.queueName === "demo-voice" || r.queueName === "demo-sales")).toBe(true);
    const next = InspectionNextResponseSchema.parse(
      (await inject("supervisor", "GET", `/ccb/callInfo/next/${mine.list[0].callId}`)).json(),
    ).data!;
    expect(next.callId).toBe(mine.list[1].callId);
    // A lock older than 30 minutes returns to the pool on the next queue operation.
    const stale = mine.list[2].callId;
    await platform.db
      .updateTable("call_records")
      .set({ qc_locked_at: sql`now() - interval '31 minutes'` })
      .where("id", "=", stale)
      .execute();
    const before = await countAudit(platform.db, demoTenant, "inspection.expire");
    await list("admin", { pageSize: 10 });
    expect(await statusOf(stale)).toEqual({ qc_status: QC_UNCHECKED, qc_inspector_id: null });
    expect(await countAudit(platform.db, demoTenant, "inspection.expire")).toBe(before + 1);
    await bulk("supervisor", "/ccb/tasks/recovery", { ids: mine.list.map((r) => r.callId), reason: "下班" });
  });

  it("reallots calls evenly (±1) among the chosen inspectors with per-item results, and recovers them", async () => {
    const calls = await waitingCalls(9);
    const result = await bulk("admin", "/ccb/tasks/reallot", {
      ids: [...calls, 987654321],
      inspectorIds: [ids.admin, ids.supervisor],
      reason: "均衡",
    });
    expect(result.done).toBe(9);
    expect(result.results.find((r) => r.callId === 987654321)).toMatchObject({ ok: false, message: "通话不存在" });
    const counts = [ids.admin, ids.supervisor].map((id) => result.results.filter((r) => r.inspectorId === id).length);
    expect(Math.abs(counts[0] - counts[1])).toBeLessThanOrEqual(1);
    const before = await countAudit(platform.db, demoTenant, "inspection.reallot");
    expect(before).toBeGreaterThanOrEqual(9);
    const recovered = await bulk("supervisor", "/ccb/tasks/recovery", { ids: calls, reason: "重新分配" });
    expect(recovered.done).toBe(9);
    const again = await bulk("supervisor", "/ccb/tasks/recovery", { ids: calls.slice(0, 1) });
    expect(again.results[0]).toMatchObject({ ok: false, message: "该通话不在质检中，无需收回" });
  });

  it("reallots 500 calls at once with one result each, split 250/250", async () => {
    const rows = await sql<{ id: string }>`
      INSERT INTO call_records (tenant_id, cti_call_id, direction, phone, queue_name, is_answer, call_result, call_result_name, call_time, call_duration_ms)
      SELECT ${demoTenant}, 'bulk-' || g, 'outbound', '13800000000', 'demo-voice', 1, 200, '已接通', now() - g * interval '1 minute' - interval '40 days', 60000
      FROM generate_series(1, 500) AS g RETURNING id`.execute(platform.db);
    const bulkIds = rows.rows.map((r) => Number(r.id));
    const started = Date.now();
    const result = await bulk("admin", "/ccb/tasks/reallot", { ids: bulkIds, inspectorIds: [ids.admin, ids.supervisor] });
    const tookMs = Date.now() - started;
    expect(result.results).toHaveLength(500);
    expect(result.done).toBe(500);
    expect(result.results.filter((r) => r.inspectorId === ids.admin)).toHaveLength(250);
    expect(tookMs).toBeLessThan(20_000);
    const recovered = await bulk("admin", "/ccb/tasks/recovery", { ids: bulkIds });
    expect(recovered.done).toBe(500);
    await platform.db.deleteFrom("call_records").where("id", "in", bulkIds).execute();
  });

  it("lets an agent see and appeal only their own results, once, and a supervisor decide with a reason", async () => {
    const own = await list("agent", { pageSize: 100 });
    expect(own.list.length).toBeGreaterThan(0);
    expect(own.list.every((r) => r.agentId === ids.agent && [0, 1, 3].includes(r.qcStatus))).toBe(true);
    const target = own.list[0];
    const appealed = await inject("agent", "POST", "/ccb/appeal", { callId: target.callId, reason: "客户明确表示要办理" });
    expect(appealed.statusCode, appealed.body).toBe(200);
    const appeal = QcAppealResponseSchema.parse(appealed.json()).data!;
    expect(appeal.state).toBe("pending");
    expect(await refusal(await inject("agent", "POST", "/ccb/appeal", { callId: target.callId, reason: "再申诉" }), 400)).toBe(
      "每条通话的质检结果只能申诉一次",
    );
    const colleague = await platform.db
      .selectFrom("call_records")
      .select("id")
      .where("tenant_id", "=", demoTenant)
      .where("agent_user_id", "!=", ids.agent)
      .where("qc_status", "in", [0, 1, 3])
      .executeTakeFirstOrThrow();
    expect(await refusal(await inject("agent", "POST", "/ccb/appeal", { callId: Number(colleague.id), reason: "x" }), 404)).toBe(
      "通话不存在",
    );
    expect(
      await refusal(await inject("agent", "POST", `/ccb/appeal/${appeal.id}/decision`, { decision: "rejected", reason: "x" }), 403),
    ).toContain("质检员或主管");
    // Accepted with the result and influence as they are is refused: nothing would be corrected.
    const unchanged = await inject("supervisor", "POST", `/ccb/appeal/${appeal.id}/decision`, {
      decision: "accepted",
      reason: "复听属实",
      checkResult: target.qcStatus,
      influence: target.influence,
    });
    expect(await refusal(unchanged, 400)).toBe("通过申诉须更正质检结果、影响或评分；维持原结果请选择驳回申诉");
    const corrected = target.qcStatus === 1 ? 3 : 1;
    const decided = await inject("supervisor", "POST", `/ccb/appeal/${appeal.id}/decision`, {
      decision: "accepted",
      reason: "复听属实",
      checkResult: corrected,
      influence: 1,
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(QcAppealResponseSchema.parse(decided.json()).data).toMatchObject({ state: "accepted", decisionReason: "复听属实" });
    expect((await statusOf(target.callId)).qc_status).toBe(corrected);
    expect(
      await refusal(await inject("supervisor", "POST", `/ccb/appeal/${appeal.id}/decision`, { decision: "rejected", reason: "x" }), 400),
    ).toBe("该申诉已处理");
    expect((await list("agent", { appealState: "accepted" })).list.map((r) => r.callId)).toEqual([target.callId]);

    // Two deciders at the same moment: one decision stands, the other is refused; one audit row.
    const second = own.list.find((r) => r.callId !== target.callId && r.appealId === null)!;
    const racing = QcAppealResponseSchema.parse(
      (await inject("agent", "POST", "/ccb/appeal", { callId: second.callId, reason: "再核实一次" })).json(),
    ).data!;
    const answers = await Promise.all([
      inject("supervisor", "POST", `/ccb/appeal/${racing.id}/decision`, {
        decision: "accepted",
        reason: "属实",
        checkResult: second.qcStatus === 1 ? 3 : 1,
        influence: 1,
      }),
      inject("admin", "POST", `/ccb/appeal/${racing.id}/decision`, { decision: "rejected", reason: "不属实" }),
    ]);
    const won = answers.filter((a) => a.statusCode === 200);
    expect(won).toHaveLength(1);
    const lost = answers.find((a) => a.statusCode !== 200)!;
    expect([400, 409]).toContain(lost.statusCode);
    expect(["该申诉已处理", "该申诉已由他人处理，请刷新后查看"]).toContain(lost.json().msg);
    const winner = QcAppealResponseSchema.parse(won[0].json()).data!;
    const rows = await platform.db
      .selectFrom("audit_log")
      .select("detail")
      .where("action", "=", "inspection.appealDecision")
      .where("target_id", "=", String(second.callId))
      .execute();
    expect(rows).toHaveLength(1);
    expect((rows[0].detail as { decision: string }).decision).toBe(winner.state);
  });

  it("grants and revokes inspectors' access (administrators only, audited), and the supervisor inspects only what was granted", async () => {
    const access = QcAccessListResponseSchema.parse((await inject("admin", "POST", "/ccb/access/list", {})).json()).data!;
    expect(access.list.map((g) => [g.userName, g.value])).toContainEqual(["李秀英", "demo-voice"]);
    const campaign = access.campaigns[0];
    expect(
      await refusal(
        await inject("supervisor", "POST", "/ccb/access/grant", { userId: ids.supervisor, scope: "campaign", value: String(campaign.id) }),
        403,
      ),
    ).toBe("仅管理员可以授予或收回质检权限");
    const granted = await inject("admin", "POST", "/ccb/access/grant", {
      userId: ids.supervisor,
      scope: "campaign",
      value: String(campaign.id),
    });
    expect(granted.statusCode, granted.body).toBe(200);
    const grant = QcAccessResponseSchema.parse(granted.json()).data!;
    expect(grant.valueLabel).toBe(campaign.name);
    expect(
      await refusal(await inject("admin", "POST", "/ccb/access/grant", { userId: ids.agent, scope: "queue", value: "demo-voice" }), 404),
    ).toContain("只能授权给主管或管理员");
    expect(await refusal(await inject("other-admin", "POST", "/ccb/access/revoke", { id: grant.id }), 404)).toBe("授权不存在");
    expect((await inject("admin", "POST", "/ccb/access/revoke", { id: grant.id, reason: "调岗" })).statusCode).toBe(200);
    expect(await countAudit(platform.db, demoTenant, "inspection.access.grant")).toBe(1);
    expect(await countAudit(platform.db, demoTenant, "inspection.access.revoke")).toBe(1);
    // Without the voice group, the supervisor may not order its calls.
    const voice = access.list.find((g) => g.value === "demo-voice")!;
    await inject("admin", "POST", "/ccb/access/revoke", { id: voice.id });
    const [callId] = await waitingCalls(1);
    const refused = await bulk("supervisor", "/ccb/tasks/order", { ids: [callId] });
    expect(refused.results[0]).toMatchObject({ ok: false, message: "您没有该通话所属坐席组或活动的质检权限" });
    await inject("admin", "POST", "/ccb/access/grant", { userId: ids.supervisor, scope: "queue", value: "demo-voice" });
  });

  it("exports the filtered list as CSV and XLSX, only what the caller may see", async () => {
    const waiting = await list("supervisor", { qcStatus: -1, pageSize: 10 });
    const csv = await inject("supervisor", "POST", "/ccb/callInfo/export", { qcStatus: -1, format: "csv" });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers["content-type"]).toContain("text/csv");
    const lines = csv.body.trim().split("\r\n");
    expect(lines[0]).toContain("质检状态");
    expect(lines).toHaveLength(waiting.total + 1);
    expect(lines.slice(1).every((line) => line.includes("未质检"))).toBe(true);
    const xlsx = await inject("supervisor", "POST", "/ccb/callInfo/export", { format: "xlsx" });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe("PK");
    const own = await inject("agent", "POST", "/ccb/callInfo/export", {});
    const ownLines = own.body.trim().split("\r\n").length - 1;
    expect(ownLines).toBe((await list("agent", { pageSize: 100 })).total);
    expect(await refusal(await inject("supervisor", "POST", "/ccb/callInfo/export", { format: "pdf" }), 400)).toBe(
      "导出格式只能是 CSV 或 XLSX",
    );
  });

  it("answers a call's call-backs and customer, and its detail by type", async () => {
    const [callId] = await waitingCalls(1);
    const record = await platform.db
      .selectFrom("call_records")
      .select(["cti_call_id", "phone"])
      .where("id", "=", callId)
      .executeTakeFirstOrThrow();
    const [callback] = (
      await sql<{ id: string }>`
        INSERT INTO call_records (tenant_id, cti_call_id, prev_cti_call_id, direction, call_kind, phone, agent_user_id, is_answer, call_result, call_result_name, call_time)
        VALUES (${demoTenant}, 'cb-1', ${record.cti_call_id}, 'outbound', 1, ${record.phone}, ${ids.agent}, 1, 200, '已接通', now()) RETURNING id`.execute(
        platform.db,
      )
    ).rows;
    const listed = await inject("supervisor", "POST", "/ccb/callback", { callId });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().data.list.map((r: { callId: number }) => r.callId)).toEqual([Number(callback.id)]);
    const customer = await inject("supervisor", "GET", `/ccb/callBack/customerInfo/${callId}/${record.cti_call_id}`);
    expect(customer.statusCode, customer.body).toBe(200);
    expect(customer.json().data.phone).toBe(record.phone);
    expect(await refusal(await inject("supervisor", "GET", `/ccb/callBack/customerInfo/${callId}/wrong`), 404)).toBe("通话不存在");
    expect((await inject("supervisor", "GET", `/ccb/detail/${callId}/1`)).json().data.ctiCallId).toBe(record.cti_call_id);
    expect(await refusal(await inject("supervisor", "GET", `/ccb/detail/${callId}/3`), 400)).toContain("查询类型无效");
    await platform.db.deleteFrom("call_records").where("id", "=", Number(callback.id)).execute();
  });

  it("reports agent performance, sortable, and an agent only their own row", async () => {
    const response = await inject("supervisor", "POST", "/ccb/agent/performance", { sort: "connected", order: "desc" });
    expect(response.statusCode, response.body).toBe(200);
    const rows = PerformanceResponseSchema.parse(response.json()).data!.list;
    expect(rows.length).toBeGreaterThan(1);
    expect(rows.map((r) => r.connected)).toEqual([...rows.map((r) => r.connected)].sort((a, b) => b - a));
    const agentRow = rows.find((r) => r.agentId === ids.agent)!;
    expect(agentRow.inspected).toBeGreaterThan(0);
    expect(agentRow.passRate).not.toBeNull();
    const own = PerformanceResponseSchema.parse((await inject("agent", "POST", "/ccb/agent/performance", {})).json()).data!.list;
    expect(own.map((r) => r.agentId)).toEqual([ids.agent]);
    expect(await refusal(await inject("supervisor", "POST", "/ccb/agent/performance", { sort: "drop" }), 400)).toBe("排序字段无效");
  });

  it("reports one kind of agent when asked: voice agents or text agents", async () => {
    const rows = async (workType: number) =>
      PerformanceResponseSchema.parse((await inject("supervisor", "POST", "/ccb/agent/performance", { workType })).json()).data!.list;
    const voice = (await rows(1)).map((r) => r.agentId);
    const text = (await rows(TEXT_AGENT_WORK_TYPE)).map((r) => r.agentId);
    expect(voice).toContain(ids.agent);
    expect(voice).not.toContain(ids.chat);
    expect(text).toContain(ids.chat);
    expect(text).not.toContain(ids.agent);
  });

  it("reports a text agent's chats: the sessions they served in the period, their replies and the sessions' length", async () => {
    const startTime = Date.parse("2031-03-01T00:00:00Z");
    const session = (key: string, created: string, closed: string | null, agent = ids.chat) =>
      platform.db
        .insertInto("chat_sessions")
        .values({
          tenant_id: demoTenant,
          session_key: key,
          queue_name: "demo-text",
          state: closed ? "closed" : "active",
          agent_user_id: agent,
          customer_name: "测试客户",
          customer_phone: "13800000000",
          customer_channel: "web",
          customer_region: "上海",
          created_at: new Date(created),
          closed_at: closed ? new Date(closed) : null,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
    const first = await session("perf-1", "2031-03-01T02:00:00Z", "2031-03-01T02:01:30Z");
    const second = await session("perf-2", "2031-03-01T03:00:00Z", "2031-03-01T03:00:30Z");
    await session("perf-before", "2031-02-27T03:00:00Z", "2031-02-27T03:10:00Z"); // before the period
    await session("perf-other", "2031-03-01T04:00:00Z", "2031-03-01T04:10:00Z", ids.agent); // another agent's
    const message = (sessionId: number, role: "user" | "agent") =>
      ({
        tenant_id: demoTenant,
        session_id: Number(sessionId),
        role,
        content: "您好",
        created_at: new Date("2031-03-01T02:00:10Z"),
      }) as const;
    await platform.db
      .insertInto("chat_messages")
      .values([message(first.id, "user"), message(first.id, "agent"), message(first.id, "agent"), message(second.id, "agent")])
      .execute();
    try {
      const body = { startTime, endTime: startTime + 86_400_000 };
      const own = PerformanceResponseSchema.parse((await inject("chat", "POST", "/ccb/agent/performance", body)).json()).data!.list;
      expect(own.map((r) => r.agentId)).toEqual([ids.chat]);
      expect(own[0]).toMatchObject({ chats: 2, replies: 3, chatMs: 120_000, avgChatMs: 60_000, calls: 0 });
    } finally {
      await platform.db.deleteFrom("chat_sessions").where("session_key", "like", "perf-%").execute();
    }
  });
});
