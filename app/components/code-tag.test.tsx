import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { OUTCOME_CODES, RESULT_CODES, codesOf, labelOf, resultCodeTone, toneOf } from "#contracts/codes";
import { CodeTag } from "./code-tag";

describe("code colours (spec §2, §4)", () => {
  it("colours result codes: 200 success, 404 and 500–504 danger, others info", () => {
    const tones = Object.fromEntries(codesOf(RESULT_CODES).map((code) => [code, resultCodeTone(code)]));
    expect(tones).toEqual({
      200: "success",
      404: "danger",
      408: "info",
      480: "info",
      486: "info",
      487: "info",
      500: "danger",
      502: "danger",
      503: "danger",
      504: "danger",
      603: "info",
    });
  });

  it("gives every outcome code a label and a colour of its own", () => {
    expect(codesOf(OUTCOME_CODES)).toHaveLength(11);
    for (const code of codesOf(OUTCOME_CODES)) expect(labelOf(OUTCOME_CODES, code)).not.toBe("未知");
    expect(new Set(codesOf(OUTCOME_CODES).map((code) => toneOf(OUTCOME_CODES, code))).size).toBe(11);
  });

  it("renders PrimeReact tags, 'none' as the neutral secondary tag", () => {
    expect(renderToStaticMarkup(<CodeTag tone="danger">空号</CodeTag>)).toBe('<span class="p-tag p-component p-tag-danger">空号</span>');
    expect(renderToStaticMarkup(<CodeTag tone="none">无意向</CodeTag>)).toContain("p-tag-secondary");
    expect(renderToStaticMarkup(<CodeTag tone="indigo">未启动</CodeTag>)).toContain("p-tag-indigo");
  });
});
