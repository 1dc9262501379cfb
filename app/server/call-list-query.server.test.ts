import { describe, expect, it } from "vitest";
import { parseCallListQuery, withParams } from "./call-list-query.server";

const NOW = Date.UTC(2026, 10, 22, 3, 30); // 11:30 in Shanghai
const parse = (search: string) => parseCallListQuery(new URLSearchParams(search), NOW);

describe("call list URLs", () => {
  it("defaults to today's boundaries, page 1 of 20", () => {
    const parsed = parse("");
    expect(parsed.ok && parsed.filter).toMatchObject({
      pageNo: 1,
      pageSize: 20,
      startTime: Date.UTC(2026, 10, 21, 16),
      endTime: Date.UTC(2026, 10, 22, 15, 59, 59),
    });
  });

  it("maps every filter and ignores empty fields", () => {
    const parsed = parse(
      "page=3&size=50&start=2026-11-01&end=2026-11-22&phone=1381&result=486&outcome=NoAnswer&answered=0&campaign=4&agent=3&after=1763700000000_42&kind=",
    );
    expect(parsed.ok && parsed.filter).toMatchObject({
      pageNo: 3,
      pageSize: 50,
      phone: "1381",
      callResult: 486,
      outboundResult: "NoAnswer",
      isAnswer: 0,
      callKind: undefined,
      campaignId: 4,
      agentId: 3,
      after: "1763700000000_42",
    });
  });

  it("answers malformed filters in Chinese", () => {
    const cases: Array<[string, string]> = [
      ["size=7", "每页条数只能是 10、20、50 或 100"],
      ["page=0", "页码从 1 开始"],
      ["page=abc", "页码必须是数字"],
      ["start=2026-02-30", "开始日期格式不正确"],
      ["start=2026-11-22&end=2026-11-01", "开始日期不能晚于结束日期"],
      ["phone=abc", "电话号码只能包含数字"],
      ["outcome=Nope", "外呼结果不正确"],
      ["answered=3", "是否接通的取值不正确"],
      ["campaign=-1", "活动编号不正确"],
      ["after=x", "翻页参数不正确"],
    ];
    for (const [search, message] of cases) {
      const parsed = parse(search);
      expect(parsed.ok, search).toBe(false);
      if (!parsed.ok) expect(parsed.errors).toContain(message);
    }
  });

  it("changes parameters without carrying cursors", () => {
    expect(withParams("/callLog", "phone=138&after=1_2&page=2", { page: 3 })).toBe("/callLog?phone=138&page=3");
    expect(withParams("/callLog", "phone=138", { phone: undefined })).toBe("/callLog");
  });
});
