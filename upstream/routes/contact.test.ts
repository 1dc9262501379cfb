import ExcelJS from "exceljs";
import { Readable } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  CALL_KINDS,
  CAMPAIGN_TYPES,
  CUSTOMER_ROLE,
  HANGUP_PARTIES,
  INTENT_LABELS,
  OUTCOME_CODES,
  QUALITY_CHECK_STATUSES,
  RESULT_CODES,
  codesOf,
  labelOf,
} from "#contracts/codes";
import { CallDetailResponseSchema, CallRecordPageResponseSchema, type CallRecordRow } from "#contracts/contact";
import { FailureSchema } from "#contracts/envelope";
import { NoRecordingResponseSchema } from "#contracts/records";
import { FlowParamListResponseSchema } from "#contracts/robot";
import { RECORDINGS, conclusionFor, isRecordingName } from "#upstream/domain/recordings";
import { cursorOf, insertCallRecord } from "#upstream/repositories/call-records";
import { DEMO_CALL_COUNT, SEED_FLOW_IDS } from "#upstream/seed/call-records";
import { TEST_DB, bearer, describeDb, expectOutcomesAgree, loginAs, testPlatform } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";

describeDb(`call records on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  /** Every call of tenant demo: this seed's and those other seeds (the dialer's) add. */
  let demoCallCount = 0;
  beforeAll(async () => {
    platform = await testPlatform();
    const counted = await platform.db
      .selectFrom("call_records")
      .innerJoin("tenants", "tenants.id", "call_records.tenant_id")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("tenants.code", "=", "demo")
      .executeTakeFirstOrThrow();
    demoCallCount = Number(counted.n);
    for (const name of ["admin", "agent", "supervisor", "other-admin", "agent01"]) {
      tokens[name] = await loginAs(platform.app, name);
      ids[name] = (await platform.db.selectFrom("users").select("id").where("user_name", "=", name).executeTakeFirstOrThrow()).id;
    }
  });
  afterAll(async () => platform?.close());

  const get = (url: string, as = "admin") => platform.app.inject({ url, headers: bearer(tokens[as]) });
  const post = (url: string, payload: object, as = "admin") =>
    platform.app.inject({ method: "POST", url, payload, headers: bearer(tokens[as]) });
  const pageOf = (response: { statusCode: number; json: () => unknown; body: string }) => {
    expect(response.statusCode, response.body).toBe(200);
    return CallRecordPageResponseSchema.parse(response.json()).data!;
  };
  const allOutbound = async (): Promise<CallRecordRow[]> =>
    pageOf(await post("/contact/campaign/record/list", { pageSize: 100, pageNo: 1 })).list;

  it("lists the tenant's calls newest first with the total, 20 a page by default", async () => {
    const page = pageOf(await get("/contact/business/callhistory"));
    expect(demoCallCount).toBeGreaterThanOrEqual(DEMO_CALL_COUNT);
    expect(page.total).toBe(demoCallCount);
    expect(page.list).toHaveLength(20);
    const times = page.list.map((r) => r.callTime);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(page.list[0]).toMatchObject({ campaignName: expect.stringContaining("历史通话") });
  });

  it("seeds every outcome, result code and campaign type", async () => {
    const seen = await platform.db
      .selectFrom("call_records")
      .select(["outbound_result", "call_result", "campaign_type"])
      .where(
        "tenant_id",
        "=",
        (await platform.db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow()).id,
      )
      .execute();
    for (const code of codesOf(OUTCOME_CODES)) expect(seen.map((r) => r.outbound_result)).toContain(code);
    for (const code of codesOf(RESULT_CODES)) expect(seen.map((r) => r.call_result)).toContain(code);
    for (const code of codesOf(CAMPAIGN_TYPES).filter((c) => c !== -1)) expect(seen.map((r) => r.campaign_type)).toContain(code);
  });

  it("seeds outcomes that agree with each call: result, intent and who took it", async () => {
    const tenantId = (await platform.db.selectFrom("tenants").select("id").where("code", "=", "demo").executeTakeFirstOrThrow()).id;
    const calls = await platform.db
      .selectFrom("call_records")
      .select(["outbound_result", "call_result", "intent", "campaign_type", "agent_user_id", "direction"])
      .where("tenant_id", "=", tenantId)
      .execute();
    expectOutcomesAgree(calls);
  });

  it("shows an agent only their own calls", async () => {
    const page = pageOf(await get("/contact/business/callhistory?pageSize=100", "agent"));
    expect(page.total).toBeGreaterThan(50);
    expect(page.total).toBeLessThan(demoCallCount);
    expect(new Set(page.list.map((r) => r.agentId))).toEqual(new Set([ids.agent]));
  });

  it("filters by every field the screens offer", async () => {
    const all = await allOutbound();
    const sample = all.find((r) => r.callResult === 200 && r.outboundResult && r.campaignId)!;
    const cases: Array<[object, (r: CallRecordRow) => boolean]> = [
      [{ callResult: 486 }, (r) => r.callResult === 486],
      [{ outboundResult: sample.outboundResult }, (r) => r.outboundResult === sample.outboundResult],
      [{ isAnswer: 1 }, (r) => r.isAnswer === 1],
      [{ callKind: 1 }, (r) => r.callKind === 1],
      [{ campaignId: sample.campaignId }, (r) => r.campaignId === sample.campaignId],
      [{ phone: sample.phone.slice(-4) }, (r) => r.phone.includes(sample.phone.slice(-4))],
      [{ agentId: ids.agent }, (r) => r.agentId === ids.agent],
      [{ startTime: all[30].callTime, endTime: all[10].callTime }, (r) => r.callTime >= all[30].callTime && r.callTime <= all[10].callTime],
    ];
    for (const [filter, holds] of cases) {
      const page = pageOf(await post("/contact/campaign/record/list", { ...filter, pageSize: 100 }));
      expect(page.total, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(page.list.every(holds), JSON.stringify(filter)).toBe(true);
      expect(page.list.every((r) => r.direction === "outbound")).toBe(true);
    }
  });

  it("pages by keyset cursors exactly as by offsets, both ways", async () => {
    const page2 = pageOf(await get("/contact/business/callhistory?pageNo=2&pageSize=10"));
    const page3 = pageOf(await get("/contact/business/callhistory?pageNo=3&pageSize=10"));
    const next = pageOf(await get(`/contact/business/callhistory?pageNo=3&pageSize=10&after=${cursorOf(page2.list[9])}`));
    expect(next.list.map((r) => r.callId)).toEqual(page3.list.map((r) => r.callId));
    const previous = pageOf(await get(`/contact/business/callhistory?pageNo=2&pageSize=10&before=${cursorOf(page3.list[0])}`));
    expect(previous.list.map((r) => r.callId)).toEqual(page2.list.map((r) => r.callId));
    expect(next.total).toBe(demoCallCount);
  });

  it("answers a page past the end with an empty list and the real total", async () => {
    const page = pageOf(await get("/contact/business/callhistory?pageNo=999&pageSize=100"));
    expect(page.list).toEqual([]);
    expect(page.total).toBe(demoCallCount);
  });

  it("gives the real total on a short last page and on a short first page", async () => {
    const pageSize = 50;
    const lastPageNo = Math.ceil(demoCallCount / pageSize);
    const last = pageOf(await get(`/contact/business/callhistory?pageNo=${lastPageNo}&pageSize=${pageSize}`));
    expect(last.list).toHaveLength(demoCallCount - (lastPageNo - 1) * pageSize);
    expect(last.total).toBe(demoCallCount);
    // The agent's five newest calls: one page of 20 that comes back short.
    const agentCalls = () => platform.db.selectFrom("call_records").where("agent_user_id", "=", ids.agent);
    const fifth = await agentCalls().select("call_time").orderBy("call_time", "desc").offset(4).limit(1).executeTakeFirstOrThrow();
    const since = fifth.call_time.getTime();
    const mine = pageOf(await get(`/contact/business/callhistory?startTime=${since}`, "agent"));
    const counted = await agentCalls()
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("call_time", ">=", new Date(since))
      .executeTakeFirstOrThrow();
    expect(Number(counted.n)).toBeGreaterThanOrEqual(5);
    expect(Number(counted.n)).toBeLessThan(20);
    expect(mine.total).toBe(Number(counted.n));
    expect(mine.list).toHaveLength(mine.total);
  });

  it("refuses malformed filters with 400 and a Chinese message", async () => {
    for (const url of ["?pageSize=7", "?pageNo=0", "?pageNo=abc", "?isAnswer=5", "?phone=abc", "?after=1x", "?startTime=-3"]) {
      const response = await get(`/contact/business/callhistory${url}`);
      expect(response.statusCode, url).toBe(400);
      expect(FailureSchema.parse(response.json()).msg).toMatch(/^请求参数错误/);
    }
  });

  it("serves the inbound lists: history per agent, calls for the tenant's supervisors", async () => {
    const history = pageOf(await get("/contact/income/calls/history?pageSize=100", "agent"));
    expect(history.total).toBeGreaterThan(0);
    expect(history.list.every((r) => r.direction === "inbound" && r.agentId === ids.agent)).toBe(true);
    const calls = pageOf(await post("/contact/income/calls", { pageSize: 100 }, "supervisor"));
    expect(calls.total).toBeGreaterThan(history.total);
    // An agent asking for the tenant's list gets what they may read: their own calls and those of
    // their queue's campaigns; agent01, whose queue serves no inbound campaign, only their own.
    const agents = pageOf(await post("/contact/income/calls", { pageSize: 100 }, "agent")).total;
    expect(agents).toBeGreaterThanOrEqual(history.total);
    expect(agents).toBeLessThanOrEqual(calls.total);
    expect(calls.list.every((r) => r.direction === "inbound" && r.campaignType === 20)).toBe(true);
  });

  it("returns a call's detail with its dialogue sections and timed lines", async () => {
    // A collaborative call handed to an agent: the robot's part, then the agent's.
    const call = await platform.db
      .selectFrom("call_records")
      .select(["id as callId", "cti_call_id as ctiCallId", "recording"])
      .where("campaign_type", "=", 2)
      .where("call_result", "=", 200)
      .where("prev_cti_call_id", "is not", null)
      .where("recording", "is not", null)
      .orderBy("id")
      .executeTakeFirstOrThrow();
    const response = await get(`/contact/income/calls/${call.callId}`);
    const detail = CallDetailResponseSchema.parse(response.json()).data!;
    expect(detail).toMatchObject({
      callId: call.callId,
      ctiCallId: call.ctiCallId,
      callResult: 200,
      flowId: SEED_FLOW_IDS.reminder,
      groupDn: "grp-robot-01",
    });
    expect(detail.callingResults.map((s) => s.dialogType)).toEqual([1, 2]);
    const lines = detail.callingResults.flatMap((s) => s.dialogResults);
    if (!isRecordingName(call.recording)) throw new Error(`no recording '${call.recording}'`);
    const script = RECORDINGS[call.recording].lines;
    expect(lines.map((l) => [l.recordStartTime, l.recordEndTime])).toEqual(script.map((l) => [l.startMs, l.endMs]));
    expect(JSON.parse(detail.userData.data!)).toMatchObject({ customerName: "张先生" });
  });

  it("shows every connected robot call with the intent its customer last says, and a conclusion to match", async () => {
    // What a user sees: the list's intent label, then the dialog's lines and conclusion.
    const robotCalls: CallRecordRow[] = [];
    for (let pageNo = 1; ; pageNo++) {
      const page = pageOf(await get(`/contact/business/callhistory?callResult=200&pageSize=100&pageNo=${pageNo}`));
      robotCalls.push(...page.list.filter((r) => r.campaignType === 1 || r.campaignType === 2));
      if (pageNo * 100 >= page.total) break;
    }
    expect(robotCalls.length).toBeGreaterThan(40);
    const seen = new Set<string>();
    for (const row of robotCalls) {
      const detail = CallDetailResponseSchema.parse((await get(`/contact/income/calls/${row.callId}`)).json()).data!;
      const customer = detail.callingResults.flatMap((s) => s.dialogResults).filter((l) => l.thisRole === CUSTOMER_ROLE);
      expect(row.intent, `call ${row.callId}`).not.toBeNull();
      expect(customer.at(-1)?.nluResult, `call ${row.callId}`).toBe(row.intent);
      expect(detail.attachData.conclusion, `call ${row.callId}`).toBe(conclusionFor(row.intent));
      seen.add(`${row.campaignType}:${row.intent}`);
    }
    // Both robot campaign types, every intent.
    for (const intent of codesOf(INTENT_LABELS))
      for (const type of [1, 2]) expect(seen, `${type}:${intent}`).toContain(`${type}:${intent}`);
  });

  it("hides other tenants' calls: lists, detail and recording", async () => {
    const demoCall = (await allOutbound())[0];
    const otherPage = pageOf(await get("/contact/business/callhistory?pageSize=100", "other-admin"));
    const otherCount = await platform.db
      .selectFrom("call_records")
      .innerJoin("tenants", "tenants.id", "call_records.tenant_id")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("tenants.code", "=", "other")
      .executeTakeFirstOrThrow();
    expect(otherPage.total).toBe(Number(otherCount.n));
    expect(otherPage.total).toBeGreaterThanOrEqual(14);
    expect(otherPage.list.map((r) => r.callId)).not.toContain(demoCall.callId);
    const detail = await get(`/contact/income/calls/${demoCall.callId}`, "other-admin");
    expect(detail.statusCode).toBe(404);
    expect(FailureSchema.parse(detail.json())).toEqual({ code: 404, msg: "通话记录不存在" });
    const otherTenant = (await get("/config/api/customer", "other-admin")).json().data.tenantId;
    const demoTenant = (await get("/config/api/customer")).json().data.tenantId;
    expect((await post(`/records/records/${demoCall.callId}`, { tenantID: otherTenant }, "other-admin")).statusCode).toBe(404);
    // Naming the other tenant in the body does not help either.
    expect((await post(`/records/records/${demoCall.callId}`, { tenantID: demoTenant }, "other-admin")).statusCode).toBe(404);
    expect((await get("/contact/income/calls/99999999")).statusCode).toBe(404);
    expect((await get("/contact/income/calls/abc")).statusCode).toBe(400);
  });

  it("lets an agent read the calls they took and their queue's campaigns' calls, and no colleague's other calls", async () => {
    const tenantID = (await get("/config/api/customer")).json().data.tenantId;
    const calls = await platform.db
      .selectFrom("call_records as r")
      .leftJoin("campaigns as c", "c.id", "r.campaign_id")
      .select(["r.id", "r.agent_user_id", "r.cti_call_id", "c.queue_name"])
      .where("r.tenant_id", "=", tenantID)
      .execute();
    const agentsCall = calls.find((c) => c.agent_user_id === ids.agent && c.queue_name !== "demo-sales")!;
    const colleaguesOnAgentsQueue = calls.find((c) => c.agent_user_id === ids.supervisor && c.queue_name === "demo-voice");
    expect(agentsCall).toBeDefined();
    // agent01 serves the sales queue: the voice agent's call is not theirs to read, in any way.
    expect((await get(`/contact/income/calls/${agentsCall.id}`, "agent01")).statusCode).toBe(404);
    expect((await post(`/records/records/${agentsCall.id}`, { tenantID }, "agent01")).statusCode).toBe(404);
    const inbound = pageOf(await post("/contact/income/calls", { pageSize: 100, pageNo: 1 }, "agent01"));
    expect(inbound.list.every((row) => row.agentId === ids.agent01)).toBe(true);
    // The outbound call log is a supervisor's screen (外呼通话记录): no agent lists it (decision 044).
    const outbound = await post("/contact/campaign/record/list", { pageSize: 100, pageNo: 1 }, "agent01");
    expect(outbound.statusCode).toBe(403);
    expect(FailureSchema.parse(outbound.json()).msg).toBe("无权访问：需要「外呼通话记录」菜单");
    expect((await get(`/contact/income/calls/${agentsCall.id}`, "agent")).statusCode).toBe(200);
    expect((await get(`/contact/income/calls/${agentsCall.id}`, "supervisor")).statusCode).toBe(200);
    if (colleaguesOnAgentsQueue) expect((await get(`/contact/income/calls/${colleaguesOnAgentsQueue.id}`, "agent")).statusCode).toBe(200);
    // Nor read a call's robot dialogue by its CTI id: the lines follow the rule the detail follows.
    const withLines = await platform.db
      .selectFrom("call_records as r")
      .select(["r.id", "r.cti_call_id"])
      .where("r.tenant_id", "=", tenantID)
      .where("r.cti_call_id", "is not", null)
      .where((eb) => eb.exists(eb.selectFrom("call_dialogs as d").select("d.id").whereRef("d.call_record_id", "=", "r.id")))
      .execute();
    const linesOf = async (ctiCallId: string, as: string) =>
      (await get(`/contact/campaign/dialog/list?ctiCallId=${encodeURIComponent(ctiCallId)}`, as)).json().data.total as number;
    let compared = 0;
    for (const call of withLines.slice(0, 40)) {
      const readable = (await get(`/contact/income/calls/${call.id}`, "agent01")).statusCode === 200;
      const lines = await linesOf(call.cti_call_id!, "agent01");
      expect(lines > 0, `call ${call.id}`).toBe(readable);
      expect(await linesOf(call.cti_call_id!, "supervisor"), `call ${call.id}`).toBeGreaterThan(0);
      if (!readable) compared++;
    }
    expect(compared).toBeGreaterThan(0);
    // Nor may they change the conclusion the voice agent gave.
    const conclude = (as: string, key: string) =>
      post("/contact/call/conclusion", { ctiCallId: agentsCall.cti_call_id, callResult: 1, idempotencyKey: key }, as);
    expect((await conclude("agent", "conclusion-by-agent-1")).statusCode).toBe(200);
    const refused = await conclude("agent01", "conclusion-by-agent01-1");
    expect(refused.statusCode).toBe(403);
    expect(FailureSchema.parse(refused.json()).msg).toBe("该通话的业务记录由其他坐席填写，无权修改");
  });

  it("streams a recording as audio, or answers JSON when the call has none", async () => {
    const tenantID = (await get("/config/api/customer")).json().data.tenantId;
    const records = await platform.db.selectFrom("call_records").select(["id", "recording"]).where("tenant_id", "=", tenantID).execute();
    const withAudio = records.find((r) => r.recording)!;
    const audio = await post(`/records/records/${withAudio.id}`, { tenantID });
    expect(audio.statusCode).toBe(200);
    expect(audio.headers["content-type"]).toBe("audio/mpeg");
    expect(audio.rawPayload.length).toBeGreaterThan(10_000);
    // An MP3 frame sync (or an ID3 tag) starts the file.
    expect(audio.rawPayload[0] === 0xff || audio.rawPayload.subarray(0, 3).toString() === "ID3").toBe(true);
    expect(audio.headers["accept-ranges"]).toBe("bytes");
    // Seeking asks for a range: those bytes only, and the same bytes as in the whole file.
    const size = audio.rawPayload.length;
    const ranged = (range: string) =>
      platform.app.inject({
        method: "POST",
        url: `/records/records/${withAudio.id}`,
        payload: { tenantID },
        headers: { ...bearer(tokens.admin), range },
      });
    const middle = await ranged("bytes=1000-1999");
    expect(middle.statusCode).toBe(206);
    expect(middle.headers["content-range"]).toBe(`bytes 1000-1999/${size}`);
    expect(middle.rawPayload.equals(audio.rawPayload.subarray(1000, 2000))).toBe(true);
    const tail = await ranged("bytes=-10");
    expect(tail.rawPayload.equals(audio.rawPayload.subarray(size - 10))).toBe(true);
    expect((await ranged(`bytes=${size}-`)).statusCode).toBe(416);
    const silent = records.find((r) => !r.recording)!;
    const none = await post(`/records/records/${silent.id}`, { tenantID });
    expect(none.statusCode).toBe(200);
    expect(NoRecordingResponseSchema.parse(none.json())).toMatchObject({ code: 1, data: null });
    expect((await post(`/records/records/${silent.id}`, {})).statusCode).toBe(400);
  });

  it("serves a flow's input parameters and output states, per tenant", async () => {
    const params = FlowParamListResponseSchema.parse((await get(`/robot/api/flow/param?id=${SEED_FLOW_IDS.instalment}&type=input`)).json());
    expect(params.data!.list.map((p) => p.variable)).toEqual(["customerName", "cardTail", "amount"]);
    const states = FlowParamListResponseSchema.parse((await get(`/robot/api/flow/state?flowId=${SEED_FLOW_IDS.reminder}`)).json());
    expect(states.data!.list).toEqual([{ name: "是否转人工", variable: "transferred" }]);
    expect((await get(`/robot/api/flow/param?id=${SEED_FLOW_IDS.instalment}&type=output`)).statusCode).toBe(400);
    expect(FlowParamListResponseSchema.parse((await get("/robot/api/flow/state?flowId=424242")).json()).data!.list).toEqual([]);
  });

  it("exports the filtered outbound calls as CSV and as XLSX", async () => {
    const filter = { isAnswer: 1 };
    const total = pageOf(await post("/contact/campaign/record/list", filter)).total;
    const csv = await post("/contact/campaign/record/export", { ...filter, format: "csv" });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toMatch(/^text\/csv/);
    expect(csv.headers["content-disposition"]).toMatch(/attachment; filename="call-records-.*\.csv"/);
    const lines = csv.body
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines[0]).toMatch(/^通话ID,呼叫时间,电话号码/);
    expect(lines).toHaveLength(total + 1);
    expect(lines.slice(1).every((l) => l.includes(",已接通,"))).toBe(true);

    const xlsx = await post("/contact/campaign/record/export", { ...filter, format: "xlsx" });
    expect(xlsx.statusCode).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.read(Readable.from(xlsx.rawPayload));
    const sheet = workbook.worksheets[0];
    expect(sheet.getRow(1).getCell(1).value).toBe("通话ID");
    expect(sheet.actualRowCount).toBe(total + 1);

    // Every cell as the list shows the record (labels from the code module, China Standard Time).
    const first = pageOf(await post("/contact/campaign/record/list", { ...filter, pageSize: 10 })).list[0];
    const cst = new Date(first.callTime + 8 * 3_600_000).toISOString().slice(0, 19).replace("T", " ");
    const expected = [
      first.ctiCallId,
      cst,
      first.phone,
      first.campaignName ?? "",
      first.campaignType === null ? "" : labelOf(CAMPAIGN_TYPES, first.campaignType),
      labelOf(CALL_KINDS, first.callKind),
      "已接通",
      first.outboundResult ? labelOf(OUTCOME_CODES, first.outboundResult) : "",
      first.callResult,
      first.callResultName,
      first.intent ? labelOf(INTENT_LABELS, first.intent) : "",
      labelOf(QUALITY_CHECK_STATUSES, first.qcStatus),
      first.hangupParty === null ? "" : labelOf(HANGUP_PARTIES, first.hangupParty),
      first.agentName ?? "",
      Math.round(first.callDuration / 1000),
    ];
    expect(lines[1].split(",")).toEqual(expected.map(String));
    // A spreadsheet reads an empty text cell as no value.
    expect(sheet.getRow(2).values).toEqual([undefined, ...expected.map((v) => (v === "" ? undefined : v))]);

    expect((await post("/contact/campaign/record/export", { format: "pdf" })).statusCode).toBe(400);
    const other = await post("/contact/campaign/record/export", { format: "csv" }, "other-admin");
    expect(other.body).not.toContain("seed-demo");
  });

  /** One call of another tenant's campaign named `name`, exported as CSV (text) and XLSX (its first data row). */
  async function exportCampaignNamed(name: string, ctiCallId: string, phone: string) {
    const tenantId = (await platform.db.selectFrom("tenants").select("id").where("code", "=", "other").executeTakeFirstOrThrow()).id;
    const campaign = await platform.db
      .insertInto("campaigns")
      .values({ tenant_id: tenantId, name, type: 1, state: 3 })
      .returning("id")
      .executeTakeFirstOrThrow();
    await insertCallRecord(platform.db, {
      tenant_id: tenantId,
      cti_call_id: ctiCallId,
      direction: "outbound",
      campaign_id: campaign.id,
      campaign_type: 1,
      phone,
      call_result: 200,
      call_result_name: "成功",
      is_answer: 1,
      call_time: new Date(),
      attach_data: "{}",
      user_data: "{}",
    });
    const filter = { campaignId: campaign.id };
    const csv = await post("/contact/campaign/record/export", { ...filter, format: "csv" }, "other-admin");
    const xlsx = await post("/contact/campaign/record/export", { ...filter, format: "xlsx" }, "other-admin");
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.read(Readable.from(xlsx.rawPayload));
    return { csv: csv.body, row: workbook.worksheets[0].getRow(2) };
  }

  it("escapes in exports what CSV and XML cannot carry as it is", async () => {
    const { csv, row } = await exportCampaignNamed('双十一,"大促"<&>\u0007 C:\\活动\t第1期\n', "escape-1", "13800001111");
    expect(csv).toContain(`,"双十一,""大促""<&>\u0007 C:\\活动\t第1期\n",`);
    expect(row.getCell(4).value).toBe('双十一,"大促"<&> C:\\活动\t第1期\n');
  });

  it("exports a name a spreadsheet would run as a formula as text", async () => {
    const name = '=HYPERLINK("http://evil.example","点我")';
    const { csv, row } = await exportCampaignNamed(name, "formula-1", "13800002222");
    expect(csv).toContain(`,13800002222,"'=HYPERLINK(""http://evil.example"",""点我"")",`);
    // XLSX writes it as an inline string, which no spreadsheet runs: as it was typed.
    expect(row.getCell(4).value).toBe(name);
    expect(row.getCell(4).formula).toBeUndefined();
  });
});
