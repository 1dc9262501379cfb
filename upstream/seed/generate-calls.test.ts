import ExcelJS from "exceljs";
import { Readable } from "node:stream";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { CAMPAIGN_TYPES, OUTCOME_CODES, RESULT_CODES, codesOf } from "#contracts/codes";
import { CallRecordPageResponseSchema } from "#contracts/contact";
import { EXPORT_CHUNK_ROWS } from "#upstream/domain/call-export";
import { EXACT_COUNT_LIMIT } from "#upstream/repositories/call-records";
import { ESTIMATE_KEPT_MS } from "#upstream/repositories/counting";
import { TEST_DB, bearer, describeDb, expectOutcomesAgree, loginAs, testPlatform } from "#upstream/test-db";
import type { PreparedPlatform } from "#upstream/testing";
import { generateCalls } from "./generate-calls";

describeDb(`call record generator on ${TEST_DB}`, () => {
  let platform: PreparedPlatform;
  beforeAll(async () => {
    platform = await testPlatform();
  });
  afterAll(async () => platform?.close());

  it("adds N records of every code to one tenant, spread over the days asked", async () => {
    const { db } = platform;
    const tenant = await db.selectFrom("tenants").select("id").where("code", "=", "other").executeTakeFirstOrThrow();
    const count = async () =>
      Number(
        (
          await db
            .selectFrom("call_records")
            .select((eb) => eb.fn.countAll().as("n"))
            .where("tenant_id", "=", tenant.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const now = Date.UTC(2026, 10, 22);
    await generateCalls(db, { count: 12_000, tenantCode: "other", days: 10, now });
    expect(await count()).toBe(before + 12_000);
    const rows = await db
      .selectFrom("call_records")
      .select(["outbound_result", "call_result", "campaign_type", "direction", "call_time", "phone", "intent", "agent_user_id"])
      .where("cti_call_id", "like", "gen-%")
      .execute();
    expectOutcomesAgree(rows);
    for (const code of codesOf(OUTCOME_CODES)) expect(rows.map((r) => r.outbound_result)).toContain(code);
    for (const code of codesOf(RESULT_CODES)) expect(rows.map((r) => r.call_result)).toContain(code);
    for (const code of codesOf(CAMPAIGN_TYPES).filter((c) => c !== -1)) expect(rows.map((r) => r.campaign_type)).toContain(code);
    expect(rows.every((r) => (r.campaign_type === 20) === (r.direction === "inbound"))).toBe(true);
    expect(rows.every((r) => /^1[3-9]\d{9}$/.test(r.phone))).toBe(true);
    const times = rows.map((r) => r.call_time.getTime());
    expect(Math.max(...times)).toBeLessThan(now);
    expect(Math.min(...times)).toBeGreaterThanOrEqual(now - 10 * 86_400_000);
    expect(times.every((t) => t % 1 === 0)).toBe(true);
  });

  it("reports an estimated total beyond the exact count limit, an exact one below it", async () => {
    const token = await loginAs(platform.app, "other-admin");
    const list = async (query: string) => {
      const response = await platform.app.inject({
        url: `/contact/business/callhistory?startTime=0&endTime=${Date.UTC(2030, 0)}${query}`,
        headers: bearer(token),
      });
      return CallRecordPageResponseSchema.parse(response.json()).data!;
    };
    const all = await list("");
    expect(all.estimated).toBe(true);
    expect(all.total).toBeGreaterThan(EXACT_COUNT_LIMIT);
    expect(Math.abs(all.total - 12_014) / 12_014).toBeLessThan(0.2);
    const few = await list("&callResult=404");
    expect(few.estimated).toBeUndefined();
    const tenant = await platform.db.selectFrom("tenants").select("id").where("code", "=", "other").executeTakeFirstOrThrow();
    const exact = await platform.db
      .selectFrom("call_records")
      .select((eb) => eb.fn.countAll().as("n"))
      .where("tenant_id", "=", tenant.id)
      .where("call_result", "=", 404)
      .executeTakeFirstOrThrow();
    expect(few.total).toBe(Number(exact.n));
    expect(few.total).toBeLessThan(EXACT_COUNT_LIMIT);
  });

  it("exports every record of many COPY batches once, newest first, in both formats", async () => {
    const tenant = await platform.db.selectFrom("tenants").select("id").where("code", "=", "other").executeTakeFirstOrThrow();
    const records = await platform.db
      .selectFrom("call_records")
      .select("cti_call_id")
      .where("tenant_id", "=", tenant.id)
      .where("direction", "=", "outbound")
      .orderBy("call_time", "desc")
      .orderBy("id", "desc")
      .execute();
    expect(records.length).toBeGreaterThan(2 * EXPORT_CHUNK_ROWS);
    const token = await loginAs(platform.app, "other-admin");
    const exported = (format: string) =>
      platform.app.inject({ method: "POST", url: "/contact/campaign/record/export", payload: { format }, headers: bearer(token) });

    const lines = (await exported("csv")).body.replace(/^\uFEFF/, "").split("\r\n");
    expect(lines.pop()).toBe(""); // the last line ends like every other
    expect(lines.slice(1).map((line) => line.slice(0, line.indexOf(",")))).toEqual(records.map((r) => r.cti_call_id));

    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.read(Readable.from((await exported("xlsx")).rawPayload));
    const ids: unknown[] = [];
    workbook.worksheets[0].eachRow((row, number) => number > 1 && ids.push(row.getCell(1).value));
    expect(ids).toEqual(records.map((r) => r.cti_call_id));
  });

  it("keeps a list's estimated total for a minute while its pages are read, then estimates again", async () => {
    const token = await loginAs(platform.app, "other-admin");
    const page = async (pageNo: number) => {
      const response = await platform.app.inject({
        url: `/contact/business/callhistory?startTime=0&endTime=${Date.UTC(2030, 0)}&pageNo=${pageNo}`,
        headers: bearer(token),
      });
      return CallRecordPageResponseSchema.parse(response.json()).data!;
    };
    const first = await page(1);
    expect(first.estimated).toBe(true);
    // Half as many records again, and fresh statistics: a new estimate would be quite different.
    await generateCalls(platform.db, { count: 6_000, tenantCode: "other", days: 10, now: Date.UTC(2026, 10, 21) });
    const second = await page(2);
    expect(second.total).toBe(first.total);
    expect(second.list).toHaveLength(20);
    const later = Date.now() + ESTIMATE_KEPT_MS + 1_000;
    vi.spyOn(Date, "now").mockReturnValue(later);
    try {
      const third = await page(3);
      expect(third.estimated).toBe(true);
      expect(Math.abs(third.total - 18_014) / 18_014).toBeLessThan(0.2);
    } finally {
      vi.restoreAllMocks();
    }
  });
});
