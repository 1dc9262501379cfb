import { afterAll, beforeAll, expect, it } from "vitest";
import { QC_UNCHECKED } from "#contracts/codes";
import { FailureSchema } from "#contracts/envelope";
import {
  ActiveScoreFormResponseSchema,
  InspectionDetailResponseSchema,
  InspectionRowResponseSchema,
  PerformanceResponseSchema,
  QcBulkResponseSchema,
  ScoreFormListResponseSchema,
  ScoreFormResponseSchema,
} from "#contracts/inspection";
import { countAudit } from "#upstream/repositories/audit-log";
import { bearer, describeDb, loginAs, TEST_DB, testPlatform } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";

/** Scoring forms (decision 028): their lifecycle, validation, and scoring a call with one. */
describeDb(`inspection scoring forms on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  const tokens: Record<string, string> = {};
  let demoTenant: number;

  beforeAll(async () => {
    platform = await testPlatform();
    for (const account of ["admin", "agent", "supervisor", "other-admin"]) tokens[account] = await loginAs(platform.app, account);
    demoTenant = (await platform.db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow()).id;
  });
  afterAll(async () => platform?.close());

  const inject = (account: string, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown) =>
    platform.app.inject({ method, url, headers: bearer(tokens[account]), payload: payload as object });
  const refusal = async (response: Awaited<ReturnType<typeof inject>>, status: number) => {
    expect(response.statusCode, response.body).toBe(status);
    return FailureSchema.parse(response.json()).msg;
  };
  const form = async (response: Awaited<ReturnType<typeof inject>>) => {
    expect(response.statusCode, response.body).toBe(200);
    return ScoreFormResponseSchema.parse(response.json()).data!;
  };
  const ITEMS = [
    { title: "开场白规范", weight: 10 },
    { title: "需求挖掘", weight: 30, allowNa: true },
    { title: "业务解答准确", weight: 60 },
    { title: "违规承诺", weight: 20, veto: true },
  ];
  /** A waiting connected call of the demo tenant (of the voice agent `agent`), locked to the administrator. */
  const lockedCall = async () => {
    const row = await platform.db
      .selectFrom("call_records")
      .innerJoin("users", "users.id", "call_records.agent_user_id")
      .select("call_records.id")
      .where("call_records.tenant_id", "=", demoTenant)
      .where("users.user_name", "=", "agent")
      .where("call_records.qc_status", "=", QC_UNCHECKED)
      .where("call_records.is_answer", "=", 1)
      .orderBy("call_records.id", "desc")
      .limit(1)
      .executeTakeFirstOrThrow();
    const callId = Number(row.id);
    const locked = await inject("admin", "POST", "/ccb/tasks/order", { ids: [callId] });
    expect(QcBulkResponseSchema.parse(locked.json()).data!.done).toBe(1);
    return callId;
  };

  it("validates a form in Chinese and keeps drafts to administrators", async () => {
    expect(await refusal(await inject("admin", "POST", "/ccb/form", { name: "空表", items: [] }), 400)).toBe("请至少添加一个评分项");
    expect(await refusal(await inject("admin", "POST", "/ccb/form", { name: "负分", items: [{ title: "态度", weight: -5 }] }), 400)).toBe(
      "分值必须是正整数",
    );
    expect(await refusal(await inject("admin", "POST", "/ccb/form", { name: "小数", items: [{ title: "态度", weight: 2.5 }] }), 400)).toBe(
      "分值必须是正整数",
    );
    expect(
      await refusal(
        await inject("admin", "POST", "/ccb/form", {
          name: "重复",
          items: [
            { title: "态度", weight: 5 },
            { title: "态度", weight: 5 },
          ],
        }),
        400,
      ),
    ).toBe("评分项「态度」重复");
    expect(
      await refusal(
        await inject("admin", "POST", "/ccb/form", { name: "全可不适用", items: [{ title: "态度", weight: 5, allowNa: true }] }),
        400,
      ),
    ).toContain("至少一个评分项不能允许不适用");
    expect(await refusal(await inject("admin", "POST", "/ccb/form", { name: " ", items: ITEMS }), 400)).toBe("请填写评分表名称");
    expect(await refusal(await inject("supervisor", "POST", "/ccb/form", { name: "主管的表", items: ITEMS }), 403)).toBe(
      "无权访问：需要「质检评分表」菜单",
    );
    expect(await refusal(await inject("agent", "POST", "/ccb/form/list", {}), 403)).toBe("无权访问：需要「质检评分表」菜单");
  });

  it("keeps form names unique in the tenant by the database, a save racing another refused with the same Chinese 400", async () => {
    await form(await inject("admin", "POST", "/ccb/form", { name: "唯一名称表", items: ITEMS }));
    expect(await refusal(await inject("admin", "POST", "/ccb/form", { name: "唯一名称表", items: ITEMS }), 400)).toBe("已有同名的评分表");
    // The index itself (migration 350), whatever the code checks; another tenant may use the name.
    const row = { tenant_id: demoTenant, name: "唯一名称表", items: JSON.stringify([]) };
    await expect(platform.db.insertInto("inspection_forms").values(row).execute()).rejects.toMatchObject({ code: "23505" });
    const theirs = await form(await inject("other-admin", "POST", "/ccb/form", { name: "唯一名称表", items: ITEMS }));
    expect((await inject("other-admin", "DELETE", `/ccb/form/${theirs.id}`)).statusCode).toBe(200);

    // Another administrator's save of the same name, not yet committed when this one checks: on
    // PostgreSQL this one's insert waits on the index and fails there; PGlite runs one transaction
    // at a time, so its check sees the other's. The same Chinese 400 either way, nothing saved.
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    let inserted!: () => void;
    const insertedOnce = new Promise<void>((resolve) => (inserted = resolve));
    const other = platform.db.transaction().execute(async (trx) => {
      await trx
        .insertInto("inspection_forms")
        .values({ ...row, name: "并发评分表" })
        .execute();
      inserted();
      await held;
    });
    await insertedOnce;
    const racing = inject("admin", "POST", "/ccb/form", { name: "并发评分表", items: ITEMS });
    await new Promise((resolve) => setTimeout(resolve, 300));
    commit();
    await other;
    expect(await refusal(await racing, 400)).toBe("已有同名的评分表");
    const named = await platform.db
      .selectFrom("inspection_forms")
      .select("id")
      .where("tenant_id", "=", demoTenant)
      .where("name", "=", "并发评分表")
      .execute();
    expect(named).toHaveLength(1);
  });

  it("takes a draft through its lifecycle: edited, activated (one at a time), retired; audited", async () => {
    const draft = await form(await inject("admin", "POST", "/ccb/form", { name: "标准服务质检表", description: "通用", items: ITEMS }));
    expect(draft).toMatchObject({ state: "draft", totalWeight: 120, usedCount: 0 });
    expect(draft.items.map((i) => i.key)).toEqual(["i1", "i2", "i3", "i4"]);
    expect(draft.items[3]).toMatchObject({ veto: true, allowNa: false });
    expect(await refusal(await inject("admin", "POST", "/ccb/form", { name: "标准服务质检表", items: ITEMS }), 400)).toBe(
      "已有同名的评分表",
    );
    // An edit keeps the keys of the items it keeps; a new item takes the next key.
    const edited = await form(
      await inject("admin", "PUT", `/ccb/form/${draft.id}`, {
        name: "标准服务质检表",
        items: [
          { key: "i3", title: "业务解答准确", weight: 50 },
          ...draft.items.filter((i) => i.key !== "i3"),
          { title: "结束语", weight: 10 },
        ],
      }),
    );
    expect(edited.items.map((i) => i.key)).toEqual(["i3", "i1", "i2", "i4", "i5"]);
    const second = await form(await inject("admin", "POST", "/ccb/form", { name: "简易表", items: [{ title: "态度", weight: 5 }] }));

    const active = await form(await inject("admin", "PUT", `/ccb/form/${draft.id}/state`, { action: "activate", reason: "上线" }));
    expect(active.state).toBe("active");
    expect(await refusal(await inject("admin", "PUT", `/ccb/form/${draft.id}`, { name: "改名", items: ITEMS }), 400)).toContain(
      "只有草稿可以编辑",
    );
    expect(await refusal(await inject("admin", "DELETE", `/ccb/form/${draft.id}`), 400)).toContain("只有草稿可以删除");
    expect(await refusal(await inject("admin", "PUT", `/ccb/form/${draft.id}/state`, { action: "activate" }), 400)).toBe(
      "只有草稿或已停用的评分表可以启用",
    );
    // Activating another retires the first: one active form per tenant.
    await form(await inject("admin", "PUT", `/ccb/form/${second.id}/state`, { action: "activate" }));
    const forms = ScoreFormListResponseSchema.parse((await inject("admin", "POST", "/ccb/form/list", {})).json()).data!.list;
    expect(forms.filter((f) => f.state === "active").map((f) => f.id)).toEqual([second.id]);
    expect(forms.find((f) => f.id === draft.id)?.state).toBe("retired");
    await form(await inject("admin", "PUT", `/ccb/form/${second.id}/state`, { action: "retire", reason: "试用结束" }));
    expect(await refusal(await inject("admin", "PUT", `/ccb/form/${second.id}/state`, { action: "retire" }), 400)).toBe(
      "只有启用中的评分表可以停用",
    );
    expect(ActiveScoreFormResponseSchema.parse((await inject("agent", "GET", "/ccb/form/active")).json()).data).toBeNull();
    expect(await countAudit(platform.db, demoTenant, "inspection.form.state")).toBe(4);
    expect(await countAudit(platform.db, demoTenant, "inspection.form.update")).toBe(1);

    // A draft is deleted; another tenant sees none of these.
    const scrap = await form(await inject("admin", "POST", "/ccb/form", { name: "草稿", items: [{ title: "态度", weight: 5 }] }));
    expect((await inject("admin", "DELETE", `/ccb/form/${scrap.id}`)).statusCode).toBe(200);
    expect(await countAudit(platform.db, demoTenant, "inspection.form.delete")).toBe(1);
    expect(await refusal(await inject("other-admin", "GET", `/ccb/form/${draft.id}`), 404)).toBe("评分表不存在");
    expect(await refusal(await inject("other-admin", "PUT", `/ccb/form/${draft.id}/state`, { action: "activate" }), 404)).toBe(
      "评分表不存在",
    );
    expect(ScoreFormListResponseSchema.parse((await inject("other-admin", "POST", "/ccb/form/list", {})).json()).data!.list).toEqual([]);
  });

  it("scores a call with the active form: weighted over the items not N/A, a failed veto fails the call", async () => {
    const created = await form(await inject("admin", "POST", "/ccb/form", { name: "外呼质检表", items: ITEMS }));
    const active = await form(await inject("admin", "PUT", `/ccb/form/${created.id}/state`, { action: "activate" }));
    const [open, veto, more] = [active.items[0].key, active.items[3].key, active.items[1].key];
    const [, , accurate] = active.items.map((i) => i.key);
    const score = (callId: number, answers: unknown, extra: Record<string, unknown> = {}) =>
      inject("admin", "PUT", `/ccb/callInfo/${callId}`, {
        callId,
        checkResult: 1,
        influence: 1,
        evaluation: { formId: active.id, answers },
        ...extra,
      });

    const first = await lockedCall();
    // Without answers, a missing item, an item over its weight, N/A where not allowed: refused in Chinese.
    expect(
      await refusal(await inject("admin", "PUT", `/ccb/callInfo/${first}`, { callId: first, checkResult: 1, influence: 1 }), 400),
    ).toBe("请按评分表「外呼质检表」逐项评分");
    expect(await refusal(await score(first, [{ key: open, value: 8 }]), 400)).toContain("请为「需求挖掘」评分或选择不适用");
    const over = [
      { key: open, value: 11 },
      { key: more, value: "na" },
      { key: accurate, value: 60 },
      { key: veto, value: "pass" },
    ];
    expect(await refusal(await score(first, over), 400)).toBe("「开场白规范」的得分必须是 0 到 10 的整数");
    const naNotAllowed = [
      { key: open, value: "na" },
      { key: more, value: "na" },
      { key: accurate, value: 60 },
      { key: veto, value: "pass" },
    ];
    expect(await refusal(await score(first, naNotAllowed), 400)).toBe("「开场白规范」不允许选择不适用");
    const vetoAsPoints = [
      { key: open, value: 8 },
      { key: more, value: "na" },
      { key: accurate, value: 60 },
      { key: veto, value: 20 },
    ];
    expect(await refusal(await score(first, vetoAsPoints), 400)).toBe("「违规承诺」是一票否决项，只能选择通过或不通过");
    expect(await refusal(await score(first, over, { evaluation: { formId: active.id + 99, answers: over } }), 400)).toContain(
      "评分表已更换为「外呼质检表」",
    );

    // 8 + 50 + 20 (veto passed) over 10 + 60 + 20 (需求挖掘 N/A): 86.7 out of 100.
    const passed = await score(first, [
      { key: open, value: 8 },
      { key: more, value: "na" },
      { key: accurate, value: 50 },
      { key: veto, value: "pass" },
    ]);
    expect(passed.statusCode, passed.body).toBe(200);
    expect(InspectionRowResponseSchema.parse(passed.json()).data).toMatchObject({ qcStatus: 1, influence: 1, score: 86.7 });

    // A failed veto item: score 0 and influence negative, whatever was chosen.
    const second = await lockedCall();
    const failed = await score(second, [
      { key: open, value: 10 },
      { key: more, value: "na" },
      { key: accurate, value: 60 },
      { key: veto, value: "fail" },
    ]);
    expect(failed.statusCode, failed.body).toBe(200);
    expect(InspectionRowResponseSchema.parse(failed.json()).data).toMatchObject({ influence: -1, score: 0 });
    const detail = InspectionDetailResponseSchema.parse((await inject("admin", "GET", `/ccb/detail/${second}/2`)).json()).data!;
    expect(detail.evaluation).toMatchObject({ formName: "外呼质检表", score: 0, vetoed: true });
    expect(detail.evaluation!.items.find((i) => i.key === more)).toMatchObject({ value: "na", points: null });
    expect(detail.history.at(-1)!.summary).toContain("一票否决");

    // The form counts the calls it scored.
    const used = await form(await inject("admin", "GET", `/ccb/form/${active.id}`));
    expect(used.usedCount).toBe(2);

    // The agent of the failed call sees the evaluation, and it counts against their pass rate.
    const call = await platform.db.selectFrom("call_records").select("agent_user_id").where("id", "=", second).executeTakeFirstOrThrow();
    const own = InspectionDetailResponseSchema.parse((await inject("agent", "GET", `/ccb/detail/${second}/2`)).json()).data!;
    expect(own.evaluation).toMatchObject({ vetoed: true, score: 0 });
    const performance = PerformanceResponseSchema.parse((await inject("admin", "POST", "/ccb/agent/performance", {})).json()).data!;
    const row = performance.list.find((r) => r.agentId === call.agent_user_id)!;
    expect(row.inspected).toBeGreaterThan(row.passed);
    await form(await inject("admin", "PUT", `/ccb/form/${active.id}/state`, { action: "retire" }));
  });

  it("an accepted appeal re-scores the items as the next evaluation version, the original kept; audited", async () => {
    const created = await form(await inject("admin", "POST", "/ccb/form", { name: "申诉复评表", items: ITEMS }));
    const active = await form(await inject("admin", "PUT", `/ccb/form/${created.id}/state`, { action: "activate" }));
    const [open, more, accurate, veto] = active.items.map((i) => i.key);
    const callId = await lockedCall();
    const scored = await inject("admin", "PUT", `/ccb/callInfo/${callId}`, {
      callId,
      checkResult: 3,
      influence: -1,
      evaluation: {
        formId: active.id,
        answers: [
          { key: open, value: 4 },
          { key: more, value: 10 },
          { key: accurate, value: 30 },
          { key: veto, value: "pass" },
        ],
      },
    });
    expect(InspectionRowResponseSchema.parse(scored.json()).data).toMatchObject({ score: 53.3 }); // 64 of 120
    // Retired before the decision: the re-scoring keeps to the items the call was scored on.
    await form(await inject("admin", "PUT", `/ccb/form/${active.id}/state`, { action: "retire" }));
    const appeal = await inject("agent", "POST", "/ccb/appeal", { callId, reason: "需求挖掘做得很充分" });
    expect(appeal.statusCode, appeal.body).toBe(200);
    const appealId = (appeal.json() as { data: { id: number } }).data.id;
    const decide = (body: Record<string, unknown>) =>
      inject("supervisor", "POST", `/ccb/appeal/${appealId}/decision`, {
        decision: "accepted",
        checkResult: 1,
        influence: 1,
        reason: "复听",
        ...body,
      });

    // Accepting without the items, or with an item over its weight: refused in Chinese, nothing changed.
    expect(await refusal(await decide({}), 400)).toBe("该通话按评分表「申诉复评表」评分，通过申诉时请逐项重新评分");
    const revised = [
      { key: open, value: 4 },
      { key: more, value: 28 },
      { key: accurate, value: 30 },
      { key: veto, value: "pass" },
    ];
    expect(
      await refusal(
        await decide({ evaluation: { answers: [...revised.slice(0, 1), { key: more, value: 31 }, ...revised.slice(2)] } }),
        400,
      ),
    ).toBe("「需求挖掘」的得分必须是 0 到 30 的整数");
    // The result, influence and every answer as they were: nothing corrected, refused.
    const original = [
      { key: open, value: 4 },
      { key: more, value: 10 },
      { key: accurate, value: 30 },
      { key: veto, value: "pass" },
    ];
    expect(await refusal(await decide({ checkResult: 3, influence: -1, evaluation: { answers: original } }), 400)).toBe(
      "通过申诉须更正质检结果、影响或评分；维持原结果请选择驳回申诉",
    );
    const accepted = await decide({ evaluation: { answers: revised } });
    expect(accepted.statusCode, accepted.body).toBe(200);

    // The call's score is the revision's (82 of 120); the original stays as version 1.
    for (const account of ["supervisor", "agent"]) {
      const detail = InspectionDetailResponseSchema.parse((await inject(account, "GET", `/ccb/detail/${callId}/2`)).json()).data!;
      expect(detail.row).toMatchObject({ qcStatus: 1, influence: 1, score: 68.3 });
      expect(detail.evaluation).toMatchObject({ version: 2, score: 68.3, reason: "复听", inspectorName: "李秀英", formName: "申诉复评表" });
      expect(detail.evaluation!.items.find((i) => i.key === more)).toMatchObject({ value: 28, points: 28 });
      expect(detail.earlierEvaluations).toHaveLength(1);
      expect(detail.earlierEvaluations[0]).toMatchObject({ version: 1, score: 53.3, reason: null });
      expect(detail.earlierEvaluations[0].items.find((i) => i.key === more)).toMatchObject({ value: 10 });
      expect(detail.history.at(-1)!.summary).toContain("评分 53.3 → 68.3 分");
    }
    const list = await inject("admin", "POST", "/ccb/callInfo", { pageSize: 10, appealState: "accepted" });
    expect(
      (list.json() as { data: { list: Array<{ callId: number; score: number }> } }).data.list.find((r) => r.callId === callId),
    ).toMatchObject({
      score: 68.3,
    });
    // The form still counts one call, not two evaluations.
    expect((await form(await inject("admin", "GET", `/ccb/form/${active.id}`))).usedCount).toBe(1);
    const audit = await platform.db
      .selectFrom("audit_log")
      .select(["actor_name", "reason", "detail"])
      .where("action", "=", "inspection.appealDecision")
      .where("target_id", "=", String(callId))
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor_name: "李秀英", reason: "复听", detail: { score: { from: 53.3, to: 68.3 } } });
  });
});
