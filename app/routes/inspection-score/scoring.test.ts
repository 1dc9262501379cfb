import { describe, expect, test } from "vitest";
import type { Evaluation } from "#contracts/inspection";
import type { ScoreFormItem } from "#contracts/inspection-scoring";
import { decisionStart, draftAnswers, draftOf, editableBy, postedAnswers, sameDraft, typedDraft } from "./scoring";

const items: ScoreFormItem[] = [
  { key: "open", title: "开场白规范", weight: 10, allowNa: false, veto: false },
  { key: "needs", title: "需求挖掘", weight: 30, allowNa: true, veto: false },
  { key: "answer", title: "业务解答准确", weight: 60, allowNa: false, veto: false },
  { key: "promise", title: "违规承诺", weight: 20, allowNa: false, veto: true },
];

describe("editableBy", () => {
  const inspector = { id: 7, role: "supervisor" };
  const agent = { id: 9, role: "agent" };

  test("only the inspector holding the call's lock scores it; another inspector is told who holds it", () => {
    expect(editableBy(inspector, { qcStatus: 2, inspectorId: 7 }, null)).toMatchObject({ score: true, heldByOther: false });
    expect(editableBy(inspector, { qcStatus: 2, inspectorId: 8 }, null)).toMatchObject({ score: false, heldByOther: true });
    expect(editableBy(inspector, { qcStatus: 1, inspectorId: 7 }, null)).toMatchObject({ score: false, heldByOther: false });
  });

  test("a call nobody took is said to be waiting, to everyone", () => {
    expect(editableBy(agent, { qcStatus: -1, inspectorId: null }, null)).toMatchObject({ unchecked: true, score: false, appeal: false });
    expect(editableBy(inspector, { qcStatus: 1, inspectorId: 7 }, null).unchecked).toBe(false);
  });

  test("the agent appeals a result once, never a call waiting or being inspected", () => {
    for (const qcStatus of [0, 1, 3]) expect(editableBy(agent, { qcStatus, inspectorId: 7 }, null).appeal).toBe(true);
    for (const qcStatus of [-1, 2]) expect(editableBy(agent, { qcStatus, inspectorId: 7 }, null).appeal).toBe(false);
    expect(editableBy(agent, { qcStatus: 1, inspectorId: 7 }, { state: "rejected" }).appeal).toBe(false);
    expect(editableBy(inspector, { qcStatus: 1, inspectorId: 7 }, null).appeal).toBe(false);
  });

  test("an inspector decides a pending appeal; the agent and a decided appeal get no decision form", () => {
    expect(editableBy(inspector, { qcStatus: 1, inspectorId: 8 }, { state: "pending" }).decide).toBe(true);
    expect(editableBy(agent, { qcStatus: 1, inspectorId: 8 }, { state: "pending" }).decide).toBe(false);
    expect(editableBy(inspector, { qcStatus: 1, inspectorId: 8 }, { state: "accepted" }).decide).toBe(false);
    expect(editableBy(inspector, { qcStatus: 1, inspectorId: 8 }, null).decide).toBe(false);
  });
});

describe("draftAnswers", () => {
  test("points and veto answers as the platform takes them; a ticked N/A wins over points; blanks left out", () => {
    const answers = draftAnswers({ items }, { items: { open: "8", needs: "20", answer: "", promise: "pass" }, na: { needs: true } });
    expect(answers).toEqual([
      { key: "open", value: 8 },
      { key: "needs", value: "na" },
      { key: "promise", value: "pass" },
    ]);
  });
});

describe("postedAnswers", () => {
  test("a whole form's answers, N/A from its box", () => {
    const posted = postedAnswers(items, { item: { open: "8", answer: "50", promise: "pass" }, na: { needs: "1" } });
    expect(posted).toEqual({
      ok: true,
      answers: [
        { key: "open", value: 8 },
        { key: "needs", value: "na" },
        { key: "answer", value: 50 },
        { key: "promise", value: "pass" },
      ],
    });
  });

  test("each wrong or missing item named in Chinese, in one message", () => {
    const posted = postedAnswers(items, { item: { open: "12", answer: "50", promise: "pass" } });
    expect(posted).toEqual({ ok: false, message: "「开场白规范」的得分必须是 0 到 10 的整数；请为「需求挖掘」评分或选择不适用" });
  });

  test("an unticked box (posted blank) is no N/A", () => {
    const posted = postedAnswers(items, { item: { open: "8", answer: "50", promise: "pass" }, na: { needs: "" } });
    expect(posted.ok).toBe(false);
  });
});

describe("draftOf and sameDraft", () => {
  test("a form's data as a draft: blank items left out, ticked boxes kept, other fields ignored", () => {
    const data = new FormData();
    for (const [name, value] of [
      ["intent", "score"],
      ["checkResult", "1"],
      ["influence", "-1"],
      ["remark", "复听"],
      ["item.open", "8"],
      ["item.answer", ""],
      ["na.needs", "1"],
    ]) {
      data.append(name, value);
    }
    const draft = draftOf(data);
    expect(draft).toEqual({ checkResult: "1", influence: "-1", remark: "复听", items: { open: "8" }, na: { needs: true } });
    expect(sameDraft(draft, { ...draft, items: { answer: "", open: "8" }, na: { needs: true, open: false } })).toBe(true);
    expect(sameDraft(draft, { ...draft, remark: "复听。" })).toBe(false);
  });
});

describe("typedDraft", () => {
  test("nothing refused: no result chosen, no influence (0), no remark", () => {
    expect(typedDraft(undefined)).toEqual({ checkResult: "", influence: "0", remark: "", items: {}, na: {} });
  });

  test("a refused post comes back as typed, its items and boxes too", () => {
    const typed = { intent: "score", checkResult: "3", influence: "-1", remark: "长", item: { open: "12" }, na: { needs: "1" } };
    expect(typedDraft({ initialValue: typed })).toEqual({
      checkResult: "3",
      influence: "-1",
      remark: "长",
      items: { open: "12" },
      na: { needs: true },
    });
  });
});

describe("decisionStart", () => {
  const evaluation: Evaluation = {
    formId: 1,
    formName: "外呼服务质检表",
    score: 86.7,
    vetoed: false,
    items: [
      { ...items[0], value: 8, points: 8 },
      { ...items[1], value: "na", points: null },
      { ...items[3], value: "pass", points: 20 },
    ],
    inspectorName: "王建国",
    createdAt: 0,
    version: 1,
    reason: null,
  };

  test("starts rejecting, from the call's result and influence and the original answers", () => {
    expect(decisionStart({ qcStatus: 3, influence: null }, evaluation, undefined)).toEqual({
      decision: "rejected",
      checkResult: "3",
      influence: "0",
      reason: "",
      items: { open: "8", promise: "pass" },
      na: { needs: true },
    });
    expect(decisionStart({ qcStatus: 1, influence: -1 }, null, undefined)).toMatchObject({ influence: "-1", items: {}, na: {} });
  });

  test("a refused decision comes back as typed, not as the original answers", () => {
    const typed = { intent: "decide", decision: "accepted", checkResult: "1", reason: "复听", item: { open: "65" } };
    expect(decisionStart({ qcStatus: 3, influence: 0 }, evaluation, { initialValue: typed })).toEqual({
      decision: "accepted",
      checkResult: "1",
      influence: "0",
      reason: "复听",
      items: { open: "65" },
      na: {},
    });
  });
});
