import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { NOT_READY_REASONS } from "#contracts/codes";
import { CodeOptions, CodeSelect, nameChoices, namedChoices } from "./code-select";

describe("a code table's options", () => {
  it("are its entries in its order, the code chosen and the label shown", () => {
    const html = renderToStaticMarkup(
      <select>
        <CodeOptions table={NOT_READY_REASONS} />
      </select>,
    );
    const options = [...html.matchAll(/<option value="([^"]*)">([^<]*)<\/option>/g)].map(([, value, label]) => ({ value, label }));
    expect(options).toEqual(NOT_READY_REASONS.map((r) => ({ value: r.code, label: r.label })));
  });

  it("name records by their id and plain names by themselves", () => {
    const named = renderToStaticMarkup(<CodeOptions table={namedChoices([{ id: 7, name: "大客户" }])} />);
    expect(named).toBe('<option value="7">大客户</option>');
    expect(renderToStaticMarkup(<CodeOptions table={nameChoices(["demo-sales"])} />)).toBe(
      '<option value="demo-sales">demo-sales</option>',
    );
  });

  it("follow CodeSelect's empty choice, the default chosen", () => {
    const html = renderToStaticMarkup(
      <CodeSelect id="r" name="reason" label="原因" table={NOT_READY_REASONS} defaultValue={NOT_READY_REASONS[1].code} empty="全部" />,
    );
    expect(html).toContain(`<option value="">全部</option><option value="${NOT_READY_REASONS[0].code}">`);
    expect(html).toContain(`<option value="${NOT_READY_REASONS[1].code}" selected="">${NOT_READY_REASONS[1].label}</option>`);
  });
});
