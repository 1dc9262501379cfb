import { describe, expect, it } from "vitest";
import { answerOf, evaluate, type ScoreFormItem } from "./inspection-scoring";

const items: ScoreFormItem[] = [
  { key: "i1", title: "开场白", weight: 10, allowNa: false, veto: false },
  { key: "i2", title: "需求挖掘", weight: 30, allowNa: true, veto: false },
  { key: "i3", title: "违规承诺", weight: 20, allowNa: false, veto: true },
];

describe("a scoring form's total", () => {
  it("weights the items that are not N/A, out of 100 with one decimal", () => {
    expect(
      evaluate(items, [
        { key: "i1", value: 5 },
        { key: "i2", value: 30 },
        { key: "i3", value: "pass" },
      ]),
    ).toMatchObject({
      ok: true,
      score: 91.7,
      vetoed: false,
    });
    const na = evaluate(items, [
      { key: "i1", value: 5 },
      { key: "i2", value: "na" },
      { key: "i3", value: "pass" },
    ]);
    expect(na).toMatchObject({ ok: true, score: 83.3 });
  });

  it("fails the call on a failed veto item, whatever the points", () => {
    expect(
      evaluate(items, [
        { key: "i1", value: 10 },
        { key: "i2", value: 30 },
        { key: "i3", value: "fail" },
      ]),
    ).toMatchObject({
      ok: true,
      score: 0,
      vetoed: true,
    });
  });

  it("names each wrong answer in Chinese", () => {
    const wrong = evaluate(items, [
      { key: "i1", value: 11 },
      { key: "i3", value: "na" },
    ]);
    expect(wrong.ok).toBe(false);
    if (wrong.ok) return;
    expect(wrong.errors.map((e) => e.message)).toEqual([
      "「开场白」的得分必须是 0 到 10 的整数",
      "请为「需求挖掘」评分或选择不适用",
      "「违规承诺」不允许选择不适用",
    ]);
    const allNa = evaluate([items[1]], [{ key: "i2", value: "na" }]);
    expect(allNa).toMatchObject({ ok: false, errors: [{ message: "至少要有一项评分，不能全部选择不适用" }] });
  });

  it("reads posted answers", () => {
    expect([answerOf(""), answerOf(" 7 "), answerOf("na"), answerOf("fail")]).toEqual([undefined, 7, "na", "fail"]);
    expect(answerOf("7.5")).toBeNaN();
  });
});
