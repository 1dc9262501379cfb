import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DataTable, formatCell } from "./data-table";

type Row = { id: number; name: string; source: number; at: number; ms: number; note: string };
const rows: Row[] = [
  { id: 1, name: "信用卡分期", source: 1, at: Date.UTC(2026, 10, 22, 2), ms: 61_000, note: "短" },
  {
    id: 2,
    name: "账单提醒",
    source: 0,
    at: Date.UTC(2026, 10, 22, 3),
    ms: 3_723_000,
    note: "这是一段非常非常长的备注内容，超过了二十个字符的显示限制",
  },
];
const render = (search?: string) =>
  renderToStaticMarkup(
    <DataTable<Row>
      caption="测试"
      rowKey="id"
      search={search}
      config={{
        list: rows,
        total: 2,
        eleItem: [
          { prop: "name", label: "名称" },
          { prop: "at", label: "时间", type: "datetime" },
          { prop: "ms", label: "时长", type: "second" },
          { prop: "note", label: "备注", type: "content" },
        ],
        attributes: { selection: true, index: true },
        showSummary: true,
        summary: { ms: "合计时长" },
      }}
    />,
  );

describe("DataTable (spec §3, §5)", () => {
  it("renders PrimeReact table markup with typed cells", () => {
    const html = render();
    expect(html).toContain('class="p-datatable p-component');
    expect(html).toContain('<th scope="col"');
    expect(html).toContain("2026-11-22 10:00:00");
    expect(html).toContain("1小时2分3秒");
    expect(html).toContain('title="这是一段非常非常长的备注内容，超过了二十个字符的显示限制"');
    expect(html).toContain("…");
    expect(html).toContain("合计时长");
  });

  it("does not let rows whose source is 0 be selected", () => {
    const html = render();
    const boxes = html.match(/<input type="checkbox"[^>]*>/g)!;
    expect(boxes).toHaveLength(2);
    expect(boxes[0]).not.toContain("disabled");
    expect(boxes[1]).toContain('disabled=""');
  });

  it("hides rows whose name does not match the search", () => {
    const html = render("账单");
    expect(html).toContain("账单提醒");
    expect(html).not.toContain("信用卡分期");
    expect(render("没有")).toContain("暂无数据");
  });

  it("formats each column type", () => {
    expect(formatCell("date", Date.UTC(2026, 10, 21, 16))).toBe("2026-11-22");
    expect(formatCell("time", Date.UTC(2026, 10, 21, 16, 1, 2))).toBe("00:01:02");
    // Some platform lists give ISO times (the outbound ones).
    expect(formatCell("datetime", "2026-11-21T16:01:02.000Z")).toBe("2026-11-22 00:01:02");
    expect(formatCell("text", null)).toBe("-");
  });
});
