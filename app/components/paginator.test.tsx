import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Paginator, pageCount, pagerPages } from "./paginator";

describe("pagination (spec §9)", () => {
  it("counts pages and windows the pager", () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(41, 20)).toBe(3);
    expect(pagerPages(1, 3)).toEqual([1, 2, 3]);
    expect(pagerPages(10, 20)).toEqual([1, "gap", 8, 9, 10, 11, 12, "gap", 20]);
    expect(pagerPages(20, 20)).toEqual([1, "gap", 16, 17, 18, 19, 20]);
  });

  it("renders total, sizes, prev, pager, next and jumper as links and a GET form", () => {
    const html = renderToStaticMarkup(
      <Paginator
        total={95}
        pageNo={2}
        pageSize={20}
        pathname="/callHistory"
        search="phone=138&page=2"
        cursors={{ first: "5_1", last: "4_9" }}
      />,
    );
    const order = [
      "p-paginator-current",
      "sb-paginator-sizes",
      "p-paginator-prev",
      "p-paginator-pages",
      "p-paginator-next",
      "p-paginator-jtp",
    ].map((s) => html.indexOf(s));
    expect(order.every((at, i) => at >= 0 && (i === 0 || at > order[i - 1]))).toBe(true);
    expect(html).toContain("共 95 条");
    // Each size is a link to page 1 of that size, keeping the filters; 20 is the default and left out.
    expect(html).toContain('href="/callHistory?phone=138&amp;size=50"');
    expect(html).toContain('href="/callHistory?phone=138"');
    expect(html).toMatch(/aria-current="true"[^>]*>20条\/页</);
    expect(html).toContain('href="/callHistory?phone=138&amp;before=5_1"');
    expect(html).toContain('href="/callHistory?phone=138&amp;page=3&amp;after=4_9"');
    expect(html).toContain('<input type="hidden" name="phone" value="138"/>');
    expect(html).toMatch(/aria-current="page"[^>]*>2</);
  });

  it("keeps a chosen size in the jumper's one submit, and a new size starts at page 1", () => {
    const html = renderToStaticMarkup(
      <Paginator total={300} pageNo={3} pageSize={50} pathname="/audit" search="size=50&page=3&action=x" />,
    );
    expect(html).toContain('<input type="hidden" name="size" value="50"/>');
    expect(html).toContain('href="/audit?size=10&amp;action=x"');
    expect(html).not.toContain("<select");
  });
});
